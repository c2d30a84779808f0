"""Workloads expanded into the pods their controllers would create.

Names, labels and owners follow the upstream controllers:
- Deployment: a ReplicaSet `<deploy>-<pod-template-hash>` (the hash is
  rand.SafeEncodeString of an FNV-32a hash of the template, as
  controller.ComputeHash), pods `<rs>-<5 chars>` labelled pod-template-hash;
- ReplicaSet / ReplicationController: pods `<name>-<5 chars>`;
- StatefulSet: pods `<name>-<ordinal>` labelled
  statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index;
- Job: min(parallelism, completions) pods at once (completions unset: the
  parallelism), `<job>-<5 chars>` or, Indexed, `<job>-<index>-<5 chars>`,
  labelled job-name / controller-uid (both spellings) and, Indexed,
  batch.kubernetes.io/job-completion-index.
The random parts are derived from the input so that every ingest agrees.

A snapshot often holds both a controller and its pods; `prune_materialized`
drops generated pods when the real ones (or the real ReplicaSet of a
Deployment) are in the input.
"""

from __future__ import annotations

import json
from typing import Any

from engine.ingest.fields import (
    Ctx,
    as_bool,
    as_int,
    as_map,
    as_str,
    invalid,
    parse_label_selector,
    read_labels,
    required,
    selector_from_map,
    unsupported,
)
from engine.ingest.kinds.common import (
    Document,
    Meta,
    deterministic_uid,
    fnv32a,
    random_suffix,
    read_annotations,
    safe_encode,
    start,
)
from engine.ingest.kinds.pods import PodSpec, make_pod, priority_site, read_node_name, read_pod_spec
from engine.ingest.result import Controller, IngestResult
from engine.model.objects import LabelSelector, OwnerRef, Pod

TEMPLATE_HASH_LABEL = "pod-template-hash"
STS_POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name"
STS_POD_INDEX_LABEL = "apps.kubernetes.io/pod-index"
STS_REVISION_LABEL = "controller-revision-hash"
JOB_NAME_LABELS = ("batch.kubernetes.io/job-name", "job-name")
JOB_UID_LABELS = ("batch.kubernetes.io/controller-uid", "controller-uid")
JOB_INDEX_KEY = "batch.kubernetes.io/job-completion-index"
COMPLETION_MODES = ("Indexed", "NonIndexed")
# Upstream's ReplicaSet validation reuses the Deployment wording.
_EMPTY_SELECTOR_NOUN = {
    "Deployment": "deployment",
    "ReplicaSet": "deployment",
    "StatefulSet": "statefulset",
}
MAX_PODS_PER_WORKLOAD = 100_000
GENERATED_FROM = "generated_from"  # Pod.extra key: "Kind/namespace/name" of the expanded object


class _Template:
    """spec.template read once; every replica copies from it."""

    def __init__(self, doc: Document, ctx: Ctx) -> None:
        spec = as_map(doc.data.get("spec"), ctx, "spec")
        template = as_map(spec.get("template"), ctx, "spec.template")
        if not template:
            ctx.error("spec.template", required())
        self.raw = template
        metadata = as_map(template.get("metadata"), ctx, "spec.template.metadata")
        self.labels = read_labels(metadata.get("labels"), ctx, "spec.template.metadata.labels")
        self.annotations = read_annotations(
            metadata.get("annotations"), ctx, "spec.template.metadata.annotations"
        )
        self.spec: PodSpec = read_pod_spec(template.get("spec"), ctx, "spec.template.spec")
        self.node_name = read_node_name(template.get("spec"), ctx, "spec.template.spec")

    def hash(self) -> str:
        """controller.ComputeHash's shape: SafeEncodeString of a 32-bit hash."""
        canonical = json.dumps(self.raw, sort_keys=True, separators=(",", ":"), default=str)
        return safe_encode(str(fnv32a(canonical.encode())))


def _replicas(spec: dict[str, Any], ctx: Ctx, field: str = "replicas", default: int = 1) -> int:
    """A replica-like count: int32 upstream, and bounded here (ours) so that a
    typo cannot ask for a billion pods."""
    count = as_int(spec.get(field), ctx, f"spec.{field}", default)
    if count is None or count < 0:
        ctx.error(f"spec.{field}", invalid(count, "must be greater than or equal to 0"))
        return 0
    if count > MAX_PODS_PER_WORKLOAD:
        ctx.error(
            f"spec.{field}",
            invalid(count, f"gpu-whatif expands at most {MAX_PODS_PER_WORKLOAD} pods per workload"),
        )
        return 0
    return count


