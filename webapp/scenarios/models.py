"""Scenarios, their variants, the runs of each variant, and share links.

A scenario is a cluster + a workload mix + variants (what changes: the
scheduler configuration, the seed, later queue systems and policies). A run
is one execution of one variant; the row is the truth about it (status,
progress, timings, result, error), whatever the task queue believes, and
it freezes its inputs: the immutable inventory and mix it points at, and a
copy of the variant's settings taken when it was queued.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from webapp.inventory.models import ClusterInventory, WorkloadMix


class Scenario(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scenarios"
    )
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    cluster = models.ForeignKey(ClusterInventory, on_delete=models.PROTECT, related_name="+")
    workload = models.ForeignKey(WorkloadMix, on_delete=models.PROTECT, related_name="+")
    # The scenario this one was forked from through a share link, if any.
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Variant(models.Model):
    """One way of running the scenario; runs copy these settings when queued."""

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="variants")
    name = models.CharField(max_length=200)
    position = models.PositiveIntegerField(default=0)
    # A KubeSchedulerConfiguration (YAML); empty means kube-scheduler's defaults.
    scheduler_config = models.TextField(blank=True)
    seed = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "name"], name="variant_name_unique")
        ]

    def __str__(self) -> str:
        return f"{self.scenario.name}: {self.name}"


class Run(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)

    variant = models.ForeignKey(Variant, on_delete=models.CASCADE, related_name="runs")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)  # 0..1, reported by the engine
    progress_message = models.CharField(max_length=200, blank=True)
    # Frozen inputs: the immutable inventory and mix, and copies of the
    # variant's settings at the moment the run was queued.
    cluster = models.ForeignKey(ClusterInventory, on_delete=models.PROTECT, related_name="+")
    workload = models.ForeignKey(WorkloadMix, on_delete=models.PROTECT, related_name="+")
    scheduler_config = models.TextField(blank=True)
    seed = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    task_id = models.CharField(max_length=255, blank=True)
    result = models.JSONField(null=True, blank=True)  # the engine's `place -o json` document
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"run {self.pk} of {self.variant} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED


def new_share_token() -> str:
    return secrets.token_urlsafe(32)


class ShareLink(models.Model):
    """Read-only access to a scenario and its runs, without an account, until revoked."""

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True, default=new_share_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"share link for {self.scenario}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
