"""InterPodAffinity PreScore, Score and NormalizeScore, vectorised over nodes.

Follows pkg/scheduler/framework/plugins/interpodaffinity/scoring.go. Per
topology domain, PreScore sums:
- +weight for each placed pod matching a preferred affinity term of the
  incoming pod, -weight for a preferred anti-affinity term;
- +hardPodAffinityWeight for each placed pod whose required affinity term
  the incoming pod matches (when that weight is above 0);
- +weight / -weight for each placed pod whose preferred affinity /
  anti-affinity term the incoming pod matches.
A node scores the sum over topology keys of its domains' totals.
PreScore returns Skip when ignorePreferredTermsOfExistingPods is set and the
pod has no preferred terms, or when nothing matched at all.

NormalizeScore: score = int(100 * (s - min) / (max - min)) in float64 as
upstream computes it, 0 for every node when max == min.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from engine.config.args import InterPodAffinityArgs
from engine.framework.interface import MAX_NODE_SCORE, IntArray
from engine.plugins.interpodaffinity.index import (
    PREFERRED_AFFINITY,
    PREFERRED_ANTI_AFFINITY,
    REQUIRED_AFFINITY,
    existing_terms_index,
)
from engine.plugins.interpodaffinity.terms import PodTerms, term_matcher
from engine.plugins.podindex import pod_index

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod


_EXISTING_KINDS = ((REQUIRED_AFFINITY, 1), (PREFERRED_AFFINITY, 1), (PREFERRED_ANTI_AFFINITY, -1))


@dataclass(slots=True)
class PreScoreState:
    # topology key -> (domain id per node, score per domain with a trailing 0)
    topology_score: dict[str, tuple[IntArray, IntArray]] = field(default_factory=dict)


def compute_pre_score_state(
    cluster: ClusterState, pod: Pod, terms: PodTerms, args: InterPodAffinityArgs
) -> PreScoreState | None:
    """The per-domain scores, or None (Skip) when no term matched any pod."""
    if args.ignore_preferred_terms_of_existing_pods and not terms.has_preferred:
        return None
    existing = existing_terms_index(cluster)
    if not terms.has_preferred and not any(existing.groups(kind) for kind, _ in _EXISTING_KINDS):
        return None  # the usual case: nothing could contribute
    # (topology key, matching pods per domain, weight to multiply them by)
    contributions: list[tuple[str, IntArray, int]] = []
    if terms.has_preferred:
        index = pod_index(cluster)
        for sign, weighted in ((1, terms.preferred_affinity), (-1, terms.preferred_anti_affinity)):
            for weight, term in weighted:
                matcher = term_matcher(cluster, term)
                if matcher is None:
                    continue
                counts = index.domain_counts(matcher, term.topology_key)
                if counts.any():
                    contributions.append((term.topology_key, counts, sign * weight))

    namespace_labels = cluster.namespace_labels.get(pod.namespace, {})
    for kind, sign in _EXISTING_KINDS:
        if kind == REQUIRED_AFFINITY and args.hard_pod_affinity_weight <= 0:
            continue
        for group in existing.matching(kind, pod.namespace, pod.labels, namespace_labels):
            weight = args.hard_pod_affinity_weight if kind == REQUIRED_AFFINITY else group.weight
            contributions.append((group.term.topology_key, group.domain_counts, sign * weight))

    if not contributions:
        return None
    state = PreScoreState()
    for key, counts, multiplier in contributions:
        entry = state.topology_score.get(key)
        if entry is None:
            ids, names = cluster.topology(key)
            entry = (ids, np.zeros(len(names) + 1, dtype=np.int64))
            state.topology_score[key] = entry
        entry[1][:] += multiplier * counts
    return state


def score_nodes(state: PreScoreState, nodes: IntArray) -> IntArray:
    scores = np.zeros(len(nodes), dtype=np.int64)
    for ids, domain_scores in state.topology_score.values():
        scores += domain_scores[ids[nodes]]
    return scores


def normalize(state: PreScoreState | None, scores: IntArray) -> IntArray:
    if state is None or not state.topology_score or len(scores) == 0:
        return scores
    low, high = int(scores.min()), int(scores.max())
    spread = high - low
    if spread <= 0:
        return np.zeros_like(scores)
    fractions = (scores - low).astype(np.float64) / float(spread)
    return (float(MAX_NODE_SCORE) * fractions).astype(np.int64)
