"""PodTopologySpread PreScore, Score and NormalizeScore, vectorised over nodes.

Follows pkg/scheduler/framework/plugins/podtopologyspread/scoring.go:

1. PreScore takes the ScheduleAnyway constraints (common.py); Skip when
   there are none. Nodes must carry every constraint's topology key unless
   the constraints are the System defaults (then a node without a zone
   label still gets hostname spreading, and its zone counts as the value
   ""). Candidate nodes missing a key are ignored: they score 0.
2. Each constraint weighs its counts by log(size + 2), size being the
   number of domains among the candidate nodes (for kubernetes.io/hostname,
   the number of candidate nodes that are not ignored). Counts per domain
   cover every node of the cluster that counts (inclusion policies), but
   only domains that candidate nodes are in; the hostname constraint counts
   the pods on the node itself.
3. Score = round(sum over constraints the node has a key for of
   count * weight + maxSkew - 1), rounding half away from zero.
4. NormalizeScore: with min and max over scored, non-ignored nodes (max
   starting at 0), score = 100 * (max + min - s) / max in integers; all 100
   when max is 0; ignored nodes 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from engine.framework.interface import MAX_NODE_SCORE, BoolArray, IntArray
from engine.plugins.nodeselector import cluster_cache
from engine.plugins.podindex import pod_index
from engine.plugins.podtopologyspread.common import (
    LABEL_HOSTNAME,
    SpreadConstraint,
    has_all_keys_mask,
    inclusion_mask,
    node_affinity_key,
    padded_bincount,
)

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

FloatArray = npt.NDArray[np.float64]

# Go's math.Log (log.go; log_amd64.s performs the same operations in order),
# so that weights, and scores rounding at .5, agree with upstream bit for bit.
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_L1, _L2, _L3 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01
_L4, _L5 = 2.222219843214978396e-01, 1.818357216161805012e-01
_L6, _L7 = 1.531383769920937332e-01, 1.479819860511658591e-01


def go_log(x: float) -> float:
    """math.Log for finite x > 0."""
    f1, ki = math.frexp(x)
    if f1 < math.sqrt(2) / 2:
        f1 *= 2
        ki -= 1
    f = f1 - 1
    k = float(ki)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (_L1 + s4 * (_L3 + s4 * (_L5 + s4 * _L7)))
    t2 = s4 * (_L2 + s4 * (_L4 + s4 * _L6))
    r = t1 + t2
    hfsq = 0.5 * f * f
    return k * _LN2_HI - ((hfsq - (s * (hfsq + r) + k * _LN2_LO)) - f)


def topology_normalizing_weight(size: int) -> float:
    return go_log(float(size + 2))


def round_half_away_from_zero(values: FloatArray) -> IntArray:
    """math.Round for the non-negative scores here."""
    floors = np.floor(values)
    return (floors + (values - floors >= 0.5)).astype(np.int64)


@dataclass(slots=True)
class SoftConstraint:
    domain_ids: IntArray  # real domain per node (-1: node lacks the key)
    weight: float
    max_skew: int
    # kubernetes.io/hostname: matching pods per node; otherwise per bucket.
    node_counts: IntArray | None = None
    bucket_ids: IntArray | None = None
    bucket_counts: IntArray | None = None


@dataclass(slots=True)
class PreScoreState:
    constraints: list[SoftConstraint]
    required_keys: BoolArray | None  # nodes having every key, when that is required
    ignored: BoolArray | None = field(default=None)  # aligned with the scored nodes


def _buckets(cluster: ClusterState, key: str, require_all: bool) -> tuple[IntArray, int]:
    """Domain per node, where a node without the key falls into the domain of
    value "" when keys are not required (upstream reads a missing label as "")."""
    ids, names = cluster.topology(key)
    if require_all or not bool((ids < 0).any()):
        return ids, len(names)
    cache = cluster_cache(cluster, "podtopologyspread.buckets")
    found: tuple[IntArray, int] | None = cache.get(key)
    if found is None:
        empty = names.index("") if "" in names else len(names)
        buckets = np.where(ids < 0, empty, ids)
        found = (buckets, max(len(names), empty + 1))
        cache[key] = found
    return found


def _counting_nodes(
    cluster: ClusterState,
    pod: Pod,
    constraints: tuple[SpreadConstraint, ...],
    required_keys: BoolArray | None,
) -> list[IntArray | None]:
    """Per constraint, the nodes whose pods count (None: all nodes)."""
    cache = cluster_cache(cluster, "podtopologyspread.scoring_nodes")
    cache_key = (
        tuple(c.inclusion for c in constraints),
        required_keys is not None,
        node_affinity_key(pod),
    )
    found: list[IntArray | None] | None = cache.get(cache_key)
    if found is None:
        found = []
        for constraint in constraints:
            mask = inclusion_mask(cluster, pod, constraint)
            if required_keys is not None:
                mask = required_keys if mask is None else mask & required_keys
            found.append(None if mask is None else np.flatnonzero(mask))
        cache[cache_key] = found
    return found


def compute_pre_score_state(
    cluster: ClusterState,
    pod: Pod,
    constraints: tuple[SpreadConstraint, ...],
    require_all: bool,
    nodes: IntArray,
) -> PreScoreState:
    keys = tuple(c.topology_key for c in constraints)
    required_keys = has_all_keys_mask(cluster, keys) if require_all else None
    candidates = nodes[required_keys[nodes]] if required_keys is not None else nodes
    index = pod_index(cluster)
    counting = _counting_nodes(cluster, pod, constraints, required_keys)
    soft = []
    for constraint, counting_nodes in zip(constraints, counting, strict=True):
        key = constraint.topology_key
        ids = cluster.topology(key)[0]
        matcher = constraint.counting_matcher(pod.namespace)
        if key == LABEL_HOSTNAME:
            node_counts = (
                index.node_counts(matcher)
                if matcher is not None
                else np.zeros(cluster.num_nodes, dtype=np.int64)
            )
            weight = topology_normalizing_weight(len(candidates))
            soft.append(SoftConstraint(ids, weight, constraint.max_skew, node_counts=node_counts))
            continue
        buckets, num_buckets = _buckets(cluster, key, require_all)
        present = np.zeros(num_buckets + 1, dtype=bool)
        present[buckets[candidates]] = True
        weight = topology_normalizing_weight(int(np.count_nonzero(present[:num_buckets])))
        if matcher is None:
            counts = np.zeros(num_buckets + 1, dtype=np.int64)
        elif counting_nodes is None:
            node_counts = index.node_counts(matcher)
            counts = padded_bincount(buckets[buckets >= 0], node_counts[buckets >= 0], num_buckets)
        elif buckets is ids and len(counting_nodes) == int(np.count_nonzero(ids >= 0)):
            counts = index.domain_counts(matcher, key)
        else:
            node_counts = index.node_counts(matcher)
            counts = padded_bincount(
                buckets[counting_nodes], node_counts[counting_nodes], num_buckets
            )
        soft.append(
            SoftConstraint(
                ids, weight, constraint.max_skew, bucket_ids=buckets, bucket_counts=counts
            )
        )
    return PreScoreState(soft, required_keys)


def score_nodes(state: PreScoreState, nodes: IntArray) -> IntArray:
    totals = np.zeros(len(nodes), dtype=np.float64)
    for constraint in state.constraints:
        has_key = constraint.domain_ids[nodes] >= 0
        if constraint.node_counts is not None:
            counts = constraint.node_counts[nodes]
        else:
            assert constraint.bucket_ids is not None and constraint.bucket_counts is not None
            counts = constraint.bucket_counts[constraint.bucket_ids[nodes]]
        totals += np.where(
            has_key, counts * constraint.weight + float(constraint.max_skew - 1), 0.0
        )
    scores = round_half_away_from_zero(totals)
    if state.required_keys is not None:
        state.ignored = ~state.required_keys[nodes]
        scores[state.ignored] = 0
    else:
        state.ignored = None
    return scores


def normalize(state: PreScoreState | None, scores: IntArray) -> IntArray:
    if state is None:
        return scores
    valid = np.ones(len(scores), dtype=bool) if state.ignored is None else ~state.ignored
    result = np.zeros(len(scores), dtype=np.int64)
    if not valid.any():
        return result
    kept = scores[valid]
    low = int(kept.min())
    high = max(int(kept.max()), 0)
    if high == 0:
        result[valid] = MAX_NODE_SCORE
    else:
        # Every term is non-negative, so floor division is Go's truncation.
        result[valid] = MAX_NODE_SCORE * (high + low - kept) // high
    return result
