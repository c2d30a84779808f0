from django.apps import AppConfig


class InventoryConfig(AppConfig):
    name = "webapp.inventory"
    label = "inventory"
    verbose_name = "Clusters and workload mixes"
    default_auto_field = "django.db.models.BigAutoField"