def _selector(
    spec: dict[str, Any], ctx: Ctx, template: _Template, kind: str
) -> LabelSelector | None:
    """apps/v1 spec.selector: required, not empty, and matching the template."""
    selector = parse_label_selector(spec.get("selector"), ctx, "spec.selector")
    if selector is None:
        ctx.error("spec.selector", required())
    elif selector.is_empty:
        ctx.error(
            "spec.selector",
            invalid("{}", f"empty selector is invalid for {_EMPTY_SELECTOR_NOUN[kind]}"),
        )
    elif not selector.matches(template.labels):
        ctx.error(
            "spec.template.metadata.labels",
            invalid(template.labels, "`selector` does not match template `labels`"),
        )
    return selector


def _emit(
    out: IngestResult,
    ctx: Ctx,
    doc: Document,
    meta: Meta,
    template: _Template,
    replicas: list[tuple[str, dict[str, str], dict[str, str]]],
    owner: OwnerRef,
    top: tuple[str, str],
) -> None:
    """Append one pod per (name, extra labels, extra annotations)."""
    assert meta.namespace is not None
    generated_from = f"{doc.kind}/{meta.namespace}/{meta.name}"
    pods: list[Pod] = []
    for name, labels, extra_annotations in replicas:
        pod = make_pod(
            template.spec,
            meta.namespace,
            name,
            node_name=template.node_name,
            uid=deterministic_uid(f"{generated_from}/{name}"),
            labels={**template.labels, **labels},
            annotations={**template.annotations, **extra_annotations},
            owner=owner,
            phase="Pending",
            source=doc.source,
        )
        pod.extra["controller"] = {"kind": top[0], "name": top[1]}
        pod.extra[GENERATED_FROM] = generated_from
        pods.append(pod)
    out.pods.extend(pods)
    out.priority_sites.append(priority_site(pods, template.spec, ctx, "spec.template.spec"))


def _seed(doc: Document, name: str) -> str:
    return f"{doc.source.file}#{doc.source.index}#{name}"


def _uid(meta: Meta, doc: Document) -> str:
    return meta.uid or deterministic_uid(f"{doc.kind}/{meta.namespace}/{meta.name}")


def _replica_set_pods(
    doc: Document,
    out: IngestResult,
    meta: Meta,
    ctx: Ctx,
    template: _Template,
    rs: tuple[str, str, str],
    count: int,
    extra_labels: dict[str, str],
    top: tuple[str, str],
) -> None:
    kind, name, uid = rs
    replicas: list[tuple[str, dict[str, str], dict[str, str]]] = [
        (f"{name}-{random_suffix(_seed(doc, f'{name}/{i}'))}", dict(extra_labels), {})
        for i in range(count)
    ]
    _emit(out, ctx, doc, meta, template, replicas, OwnerRef(kind, name, uid), top)


def read_deployment(doc: Document, out: IngestResult) -> None:
    meta, ctx = start(doc, out, namespaced=True)
    assert meta.namespace is not None
    spec = as_map(doc.data.get("spec"), ctx, "spec")
    template = _Template(doc, ctx)
    selector = _selector(spec, ctx, template, doc.kind)
    count = _replicas(spec, ctx)
    template_hash = template.hash()
    rs_name = f"{meta.name}-{template_hash}"
    if selector is not None:
        rs_selector = LabelSelector(
            tuple(sorted((*selector.match_labels, (TEMPLATE_HASH_LABEL, template_hash)))),
            selector.match_expressions,
        )
        out.controllers.append(Controller("ReplicaSet", meta.namespace, rs_name, rs_selector))
    rs = ("ReplicaSet", rs_name, deterministic_uid(f"ReplicaSet/{meta.namespace}/{rs_name}"))
    labels = {TEMPLATE_HASH_LABEL: template_hash}
    _replica_set_pods(doc, out, meta, ctx, template, rs, count, labels, ("Deployment", meta.name))


def read_replica_set(doc: Document, out: IngestResult) -> None:
    """ReplicaSet (apps/v1) or ReplicationController (v1, a plain-map selector
    that defaults to the template labels)."""
    meta, ctx = start(doc, out, namespaced=True)
    assert meta.namespace is not None
    spec = as_map(doc.data.get("spec"), ctx, "spec")
    template = _Template(doc, ctx)
    if doc.kind == "ReplicationController":
        selector = selector_from_map(spec.get("selector"), ctx, "spec.selector")
        if selector is None or selector.is_empty:
            selector = LabelSelector(tuple(sorted(template.labels.items())))
    else:
        selector = _selector(spec, ctx, template, doc.kind)
    if selector is not None:
        out.controllers.append(Controller(doc.kind, meta.namespace, meta.name, selector))
    count = _replicas(spec, ctx)
    top = (meta.owner.kind, meta.owner.name) if meta.owner else (doc.kind, meta.name)
    rs = (doc.kind, meta.name, _uid(meta, doc))
    _replica_set_pods(doc, out, meta, ctx, template, rs, count, {}, top)


