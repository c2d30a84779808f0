"""Extension points of the scheduling framework, vectorised over nodes.

Upstream calls Filter and Score once per node. Here each call receives the
cluster and an integer array `nodes` of node indices and answers for all of
them at once; the results are what upstream's per-node calls would give.
A plugin implements only the extension points it needs (pkg/scheduler/
framework/interface.go): PreFilter, Filter, PreScore, Score (with
NormalizeScore folded into `normalize_scores`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import numpy.typing as npt

from engine.framework.status import Code, Status

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass(slots=True)
class NodeFailure:
    """Nodes (a mask aligned with the `nodes` argument) that fail for one reason."""

    mask: BoolArray
    reason: str
    code: Code = Code.UNSCHEDULABLE


@dataclass(slots=True)
class FilterResult:
    """What a Filter call says about the nodes it was given.

    A node fails if any mask marks it; a node may carry several reasons from
    one plugin (NodeResourcesFit reports each insufficient resource), all of
    which count in the aggregated "0/N nodes are available" message.
    """

    failures: list[NodeFailure] = field(default_factory=list)

    def add(self, mask: BoolArray, reason: str, code: Code = Code.UNSCHEDULABLE) -> None:
        if mask.any():
            self.failures.append(NodeFailure(mask, reason, code))

    @classmethod
    def all_pass(cls) -> FilterResult:
        return cls()


@dataclass(slots=True)
class PreFilterResult:
    """Optionally narrows the nodes worth filtering (upstream PreFilterResult.NodeNames)."""

    node_names: frozenset[str] | None = None


class CycleState(dict[str, Any]):
    """Per-pod scratch space shared between a plugin's extension points."""


class Plugin:
    name: ClassVar[str] = ""
    # True when Filter's verdict and Score's raw score for node i depend only
    # on node i (its labels, taints, allocatable and the pods on it) and on
    # these pod fields: requests, nonzero_requests, host_ports, node_selector,
    # affinity.node_affinity, tolerations, images, node_name, scheduler_name.
    # The scheduler then caches them per pod template and recomputes only
    # the nodes whose pods changed (engine/scheduler/equivalence.py).
    node_local: ClassVar[bool] = False
    # False for node-local plugins that never look at the pods on a node
    # (labels, taints, images only): their cached rows never go stale.
    reads_placed_pods: ClassVar[bool] = True


class PreFilterPlugin(Plugin):
    def pre_filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState
    ) -> tuple[Status, PreFilterResult | None]:
        raise NotImplementedError


class FilterPlugin(Plugin):
    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        raise NotImplementedError


class PreScorePlugin(Plugin):
    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        raise NotImplementedError


class ScorePlugin(Plugin):
    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        """Raw scores, one per entry of `nodes`."""
        raise NotImplementedError

    def normalize_scores(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray:
        """NormalizeScore; the default is upstream's absent ScoreExtensions."""
        return scores


class QueueSortPlugin(Plugin):
    def sort_key(self, pod: Pod) -> tuple[Any, ...]:
        raise NotImplementedError


EXTENSION_POINTS: dict[str, type[Plugin]] = {
    "queueSort": QueueSortPlugin,
    "preFilter": PreFilterPlugin,
    "filter": FilterPlugin,
    "preScore": PreScorePlugin,
    "score": ScorePlugin,
}
