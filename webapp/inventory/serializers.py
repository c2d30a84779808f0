"""API shapes of inventories, workload mixes, their summaries and files.

The summary serializers only describe the stored JSON (for the OpenAPI
schema and a stable output); they never validate input.
"""

from __future__ import annotations

from rest_framework import serializers

from webapp.inventory.models import ClusterInventory, StoredFile, WorkloadMix


class GpuModelRowSerializer(serializers.Serializer):
    model = serializers.CharField(help_text='Label nvidia.com/gpu.product, or "unknown".')
    nodes = serializers.IntegerField()
    gpus = serializers.IntegerField()


class MigRowSerializer(serializers.Serializer):
    resource = serializers.CharField(help_text="An nvidia.com/mig-* extended resource.")
    nodes = serializers.IntegerField()
    count = serializers.IntegerField()


class ZoneRowSerializer(serializers.Serializer):
    zone = serializers.CharField()
    nodes = serializers.IntegerField()


class TaintRowSerializer(serializers.Serializer):
    taint = serializers.CharField(help_text="key=value:Effect")
    nodes = serializers.IntegerField()


class PriorityRowSerializer(serializers.Serializer):
    priority = serializers.IntegerField()
    priority_classes = serializers.ListField(child=serializers.CharField())
    pods = serializers.IntegerField()


class NamespaceRowSerializer(serializers.Serializer):
    namespace = serializers.CharField()
    pods = serializers.IntegerField()


class SchedulerRowSerializer(serializers.Serializer):
    scheduler = serializers.CharField()
    pods = serializers.IntegerField()


class WorkloadRowSerializer(serializers.Serializer):
    workload = serializers.CharField(help_text="Kind/namespace/name of the expanded object.")
    pods = serializers.IntegerField()


class PriorityClassRowSerializer(serializers.Serializer):
    name = serializers.CharField()
    value = serializers.IntegerField()
    global_default = serializers.BooleanField()


class NotSimulatedRowSerializer(serializers.Serializer):
    kind = serializers.CharField()
    name = serializers.CharField()
    note = serializers.CharField()
    source = serializers.CharField(help_text="file:line")


class SummarySerializer(serializers.Serializer):
    """What the engine found in the upload."""

    nodes = serializers.IntegerField()
    nodes_unschedulable = serializers.IntegerField()
    gpus_total = serializers.IntegerField()
    gpus_by_model = GpuModelRowSerializer(many=True)
    mig_resources = MigRowSerializer(many=True)
    zones = ZoneRowSerializer(many=True)
    taints = TaintRowSerializer(many=True)
    pods_running = serializers.IntegerField()
    pods_pending = serializers.IntegerField()
    pending_by_priority = PriorityRowSerializer(many=True)
    pending_by_namespace = NamespaceRowSerializer(many=True)
    pending_by_scheduler = SchedulerRowSerializer(many=True)
    workloads_expanded = WorkloadRowSerializer(many=True)
    priority_classes = PriorityClassRowSerializer(many=True)
    scheduler_configs = serializers.IntegerField()
    not_simulated = NotSimulatedRowSerializer(many=True)
    skipped_terminal_pods = serializers.IntegerField()
    skipped_files = serializers.ListField(child=serializers.CharField())


class StoredFileSerializer(serializers.ModelSerializer):
    class Meta:
        model = StoredFile
        fields = ["id", "name", "size_bytes"]


class StoredFileContentSerializer(serializers.ModelSerializer):
    class Meta:
        model = StoredFile
        fields = ["id", "name", "size_bytes", "content"]


class _StoredSerializer(serializers.ModelSerializer):
    summary = SummarySerializer(read_only=True)
    files = StoredFileSerializer(many=True, read_only=True)

    class Meta:
        fields = ["id", "name", "description", "created_at", "summary", "files"]
        read_only_fields = fields


class ClusterInventorySerializer(_StoredSerializer):
    class Meta(_StoredSerializer.Meta):
        model = ClusterInventory


class WorkloadMixSerializer(_StoredSerializer):
    class Meta(_StoredSerializer.Meta):
        model = WorkloadMix


class UploadSerializer(serializers.Serializer):
    """A multipart upload: one or many `files` (YAML, JSON, .zip, .tar.gz)."""

    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True),
        allow_empty=False,
        help_text="YAML/JSON manifests, or a .zip / .tar.gz archive of them; repeat the field for several.",
    )


class UploadProblemsSerializer(serializers.Serializer):
    """Why an upload was rejected: every problem, one line each (file:line: object: field: message)."""

    files = serializers.ListField(child=serializers.CharField())


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()
