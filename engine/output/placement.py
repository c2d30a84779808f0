"""`place` results as the JSON document of DESIGN.md and as a readable table."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cluster.state import ClusterState
from engine.model.objects import CPU, GPU, MEMORY
from engine.scheduler.placement import Placement


def node_summaries(cluster: ClusterState) -> list[dict[str, Any]]:
    out = []
    for i, node in enumerate(cluster.nodes):
        allocatable = {
            r: int(v) for r, v in zip(cluster.resources, cluster.allocatable[i], strict=True) if v
        }
        requested = {
            r: int(v) for r, v in zip(cluster.resources, cluster.requested[i], strict=True) if v
        }
        out.append(
            {
                "name": node.name,
                "labels": dict(node.labels),
                "allocatable": allocatable,
                "requested": requested,
                "pods": [p.key for p in cluster.pods_on[i]],
            }
        )
    return out


def summary(placement: Placement) -> dict[str, Any]:
    cluster = placement.cluster
    statuses = Counter(r.status for r in placement.results)
    gpu = cluster.column(GPU)
    gpus_total = int(cluster.allocatable[:, gpu].sum()) if gpu is not None else 0
    gpus_used = int(cluster.requested[:, gpu].sum()) if gpu is not None else 0
    return {
        "nodes": cluster.num_nodes,
        "pods_to_schedule": len(placement.results),
        "by_status": dict(sorted(statuses.items())),
        "gpus_total": gpus_total,
        "gpus_requested": gpus_used,
        "gpu_allocation_pct": round(100.0 * gpus_used / gpus_total, 2) if gpus_total else 0.0,
        "warnings": list(placement.warnings),
    }


def placement_json(placement: Placement, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "pods": [r.as_json() for r in placement.results],
        "nodes": node_summaries(placement.cluster),
        "summary": summary(placement),
    }
    if extra:
        doc["summary"].update(extra)
    return doc


def _fmt_milli(value: int) -> str:
    """Cores, as `kubectl describe node` readers think of them: 95400 -> 95.4."""
    return f"{value / 1000:.3f}".rstrip("0").rstrip(".")


def _fmt_bytes(value: int) -> str:
    for unit, size in (("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)):
        if value >= size and value % size == 0:
            return f"{value // size}{unit}"
    return str(value)


def placement_table(placement: Placement, notes: list[str] | None = None) -> str:
    rows = [("POD", "STATUS", "NODE", "MESSAGE")]
    for r in placement.results:
        rows.append((r.pod.key, r.status, r.node or "-", r.message))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3]
        for row in rows
    ]
    cluster = placement.cluster
    gpu, cpu, mem = cluster.column(GPU), cluster.column(CPU), cluster.column(MEMORY)
    lines.append("")
    node_rows = [("NODE", "GPU", "CPU", "MEMORY", "PODS")]
    for i, node in enumerate(cluster.nodes):
        gpu_cell = (
            f"{cluster.requested[i, gpu]}/{cluster.allocatable[i, gpu]}" if gpu is not None else "-"
        )
        node_rows.append(
            (
                node.name,
                gpu_cell,
                f"{_fmt_milli(int(cluster.requested[i, cpu]))}/"
                f"{_fmt_milli(int(cluster.allocatable[i, cpu]))}",
                f"{_fmt_bytes(int(cluster.requested[i, mem]))}/"
                f"{_fmt_bytes(int(cluster.allocatable[i, mem]))}",
                str(len(cluster.pods_on[i])),
            )
        )
    widths = [max(len(row[i]) for row in node_rows) for i in range(5)]
    lines.extend(
        "  ".join(c.ljust(widths[i]) for i, c in enumerate(row)).rstrip() for row in node_rows
    )
    s = summary(placement)
    lines.append("")
    by_status = ", ".join(f"{n} {k}" for k, n in s["by_status"].items()) or "nothing to schedule"
    lines.append(
        f"{s['pods_to_schedule']} pods to schedule: {by_status}. "
        f"GPUs requested {s['gpus_requested']}/{s['gpus_total']} ({s['gpu_allocation_pct']}%)."
    )
    for warning in placement.warnings + (notes or []):
        lines.append(f"note: {warning}")
    return "\n".join(lines) + "\n"
