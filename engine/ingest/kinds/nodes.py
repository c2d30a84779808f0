"""Node: labels, taints, unschedulable, allocatable (falling back to capacity
per resource) and images. Checks follow ValidateNode / validateNodeTaints
in k8s pkg/apis/core/validation."""

from __future__ import annotations

from engine.ingest.fields import (
    as_bool,
    as_int,
    as_list,
    as_map,
    as_str,
    as_str_list,
    check_label_name,
    check_taint_effect,
    child,
    duplicate,
    index,
    invalid,
    label_value_problems,
)
from engine.ingest.kinds.common import Document, read_resource_list, start, to_base_unit
from engine.ingest.result import IngestResult
from engine.model.objects import ImageState, Node, Taint


def read_node(doc: Document, out: IngestResult) -> None:
    meta, ctx = start(doc, out, namespaced=False)
    spec = as_map(doc.data.get("spec"), ctx, "spec")
    status = as_map(doc.data.get("status"), ctx, "status")

    taints: list[Taint] = []
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(as_list(spec.get("taints"), ctx, "spec.taints")):
        path = index("spec.taints", i)
        raw = as_map(item, ctx, path)
        taint_key = as_str(raw.get("key"), ctx, child(path, "key"))
        value = as_str(raw.get("value"), ctx, child(path, "value"))
        effect = as_str(raw.get("effect"), ctx, child(path, "effect"))
        check_label_name(taint_key, ctx, child(path, "key"))
        for problem in label_value_problems(value):
            ctx.error(child(path, "value"), invalid(value, problem))
        if not check_taint_effect(effect, ctx, child(path, "effect"), allow_empty=False):
            continue
        if (taint_key, effect) in seen:
            shown = f"{taint_key}={value}:{effect}"
            ctx.error(path, f"{duplicate(shown)}: taints must be unique by key and effect pair")
            continue
        seen.add((taint_key, effect))
        taints.append(Taint(taint_key, effect, value))

    capacity_q = read_resource_list(status.get("capacity"), ctx, "status.capacity")
    allocatable_q = read_resource_list(status.get("allocatable"), ctx, "status.allocatable")
    capacity = {name: to_base_unit(name, q) for name, q in capacity_q.items()}
    allocatable = {name: to_base_unit(name, q) for name, q in allocatable_q.items()}
    for name, amount in capacity.items():
        allocatable.setdefault(name, amount)  # the scheduler falls back per resource

    images: list[ImageState] = []
    for i, item in enumerate(as_list(status.get("images"), ctx, "status.images")):
        path = index("status.images", i)
        raw = as_map(item, ctx, path)
        names = as_str_list(raw.get("names"), ctx, child(path, "names"))
        size = as_int(raw.get("sizeBytes"), ctx, child(path, "sizeBytes"), 0) or 0
        images.append(ImageState(names, size))

    out.nodes.append(
        Node(
            name=meta.name,
            labels=meta.labels,
            annotations=meta.annotations,
            taints=tuple(taints),
            unschedulable=as_bool(spec.get("unschedulable"), ctx, "spec.unschedulable"),
            allocatable=allocatable,
            capacity=capacity,
            images=tuple(images),
            source=doc.source,
        )
    )
