from django.apps import AppConfig


class HealthConfig(AppConfig):
    """The /health/ endpoint that load balancers and compose health checks poll."""

    name = "webapp.health"
    verbose_name = "Health"
