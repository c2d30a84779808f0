"""The (anti-)affinity terms that placed pods carry, and where those pods run.

Upstream keeps the pods "with affinity" per node (NodeInfo.PodsWithAffinity,
PodsWithRequiredAntiAffinity) and walks them every cycle. Pods stamped from
one template carry identical terms, so here placed pods' terms are grouped:
one `CarriedTerm` per distinct (kind, term, weight), counting its carriers
per domain of the term's topology key, kept current by placements. A cycle
then looks at each distinct term once, not at each pod that carries it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.framework.interface import IntArray
from engine.model.objects import Pod
from engine.plugins.interpodaffinity.terms import NO_TERMS, AffinityTerm, pod_terms
from engine.plugins.podindex import (
    AnchoredRegistry,
    LabelProjection,
    NamespaceScope,
    selector_anchors,
    selector_keys,
)

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState

REQUIRED_AFFINITY = "requiredAffinity"
REQUIRED_ANTI_AFFINITY = "requiredAntiAffinity"
PREFERRED_AFFINITY = "preferredAffinity"
PREFERRED_ANTI_AFFINITY = "preferredAntiAffinity"
KINDS = (REQUIRED_AFFINITY, REQUIRED_ANTI_AFFINITY, PREFERRED_AFFINITY, PREFERRED_ANTI_AFFINITY)


@dataclass(slots=True)
class CarriedTerm:
    """One distinct term of placed pods and how many carriers each domain holds."""

    kind: str
    term: AffinityTerm
    weight: int  # 0 for required terms
    domain_ids: list[int]  # domain of term.topology_key per node (-1: no key)
    domain_counts: IntArray  # carriers per domain, plus a trailing 0 for "no key"
    on_keyed_nodes: int = 0  # carriers on nodes that have the topology key
    carriers: int = 0  # carriers anywhere


class ExistingTermsIndex:
    """ClusterState listener grouping placed pods' terms by kind."""

    def __init__(self, cluster: ClusterState) -> None:
        self._cluster = weakref.ref(cluster)
        self._groups: dict[tuple[str, AffinityTerm, int], CarriedTerm] = {}
        self._by_kind: dict[str, list[CarriedTerm]] = {kind: [] for kind in KINDS}
        self._registries: dict[str, AnchoredRegistry] = {kind: AnchoredRegistry() for kind in KINDS}
        self._pod_groups: dict[str, list[CarriedTerm]] = {}
        # Which carried terms match a pod depends on its namespace (and that
        # namespace's labels) and on the label keys the terms read: cached per
        # such class of pods until a new distinct term appears.
        self._projection = LabelProjection()
        self._matching: dict[tuple[str, tuple[str, tuple[str | None, ...]]], list[CarriedTerm]] = {}

    def matching(
        self, kind: str, namespace: str, labels: dict[str, str], namespace_labels: dict[str, str]
    ) -> list[CarriedTerm]:
        """Carried terms of `kind` that match a pod in `namespace` with `labels`
        and have carriers on nodes with their topology key."""
        if not self._by_kind[kind]:
            return []
        key = (kind, self._projection.key_of(namespace, labels))
        found = self._matching.get(key)
        if found is None:
            groups = self._by_kind[kind]
            found = [
                group
                for i in self._registries[kind].candidates(namespace, labels)
                if (group := groups[i]).term.matches(namespace, labels, namespace_labels)
            ]
            self._matching[key] = found
        return [group for group in found if group.on_keyed_nodes > 0]

    def groups(self, kind: str) -> list[CarriedTerm]:
        return self._by_kind[kind]

    # --- listener -----------------------------------------------------------

    def on_pod_added(self, pod: Pod, node: int) -> None:
        terms = pod_terms(pod)
        if terms is NO_TERMS:
            return
        carried = [
            *((REQUIRED_AFFINITY, t, 0) for t in terms.required_affinity),
            *((REQUIRED_ANTI_AFFINITY, t, 0) for t in terms.required_anti_affinity),
            *((PREFERRED_AFFINITY, t, w) for w, t in terms.preferred_affinity),
            *((PREFERRED_ANTI_AFFINITY, t, w) for w, t in terms.preferred_anti_affinity),
        ]
        groups = [self._group(kind, term, weight) for kind, term, weight in carried]
        for group in groups:
            self._count(group, node, 1)
        if groups:
            self._pod_groups[pod.key] = groups

    def on_pod_removed(self, pod: Pod, node: int) -> None:
        for group in self._pod_groups.pop(pod.key, ()):
            self._count(group, node, -1)

    # --- internals ----------------------------------------------------------

    @staticmethod
    def _count(group: CarriedTerm, node: int, delta: int) -> None:
        group.carriers += delta
        domain = group.domain_ids[node]
        if domain >= 0:
            group.domain_counts[domain] += delta
            group.on_keyed_nodes += delta

    def _group(self, kind: str, term: AffinityTerm, weight: int) -> CarriedTerm:
        key = (kind, term, weight)
        group = self._groups.get(key)
        if group is None:
            cluster = self._cluster()
            if cluster is None:  # pragma: no cover - the index dies with its cluster
                raise RuntimeError("the cluster of this index is gone")
            ids, names = cluster.topology(term.topology_key)
            group = CarriedTerm(
                kind, term, weight, ids.tolist(), np.zeros(len(names) + 1, dtype=np.int64)
            )
            self._groups[key] = group
            groups = self._by_kind[kind]
            if term.selector is not None:  # a nil selector matches no pod: never a candidate
                scope = (
                    None if term.namespace_selector is not None else NamespaceScope(term.namespaces)
                )
                self._registries[kind].add(len(groups), selector_anchors(term.selector), scope)
                self._projection.extend(selector_keys(term.selector))
            groups.append(group)
            self._matching.clear()  # the new term may match pods already looked up
        return group


_INDEXES: weakref.WeakKeyDictionary[ClusterState, ExistingTermsIndex] = weakref.WeakKeyDictionary()


_LAST: list[tuple[weakref.ref[ClusterState], ExistingTermsIndex]] = []


def existing_terms_index(cluster: ClusterState) -> ExistingTermsIndex:
    """The index of `cluster`, created and subscribed to placements on first use."""
    if _LAST and _LAST[0][0]() is cluster:
        return _LAST[0][1]
    index = _INDEXES.get(cluster)
    if index is None:
        index = ExistingTermsIndex(cluster)
        _INDEXES[cluster] = index
        cluster.add_listener(index)
    _LAST[:] = [(weakref.ref(cluster), index)]
    return index
