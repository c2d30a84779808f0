"""What the engine found in an upload, as the JSON stored in `summary` and shown on the pages.

Every table is a list of rows sorted for reading (largest or highest first),
so templates and API clients show it as is. Keys are stable: the API schema
(api.SummarySerializer) declares them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.ingest import IngestResult
from engine.ingest.kinds.workloads import GENERATED_FROM
from engine.ingest.result import BUILT_IN
from engine.model.objects import GPU

GPU_PRODUCT_LABEL = "nvidia.com/gpu.product"  # set by NVIDIA GPU Feature Discovery
ZONE_LABEL = "topology.kubernetes.io/zone"
MIG_PREFIX = "nvidia.com/mig-"
UNKNOWN = "unknown"


def summary_of(result: IngestResult, *, skipped_files: list[str] | None = None) -> dict[str, Any]:
    """The summary of one ingested upload (errors excluded: those reject it)."""
    nodes = result.nodes
    running = [pod for pod in result.pods if pod.node_name]
    pending = [pod for pod in result.pods if not pod.node_name]

    gpus_by_model: dict[str, list[int]] = {}  # model -> [nodes, gpus]
    for node in nodes:
        count = node.allocatable.get(GPU, 0)
        if count > 0:
            row = gpus_by_model.setdefault(node.labels.get(GPU_PRODUCT_LABEL, UNKNOWN), [0, 0])
            row[0] += 1
            row[1] += count

    mig: dict[str, list[int]] = {}  # resource -> [nodes, count]
    for node in nodes:
        for resource, count in node.allocatable.items():
            if resource.startswith(MIG_PREFIX) and count > 0:
                row = mig.setdefault(resource, [0, 0])
                row[0] += 1
                row[1] += count

    taints: Counter[str] = Counter()
    for node in nodes:
        for taint in node.taints:
            value = f"={taint.value}" if taint.value else ""
            taints[f"{taint.key}{value}:{taint.effect}"] += 1

    priority_names: dict[int, set[str]] = {}
    for pod in pending:
        priority_names.setdefault(pod.priority, set()).add(pod.priority_class_name or "")

    workloads: Counter[str] = Counter(
        str(pod.extra[GENERATED_FROM]) for pod in result.pods if GENERATED_FROM in pod.extra
    )

    return {
        "nodes": len(nodes),
        "nodes_unschedulable": sum(1 for node in nodes if node.unschedulable),
        "gpus_total": sum(row[1] for row in gpus_by_model.values()),
        "gpus_by_model": [
            {"model": model, "nodes": row[0], "gpus": row[1]}
            for model, row in sorted(gpus_by_model.items(), key=lambda kv: (-kv[1][1], kv[0]))
        ],
        "mig_resources": [
            {"resource": resource, "nodes": row[0], "count": row[1]}
            for resource, row in sorted(mig.items())
        ],
        "zones": _rows(Counter(node.labels.get(ZONE_LABEL, UNKNOWN) for node in nodes), "zone"),
        "taints": _rows(taints, "taint", "nodes"),
        "pods_running": len(running),
        "pods_pending": len(pending),
        "pending_by_priority": [
            {
                "priority": priority,
                "priority_classes": sorted(name for name in priority_names[priority] if name),
                "pods": count,
            }
            for priority, count in sorted(
                Counter(pod.priority for pod in pending).items(), key=lambda kv: -kv[0]
            )
        ],
        "pending_by_namespace": _rows(Counter(pod.namespace for pod in pending), "namespace"),
        "pending_by_scheduler": _rows(Counter(pod.scheduler_name for pod in pending), "scheduler"),
        "workloads_expanded": _rows(workloads, "workload"),
        "priority_classes": [
            {"name": pc.name, "value": pc.value, "global_default": pc.global_default}
            for pc in sorted(result.priority_classes, key=lambda pc: (-pc.value, pc.name))
            if pc.source != BUILT_IN  # the two system classes every cluster has
        ],
        "scheduler_configs": len(result.scheduler_configs),
        "not_simulated": [
            {
                "kind": item.kind,
                "name": f"{item.namespace}/{item.name}" if item.namespace else item.name,
                "note": item.note,
                "source": str(item.source),
            }
            for item in result.not_simulated
        ],
        "skipped_terminal_pods": result.skipped_terminal,
        "skipped_files": list(skipped_files or []),
    }


def _rows(counts: Counter[str], key: str, count_key: str | None = None) -> list[dict[str, Any]]:
    """Counter -> [{key: value, "pods"|count_key: n}], most first, then by name."""
    name = count_key or ("nodes" if key == "zone" else "pods")
    return [
        {key: value, name: count}
        for value, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
