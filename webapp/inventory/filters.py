"""Query filters of the inventory API (django-filter)."""

import django_filters

from webapp.inventory.models import ClusterInventory, WorkloadMix


class _StoredFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", help_text="Part of the name.")
    created_after = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = django_filters.IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")


class ClusterInventoryFilter(_StoredFilter):
    class Meta:
        model = ClusterInventory
        fields = ["name"]


class WorkloadMixFilter(_StoredFilter):
    class Meta:
        model = WorkloadMix
        fields = ["name"]
