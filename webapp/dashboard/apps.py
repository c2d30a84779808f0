from django.apps import AppConfig


class DashboardConfig(AppConfig):
    name = "webapp.dashboard"
    label = "dashboard"
    verbose_name = "Results pages and figures"
