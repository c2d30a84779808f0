"""Reading cluster inventories and workload mixes (the reads), always scoped to their owner.

Another user's object is never "forbidden", it does not exist: selectors
filter by owner, and `*_get` raise Http404 for anything else.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.shortcuts import get_object_or_404

from webapp.inventory.models import ClusterInventory, StoredFile, WorkloadMix


def inventory_list(*, owner: Any) -> QuerySet[ClusterInventory]:
    """The owner's inventories, newest first, with their file count and size."""
    return ClusterInventory.objects.filter(owner=owner).annotate(
        file_count=Count("files"), total_bytes=Sum("files__size_bytes")
    )


def inventory_get(*, owner: Any, pk: int) -> ClusterInventory:
    return get_object_or_404(inventory_list(owner=owner), pk=pk)


def workload_mix_list(*, owner: Any) -> QuerySet[WorkloadMix]:
    """The owner's workload mixes, newest first, with their file count and size."""
    return WorkloadMix.objects.filter(owner=owner).annotate(
        file_count=Count("files"), total_bytes=Sum("files__size_bytes")
    )


def workload_mix_get(*, owner: Any, pk: int) -> WorkloadMix:
    return get_object_or_404(workload_mix_list(owner=owner), pk=pk)


def stored_file_list(*, stored: ClusterInventory | WorkloadMix) -> QuerySet[StoredFile]:
    """The files of an inventory or mix, without their content (for listings)."""
    return stored.files.defer("content")


def stored_file_get(*, stored: ClusterInventory | WorkloadMix, pk: int) -> StoredFile:
    return get_object_or_404(stored.files.all(), pk=pk)
