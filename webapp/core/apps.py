from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Pages and pieces every other app shares: the home page, the base template context."""

    name = "webapp.core"
    verbose_name = "Core"
