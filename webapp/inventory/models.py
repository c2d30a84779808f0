"""What users bring: cluster inventories and workload mixes, as the files they uploaded.

Both are immutable once stored: a changed cluster is a new inventory. Runs
point at them, so a finished run's inputs can never change under it. The
files are kept verbatim (the engine re-ingests them for every run, through
webapp.scenarios.engine_adapter); `summary` is what the engine saw at upload.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ObjectSet(models.Model):
    """Fields shared by inventories and workload mixes."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # What the engine found at upload: counts, GPUs by model, pods by
    # priority and namespace, kinds not simulated yet. Shown on the page.
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class ClusterInventory(ObjectSet):
    """Nodes and the pods already running on them (a snapshot or manifests)."""

    class Meta(ObjectSet.Meta):
        verbose_name_plural = "cluster inventories"


class WorkloadMix(ObjectSet):
    """Pods and workloads to place, with the objects that shape them."""


class StoredFile(models.Model):
    """One uploaded file (or archive member), verbatim."""

    inventory = models.ForeignKey(
        ClusterInventory, null=True, blank=True, on_delete=models.CASCADE, related_name="files"
    )
    workload = models.ForeignKey(
        WorkloadMix, null=True, blank=True, on_delete=models.CASCADE, related_name="files"
    )
    name = models.CharField(max_length=500)  # path as uploaded, e.g. "manifests/pods.yaml"
    content = models.TextField()
    size_bytes = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(inventory__isnull=False, workload__isnull=True)
                | models.Q(inventory__isnull=True, workload__isnull=False),
                name="stored_file_has_one_owner",
            )
        ]

    def __str__(self) -> str:
        return self.name
