"""Place every pending pod of a snapshot, one at a time, as kube-scheduler would.

Pods already bound (spec.nodeName) are snapshot truth and are added first,
even where they over-commit a node. The rest go through one scheduling
queue ordered by the profile's QueueSort (PrioritySort), each placement
visible to the next pod. A pod rejected by InterPodAffinity or
PodTopologySpread is tried again after later pods land, as upstream's
queueing hints requeue it on an assigned-pod event; resource, taint and
node-affinity rejections cannot be cured by adding pods, so they stay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.cluster.state import ClusterState, ControllerSelector
from engine.config.types import SchedulerConfig
from engine.framework.runtime import Framework
from engine.model.objects import Namespace, Node, Pod
from engine.plugins.queuesort import PrioritySort
from engine.scheduler.cycle import SchedulingCycle
from engine.scheduler.result import NO_SCHEDULER, SCHEDULED, SCHEDULING_GATED, PodResult

# Plugins whose rejection a newly assigned pod can lift (their EventsToRegister
# include AssignedPod/Add in upstream).
REQUEUE_ON_POD_ADD = frozenset({"InterPodAffinity", "PodTopologySpread"})

ProgressCallback = Callable[[int, int], None]


@dataclass(slots=True)
class Placement:
    cluster: ClusterState
    results: list[PodResult]
    warnings: list[str] = field(default_factory=list)


def build_cluster(
    nodes: Sequence[Node],
    pods: Sequence[Pod],
    namespaces: Sequence[Namespace] = (),
    controllers: Sequence[ControllerSelector] = (),
) -> tuple[ClusterState, list[str]]:
    """The snapshot with its bound pods in place, and warnings about them."""
    resources = {name for pod in pods for name in pod.requests}
    cluster = ClusterState(nodes, resources, namespaces, controllers)
    warnings = []
    for pod in pods:
        if pod.node_name is None:
            continue
        node = cluster.node_index.get(pod.node_name)
        if node is None:
            warnings.append(
                f"Pod {pod.key} runs on node {pod.node_name}, which is not in the inventory; "
                "it is left out"
            )
            continue
        cluster.add_pod(pod, node)
    return cluster, warnings


def place(
    nodes: Sequence[Node],
    pods: Sequence[Pod],
    config: SchedulerConfig,
    *,
    namespaces: Sequence[Namespace] = (),
    controllers: Sequence[ControllerSelector] = (),
    seed: int = 0,
    explain: bool = False,
    progress: ProgressCallback | None = None,
) -> Placement:
    cluster, warnings = build_cluster(nodes, pods, namespaces, controllers)
    frameworks = {p.scheduler_name: Framework(p) for p in config.profiles}
    queue_sort = next(
        (f.queue_sort for f in frameworks.values() if f.queue_sort is not None), PrioritySort()
    )
    cycle = SchedulingCycle(
        cluster, config.percentage_of_nodes_to_score, np.random.default_rng(seed)
    )

    pending = sorted((p for p in pods if p.node_name is None), key=queue_sort.sort_key)
    results: dict[str, PodResult] = {}
    retry: list[Pod] = []
    placed_count = 0
    for done, pod in enumerate(pending, 1):
        result = _attempt(cycle, frameworks, pod, explain)
        results[pod.key] = result
        if result.status == SCHEDULED:
            placed_count += 1
        elif REQUEUE_ON_POD_ADD.intersection(result.unschedulable_plugins):
            retry.append(pod)
        if progress is not None:
            progress(done, len(pending))

    # Requeue rounds: each round needs a placement since the last attempt.
    placed_since = placed_count
    while retry and placed_since:
        placed_since = 0
        still: list[Pod] = []
        for pod in sorted(retry, key=queue_sort.sort_key):
            attempts = results[pod.key].attempts + 1
            result = _attempt(cycle, frameworks, pod, explain)
            result.attempts = attempts
            results[pod.key] = result
            if result.status == SCHEDULED:
                placed_since += 1
            elif REQUEUE_ON_POD_ADD.intersection(result.unschedulable_plugins):
                still.append(pod)
        retry = still

    ordered = [results[p.key] for p in pending]
    return Placement(cluster, ordered, warnings)


def _attempt(
    cycle: SchedulingCycle, frameworks: dict[str, Framework], pod: Pod, explain: bool
) -> PodResult:
    fwk = frameworks.get(pod.scheduler_name)
    if fwk is None:
        names = ", ".join(f'"{n}"' for n in frameworks)
        return PodResult(
            pod,
            NO_SCHEDULER,
            message=(
                f'no scheduler profile is named "{pod.scheduler_name}" (profiles: {names}); '
                "kube-scheduler leaves pods for other schedulers alone, so it stays Pending"
            ),
        )
    for plugin in fwk.pre_enqueue:
        gate = getattr(plugin, "pre_enqueue", None)
        if gate is None:
            continue
        status = gate(pod)
        if not status.ok:
            return PodResult(pod, SCHEDULING_GATED, message=status.message)
    result = cycle.schedule(fwk, pod, explain)
    if result.status == SCHEDULED and result.node is not None:
        cycle.cluster.add_pod(pod, cycle.cluster.node_index[result.node])
    return result
