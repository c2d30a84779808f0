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

from dataclasses import dataclass, field
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
    NodeFailure,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    ScorePlugin,
)
from engine.framework.status import Code, Status
from engine.model.objects import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Pod
from engine.plugins.noderesources.resource_allocation import (
    FEW_NODES,
    ResourceAllocationScorer,
    gather,
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
    resource, so it is insufficient everywhere). `checked` pairs the pod
    slot's column, then each existing requested resource's, with what the
    pod needs there (1 for the slot: requested pods + 1 > allowed pods is
    1 > allowed - requested); `checked_columns` and `need` hold the same as
    arrays, so that one comparison `need > allocatable - requested` finds
    every shortfall.
    """

    quantities: tuple[int, ...]
    columns: tuple[int | None, ...]
    reasons: tuple[str, ...]
    checked: tuple[tuple[int, int], ...]  # (column, need) pairs
    checked_columns: IntArray = field(compare=False)
    need: IntArray = field(compare=False)
    # Per request: whether some node's whole allocatable is below it (nodes'
    # allocatable is fixed during a run); if not, no node is unresolvable.
    may_exceed: tuple[bool, ...] = ()

    def fits_one_node(self, cluster: ClusterState, node: int) -> bool:
        """Whether `node` has no shortfall, in Python ints (for one node a
        numpy call costs more than the comparisons)."""
        if None in self.columns:
            return False
        allocatable, requested = cluster.allocatable, cluster.requested
        for column, need in self.checked:
            if need > allocatable.item(node, column) - requested.item(node, column):
                return False
        return True


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
        self._scorer = build_scorer(strategy)
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

        if len(nodes) == 1 and request.fits_one_node(cluster, nodes.item(0)):
            return FilterResult.all_pass()
        short = shortfalls(cluster, nodes, request.checked_columns, request.need)
        short_somewhere: list[bool] = np.logical_or.reduce(short, axis=0).tolist()
        missing = None in request.columns
        if len(nodes) == 0 or (not missing and not any(short_somewhere)):
            return FilterResult.all_pass()

        failures: list[tuple[BoolArray, str]] = []
        if short_somewhere[0]:
            failures.append((short[:, 0], TOO_MANY_PODS))
        # Upstream's status is per node: one unresolvable shortfall makes the
        # whole node UnschedulableAndUnresolvable, with all its reasons.
        # Preemption cannot help where no node has the resource, nor where
        # the request exceeds the node's whole allocatable.
        node_unresolvable = np.ones(len(nodes), dtype=bool) if missing else None
        checked = 0  # the pod slot's position in `short`
        for quantity, column, reason, may_exceed in zip(
            request.quantities, request.columns, request.reasons, request.may_exceed, strict=True
        ):
            if column is None:
                failures.append((np.ones(len(nodes), dtype=bool), reason))
                continue
            checked += 1
            if not short_somewhere[checked]:
                continue
            short_of_it = short[:, checked]
            failures.append((short_of_it, reason))
            if may_exceed:
                exceeds = short_of_it & (quantity > cluster.allocatable[:, column][nodes])
                node_unresolvable = (
                    exceeds if node_unresolvable is None else node_unresolvable | exceeds
                )

        result = FilterResult()
        if node_unresolvable is None or not node_unresolvable.any():  # nodes merely full
            result.failures = [NodeFailure(m, reason, Code.UNSCHEDULABLE) for m, reason in failures]
            return result
        node_resolvable = ~node_unresolvable
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
        quantities = tuple(pod.requests[r] for r in names)
        columns = tuple(cluster.column(r) for r in names)
        checked = [(cluster.resource_index[PODS], 1)]
        checked += [(c, q) for c, q in zip(columns, quantities, strict=True) if c is not None]
        request = FitRequest(
            quantities=quantities,
            columns=columns,
            reasons=tuple(insufficient(r) for r in names),
            checked=tuple(checked),
            checked_columns=np.array([c for c, _ in checked], dtype=np.int64),
            need=np.array([q for _, q in checked], dtype=np.int64),
            may_exceed=tuple(
                c is not None and cluster.num_nodes > 0 and q > int(cluster.allocatable[:, c].min())
                for c, q in zip(columns, quantities, strict=True)
            ),
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
        score_one = self._scorer.one_node
        if len(nodes) == 1 and score_one is not None:
            used, allocatable = self._allocation.one_node(cluster, nodes.item(0), pod_requests)
            requested = [u + p for u, p in zip(used, pod_requests, strict=True)]
            return np.array([score_one(requested, allocatable)], dtype=np.int64)
        allocation = self._allocation.allocation(cluster, nodes, pod_requests)
        return self._scorer.nodes(allocation.requested, allocation.allocatable)


def shortfalls(
    cluster: ClusterState, nodes: IntArray, columns: IntArray, need: IntArray
) -> BoolArray:
    """need > allocatable - requested over [nodes x columns]."""
    if len(nodes) <= FEW_NODES:
        free = gather(cluster.allocatable, nodes, columns) - gather(
            cluster.requested, nodes, columns
        )
        short: BoolArray = need > free
        return short
    # Column by column: int64 temporaries over many nodes and every column
    # cost more (fresh pages from the allocator) than the extra numpy calls.
    short = np.empty((len(nodes), len(columns)), dtype=bool, order="F")
    for j, column in enumerate(columns.tolist()):
        free_of_it = cluster.allocatable[:, column][nodes] - cluster.requested[:, column][nodes]
        np.greater(need[j], free_of_it, out=short[:, j])
    return short
