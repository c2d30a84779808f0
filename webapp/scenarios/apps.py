from django.apps import AppConfig


class ScenariosConfig(AppConfig):
    name = "webapp.scenarios"
    label = "scenarios"
    verbose_name = "Scenarios, runs and share links"
    default_auto_field = "django.db.models.BigAutoField"
