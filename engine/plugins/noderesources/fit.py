"""NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go).

Filter: a node fits if it has a free pod slot and, for every resource the
pod requests (cpu, memory, ephemeral-storage, then scalar resources such as
nvidia.com/gpu or hugepages-2Mi), request <= allocatable - requested.
Every shortfall is reported ("Too many pods", "Insufficient cpu",
"Insufficient nvidia.com/gpu", ...). The node's status is
UnschedulableAndUnresolvable when some request exceeds the node's whole
allocatable (preemption cannot free enough), Unschedulable otherwise.
ignoredResources / ignoredResourceGroups skip extended resources only.

Score: the configured strategy (strategies.py) over the configured
resources; there is no NormalizeScore.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from engine.cluster.state import ClusterState
from engine.config.args import NodeResourcesFitArgs
from engine.framework.interface import (
    BoolArray,
    CycleState,
    FilterPlugin,
    FilterResult,
    IntArray,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    ScorePlugin,
)
from engine.framework.status import Code, Status
from engine.model.objects import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Pod
from engine.plugins.noderesources.resource_allocation import (
    ResourceAllocationScorer,
    is_extended_resource_name,
    is_scalar_resource_name,
)
from engine.plugins.noderesources.strategies import build_scorer

NAME = "NodeResourcesFit"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME

TOO_MANY_PODS = "Too many pods"


def insufficient(resource: str) -> str:
    return f"Insufficient {resource}"


@dataclass(frozen=True, slots=True)
class FitRequest:
    """preFilterState: the requests Filter checks, in upstream's order.

    `columns` are the cluster's resource columns (None: no node has the
    resource, so it is insufficient everywhere).
    """

    quantities: tuple[int, ...]
    columns: tuple[int | None, ...]
    reasons: tuple[str, ...]


class NodeResourcesFit(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    name: ClassVar[str] = NAME
    node_local: ClassVar[bool] = True

    def __init__(self, args: NodeResourcesFitArgs | None = None) -> None:
        args = args if args is not None else NodeResourcesFitArgs()
        strategy = args.scoring_strategy
        if not strategy.resources:
            raise ValueError(f"{NAME}: scoringStrategy.resources must name at least one resource")
        self.ignored_resources = frozenset(args.ignored_resources)
        self.ignored_resource_groups = frozenset(args.ignored_resource_groups)
        self._strategy_score = build_scorer(strategy)
        self._allocation = ResourceAllocationScorer(strategy.resources, use_requested=False)
        self._fit_cache: dict[tuple[tuple[str, int], ...], FitRequest] = {}
        self._fit_cache_cluster: ClusterState | None = None

    # --- PreFilter / Filter ---------------------------------------------

    def pre_filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState
    ) -> tuple[Status, PreFilterResult | None]:
        state[PRE_FILTER_STATE_KEY] = self.fit_request(pod, cluster)
        return Status.success(), None

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        request: FitRequest | None = state.get(PRE_FILTER_STATE_KEY)
        if request is None:  # PreFilter disabled in the profile
            request = self.fit_request(pod, cluster)

        pods = cluster.resource_index[PODS]
        # Gathering from a column view is several times faster than [nodes, col].
        too_many_pods = cluster.requested[:, pods][nodes] >= cluster.allocatable[:, pods][nodes]
        failures: list[tuple[BoolArray, str]] = [(too_many_pods, TOO_MANY_PODS)]
        node_unresolvable = np.zeros(len(nodes), dtype=bool)
        failed = bool(too_many_pods.any())
        for quantity, column, reason in zip(
            request.quantities, request.columns, request.reasons, strict=True
        ):
            if column is None:
                short = np.ones(len(nodes), dtype=bool)
                node_unresolvable |= short
            else:
                allocatable = cluster.allocatable[:, column][nodes]
                short = quantity > allocatable - cluster.requested[:, column][nodes]
                if not short.any():
                    continue
                # Preemption cannot help where the request exceeds the whole node.
                node_unresolvable |= short & (quantity > allocatable)
            failures.append((short, reason))
            failed = True
        if not failed:
            return FilterResult.all_pass()

        # Upstream's status is per node: one unresolvable shortfall makes the
        # whole node UnschedulableAndUnresolvable, with all its reasons.
        node_resolvable = ~node_unresolvable
        result = FilterResult()
        for mask, reason in failures:
            result.add(mask & node_resolvable, reason, Code.UNSCHEDULABLE)
            result.add(mask & node_unresolvable, reason, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
        return result

    def fit_request(self, pod: Pod, cluster: ClusterState) -> FitRequest:
        """computePodResourceRequest plus the resources fitsRequest will check."""
        if cluster is not self._fit_cache_cluster:
            self._fit_cache.clear()
            self._fit_cache_cluster = cluster
        key = tuple(pod.requests.items())
        cached = self._fit_cache.get(key)
        if cached is not None:
            return cached
        names = [r for r in (CPU, MEMORY, EPHEMERAL_STORAGE) if pod.requests.get(r, 0) > 0]
        names += sorted(
            r
            for r, value in pod.requests.items()
            if value > 0 and is_scalar_resource_name(r) and not self._ignored(r)
        )
        request = FitRequest(
            quantities=tuple(pod.requests[r] for r in names),
            columns=tuple(cluster.column(r) for r in names),
            reasons=tuple(insufficient(r) for r in names),
        )
        if len(self._fit_cache) > 4096:  # one entry per distinct pod template
            self._fit_cache.clear()
        self._fit_cache[key] = request
        return request

    def _ignored(self, resource: str) -> bool:
        if not is_extended_resource_name(resource):
            return False
        group = resource.split("/", 1)[0]
        return resource in self.ignored_resources or group in self.ignored_resource_groups

    # --- PreScore / Score -----------------------------------------------

    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        state[PRE_SCORE_STATE_KEY] = self._allocation.pod_requests(pod)
        return Status.success()

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        pod_requests: tuple[int, ...] | None = state.get(PRE_SCORE_STATE_KEY)
        if pod_requests is None:  # PreScore disabled: upstream computes it here
            pod_requests = self._allocation.pod_requests(pod)
        allocation = self._allocation.allocation(cluster, nodes, pod_requests)
        return self._strategy_score(allocation.requested, allocation.allocatable)
