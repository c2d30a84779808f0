"""TaintToleration: NoSchedule/NoExecute taints filter, PreferNoSchedule scores.

Follows pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go:
- Filter: a node fails on the first of its NoSchedule/NoExecute taints
  (in node order) that no toleration of the pod tolerates
  (v1helper.FindMatchingUntoleratedTaint), with the reason naming it,
  "node(s) had untolerated taint {key: value}" (upstream up to v1.34;
  v1.35 prints "node(s) had untolerated taint(s)" without the taint).
- Score: the number of PreferNoSchedule taints the pod does not tolerate,
  counting only tolerations with effect PreferNoSchedule or empty;
  NormalizeScore reverses it, so fewer such taints score higher.

Nodes share few distinct taint lists, so the work is done once per distinct
list and per distinct set of tolerations, then spread over nodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from engine.config.args import NoArgs
from engine.framework.interface import (
    MAX_NODE_SCORE,
    BoolArray,
    CycleState,
    FilterPlugin,
    FilterResult,
    IntArray,
    PreScorePlugin,
    ScorePlugin,
)
from engine.framework.status import Code, Status
from engine.model.objects import Taint, Toleration
from engine.plugins.nodeselector import cluster_cache
from engine.plugins.normalize import default_normalize_score

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

DO_NOT_SCHEDULE_EFFECTS = ("NoSchedule", "NoExecute")
PREFER_NO_SCHEDULE = "PreferNoSchedule"


def untolerated_taint_reason(taint: Taint) -> str:
    return f"node(s) had untolerated taint {{{taint.key}: {taint.value}}}"


def find_untolerated_taint(
    taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]
) -> Taint | None:
    """The first NoSchedule/NoExecute taint that no toleration tolerates."""
    for taint in taints:
        if taint.effect in DO_NOT_SCHEDULE_EFFECTS and not any(
            t.tolerates(taint) for t in tolerations
        ):
            return taint
    return None


def count_intolerable_prefer_no_schedule(
    taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]
) -> int:
    relevant = [t for t in tolerations if t.effect in ("", PREFER_NO_SCHEDULE)]
    return sum(
        1
        for taint in taints
        if taint.effect == PREFER_NO_SCHEDULE and not any(t.tolerates(taint) for t in relevant)
    )


@dataclass(frozen=True, slots=True)
class TaintGroups:
    """Nodes grouped by their taint list: group id per node, list per group."""

    group_of_node: IntArray
    taints: tuple[tuple[Taint, ...], ...]


def taint_groups(cluster: ClusterState) -> TaintGroups:
    cache = cluster_cache(cluster, "tainttoleration")
    groups: TaintGroups | None = cache.get("groups")
    if groups is None:
        ids: dict[tuple[Taint, ...], int] = {}
        group_of_node = np.array(
            [ids.setdefault(node.taints, len(ids)) for node in cluster.nodes], dtype=np.int64
        )
        groups = TaintGroups(group_of_node, tuple(ids))
        cache["groups"] = groups
    return groups


@dataclass(frozen=True, slots=True)
class _Verdicts:
    """For one set of tolerations, over all nodes of a cluster."""

    failures: tuple[tuple[str, BoolArray], ...]  # (reason, nodes failing with it)
    prefer_no_schedule_counts: IntArray


class TaintToleration(FilterPlugin, PreScorePlugin, ScorePlugin):
    name: ClassVar[str] = "TaintToleration"
    node_local: ClassVar[bool] = True
    reads_placed_pods: ClassVar[bool] = False

    def __init__(self, args: NoArgs) -> None:
        pass

    def _verdicts(self, cluster: ClusterState, tolerations: tuple[Toleration, ...]) -> _Verdicts:
        cache = cluster_cache(cluster, "tainttoleration.verdicts")
        verdicts: _Verdicts | None = cache.get(tolerations)
        if verdicts is None:
            groups = taint_groups(cluster)
            failing_groups: dict[str, list[int]] = {}
            counts = np.zeros(len(groups.taints), dtype=np.int64)
            for group, taints in enumerate(groups.taints):
                taint = find_untolerated_taint(taints, tolerations)
                if taint is not None:
                    failing_groups.setdefault(untolerated_taint_reason(taint), []).append(group)
                counts[group] = count_intolerable_prefer_no_schedule(taints, tolerations)
            failures = tuple(
                (reason, np.isin(groups.group_of_node, ids))
                for reason, ids in failing_groups.items()
            )
            verdicts = _Verdicts(failures, counts[groups.group_of_node])
            cache[tolerations] = verdicts
        return verdicts

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        result = FilterResult()
        for reason, failing in self._verdicts(cluster, pod.tolerations).failures:
            result.add(failing[nodes], reason, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
        return result

    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        return Status.success()

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        return self._verdicts(cluster, pod.tolerations).prefer_no_schedule_counts[nodes]

    def normalize_scores(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray:
        return default_normalize_score(MAX_NODE_SCORE, True, scores)
