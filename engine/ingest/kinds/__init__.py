"""Kind readers and the table that dispatches to them.

A reader takes one `Document` and appends what it finds to an
`IngestResult`, recording problems instead of raising. Readers are keyed by
(API group, kind): a Volcano `Job` is not a batch `Job`, nor is a KAI
`Queue` a Volcano one. Adding a kind is one function and one table line.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ingest.fields import Ctx
from engine.ingest.kinds.common import Document
from engine.ingest.kinds.namespaces import read_namespace
from engine.ingest.kinds.nodes import read_node
from engine.ingest.kinds.others import (
    IGNORED_KINDS,
    NOT_YET,
    QUEUE_SYSTEM_GROUPS,
    SCHEDULER_CONFIG_GROUP,
    read_ignored,
    read_kai_invented,
    read_not_yet,
    read_queue_system_kind,
    read_scheduler_config,
)
from engine.ingest.kinds.pods import read_pod
from engine.ingest.kinds.priority import read_priority_class
from engine.ingest.kinds.workloads import (
    read_deployment,
    read_job,
    read_replica_set,
    read_service,
    read_stateful_set,
)
from engine.ingest.result import IngestResult
from engine.model.objects import ObjectRef

Reader = Callable[[Document, IngestResult], None]

READERS: dict[tuple[str, str], Reader] = {
    ("", "Node"): read_node,
    ("", "Pod"): read_pod,
    ("", "Namespace"): read_namespace,
    ("", "Service"): read_service,
    ("", "ReplicationController"): read_replica_set,
    ("apps", "Deployment"): read_deployment,
    ("apps", "ReplicaSet"): read_replica_set,
    ("apps", "StatefulSet"): read_stateful_set,
    ("extensions", "Deployment"): read_deployment,
    ("extensions", "ReplicaSet"): read_replica_set,
    ("batch", "Job"): read_job,
    ("scheduling.k8s.io", "PriorityClass"): read_priority_class,
    (SCHEDULER_CONFIG_GROUP, "KubeSchedulerConfiguration"): read_scheduler_config,
    ("scheduling.kai.io", "GPUTask"): read_kai_invented,
    ("scheduling.kai.io", "GPUWorkload"): read_kai_invented,
}
READERS.update(dict.fromkeys(NOT_YET, read_not_yet))

KNOWN_KINDS = (
    "Node, Pod, Deployment, ReplicaSet, ReplicationController, StatefulSet, Job, "
    "PriorityClass, Namespace, Service, KubeSchedulerConfiguration"
)


def reader_for(doc: Document) -> Reader | None:
    found = READERS.get((doc.group, doc.kind))
    if found is not None:
        return found
    if doc.group in QUEUE_SYSTEM_GROUPS:
        return read_queue_system_kind
    if doc.kind in IGNORED_KINDS:
        return read_ignored
    return None


def read_document(doc: Document, out: IngestResult) -> None:
    """Dispatch one object to its reader, or record why it cannot be read."""
    reader = reader_for(doc)
    if reader is not None:
        reader(doc, out)
        return
    meta = doc.data.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    namespace = meta.get("namespace") if isinstance(meta, dict) else None
    obj = ObjectRef(doc.kind, namespace, name) if isinstance(name, str) and name else None
    ctx = Ctx(doc.file, obj, doc.lines, out.errors)
    groups = sorted({group for group, kind in READERS if kind == doc.kind})
    if groups:
        expected = " or ".join(f"{g}/..." if g else "v1" for g in groups)
        ctx.error(
            "apiVersion",
            f'{doc.kind} is not in apiVersion "{doc.api_version}"; expected {expected}',
        )
        return
    ctx.error(
        "kind",
        f'unknown kind "{doc.kind}" (apiVersion "{doc.api_version}"); gpu-whatif reads '
        f"{KNOWN_KINDS}, and recognises the kinds of JobSet, Kueue, Volcano, YuniKorn, "
        "KAI-Scheduler, scheduler-plugins and the descheduler",
    )
