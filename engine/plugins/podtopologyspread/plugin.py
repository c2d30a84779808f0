"""PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread/plugin.go).

DoNotSchedule constraints filter nodes (filtering.py), ScheduleAnyway
constraints score them (scoring.py); pods without constraints get the
default constraints (common.py). Matching placed pods are counted through
the incremental index of engine/plugins/podindex.py, never walked per cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from engine.config.args import LIST_DEFAULTING, SYSTEM_DEFAULTING, PodTopologySpreadArgs
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
from engine.plugins.podtopologyspread import filtering, scoring
from engine.plugins.podtopologyspread.common import (
    DO_NOT_SCHEDULE,
    SCHEDULE_ANYWAY,
    SYSTEM_DEFAULT_CONSTRAINTS,
    SpreadConstraint,
    default_constraints,
    own_constraints,
    service_label_keys,
)

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod, TopologySpreadConstraint

NAME = "PodTopologySpread"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME


class PodTopologySpread(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    name: ClassVar[str] = NAME

    def __init__(self, args: PodTopologySpreadArgs | None = None) -> None:
        args = args if args is not None else PodTopologySpreadArgs()
        # validation.ValidatePodTopologySpreadArgs (validateDefaultingType); the
        # configuration loader reports these with file and line first.
        if args.defaulting_type not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
            raise ValueError(
                f'defaultingType: Unsupported value: "{args.defaulting_type}": '
                f'supported values: "{SYSTEM_DEFAULTING}", "{LIST_DEFAULTING}"'
            )
        if args.defaulting_type == SYSTEM_DEFAULTING and args.default_constraints:
            raise ValueError(
                f'defaultingType: Invalid value: "{SYSTEM_DEFAULTING}": '
                "when .defaultConstraints are not empty"
            )
        self.args = args
        self._skip = Status.skip(self.name)
        self.system_defaulted = args.defaulting_type == SYSTEM_DEFAULTING
        self.default_constraints: tuple[TopologySpreadConstraint, ...] = (
            SYSTEM_DEFAULT_CONSTRAINTS if self.system_defaulted else args.default_constraints
        )
        self._defaults_by_action = {
            action: tuple(c for c in self.default_constraints if c.when_unsatisfiable == action)
            for action in (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY)
        }
        self._defaults_cluster: ClusterState | None = None
        self._defaults_memo: dict[tuple[object, ...], tuple[SpreadConstraint, ...]] = {}
        self._service_keys: tuple[str, ...] = ()

    def constraints(
        self, cluster: ClusterState, pod: Pod, action: str
    ) -> tuple[SpreadConstraint, ...]:
        """getConstraints: the pod's own constraints of `action`, else the defaults."""
        if pod.topology_spread_constraints:
            return own_constraints(pod, action)
        defaults = self._defaults_by_action[action]
        if not defaults:
            return ()
        # Asked twice per pod (PreFilter, PreScore) and alike for the pods of
        # one controller: remembered per what DefaultSelector reads. The
        # cluster's controllers do not change during a run.
        if cluster is not self._defaults_cluster:
            self._defaults_cluster = cluster
            self._defaults_memo.clear()
            self._service_keys = service_label_keys(cluster)
        owner = pod.owner
        labels = pod.labels
        key = (
            action,
            pod.namespace,
            (owner.kind, owner.name) if owner is not None else None,
            tuple([labels.get(k) for k in self._service_keys]),
        )
        found = self._defaults_memo.get(key)
        if found is None:
            found = default_constraints(cluster, pod, defaults, action)
            if len(self._defaults_memo) > 4096:  # about two entries per controller
                self._defaults_memo.clear()
            self._defaults_memo[key] = found
        return found

    # --- filtering ----------------------------------------------------------

    def pre_filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState
    ) -> tuple[Status, PreFilterResult | None]:
        constraints = self.constraints(cluster, pod, DO_NOT_SCHEDULE)
        if not constraints:
            return self._skip, None
        state[PRE_FILTER_STATE_KEY] = filtering.compute_pre_filter_state(cluster, pod, constraints)
        return Status.success(), None

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        checks: list[filtering.ConstraintCheck] | None = state.get(PRE_FILTER_STATE_KEY)
        if checks is None:
            constraints = self.constraints(cluster, pod, DO_NOT_SCHEDULE)
            checks = filtering.compute_pre_filter_state(cluster, pod, constraints)
            state[PRE_FILTER_STATE_KEY] = checks
        return filtering.filter_nodes(checks, nodes)

    # --- scoring ------------------------------------------------------------

    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        prescore = self._pre_score_state(cluster, pod, nodes)
        if prescore is None:
            return self._skip
        state[PRE_SCORE_STATE_KEY] = prescore
        return Status.success()

    def _pre_score_state(
        self, cluster: ClusterState, pod: Pod, nodes: IntArray
    ) -> scoring.PreScoreState | None:
        if cluster.num_nodes == 0:
            return None
        constraints = self.constraints(cluster, pod, SCHEDULE_ANYWAY)
        if not constraints:
            return None
        # Only non-system-default constraints need every topology key on a node,
        # so that nodes without a zone label still get hostname spreading.
        require_all = bool(pod.topology_spread_constraints) or not self.system_defaulted
        return scoring.compute_pre_score_state(cluster, pod, constraints, require_all, nodes)

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        prescore: scoring.PreScoreState | None = state.get(PRE_SCORE_STATE_KEY)
        if prescore is None:
            # Score without PreScore (upstream would not call it): nothing to spread.
            prescore = self._pre_score_state(cluster, pod, nodes)
            if prescore is None:
                return np.zeros(len(nodes), dtype=np.int64)
            state[PRE_SCORE_STATE_KEY] = prescore
        return scoring.score_nodes(prescore, nodes)

    def normalize_scores(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray:
        return scoring.normalize(state.get(PRE_SCORE_STATE_KEY), scores)
