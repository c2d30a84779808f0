"""Pod and pod template specs: the fields placement reads, API defaults
applied (SetDefaults_Pod), checked as ValidatePodSpec does for them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.ingest.fields import (
    Ctx,
    as_bool,
    as_int,
    as_list,
    as_map,
    as_str,
    child,
    forbidden,
    index,
    invalid,
    key,
    parse_node_affinity,
    parse_pod_affinity,
    parse_tolerations,
    parse_topology_spread_constraints,
    read_labels,
    required,
    unsupported,
)
from engine.ingest.kinds.common import (
    Document,
    Meta,
    check_container_resource_name,
    is_native_resource,
    read_resource_list,
    start,
)
from engine.ingest.kinds.requests import (
    ContainerRequests,
    ResourceNanos,
    default_pod_level_requests,
    scheduler_requests,
)
from engine.ingest.result import IngestResult, PrioritySite
from engine.model.objects import (
    Affinity,
    HostPort,
    OwnerRef,
    Pod,
    Source,
    Toleration,
    TopologySpreadConstraint,
)
from engine.model.quantity import Quantity

DEFAULT_SCHEDULER_NAME = "default-scheduler"
PREEMPTION_POLICIES = ("Never", "PreemptLowerPriority")
TERMINAL_PHASES = ("Succeeded", "Failed")
PROTOCOLS = ("SCTP", "TCP", "UDP")


@dataclass(slots=True)
class PodSpec:
    """Everything a pod takes from its spec but nodeName; shared by all pods
    of a template and by pods whose specs read the same."""

    scheduler_name: str
    priority_class_name: str | None
    priority: int | None
    preemption_policy: str | None
    requests: dict[str, int]
    nonzero_requests: tuple[int, int]
    host_ports: tuple[HostPort, ...]
    node_selector: tuple[tuple[str, str], ...]
    affinity: Affinity | None
    tolerations: tuple[Toleration, ...]
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...]
    images: tuple[str, ...]
    scheduling_gates: tuple[str, ...]


def _is_overcommit_allowed(name: str) -> bool:
    """IsOvercommitAllowed: native resources other than hugepages."""
    return is_native_resource(name) and not name.startswith("hugepages-")


def _read_container_resources(raw: dict[str, Any], ctx: Ctx, path: str) -> ResourceNanos:
    """ValidateResourceRequirements, then limits standing in for requests."""
    res_path = child(path, "resources")
    resources = as_map(raw.get("resources"), ctx, res_path)
    lim_path, req_path = child(res_path, "limits"), child(res_path, "requests")
    limits = read_resource_list(resources.get("limits"), ctx, lim_path)
    requests = read_resource_list(resources.get("requests"), ctx, req_path)
    for name in limits:
        check_container_resource_name(name, ctx, key(lim_path, name))
    for name, quantity in requests.items():
        check_container_resource_name(name, ctx, key(req_path, name))
        limit = limits.get(name)
        shown = _shown(resources, "requests", name)
        if limit is not None:
            if quantity.amount != limit.amount and not _is_overcommit_allowed(name):
                ctx.error(
                    req_path,
                    invalid(
                        shown,
                        f"must be equal to {name} limit of {_shown(resources, 'limits', name)}",
                    ),
                )
            elif quantity.amount > limit.amount:
                ctx.error(
                    req_path,
                    invalid(
                        shown,
                        f"must be less than or equal to {name} limit of {_shown(resources, 'limits', name)}",
                    ),
                )
        elif not _is_overcommit_allowed(name):
            ctx.error(lim_path, required("Limit must be set for non overcommitable resources"))
    merged: dict[str, Quantity] = dict(limits)
    merged.update(requests)
    return {name: q.nanos for name, q in merged.items()}


def _shown(resources: dict[str, Any], field: str, name: str) -> str:
    value = resources.get(field, {}).get(name)
    return value.strip() if isinstance(value, str) else str(value)


def _read_containers(
    spec: dict[str, Any], ctx: Ctx, path: str, field: str, host_network: bool
) -> tuple[list[ContainerRequests], list[str], list[HostPort]]:
    list_path = child(path, field)
    containers: list[ContainerRequests] = []
    images: list[str] = []
    ports: list[HostPort] = []
    for i, item in enumerate(as_list(spec.get(field), ctx, list_path)):
        item_path = index(list_path, i)
        raw = as_map(item, ctx, item_path)
        if not as_str(raw.get("name"), ctx, child(item_path, "name")):
            ctx.error(child(item_path, "name"), required())
        image = as_str(raw.get("image"), ctx, child(item_path, "image"))
        if image:
            images.append(image)
        restart_policy = as_str(raw.get("restartPolicy"), ctx, child(item_path, "restartPolicy"))
        if restart_policy and field == "containers":
            ctx.error(
                child(item_path, "restartPolicy"),
                forbidden("may not be set for non-init containers"),
            )
        elif restart_policy not in ("", "Always"):
            ctx.error(child(item_path, "restartPolicy"), unsupported(restart_policy, ("Always",)))
        requests = _read_container_resources(raw, ctx, item_path)
        containers.append(ContainerRequests(requests, restartable=restart_policy == "Always"))
        ports.extend(_read_host_ports(raw, ctx, item_path, host_network, field == "containers"))
    return containers, images, ports


def _read_host_ports(
    raw: dict[str, Any], ctx: Ctx, path: str, host_network: bool, counted: bool
) -> list[HostPort]:
    """Ports with a hostPort. With hostNetwork, API defaulting sets hostPort to
    containerPort. Only regular containers' ports reach NodePorts
    (getContainerPorts in plugins/nodeports)."""
    found: list[HostPort] = []
    ports_path = child(path, "ports")
    for i, item in enumerate(as_list(raw.get("ports"), ctx, ports_path)):
        port_path = index(ports_path, i)
        port = as_map(item, ctx, port_path)
        container_port = (
            as_int(port.get("containerPort"), ctx, child(port_path, "containerPort"), 0) or 0
        )
        host_port = as_int(port.get("hostPort"), ctx, child(port_path, "hostPort"), 0) or 0
        if host_network and host_port == 0:
            host_port = container_port
        protocol = as_str(port.get("protocol"), ctx, child(port_path, "protocol"), "TCP")
        if protocol not in PROTOCOLS:
            ctx.error(child(port_path, "protocol"), unsupported(protocol, PROTOCOLS))
        if not 0 <= host_port <= 65535:
            ctx.error(
                child(port_path, "hostPort"),
                invalid(host_port, "must be between 1 and 65535, inclusive"),
            )
        elif host_port > 0 and counted:
            host_ip = as_str(port.get("hostIP"), ctx, child(port_path, "hostIP")) or "0.0.0.0"
            found.append(HostPort(host_port, protocol, host_ip))
    return found


def _read_pod_resources(
    spec: dict[str, Any], ctx: Ctx, path: str
) -> tuple[ResourceNanos, ResourceNanos, ResourceNanos]:
    """(spec.overhead, pod-level requests, pod-level limits) in nanos."""
    overhead = read_resource_list(spec.get("overhead"), ctx, child(path, "overhead"))
    res_path = child(path, "resources")
    resources = as_map(spec.get("resources"), ctx, res_path)
    requests = read_resource_list(resources.get("requests"), ctx, child(res_path, "requests"))
    limits = read_resource_list(resources.get("limits"), ctx, child(res_path, "limits"))
    return (
        {n: q.nanos for n, q in overhead.items()},
        {n: q.nanos for n, q in requests.items()},
        {n: q.nanos for n, q in limits.items()},
    )


# Specs repeat (replicas of one template), so a spec whose read fields are
# the same as a clean earlier one reuses its result. The key is those fields
# as JSON: cheap next to reading them.
_SPEC_FIELDS = (
    "schedulerName",
    "priorityClassName",
    "priority",
    "preemptionPolicy",
    "nodeSelector",
    "affinity",
    "tolerations",
    "topologySpreadConstraints",
    "schedulingGates",
    "overhead",
    "resources",
    "hostNetwork",
)
_CONTAINER_FIELDS = ("name", "image", "resources", "ports", "restartPolicy")
_SPEC_CACHE: dict[str, PodSpec] = {}
_SPEC_CACHE_LIMIT = 20_000


def _spec_key(spec: dict[str, Any]) -> str | None:
    containers = [spec.get("containers"), spec.get("initContainers")]
    if not all(
        c is None or (type(c) is list and all(type(x) is dict for x in c)) for c in containers
    ):
        return None
    projected = [
        [[c.get(f) for f in _CONTAINER_FIELDS] for c in group or ()] for group in containers
    ]
    try:
        return json.dumps(([spec.get(f) for f in _SPEC_FIELDS], projected), separators=(",", ":"))
    except (TypeError, ValueError):  # YAML types JSON cannot hold: read it the long way
        return None


def read_node_name(data: Any, ctx: Ctx, path: str) -> str | None:
    spec = data if isinstance(data, dict) else {}
    return as_str(spec.get("nodeName"), ctx, child(path, "nodeName")) or None


def read_pod_spec(data: Any, ctx: Ctx, path: str) -> PodSpec:
    """One PodSpec at `path` ("spec" for a Pod, "spec.template.spec" for workloads)."""
    spec = as_map(data, ctx, path)
    key = _spec_key(spec)
    cached = _SPEC_CACHE.get(key) if key is not None else None
    if cached is not None:
        return cached
    problems_before = len(ctx.problems)
    parsed = _read_pod_spec(spec, ctx, path)
    if key is not None and len(ctx.problems) == problems_before:
        if len(_SPEC_CACHE) >= _SPEC_CACHE_LIMIT:
            _SPEC_CACHE.clear()
        _SPEC_CACHE[key] = parsed
    return parsed


def _read_pod_spec(spec: dict[str, Any], ctx: Ctx, path: str) -> PodSpec:
    host_network = as_bool(spec.get("hostNetwork"), ctx, child(path, "hostNetwork"))
    if not spec.get("containers"):
        ctx.error(child(path, "containers"), required())
    containers, images, ports = _read_containers(spec, ctx, path, "containers", host_network)
    inits, init_images, _ = _read_containers(spec, ctx, path, "initContainers", host_network)
    overhead, pod_requests, pod_limits = _read_pod_resources(spec, ctx, path)
    pod_requests = default_pod_level_requests(containers, inits, pod_requests, pod_limits)
    requests, nonzero = scheduler_requests(containers, inits, overhead, pod_requests)

    affinity_path = child(path, "affinity")
    affinity_raw = as_map(spec.get("affinity"), ctx, affinity_path)
    affinity = None
    if affinity_raw:
        affinity = Affinity(
            node_affinity=parse_node_affinity(
                affinity_raw.get("nodeAffinity"), ctx, child(affinity_path, "nodeAffinity")
            ),
            pod_affinity=parse_pod_affinity(
                affinity_raw.get("podAffinity"), ctx, child(affinity_path, "podAffinity")
            ),
            pod_anti_affinity=parse_pod_affinity(
                affinity_raw.get("podAntiAffinity"), ctx, child(affinity_path, "podAntiAffinity")
            ),
        )

    preemption_policy = spec.get("preemptionPolicy")
    if preemption_policy is not None:
        preemption_policy = as_str(preemption_policy, ctx, child(path, "preemptionPolicy"))
        if preemption_policy not in PREEMPTION_POLICIES:
            ctx.error(
                child(path, "preemptionPolicy"), unsupported(preemption_policy, PREEMPTION_POLICIES)
            )
    gates_path = child(path, "schedulingGates")
    gates = tuple(
        as_str(
            as_map(g, ctx, index(gates_path, i)).get("name"),
            ctx,
            child(index(gates_path, i), "name"),
        )
        for i, g in enumerate(as_list(spec.get("schedulingGates"), ctx, gates_path))
    )
    node_selector = read_labels(spec.get("nodeSelector"), ctx, child(path, "nodeSelector"))
    return PodSpec(
        scheduler_name=as_str(spec.get("schedulerName"), ctx, child(path, "schedulerName"))
        or DEFAULT_SCHEDULER_NAME,
        priority_class_name=as_str(
            spec.get("priorityClassName"), ctx, child(path, "priorityClassName")
        )
        or None,
        priority=as_int(spec.get("priority"), ctx, child(path, "priority")),
        preemption_policy=preemption_policy,
        requests=requests,
        nonzero_requests=nonzero,
        host_ports=tuple(ports),
        node_selector=tuple(sorted(node_selector.items())),
        affinity=affinity,
        tolerations=parse_tolerations(spec.get("tolerations"), ctx, child(path, "tolerations")),
        topology_spread_constraints=parse_topology_spread_constraints(
            spec.get("topologySpreadConstraints"), ctx, child(path, "topologySpreadConstraints")
        ),
        images=tuple(init_images + images),
        scheduling_gates=gates,
    )


def make_pod(
    spec: PodSpec,
    namespace: str,
    name: str,
    *,
    node_name: str | None,
    uid: str,
    labels: dict[str, str],
    annotations: dict[str, str],
    owner: OwnerRef | None,
    phase: str,
    source: Source,
) -> Pod:
    """A Pod from a read spec. Priority is resolved after all files are read."""
    return Pod(
        namespace=namespace,
        name=name,
        uid=uid,
        labels=labels,
        annotations=annotations,
        node_name=node_name,
        scheduler_name=spec.scheduler_name,
        priority_class_name=spec.priority_class_name,
        priority=spec.priority or 0,
        preemption_policy=spec.preemption_policy or "PreemptLowerPriority",
        requests=dict(spec.requests),
        nonzero_requests=spec.nonzero_requests,
        host_ports=spec.host_ports,
        node_selector=spec.node_selector,
        affinity=spec.affinity,
        tolerations=spec.tolerations,
        topology_spread_constraints=spec.topology_spread_constraints,
        images=spec.images,
        scheduling_gates=spec.scheduling_gates,
        owner=owner,
        phase=phase,
        source=source,
    )


def priority_site(pods: list[Pod], spec: PodSpec, ctx: Ctx, spec_path: str) -> PrioritySite:
    """Where these pods' priority comes from. Only a named class can turn out
    unknown, so only then is its line needed: looked up now from YAML, or
    later (and only on error) from JSON."""
    assert ctx.obj is not None
    field = child(spec_path, "priorityClassName")
    lines, line = None, None
    if spec.priority_class_name and ctx.lines is not None:
        if ctx.lines.loaded:
            line = ctx.lines.line(field)
        else:
            lines = ctx.lines
    return PrioritySite(
        pods=pods,
        file=ctx.file,
        lines=lines,
        line=line,
        obj=ctx.obj,
        field=field,
        class_name=spec.priority_class_name,
        spec_priority=spec.priority,
        spec_preemption_policy=spec.preemption_policy,
    )


def read_pod(doc: Document, out: IngestResult) -> None:
    raw_status = doc.data.get("status")
    phase = raw_status.get("phase") if isinstance(raw_status, dict) else None
    if phase in TERMINAL_PHASES:
        out.skipped_terminal += 1  # the scheduler's cache does not hold them
        return
    meta, ctx = start(doc, out, namespaced=True)
    spec = read_pod_spec(doc.data.get("spec"), ctx, "spec")
    node_name = read_node_name(doc.data.get("spec"), ctx, "spec")
    phase = phase if isinstance(phase, str) and phase else "Pending"
    pod = _pod_from(meta, spec, node_name, phase, doc.source)
    out.pods.append(pod)
    out.priority_sites.append(priority_site([pod], spec, ctx, "spec"))


def _pod_from(meta: Meta, spec: PodSpec, node_name: str | None, phase: str, source: Source) -> Pod:
    assert meta.namespace is not None
    return make_pod(
        spec,
        meta.namespace,
        meta.name,
        node_name=node_name,
        uid=meta.uid,
        labels=meta.labels,
        annotations=meta.annotations,
        owner=meta.owner,
        phase=phase,
        source=source,
    )
