"""Pod (anti-)affinity terms as the scheduler processes them.

Follows pkg/scheduler/framework/types.go (AffinityTerm, newAffinityTerm,
getNamespacesFromPodAffinityTerm, AffinityTerm.Matches) and the API
server's merge of matchLabelKeys / mismatchLabelKeys into the label
selector (pkg/registry/core/pod/strategy.go,
applyMatchLabelKeysAndMismatchLabelKeys), which the engine applies itself
because it reads pod specs that never went through an API server:

- a nil labelSelector matches nothing; an empty one matches everything;
- `key In (value)` is ANDed for each matchLabelKeys key the pod carries,
  `key NotIn (value)` for each mismatchLabelKeys key; keys the pod lacks
  are ignored, and nothing is merged into a nil selector;
- no namespaces and no namespaceSelector mean the pod's own namespace;
- a pod matches a term if its namespace is listed or the namespaceSelector
  matches its namespace's labels, and then the label selector matches it.

For the pod being scheduled, upstream first lists the Namespace objects a
non-empty namespaceSelector matches into `namespaces`
(mergeAffinityTermNamespacesIfNotEmpty); `incoming_clause` does the same
with ClusterState.namespace_labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.model.objects import (
    LabelSelector,
    LabelSelectorRequirement,
    Pod,
    PodAffinity,
    PodAffinityTerm,
)
from engine.plugins.nodeselector import cluster_cache
from engine.plugins.podindex import NamespaceScope, PodMatcher

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState


@dataclass(frozen=True, slots=True)
class AffinityTerm:
    """framework.AffinityTerm: a PodAffinityTerm resolved for the pod that carries it."""

    topology_key: str
    selector: LabelSelector | None  # None: matches nothing
    namespaces: frozenset[str]
    namespace_selector: LabelSelector | None  # None: nothing; empty: every namespace

    def matches(
        self, namespace: str, labels: dict[str, str], namespace_labels: dict[str, str]
    ) -> bool:
        """AffinityTerm.Matches(pod, nsLabels)."""
        if namespace in self.namespaces or (
            self.namespace_selector is not None
            and self.namespace_selector.matches(namespace_labels)
        ):
            return self.selector is not None and self.selector.matches(labels)
        return False


@dataclass(frozen=True, slots=True)
class PodTerms:
    """The four term lists of a pod (framework.PodInfo)."""

    required_affinity: tuple[AffinityTerm, ...] = ()
    required_anti_affinity: tuple[AffinityTerm, ...] = ()
    preferred_affinity: tuple[tuple[int, AffinityTerm], ...] = ()
    preferred_anti_affinity: tuple[tuple[int, AffinityTerm], ...] = ()

    @property
    def has_required(self) -> bool:
        return bool(self.required_affinity or self.required_anti_affinity)

    @property
    def has_preferred(self) -> bool:
        return bool(self.preferred_affinity or self.preferred_anti_affinity)


NO_TERMS = PodTerms()


def merged_selector(term: PodAffinityTerm, labels: dict[str, str]) -> LabelSelector | None:
    """The term's label selector with matchLabelKeys / mismatchLabelKeys merged in."""
    selector = term.label_selector
    if selector is None or not (term.match_label_keys or term.mismatch_label_keys):
        return selector
    extra = [
        LabelSelectorRequirement(key, "In", (labels[key],))
        for key in term.match_label_keys
        if key in labels
    ]
    extra += [
        LabelSelectorRequirement(key, "NotIn", (labels[key],))
        for key in term.mismatch_label_keys
        if key in labels
    ]
    if not extra:
        return selector
    return LabelSelector(selector.match_labels, selector.match_expressions + tuple(extra))


def resolve_term(term: PodAffinityTerm, namespace: str, labels: dict[str, str]) -> AffinityTerm:
    """newAffinityTerm for a pod in `namespace` with `labels`."""
    if not term.namespaces and term.namespace_selector is None:
        namespaces = frozenset((namespace,))
    else:
        namespaces = frozenset(term.namespaces)
    return AffinityTerm(
        term.topology_key, merged_selector(term, labels), namespaces, term.namespace_selector
    )


