"""One scheduling cycle per pod, as pkg/scheduler/schedule_one.go runs it.

1. PreFilter plugins; a rejection fails the pod with the plugin's message,
   a PreFilterResult narrows the nodes to examine.
2. Filter: nodes are examined in node-tree order starting where the
   previous cycle stopped (nextStartNodeIndex) until numFeasibleNodesToFind
   feasible nodes are found; every node is dropped at its first failing
   plugin. Upstream examines nodes in parallel and may look at a few more;
   this is its sequential reading.
3. One feasible node is taken without scoring. Otherwise PreScore, Score,
   NormalizeScore and the profile weights give each node a total, and the
   highest total wins, ties broken at random (here: a seeded generator).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.cluster.state import ClusterState
from engine.framework.interface import CycleState, IntArray, PreFilterResult
from engine.framework.runtime import Framework
from engine.framework.status import Code
from engine.model.objects import Pod
from engine.scheduler.diagnosis import Diagnosis
from engine.scheduler.equivalence import EquivalenceCache, first_feasible, template_signature
from engine.scheduler.result import (
    SCHEDULED,
    UNSCHEDULABLE,
    FilterVerdict,
    NodeExplanation,
    PodResult,
)

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5
# Nodes filtered per batch beyond the number still needed: big enough to
# amortise numpy calls, small enough not to filter far past the stop point.
_BATCH_SLACK = 64


def num_feasible_nodes_to_find(percentage: int | None, num_all_nodes: int) -> int:
    """Scheduler.numFeasibleNodesToFind, including the adaptive default."""
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return num_all_nodes
    pct = percentage or 0
    if pct == 0:
        pct = max(50 - num_all_nodes // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
    return max(num_all_nodes * pct // 100, MIN_FEASIBLE_NODES_TO_FIND)


@dataclass(slots=True)
class FilterOutcome:
    feasible: IntArray
    diagnosis: Diagnosis
    processed: int
    verdicts: dict[int, FilterVerdict] = field(default_factory=dict)


class SchedulingCycle:
    """Runs cycles for pods against one cluster; owns nextStartNodeIndex."""

    def __init__(
        self,
        cluster: ClusterState,
        global_percentage_of_nodes_to_score: int | None,
        rng: np.random.Generator,
    ) -> None:
        self.cluster = cluster
        self.global_percentage = global_percentage_of_nodes_to_score
        self.rng = rng
        self.next_start_node_index = 0
        self.equivalence = EquivalenceCache(cluster)

    def schedule(self, fwk: Framework, pod: Pod, explain: bool = False) -> PodResult:
        cluster = self.cluster
        num_all = cluster.num_nodes
        state = CycleState()
        if num_all == 0:
            return PodResult(pod, UNSCHEDULABLE, message="no nodes available to schedule pods")

        diagnosis = Diagnosis()
        narrowed: PreFilterResult | None = None
        skipped: set[str] = set()
        narrowing_plugins: list[str] = []
        for plugin in fwk.pre_filter:
            status, result = plugin.pre_filter(state, pod, cluster)
            if status.code == Code.SKIP:
                skipped.add(plugin.name)
                continue
            if not status.ok:
                diagnosis.pre_filter_message = status.message
                diagnosis.unschedulable_plugins.add(plugin.name)
                return self._unschedulable(pod, diagnosis, num_all, 0, {})
            if result is not None and result.node_names is not None:
                narrowing_plugins.append(plugin.name)
                if narrowed is None or narrowed.node_names is None:
                    narrowed = result
                else:
                    narrowed = PreFilterResult(narrowed.node_names & result.node_names)
        if narrowed is None and not explain:
            fast = self._schedule_from_cache(fwk, pod, state, skipped)
            if fast is not None:
                return fast
        candidates = np.arange(num_all, dtype=np.int64)
        if narrowed is not None and narrowed.node_names is not None:
            if not narrowed.node_names:
                plugins = narrowing_plugins
                diagnosis.pre_filter_message = (
                    f"node(s) didn't satisfy plugin {plugins[0]}"
                    if len(plugins) == 1
                    else f"node(s) didn't satisfy plugin(s) [{' '.join(plugins)}] simultaneously"
                )
                diagnosis.unschedulable_plugins.update(plugins)
                return self._unschedulable(pod, diagnosis, num_all, 0, {})
            candidates = np.array(
                sorted(
                    cluster.node_index[n] for n in narrowed.node_names if n in cluster.node_index
                ),
                dtype=np.int64,
            )
            diagnosis.absent_reason = (
                f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(narrowing_plugins))}]"
            )
            diagnosis.absent_count = num_all - len(candidates)

        outcome = self._find_feasible(fwk, pod, state, candidates, skipped, diagnosis, explain)
        self.next_start_node_index = (self.next_start_node_index + outcome.processed) % num_all
        feasible = outcome.feasible
        evaluated = outcome.processed
        details: dict[int, NodeExplanation] = {}
        if explain:
            details = {i: NodeExplanation(filter=v) for i, v in outcome.verdicts.items()}
            for i in feasible.tolist():
                details[i] = NodeExplanation()

        if len(feasible) == 0:
            return self._unschedulable(pod, diagnosis, num_all, evaluated, details)
        if len(feasible) == 1:
            chosen = int(feasible[0])
        else:
            chosen = self._prioritize(fwk, pod, state, feasible, details if explain else None)
        return PodResult(
            pod,
            SCHEDULED,
            node=cluster.nodes[chosen].name,
            evaluated_nodes=evaluated,
            feasible_nodes=len(feasible),
            explain=self._named(details) if explain else None,
        )

    # --- filtering ------------------------------------------------------

    def _to_find(self, fwk: Framework, num_candidates: int) -> int:
        if not fwk.has_score_plugins:
            return 1
        percentage = (
            fwk.percentage_of_nodes_to_score
            if fwk.percentage_of_nodes_to_score is not None
            else self.global_percentage
        )
        return num_feasible_nodes_to_find(percentage, num_candidates)

    def _schedule_from_cache(
        self, fwk: Framework, pod: Pod, state: CycleState, skipped: set[str]
    ) -> PodResult | None:
        """The decision from per-template caches when every active filter is
        node-local; None when the pod needs the full path (no feasible node:
        the full path then builds the diagnosis)."""
        filters = [p for p in fwk.filter if p.name not in skipped]
        if not filters or not all(p.node_local for p in filters):
            return None
        signature = template_signature(pod)
        key = (id(fwk), signature, tuple(p.name for p in filters))
        fits = self.equivalence.feasible(key, filters, state, pod)
        num_all = self.cluster.num_nodes
        feasible, processed = first_feasible(
            fits, self.next_start_node_index, self._to_find(fwk, num_all)
        )
        if len(feasible) == 0:
            return None
        self.next_start_node_index = (self.next_start_node_index + processed) % num_all
        if len(feasible) == 1:
            chosen = int(feasible[0])
        else:
            chosen = self._prioritize(fwk, pod, state, feasible, None, signature)
        return PodResult(
            pod,
            SCHEDULED,
            node=self.cluster.nodes[chosen].name,
            evaluated_nodes=processed,
            feasible_nodes=len(feasible),
        )

    def _find_feasible(
        self,
        fwk: Framework,
        pod: Pod,
        state: CycleState,
        candidates: IntArray,
        skipped: set[str],
        diagnosis: Diagnosis,
        explain: bool,
    ) -> FilterOutcome:
        num_candidates = len(candidates)
        to_find = self._to_find(fwk, num_candidates)
        start = self.next_start_node_index
        order = candidates[(start + np.arange(num_candidates)) % num_candidates]
        filters = [p for p in fwk.filter if p.name not in skipped]
        if not fwk.has_filter_plugins:
            return FilterOutcome(order[:to_find], diagnosis, min(to_find, num_candidates))

        outcome = FilterOutcome(np.empty(0, dtype=np.int64), diagnosis, 0)
        found: list[IntArray] = []
        n_found = 0
        pos = 0
        while pos < num_candidates and n_found < to_find:
            batch = order[pos : pos + (to_find - n_found) + _BATCH_SLACK]
            alive = np.ones(len(batch), dtype=bool)
            rejections: list[tuple[IntArray, str, str, Code]] = []
            for plugin in filters:
                idx = np.flatnonzero(alive)
                if len(idx) == 0:
                    break
                result = plugin.filter(state, pod, self.cluster, batch[idx])
                if not result.failures:
                    continue
                failed = np.zeros(len(idx), dtype=bool)
                for failure in result.failures:
                    failed |= failure.mask
                    rejections.append(
                        (idx[failure.mask], plugin.name, failure.reason, failure.code)
                    )
                alive[idx[failed]] = False
            passing = np.flatnonzero(alive)
            if n_found + len(passing) >= to_find:
                # Stop right after the node that completes the feasible set.
                cut = int(passing[to_find - n_found - 1]) + 1
                passing = passing[: to_find - n_found]
            else:
                cut = len(batch)
            for positions, plugin_name, reason, code in rejections:
                positions = positions[positions < cut]
                if len(positions):
                    nodes = batch[positions]
                    diagnosis.reject(nodes, plugin_name, reason, code)
                    if explain:
                        for node in nodes.tolist():
                            verdict = outcome.verdicts.get(node)
                            if verdict is None:
                                outcome.verdicts[node] = FilterVerdict(plugin_name, (reason,))
                            else:
                                verdict.reasons += (reason,)
            found.append(batch[passing])
            n_found += len(passing)
            pos += cut
        outcome.feasible = np.concatenate(found) if found else outcome.feasible
        outcome.processed = pos
        return outcome

    # --- scoring --------------------------------------------------------

    def _prioritize(
        self,
        fwk: Framework,
        pod: Pod,
        state: CycleState,
        feasible: IntArray,
        details: dict[int, NodeExplanation] | None,
        signature: int | None = None,
    ) -> int:
        if not fwk.has_score_plugins:
            totals = np.ones(len(feasible), dtype=np.int64)
        else:
            skipped = set()
            for pre_score in fwk.pre_score:
                status = pre_score.pre_score(state, pod, self.cluster, feasible)
                if status.code == Code.SKIP:
                    skipped.add(pre_score.name)
            totals = np.zeros(len(feasible), dtype=np.int64)
            fwk_id = id(fwk)
            for weighted in fwk.score:
                plugin = weighted.plugin
                if plugin.name in skipped:
                    continue
                if signature is not None and plugin.node_local:
                    key = (fwk_id, plugin.name, signature)
                    raw = self.equivalence.raw_scores(key, plugin, state, pod, feasible)
                else:
                    raw = plugin.score(state, pod, self.cluster, feasible)
                normalized = (
                    plugin.normalize_scores(state, pod, raw) if weighted.normalizes else raw
                )
                totals += normalized * weighted.weight
                if details is not None:
                    for node, value in zip(feasible.tolist(), normalized.tolist(), strict=True):
                        details[node].scores[plugin.name] = value
        if details is not None:
            for node, total in zip(feasible.tolist(), totals.tolist(), strict=True):
                details[node].total = total
        best = np.flatnonzero(totals == totals.max())
        if len(best) == 1:
            return int(feasible[best[0]])
        return int(feasible[best[self.rng.integers(len(best))]])

    # --- results --------------------------------------------------------

    def _unschedulable(
        self,
        pod: Pod,
        diagnosis: Diagnosis,
        num_all: int,
        evaluated: int,
        details: dict[int, NodeExplanation],
    ) -> PodResult:
        return PodResult(
            pod,
            UNSCHEDULABLE,
            message=diagnosis.fit_error(num_all),
            unschedulable_plugins=tuple(sorted(diagnosis.unschedulable_plugins)),
            evaluated_nodes=evaluated,
            explain=self._named(details) if details else None,
        )

    def _named(self, details: dict[int, NodeExplanation]) -> dict[str, NodeExplanation]:
        nodes = self.cluster.nodes
        return {nodes[i].name: details[i] for i in sorted(details)}
