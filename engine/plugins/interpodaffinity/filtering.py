"""InterPodAffinity PreFilter and Filter, vectorised over nodes.

Follows pkg/scheduler/framework/plugins/interpodaffinity/filtering.go with
the InterPodAffinityHostnameFastPath gate at its default (off), where every
term, hostname-scoped or not, is counted per topology domain:

1. PreFilter counts, per domain of each term's topology key,
   - placed pods carrying a required anti-affinity term that matches the
     incoming pod (existingClusterWideAntiAffinityCounts),
   - placed pods matching ALL of the incoming pod's required affinity terms
     (clusterWideAffinityCounts), and
   - placed pods matching each required anti-affinity term of the incoming
     pod (clusterWideAntiAffinityCounts).
   It returns Skip when the pod has no required terms and no placed pod's
   anti-affinity term matches it.
2. Filter rejects a node, first failure wins:
   - UnschedulableAndUnresolvable "node(s) didn't match pod affinity rules"
     when it lacks a term's topology key, or some term's domain has no
     matching pod, unless no pod matches anywhere and the pod matches its
     own terms (the first pod of a self-affine group);
   - Unschedulable "node(s) didn't match pod anti-affinity rules" when a
     term's domain holds a matching pod;
   - Unschedulable "node(s) didn't satisfy existing pods anti-affinity
     rules" when the node's domain of such a term holds its carrier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from engine.framework.interface import BoolArray, FilterResult, IntArray
from engine.framework.status import Code
from engine.plugins.interpodaffinity.index import REQUIRED_ANTI_AFFINITY, existing_terms_index
from engine.plugins.interpodaffinity.terms import (
    PodTerms,
    all_terms_matcher,
    matches_all_own_terms,
    term_matcher,
)
from engine.plugins.podindex import pod_index

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = (
    "node(s) didn't satisfy existing pods anti-affinity rules"
)
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"

# (domain id per node, matching pods per domain with a trailing 0 for "no key")
DomainCounts = tuple[IntArray, IntArray]


@dataclass(slots=True)
class PreFilterState:
    affinity: list[DomainCounts] = field(default_factory=list)
    # No placed pod matches all affinity terms on a node with a term's key.
    affinity_counts_empty: bool = True
    matches_own_affinity: bool = False
    anti_affinity: list[DomainCounts] = field(default_factory=list)
    existing_anti_affinity: list[DomainCounts] = field(default_factory=list)


def _zeros(cluster: ClusterState, key: str) -> DomainCounts:
    ids, names = cluster.topology(key)
    return ids, np.zeros(len(names) + 1, dtype=np.int64)


def compute_pre_filter_state(
    cluster: ClusterState, pod: Pod, terms: PodTerms
) -> PreFilterState | None:
    """The counts Filter reads, or None when the plugin has nothing to check."""
    namespace_labels = cluster.namespace_labels.get(pod.namespace, {})
    existing: dict[str, IntArray] = {}
    for group in existing_terms_index(cluster).matching(
        REQUIRED_ANTI_AFFINITY, pod.namespace, pod.labels, namespace_labels
    ):
        key = group.term.topology_key
        total = existing.get(key)
        existing[key] = group.domain_counts.copy() if total is None else total + group.domain_counts
    if not existing and not terms.has_required:
        return None
    state = PreFilterState()
    state.existing_anti_affinity = [(cluster.topology(k)[0], c) for k, c in existing.items()]

    index = pod_index(cluster)
    if terms.required_affinity:
        matcher = all_terms_matcher(cluster, terms.required_affinity)
        for term in terms.required_affinity:
            key = term.topology_key
            if matcher is None:
                state.affinity.append(_zeros(cluster, key))
                continue
            counts = index.domain_counts(matcher, key)
            state.affinity.append((cluster.topology(key)[0], counts))
            if counts.any():
                state.affinity_counts_empty = False
        state.matches_own_affinity = matches_all_own_terms(cluster, pod, terms.required_affinity)
    for term in terms.required_anti_affinity:
        matcher = term_matcher(cluster, term)
        if matcher is not None:
            counts = index.domain_counts(matcher, term.topology_key)
            if counts.any():
                state.anti_affinity.append((cluster.topology(term.topology_key)[0], counts))
    return state


def _any_domain_occupied(entries: list[DomainCounts], nodes: IntArray) -> BoolArray:
    occupied = np.zeros(len(nodes), dtype=bool)
    for ids, counts in entries:
        occupied |= counts[ids[nodes]] > 0
    return occupied


def filter_nodes(state: PreFilterState, nodes: IntArray) -> FilterResult:
    result = FilterResult()
    decided = np.zeros(len(nodes), dtype=bool)
    if state.affinity:
        satisfied = np.ones(len(nodes), dtype=bool)
        has_all_keys = np.ones(len(nodes), dtype=bool)
        for ids, counts in state.affinity:
            domains = ids[nodes]
            has_key = domains >= 0
            has_all_keys &= has_key
            satisfied &= has_key & (counts[domains] > 0)
        if state.affinity_counts_empty and state.matches_own_affinity:
            satisfied |= has_all_keys
        decided = ~satisfied
        result.add(
            decided, ERR_REASON_AFFINITY_RULES_NOT_MATCH, Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        )
    if state.anti_affinity:
        failing = _any_domain_occupied(state.anti_affinity, nodes) & ~decided
        result.add(failing, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, Code.UNSCHEDULABLE)
        decided = decided | failing
    if state.existing_anti_affinity:
        failing = _any_domain_occupied(state.existing_anti_affinity, nodes) & ~decided
        result.add(failing, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, Code.UNSCHEDULABLE)
    return result