def _label_keys(affinities: tuple[PodAffinity | None, ...]) -> tuple[str, ...]:
    keys: dict[str, None] = {}
    for affinity in affinities:
        if affinity is None:
            continue
        terms = list(affinity.required) + [w.term for w in affinity.preferred]
        for term in terms:
            keys.update(dict.fromkeys(term.match_label_keys))
            keys.update(dict.fromkeys(term.mismatch_label_keys))
    return tuple(keys)


_LABEL_KEYS: dict[Any, tuple[str, ...]] = {}
_TERMS: dict[Any, PodTerms] = {}


def pod_terms(pod: Pod) -> PodTerms:
    """The pod's processed (anti-)affinity terms, cached by the spec fields they
    depend on (namespace, the two PodAffinity objects, labels named by
    matchLabelKeys / mismatchLabelKeys)."""
    affinity = pod.affinity
    if affinity is None or (affinity.pod_affinity is None and affinity.pod_anti_affinity is None):
        return NO_TERMS
    specs = (affinity.pod_affinity, affinity.pod_anti_affinity)
    keys = _LABEL_KEYS.get(specs)
    if keys is None:
        keys = _label_keys(specs)
        _LABEL_KEYS[specs] = keys
    labels = pod.labels
    cache_key = (pod.namespace, specs, tuple(labels.get(k) for k in keys))
    terms = _TERMS.get(cache_key)
    if terms is None:
        terms = _build_terms(pod.namespace, labels, *specs)
        _TERMS[cache_key] = terms
    return terms


def _build_terms(
    namespace: str,
    labels: dict[str, str],
    pod_affinity: PodAffinity | None,
    pod_anti_affinity: PodAffinity | None,
) -> PodTerms:
    def required(affinity: PodAffinity | None) -> tuple[AffinityTerm, ...]:
        if affinity is None:
            return ()
        return tuple(resolve_term(t, namespace, labels) for t in affinity.required)

    def preferred(affinity: PodAffinity | None) -> tuple[tuple[int, AffinityTerm], ...]:
        if affinity is None:
            return ()
        return tuple(
            (w.weight, resolve_term(w.term, namespace, labels)) for w in affinity.preferred
        )

    return PodTerms(
        required(pod_affinity),
        required(pod_anti_affinity),
        preferred(pod_affinity),
        preferred(pod_anti_affinity),
    )


# --- the incoming pod's terms as matchers over placed pods ---------------------


def incoming_scope(cluster: ClusterState, term: AffinityTerm) -> NamespaceScope:
    """The namespaces an incoming pod's term looks at, with a non-empty
    namespaceSelector unrolled over the cluster's Namespace objects."""
    selector = term.namespace_selector
    if selector is None:
        return NamespaceScope(term.namespaces)
    if selector.is_empty:
        return NamespaceScope(everything=True)
    cache = cluster_cache(cluster, "interpodaffinity.namespaces")
    selected: frozenset[str] | None = cache.get(selector)
    if selected is None:
        selected = frozenset(
            name
            for name, ns_labels in cluster.namespace_labels.items()
            if selector.matches(ns_labels)
        )
        cache[selector] = selected
    return NamespaceScope(term.namespaces | selected)


def incoming_clause(
    cluster: ClusterState, term: AffinityTerm
) -> tuple[NamespaceScope, LabelSelector] | None:
    """The term as one matcher clause, or None when it can match no pod."""
    if term.selector is None:
        return None
    scope = incoming_scope(cluster, term)
    if not scope.everything and not scope.names:
        return None
    return scope, term.selector


def term_matcher(cluster: ClusterState, term: AffinityTerm) -> PodMatcher | None:
    clause = incoming_clause(cluster, term)
    return None if clause is None else PodMatcher((clause,))


def all_terms_matcher(cluster: ClusterState, terms: tuple[AffinityTerm, ...]) -> PodMatcher | None:
    """Pods matching every term at once (podMatchesAllAffinityTerms)."""
    clauses = []
    for term in terms:
        clause = incoming_clause(cluster, term)
        if clause is None:
            return None
        clauses.append(clause)
    return PodMatcher(tuple(clauses)) if clauses else None


def matches_all_own_terms(cluster: ClusterState, pod: Pod, terms: tuple[AffinityTerm, ...]) -> bool:
    """podMatchesAllAffinityTerms(terms, pod) for the pod's own merged terms."""
    if not terms:
        return False
    matcher = all_terms_matcher(cluster, terms)
    return matcher is not None and matcher.matches(pod.namespace, pod.labels)
