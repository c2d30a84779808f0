"""Kinds recorded but not acted on (yet), scheduler configurations passed
through, and the messages for documents that are not what they seem."""

from __future__ import annotations

from typing import Any

from engine.ingest.kinds.common import Document
from engine.ingest.result import IngestResult, NotSimulated

SCHEDULER_CONFIG_GROUP = "kubescheduler.config.k8s.io"
YUNIKORN_QUEUES_KIND = "YuniKornQueues"  # NotSimulated.kind of a queues.yaml

# Groups whose every kind belongs to a queue system still to be simulated.
QUEUE_SYSTEM_GROUPS = {
    "jobset.x-k8s.io": "JobSet",
    "batch.volcano.sh": "Volcano",
    "scheduling.volcano.sh": "Volcano",
    "kueue.x-k8s.io": "Kueue",
    "scheduling.run.ai": "KAI-Scheduler",
    "scheduling.x-k8s.io": "scheduler-plugins",
    "descheduler": "descheduler",
}

# Core kinds that matter to scheduling but are not simulated yet.
NOT_YET = {
    ("policy", "PodDisruptionBudget"): "PodDisruptionBudget is not simulated yet",
    ("", "ResourceQuota"): "ResourceQuota is not simulated yet",
    ("apps", "DaemonSet"): "DaemonSet is not simulated yet (its running pods are, if given)",
    ("batch", "CronJob"): "CronJob is not simulated yet (give its Jobs or pods instead)",
    (
        "",
        "LimitRange",
    ): "LimitRange is not applied: container default requests are taken as written",
    (
        "",
        "PersistentVolumeClaim",
    ): "PersistentVolumeClaim is not simulated: volume binding is not checked",
    ("", "PersistentVolume"): "PersistentVolume is not simulated: volume binding is not checked",
    (
        "storage.k8s.io",
        "StorageClass",
    ): "StorageClass is not simulated: volume binding is not checked",
    (
        "autoscaling",
        "HorizontalPodAutoscaler",
    ): "HorizontalPodAutoscaler is not simulated: replicas as written",
}

# Kinds that have no bearing on where pods go.
IGNORED_KINDS = frozenset(
    {
        "ConfigMap",
        "Secret",
        "ServiceAccount",
        "Endpoints",
        "EndpointSlice",
        "Event",
        "Ingress",
        "IngressClass",
        "NetworkPolicy",
        "Role",
        "RoleBinding",
        "ClusterRole",
        "ClusterRoleBinding",
        "ControllerRevision",
        "Lease",
        "CustomResourceDefinition",
        "APIService",
        "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration",
        "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding",
        "CSIDriver",
        "CSINode",
        "RuntimeClass",
        "ComponentStatus",
        "PodTemplate",
        "CertificateSigningRequest",
    }
)

KAI_INVENTED_NOTE = (
    "{kind} ({api_version}) does not exist in KAI-Scheduler. KAI schedules ordinary pods "
    "labelled kai.scheduler/queue=<queue> (schedulerName: kai-scheduler), gang-scheduled "
    "through PodGroup (scheduling.run.ai/v2alpha2) and limited by Queue (scheduling.run.ai/v2)"
)


def _record(doc: Document, out: IngestResult, note: str, kind: str | None = None) -> None:
    meta = doc.data.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else ""
    namespace = meta.get("namespace") if isinstance(meta.get("namespace"), str) else None
    out.not_simulated.append(
        NotSimulated(kind or doc.kind, doc.api_version, namespace, name or "", doc.source, note)
    )


def read_scheduler_config(doc: Document, out: IngestResult) -> None:
    """Passed through unparsed: the config loader reads it."""
    out.scheduler_configs.append((doc.data, doc.source))
    if doc.lines is not None:
        out.scheduler_config_lines[doc.source] = doc.lines


def read_queue_system_kind(doc: Document, out: IngestResult) -> None:
    system = QUEUE_SYSTEM_GROUPS[doc.group]
    label = doc.kind if system.lower() in doc.kind.lower() else f"{system} {doc.kind}"
    _record(doc, out, f"{label} is not simulated yet")


def read_not_yet(doc: Document, out: IngestResult) -> None:
    _record(doc, out, NOT_YET[(doc.group, doc.kind)])


def read_ignored(doc: Document, out: IngestResult) -> None:
    if doc.kind == "ConfigMap" and _yunikorn_queues_in_config_map(doc.data):
        _record(
            doc,
            out,
            "YuniKorn queues.yaml (in a ConfigMap) is not simulated yet",
            YUNIKORN_QUEUES_KIND,
        )
        return
    _record(doc, out, f"{doc.kind} does not affect placement; ignored")


def read_kai_invented(doc: Document, out: IngestResult) -> None:
    _record(doc, out, KAI_INVENTED_NOTE.format(kind=doc.kind, api_version=doc.api_version))


def _yunikorn_queues_in_config_map(data: dict[str, Any]) -> bool:
    payload = data.get("data")
    return isinstance(payload, dict) and "queues.yaml" in payload


def is_yunikorn_queues(data: dict[str, Any]) -> bool:
    """A YuniKorn queues.yaml: a top-level `partitions:` list, no apiVersion/kind."""
    return isinstance(data.get("partitions"), list)


def record_yunikorn_queues(doc: Document, out: IngestResult) -> None:
    partitions = [p.get("name", "?") for p in doc.data.get("partitions", []) if isinstance(p, dict)]
    note = (
        f"YuniKorn queues.yaml (partitions: {', '.join(map(str, partitions))}) is not simulated yet"
    )
    _record(doc, out, note, YUNIKORN_QUEUES_KIND)
