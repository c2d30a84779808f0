"""Tiny builders for plugin tests: nodes, pods and a ClusterState from them.

Shared by the plugin test modules; keep the signatures stable. Quantities may
be given as integers in base units (cpu in milli, memory in bytes) or as
Kubernetes strings ("2", "500m", "8Gi").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.cluster.state import ClusterState, ControllerSelector
from engine.framework.interface import (
    CycleState,
    FilterPlugin,
    Plugin,
    PreFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
)
from engine.framework.status import Code
from engine.model.objects import (
    CPU,
    PODS,
    Affinity,
    HostPort,
    ImageState,
    Namespace,
    Node,
    NodeAffinity,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    OwnerRef,
    Pod,
    PodAffinity,
    PreferredSchedulingTerm,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)

Quantity = int | str

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18}

# Upstream test nodes rarely run out of pod slots; tests that care set "pods".
DEFAULT_PODS_ALLOCATABLE = 110


def quantity(resource: str, value: object) -> int:
    """A quantity in the engine's base units: cpu in milli, the rest as is."""
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        raise TypeError(f"{resource}: {value!r} is neither an int nor a quantity string")
    text = value.strip()
    if text.endswith("m"):
        return int(text[:-1]) if resource == CPU else int(text[:-1]) // 1000
    multiplier = 1
    for suffixes in (_BINARY, _DECIMAL):
        for suffix, factor in suffixes.items():
            if text.endswith(suffix):
                text, multiplier = text[: -len(suffix)], factor
                break
        if multiplier != 1:
            break
    amount = float(text) * multiplier
    return int(amount * 1000) if resource == CPU else int(amount)


def resources(values: Mapping[str, object] | None) -> dict[str, int]:
    return {name: quantity(name, v) for name, v in (values or {}).items()}


def make_node(
    name: str,
    labels: Mapping[str, str] | None = None,
    taints: Iterable[Taint] = (),
    allocatable: Mapping[str, object] | None = None,
    *,
    unschedulable: bool = False,
    images: Iterable[ImageState] = (),
    annotations: Mapping[str, str] | None = None,
) -> Node:
    """A node; `pods` allocatable defaults to 110 unless given."""
    alloc = resources(allocatable)
    alloc.setdefault(PODS, DEFAULT_PODS_ALLOCATABLE)
    return Node(
        name=name,
        labels=dict(labels or {}),
        annotations=dict(annotations or {}),
        taints=tuple(taints),
        unschedulable=unschedulable,
        allocatable=alloc,
        capacity=dict(alloc),
        images=tuple(images),
    )


def make_pod(
    name: str = "pod",
    namespace: str = "default",
    *,
    labels: Mapping[str, str] | None = None,
    requests: Mapping[str, object] | None = None,
    node_name: str | None = None,
    node_selector: Mapping[str, str] | None = None,
    affinity: Affinity | None = None,
    node_affinity: NodeAffinity | None = None,
    pod_affinity: PodAffinity | None = None,
    pod_anti_affinity: PodAffinity | None = None,
    tolerations: Iterable[Toleration] = (),
    host_ports: Iterable[HostPort | int] = (),
    topology_spread_constraints: Iterable[TopologySpreadConstraint] = (),
    priority: int = 0,
    images: Iterable[str] = (),
    owner: OwnerRef | None = None,
    uid: str = "",
    annotations: Mapping[str, str] | None = None,
) -> Pod:
    """A pod. `affinity` wins over the node_affinity/pod_affinity shortcuts;
    a bare int host port means TCP on 0.0.0.0."""
    if affinity is None and (node_affinity or pod_affinity or pod_anti_affinity):
        affinity = Affinity(node_affinity, pod_affinity, pod_anti_affinity)
    ports = tuple(HostPort(p) if isinstance(p, int) else p for p in host_ports)
    return Pod(
        namespace=namespace,
        name=name,
        uid=uid or f"{namespace}/{name}",
        labels=dict(labels or {}),
        annotations=dict(annotations or {}),
        node_name=node_name,
        priority=priority,
        requests=resources(requests),
        host_ports=ports,
        node_selector=tuple((node_selector or {}).items()),
        affinity=affinity,
        tolerations=tuple(tolerations),
        topology_spread_constraints=tuple(topology_spread_constraints),
        images=tuple(images),
        owner=owner,
    )


