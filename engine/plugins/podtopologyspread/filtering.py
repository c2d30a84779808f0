"""PodTopologySpread PreFilter and Filter, vectorised over nodes.

Follows pkg/scheduler/framework/plugins/podtopologyspread/filtering.go:

1. PreFilter takes the DoNotSchedule constraints (common.py) and returns
   Skip when there are none. For each constraint it counts matching placed
   pods per domain over the nodes that count (they have every constraint's
   key and pass the constraint's inclusion policies); those nodes' domains
   are the eligible domains. The global minimum is the smallest count over
   eligible domains, or 0 when there are fewer of them than minDomains.
2. Filter checks the constraints in order, the first failure deciding:
   a node without the topology key fails UnschedulableAndUnresolvable
   "node(s) didn't match pod topology spread constraints (missing required
   label)"; a node where
       count in its domain + (1 if the pod matches the selector) - minimum
   exceeds maxSkew fails Unschedulable "node(s) didn't match pod topology
   spread constraints". A domain that is not eligible counts 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.framework.interface import BoolArray, FilterResult, IntArray
from engine.framework.status import Code
from engine.plugins.nodeselector import cluster_cache
from engine.plugins.podindex import pod_index
from engine.plugins.podtopologyspread.common import (
    SpreadConstraint,
    has_all_keys_mask,
    inclusion_mask,
    node_affinity_key,
    padded_bincount,
)

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"

MAX_INT32 = 2**31 - 1


@dataclass(frozen=True, slots=True)
class EligibleNodes:
    """The nodes that count for one constraint and the domains they form."""

    domain_ids: IntArray  # domain per node of the whole cluster (-1: no key)
    num_domains: int  # domains of the topology key in the cluster
    nodes: IntArray  # node indices that count
    node_domains: IntArray  # their domains
    eligible_domains: BoolArray  # per domain: some counting node is in it
    all_keyed_nodes: bool  # every node with the key counts


def eligible_nodes(
    cluster: ClusterState, pod: Pod, constraints: tuple[SpreadConstraint, ...]
) -> tuple[EligibleNodes, ...]:
    """Per constraint, cached per pod spec (nodes do not change during a run)."""
    cache = cluster_cache(cluster, "podtopologyspread.eligible")
    keys = tuple(c.topology_key for c in constraints)
    cache_key = (tuple(c.inclusion for c in constraints), node_affinity_key(pod))
    found: tuple[EligibleNodes, ...] | None = cache.get(cache_key)
    if found is None:
        has_all_keys = has_all_keys_mask(cluster, keys)
        result = []
        for constraint in constraints:
            ids, names = cluster.topology(constraint.topology_key)
            mask = inclusion_mask(cluster, pod, constraint)
            counting = has_all_keys if mask is None else has_all_keys & mask
            nodes = np.flatnonzero(counting)
            node_domains = ids[nodes]
            eligible = np.zeros(len(names), dtype=bool)
            eligible[node_domains] = True
            result.append(
                EligibleNodes(
                    ids,
                    len(names),
                    nodes,
                    node_domains,
                    eligible,
                    len(nodes) == int(np.count_nonzero(ids >= 0)),
                )
            )
        found = tuple(result)
        cache[cache_key] = found
    return found


@dataclass(frozen=True, slots=True)
class ConstraintCheck:
    """What Filter needs for one constraint."""

    domain_ids: IntArray
    domain_counts: IntArray  # matching pods per domain, trailing 0 for "no key"
    max_skew: int
    self_match: int
    min_match: int


def compute_pre_filter_state(
    cluster: ClusterState, pod: Pod, constraints: tuple[SpreadConstraint, ...]
) -> list[ConstraintCheck]:
    index = pod_index(cluster)
    checks = []
    for constraint, eligible in zip(
        constraints, eligible_nodes(cluster, pod, constraints), strict=True
    ):
        matcher = constraint.counting_matcher(pod.namespace)
        if matcher is None:
            counts = np.zeros(eligible.num_domains + 1, dtype=np.int64)
        elif eligible.all_keyed_nodes:
            counts = index.domain_counts(matcher, constraint.topology_key)
        else:
            node_counts = index.node_counts(matcher)
            counts = padded_bincount(
                eligible.node_domains, node_counts[eligible.nodes], eligible.num_domains
            )
        domains = int(np.count_nonzero(eligible.eligible_domains))
        if domains < constraint.min_domains:
            min_match = 0
        elif domains == 0:
            min_match = MAX_INT32
        else:
            min_match = int(counts[:-1][eligible.eligible_domains].min())
        checks.append(
            ConstraintCheck(
                eligible.domain_ids,
                counts,
                constraint.max_skew,
                1 if constraint.matches_pod(pod.labels) else 0,
                min_match,
            )
        )
    return checks


def filter_nodes(checks: list[ConstraintCheck], nodes: IntArray) -> FilterResult:
    result = FilterResult()
    missing_label = np.zeros(len(nodes), dtype=bool)
    too_skewed = np.zeros(len(nodes), dtype=bool)
    decided = np.zeros(len(nodes), dtype=bool)
    for check in checks:
        domains = check.domain_ids[nodes]
        has_key = domains >= 0
        missing = ~has_key & ~decided
        missing_label |= missing
        skew = check.domain_counts[domains] + check.self_match - check.min_match
        skewed = has_key & (skew > check.max_skew) & ~decided
        too_skewed |= skewed
        decided |= missing | skewed
    result.add(missing_label, ERR_REASON_NODE_LABEL_NOT_MATCH, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
    result.add(too_skewed, ERR_REASON_CONSTRAINTS_NOT_MATCH, Code.UNSCHEDULABLE)
    return result
