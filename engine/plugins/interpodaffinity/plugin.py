"""InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity/plugin.go).

Required pod affinity and anti-affinity filter nodes (filtering.py);
preferred terms, and the terms of pods already placed, score them
(scoring.py). Placed pods are looked up through incremental indexes
(engine/plugins/podindex.py, index.py), never walked per cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.config.args import InterPodAffinityArgs
from engine.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterResult,
    IntArray,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    ScorePlugin,
)
from engine.framework.status import Status
from engine.plugins.interpodaffinity.filtering import (
    PreFilterState,
    compute_pre_filter_state,
    filter_nodes,
)
from engine.plugins.interpodaffinity.scoring import (
    PreScoreState,
    compute_pre_score_state,
    normalize,
    score_nodes,
)
from engine.plugins.interpodaffinity.terms import pod_terms

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

NAME = "InterPodAffinity"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME

# validation.ValidateInterPodAffinityArgs
MIN_HARD_POD_AFFINITY_WEIGHT = 0
MAX_HARD_POD_AFFINITY_WEIGHT = 100


class InterPodAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    name: ClassVar[str] = NAME

    def __init__(self, args: InterPodAffinityArgs | None = None) -> None:
        args = args if args is not None else InterPodAffinityArgs()
        weight = args.hard_pod_affinity_weight
        if not MIN_HARD_POD_AFFINITY_WEIGHT <= weight <= MAX_HARD_POD_AFFINITY_WEIGHT:
            raise ValueError(
                f"hardPodAffinityWeight: Invalid value: {weight}: not in valid range "
                f"[{MIN_HARD_POD_AFFINITY_WEIGHT}, {MAX_HARD_POD_AFFINITY_WEIGHT}]"
            )
        self.args = args
        self._skip = Status.skip(self.name)

    def pre_filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState
    ) -> tuple[Status, PreFilterResult | None]:
        prefilter = compute_pre_filter_state(cluster, pod, pod_terms(pod))
        if prefilter is None:
            return self._skip, None
        state[PRE_FILTER_STATE_KEY] = prefilter
        return Status.success(), None

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        prefilter: PreFilterState | None = state.get(PRE_FILTER_STATE_KEY)
        if prefilter is None:
            prefilter = compute_pre_filter_state(cluster, pod, pod_terms(pod))
            if prefilter is None:
                return FilterResult.all_pass()
            state[PRE_FILTER_STATE_KEY] = prefilter
        return filter_nodes(prefilter, nodes)

    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        prescore = compute_pre_score_state(cluster, pod, pod_terms(pod), self.args)
        if prescore is None:
            return self._skip
        state[PRE_SCORE_STATE_KEY] = prescore
        return Status.success()

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        prescore: PreScoreState | None = state.get(PRE_SCORE_STATE_KEY)
        if prescore is None:
            prescore = compute_pre_score_state(cluster, pod, pod_terms(pod), self.args)
            if prescore is None:
                prescore = PreScoreState()
            state[PRE_SCORE_STATE_KEY] = prescore
        return score_nodes(prescore, nodes)

    def normalize_scores(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray:
        return normalize(state.get(PRE_SCORE_STATE_KEY), scores)