def make_cluster(
    nodes: Sequence[Node],
    pods_on: Mapping[str, Iterable[Pod]] | None = None,
    *,
    pods: Iterable[Pod] = (),
    namespaces: Iterable[Namespace] = (),
    controllers: Sequence[ControllerSelector] = (),
    extra_resources: Iterable[str] = (),
) -> ClusterState:
    """A ClusterState with `pods_on[node name]` placed on that node, plus
    `pods` placed on their own spec.nodeName."""
    cluster = ClusterState(nodes, extra_resources, namespaces, controllers)
    placements = [(name, pod) for name, group in (pods_on or {}).items() for pod in group]
    placements += [(pod.node_name, pod) for pod in pods if pod.node_name]
    for node_name, pod in placements:
        pod.node_name = node_name
        cluster.add_pod(pod, cluster.node_index[node_name])
    return cluster


def all_nodes(cluster: ClusterState) -> npt.NDArray[np.int64]:
    """Every node index, the usual `nodes` argument of Filter and Score."""
    return np.arange(cluster.num_nodes, dtype=np.int64)


def node_indices(cluster: ClusterState, *names: str) -> npt.NDArray[np.int64]:
    return np.array([cluster.node_index[n] for n in names], dtype=np.int64)


def by_name(
    cluster: ClusterState, nodes: npt.NDArray[np.int64], values: Sequence[Any]
) -> dict[str, Any]:
    """{node name: value} for results aligned with `nodes`."""
    return {cluster.nodes[int(i)].name: v for i, v in zip(nodes, values, strict=True)}


# --- spec shorthands ---------------------------------------------------------


def req(key: str, operator: str, *values: str) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(key, operator, tuple(values))


def term(
    *expressions: NodeSelectorRequirement, fields: Iterable[NodeSelectorRequirement] = ()
) -> NodeSelectorTerm:
    return NodeSelectorTerm(tuple(expressions), tuple(fields))


def required_affinity(*terms: NodeSelectorTerm) -> NodeAffinity:
    return NodeAffinity(required=tuple(terms))


def preferred_affinity(*weighted: tuple[int, NodeSelectorTerm]) -> NodeAffinity:
    return NodeAffinity(preferred=tuple(PreferredSchedulingTerm(w, t) for w, t in weighted))


def taint(key: str, value: str = "", effect: str = "NoSchedule") -> Taint:
    return Taint(key=key, effect=effect, value=value)


def toleration(
    key: str = "", value: str = "", effect: str = "", operator: str = "Equal"
) -> Toleration:
    return Toleration(key=key, operator=operator, value=value, effect=effect)


# --- running one plugin --------------------------------------------------------


def run_filter(
    plugin: Plugin,
    pod: Pod,
    cluster: ClusterState,
    nodes: npt.NDArray[np.int64] | None = None,
    state: CycleState | None = None,
) -> dict[str, list[tuple[str, Code]]]:
    """Filter over `nodes` (all by default): {failing node name: [(reason, code)]}.

    Runs PreFilter first when the plugin has one; a Skip means every node passes.
    """
    state = CycleState() if state is None else state
    nodes = all_nodes(cluster) if nodes is None else nodes
    if isinstance(plugin, PreFilterPlugin):
        status, _ = plugin.pre_filter(state, pod, cluster)
        if status.skipped:
            return {}
    assert isinstance(plugin, FilterPlugin)
    failed: dict[str, list[tuple[str, Code]]] = {}
    for failure in plugin.filter(state, pod, cluster, nodes).failures:
        for i in np.flatnonzero(failure.mask):
            name = cluster.nodes[int(nodes[i])].name
            failed.setdefault(name, []).append((failure.reason, failure.code))
    return failed


def run_scores(
    plugin: Plugin,
    pod: Pod,
    cluster: ClusterState,
    nodes: npt.NDArray[np.int64] | None = None,
    state: CycleState | None = None,
) -> dict[str, int]:
    """PreScore, Score and NormalizeScore over `nodes`: {node name: final score}.

    A PreScore Skip yields 0 for every node (the plugin adds nothing).
    """
    state = CycleState() if state is None else state
    nodes = all_nodes(cluster) if nodes is None else nodes
    assert isinstance(plugin, ScorePlugin)
    if isinstance(plugin, PreScorePlugin):
        status = plugin.pre_score(state, pod, cluster, nodes)
        if status.skipped:
            return {cluster.nodes[int(i)].name: 0 for i in nodes}
        assert status.ok, status
    raw = plugin.score(state, pod, cluster, nodes)
    final = plugin.normalize_scores(state, pod, raw)
    return by_name(cluster, nodes, [int(s) for s in final])