def read_stateful_set(doc: Document, out: IngestResult) -> None:
    meta, ctx = start(doc, out, namespaced=True)
    assert meta.namespace is not None
    spec = as_map(doc.data.get("spec"), ctx, "spec")
    template = _Template(doc, ctx)
    selector = _selector(spec, ctx, template, doc.kind)
    if selector is not None:
        out.controllers.append(Controller("StatefulSet", meta.namespace, meta.name, selector))
    count = _replicas(spec, ctx)
    ordinals = as_map(spec.get("ordinals"), ctx, "spec.ordinals")
    first = as_int(ordinals.get("start"), ctx, "spec.ordinals.start", 0) or 0
    revision = f"{meta.name}-{template.hash()}"
    replicas: list[tuple[str, dict[str, str], dict[str, str]]] = []
    for ordinal in range(first, first + count):
        name = f"{meta.name}-{ordinal}"
        labels = {
            STS_POD_NAME_LABEL: name,
            STS_POD_INDEX_LABEL: str(ordinal),
            STS_REVISION_LABEL: revision,
        }
        replicas.append((name, labels, {}))
    owner = OwnerRef("StatefulSet", meta.name, _uid(meta, doc))
    _emit(out, ctx, doc, meta, template, replicas, owner, ("StatefulSet", meta.name))


def read_job(doc: Document, out: IngestResult) -> None:
    meta, ctx = start(doc, out, namespaced=True)
    assert meta.namespace is not None
    spec = as_map(doc.data.get("spec"), ctx, "spec")
    template = _Template(doc, ctx)
    parallelism = _replicas(spec, ctx, "parallelism")
    completions = as_int(spec.get("completions"), ctx, "spec.completions")
    if completions is not None and completions < 0:
        ctx.error("spec.completions", invalid(completions, "must be greater than or equal to 0"))
        completions = 0
    mode = as_str(spec.get("completionMode"), ctx, "spec.completionMode", "NonIndexed")
    if mode not in COMPLETION_MODES:
        ctx.error("spec.completionMode", unsupported(mode, COMPLETION_MODES))
    indexed = mode == "Indexed"
    if indexed and completions is None:
        ctx.error("spec.completions", required("when completion mode is Indexed"))
    running = parallelism if completions is None else min(parallelism, completions)
    if as_bool(spec.get("suspend"), ctx, "spec.suspend"):
        running = 0  # a suspended Job creates no pods
    uid = _uid(meta, doc)
    base_labels = {
        **dict.fromkeys(JOB_NAME_LABELS, meta.name),
        **dict.fromkeys(JOB_UID_LABELS, uid),
    }
    replicas: list[tuple[str, dict[str, str], dict[str, str]]] = []
    for i in range(running):
        labels = dict(base_labels)
        annotations: dict[str, str] = {}
        if indexed:
            labels[JOB_INDEX_KEY] = annotations[JOB_INDEX_KEY] = str(i)
            prefix = f"{meta.name}-{i}"
        else:
            prefix = meta.name
        replicas.append(
            (f"{prefix}-{random_suffix(_seed(doc, f'{meta.name}/{i}'))}", labels, annotations)
        )
    _emit(
        out, ctx, doc, meta, template, replicas, OwnerRef("Job", meta.name, uid), ("Job", meta.name)
    )


def read_service(doc: Document, out: IngestResult) -> None:
    """A Service's selector feeds PodTopologySpread's system defaults."""
    meta, ctx = start(doc, out, namespaced=True)
    assert meta.namespace is not None
    spec = as_map(doc.data.get("spec"), ctx, "spec")
    selector = selector_from_map(spec.get("selector"), ctx, "spec.selector")
    if selector is not None and not selector.is_empty:
        out.controllers.append(Controller("Service", meta.namespace, meta.name, selector))


def prune_materialized(out: IngestResult) -> None:
    """Drop generated pods whose real pods are in the input too.

    A real pod owned by X means X's pods are there; a real ReplicaSet owned by
    Deployment D (seen through the pods it generated), or a real pod labelled
    pod-template-hash whose ReplicaSet is `<D>-<hash>`, means D's are.
    """
    present: set[str] = set()
    for pod in out.pods:
        generated = pod.extra.get(GENERATED_FROM)
        if generated is None and pod.owner is not None:
            present.add(f"{pod.owner.kind}/{pod.namespace}/{pod.owner.name}")
            template_hash = pod.labels.get(TEMPLATE_HASH_LABEL)
            suffix = f"-{template_hash}"
            if pod.owner.kind == "ReplicaSet" and template_hash and pod.owner.name.endswith(suffix):
                present.add(f"Deployment/{pod.namespace}/{pod.owner.name[: -len(suffix)]}")
        elif generated is not None and generated.startswith("ReplicaSet/"):
            top = pod.extra["controller"]
            if top["kind"] == "Deployment":
                present.add(f"Deployment/{pod.namespace}/{top['name']}")
    if any(pod.extra.get(GENERATED_FROM) in present for pod in out.pods):
        out.pods[:] = [pod for pod in out.pods if pod.extra.get(GENERATED_FROM) not in present]
