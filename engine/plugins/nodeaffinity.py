"""NodeAffinity: spec.nodeSelector, node affinity and the profile's addedAffinity.

Follows pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go:
- PreFilter: Skip when the pod has no nodeSelector, no required node
  affinity and the profile no added required affinity. When every required
  term names nodes with `matchFields metadata.name In`, the union of those
  names narrows the nodes to filter (PreFilterResult); terms whose names
  contradict each other leave none ("pod affinity terms conflict").
- Filter: the added affinity first ("node(s) didn't match scheduler-enforced
  node affinity"), then the pod's nodeSelector AND required terms
  ("node(s) didn't match Pod's node affinity/selector"); both are
  UnschedulableAndUnresolvable.
- PreScore: Skip without preferred terms (the pod's or the added ones); an
  unparsable preferred term is an error, as upstream.
- Score: summed weights of the matching preferred terms, the added ones
  included; NormalizeScore scales to 0..100 (DefaultNormalizeScore).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.config.args import NodeAffinityArgs
from engine.framework.interface import (
    MAX_NODE_SCORE,
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
from engine.model.objects import NodeSelectorTerm, PreferredSchedulingTerm
from engine.plugins.nodeselector import (
    NODE_NAME_FIELD,
    aggregate_error,
    cluster_cache,
    is_empty_term,
    node_selector_terms_mask,
    preferred_terms_score,
    required_node_affinity_mask,
    term_parse_errors,
)
from engine.plugins.normalize import default_normalize_score

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import NodeAffinity as NodeAffinitySpec
    from engine.model.objects import Pod

ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"

# What PreFilter concludes from the required terms' metadata.name fields.
_CONFLICT = "conflict"
NodeNames = frozenset[str] | str | None


def required_terms_errors(terms: tuple[NodeSelectorTerm, ...], path: str) -> list[str]:
    """nodeaffinity.NewNodeSelector's parse errors (empty terms are skipped)."""
    errors: list[str] = []
    for i, term in enumerate(terms):
        if not is_empty_term(term):
            errors += term_parse_errors(term, f"{path}[{i}]")
    return errors


def preferred_terms_errors(terms: tuple[PreferredSchedulingTerm, ...], path: str = "") -> list[str]:
    """nodeaffinity.NewPreferredSchedulingTerms' parse errors; terms of weight 0
    and empty terms are skipped before parsing."""
    errors: list[str] = []
    for i, term in enumerate(terms):
        if term.weight != 0 and not is_empty_term(term.preference):
            errors += term_parse_errors(term.preference, f"{path}[{i}]")
    return errors


def required_node_names(terms: tuple[NodeSelectorTerm, ...]) -> NodeNames:
    """The node names every term is limited to by `metadata.name In` fields.

    None when some term has no such field (any node may match), a frozenset
    of the union over terms otherwise, or _CONFLICT when that union is empty.
    """
    union: set[str] = set()
    for term in terms:
        term_names: set[str] | None = None
        for req in term.match_fields:
            if req.key == NODE_NAME_FIELD and req.operator == "In":
                # Requirements are ANDed: intersect within the term.
                values = set(req.values)
                term_names = values if term_names is None else term_names & values
        if term_names is None:
            return None
        union |= term_names
    if not terms:
        return None
    return frozenset(union) if union else _CONFLICT


def _node_affinity(pod: Pod) -> NodeAffinitySpec | None:
    return pod.affinity.node_affinity if pod.affinity else None


class NodeAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    name: ClassVar[str] = "NodeAffinity"
    node_local: ClassVar[bool] = True
    reads_placed_pods: ClassVar[bool] = False

    def __init__(self, args: NodeAffinityArgs) -> None:
        added = args.added_affinity
        self.added_required: tuple[NodeSelectorTerm, ...] | None = None
        self.added_preferred: tuple[PreferredSchedulingTerm, ...] = ()
        if added is not None and added.required is not None:
            errors = required_terms_errors(added.required, "nodeSelectorTerms")
            if errors:
                raise ValueError(
                    "parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: "
                    + aggregate_error(errors)
                )
            self.added_required = added.required
        if added is not None and added.preferred:
            errors = preferred_terms_errors(added.preferred)
            if errors:
                raise ValueError(
                    "parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: "
                    + aggregate_error(errors)
                )
            self.added_preferred = added.preferred
        self._skip = Status.skip(self.name)
        self._node_names: dict[tuple[NodeSelectorTerm, ...], NodeNames] = {}
        self._preferred_errors: dict[tuple[PreferredSchedulingTerm, ...], str | None] = {}

    # --- filtering ------------------------------------------------------

    def pre_filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState
    ) -> tuple[Status, PreFilterResult | None]:
        node_affinity = _node_affinity(pod)
        required = node_affinity.required if node_affinity else None
        if required is None and self.added_required is None and not pod.node_selector:
            return self._skip, None
        if not required:
            return Status.success(), None
        if required not in self._node_names:
            self._node_names[required] = required_node_names(required)
        names = self._node_names[required]
        if names == _CONFLICT:
            return Status.unschedulable(self.name, ERR_REASON_CONFLICT, resolvable=False), None
        if isinstance(names, frozenset):
            return Status.success(), PreFilterResult(node_names=names)
        return Status.success(), None

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        result = FilterResult()
        pod_matches = required_node_affinity_mask(cluster, pod)[nodes]
        if self.added_required is not None:
            added_matches = node_selector_terms_mask(cluster, self.added_required)[nodes]
            result.add(~added_matches, ERR_REASON_ENFORCED, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
            # A node reports only the first reason, as upstream's Filter returns it.
            pod_matches = pod_matches | ~added_matches
        result.add(~pod_matches, ERR_REASON_POD, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
        return result

    # --- scoring --------------------------------------------------------

    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        node_affinity = _node_affinity(pod)
        preferred = node_affinity.preferred if node_affinity else ()
        if preferred not in self._preferred_errors:
            errors = preferred_terms_errors(preferred)
            self._preferred_errors[preferred] = aggregate_error(errors) if errors else None
        error = self._preferred_errors[preferred]
        if error is not None:
            return Status.error(self.name, error)
        if not preferred and not self.added_preferred:
            return self._skip
        return Status.success()

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        node_affinity = _node_affinity(pod)
        preferred = node_affinity.preferred if node_affinity else ()
        key = (preferred, self.added_preferred)
        cache = cluster_cache(cluster, "nodeaffinity.scores")
        scores: IntArray | None = cache.get(key)
        if scores is None:
            scores = preferred_terms_score(cluster, preferred)
            if self.added_preferred:
                scores = scores + preferred_terms_score(cluster, self.added_preferred)
            cache[key] = scores
        return scores[nodes]

    def normalize_scores(self, state: CycleState, pod: Pod, scores: IntArray) -> IntArray:
        return default_normalize_score(MAX_NODE_SCORE, False, scores)
