"""Placed pods indexed by label selector, kept current as pods come and go.

InterPodAffinity and PodTopologySpread ask the same question every cycle:
how many placed pods matching a selector run on each node (and so in each
topology domain)? Upstream walks every pod of the snapshot per cycle; a
simulator placing tens of thousands of pods cannot. Instead:

1. Placed pods are grouped into *classes*: pods in one namespace that agree
   on every label key some registered selector reads. Pods stamped from one
   template share a class even when a label like a Job completion index
   tells them apart. A selector reading a new key regroups the placed pods
   once (rare: selectors reuse a handful of keys).
2. A *matcher* (namespace scope + label selector clauses, ANDed) is
   registered the first time someone asks about it: its per-node count is
   built once from the classes it matches, then kept current by
   `on_pod_added` / `on_pod_removed` (a ClusterState listener).
3. Per-domain counts for (matcher, topology key) are registered the same
   way, as arrays of length `domains + 1` whose last slot stays 0, so that
   `counts[domain_ids]` works for nodes without the key (domain id -1).

Classes and matchers find each other through "anchors" (a label pair every
matching pod must carry), so neither a new class nor a new matcher is
checked against everything.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.framework.interface import IntArray
from engine.model.objects import LabelSelector, Pod

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState

LabelPair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class NamespaceScope:
    """The namespaces a term or constraint looks at (all of them if `everything`)."""

    names: frozenset[str] = frozenset()
    everything: bool = False

    def contains(self, namespace: str) -> bool:
        return self.everything or namespace in self.names


@dataclass(frozen=True, slots=True)
class PodMatcher:
    """Pods whose namespace and labels satisfy every clause."""

    clauses: tuple[tuple[NamespaceScope, LabelSelector], ...]

    def matches(self, namespace: str, labels: dict[str, str]) -> bool:
        for scope, selector in self.clauses:
            if not scope.contains(namespace) or not selector.matches(labels):
                return False
        return True


def selector_anchors(selector: LabelSelector) -> tuple[LabelPair, ...] | None:
    """Label pairs of which every pod the selector matches carries one, or None."""
    if selector.match_labels:
        return (selector.match_labels[0],)
    for req in selector.match_expressions:
        if req.operator == "In" and req.values:
            return tuple((req.key, value) for value in dict.fromkeys(req.values))
    return None


def selector_keys(selector: LabelSelector) -> tuple[str, ...]:
    """The label keys a selector reads."""
    keys = [key for key, _ in selector.match_labels]
    keys += [req.key for req in selector.match_expressions]
    return tuple(dict.fromkeys(keys))


class LabelProjection:
    """The label keys the registered selectors read. Pods with the same
    namespace and the same values (or absence) for these keys are matched
    alike by every registered selector, so they can share match results."""

    def __init__(self) -> None:
        self.keys: tuple[str, ...] = ()
        # One cycle asks about the same pod several times: remember the last.
        self._last: tuple[dict[str, str], str, tuple[str, tuple[str | None, ...]]] | None = None

    def extend(self, keys: tuple[str, ...]) -> bool:
        """Add keys; True if any was new."""
        new = tuple(dict.fromkeys(key for key in keys if key not in self.keys))
        if new:
            self.keys += new
            self._last = None
        return bool(new)

    def key_of(self, namespace: str, labels: dict[str, str]) -> tuple[str, tuple[str | None, ...]]:
        last = self._last
        if last is not None and last[0] is labels and last[1] == namespace:
            return last[2]
        get = labels.get
        key = (namespace, tuple([get(k) for k in self.keys]))
        self._last = (labels, namespace, key)
        return key

    def project(self, labels: dict[str, str]) -> dict[str, str]:
        return {key: labels[key] for key in self.keys if key in labels}


class AnchoredRegistry:
    """Items keyed by anchor so that, for one pod's labels, only the items that
    could match are looked at. Items without an anchor are always candidates."""

    def __init__(self) -> None:
        self._by_anchor: dict[LabelPair, list[int]] = {}
        self._by_namespace: dict[str, list[int]] = {}
        self._everywhere: list[int] = []

    def add(
        self, item: int, anchors: tuple[LabelPair, ...] | None, scope: NamespaceScope | None
    ) -> None:
        if anchors:
            for anchor in anchors:
                self._by_anchor.setdefault(anchor, []).append(item)
        elif scope is not None and not scope.everything:
            for namespace in scope.names:
                self._by_namespace.setdefault(namespace, []).append(item)
        else:
            self._everywhere.append(item)

    def candidates(self, namespace: str, labels: dict[str, str]) -> list[int]:
        """Each item at most once: a pod has one value per key and one namespace."""
        found = list(self._everywhere)
        found += self._by_namespace.get(namespace, ())
        by_anchor = self._by_anchor
        if by_anchor:
            for pair in labels.items():
                items = by_anchor.get(pair)
                if items:
                    found += items
        return found


class PodIndex:
    """Per-node and per-domain counts of placed pods matching registered matchers."""

    def __init__(self, cluster: ClusterState) -> None:
        self._cluster = weakref.ref(cluster)
        self._num_nodes = cluster.num_nodes
        self._projection = LabelProjection()
        # Matchers and their counts.
        self._matcher_ids: dict[PodMatcher, int] = {}
        self._matchers: list[PodMatcher] = []
        self._node_counts: list[IntArray] = []
        self._domain_counts: list[list[tuple[list[int], IntArray]]] = []
        self._domain_counts_by_key: list[dict[str, IntArray]] = []
        self._registry = AnchoredRegistry()
        self._domain_ids: dict[str, list[int]] = {}
        self._reset_classes()

    def _reset_classes(self) -> None:
        self._class_ids: dict[tuple[str, tuple[str | None, ...]], int] = {}
        self._class_namespace: list[str] = []
        self._class_labels: list[dict[str, str]] = []
        self._class_nodes: list[dict[int, int]] = []
        self._class_matchers: list[list[int]] = []
        self._classes_by_label: dict[LabelPair, list[int]] = {}
        self._classes_by_namespace: dict[str, list[int]] = {}
        self._pod_class: dict[str, int] = {}

    # --- queries ------------------------------------------------------------

    def node_counts(self, matcher: PodMatcher) -> IntArray:
        """Placed pods matching `matcher` on every node (read-only view)."""
        return self._node_counts[self._id(matcher)]

    def domain_counts(self, matcher: PodMatcher, topology_key: str) -> IntArray:
        """Matching pods per domain of `topology_key`, plus a trailing 0 for
        nodes without the key: index it with `cluster.topology(key)[0]`."""
        matcher_id = self._id(matcher)
        counts = self._domain_counts_by_key[matcher_id].get(topology_key)
        if counts is None:
            cluster = self._live_cluster()
            ids, names = cluster.topology(topology_key)
            node_counts = self._node_counts[matcher_id]
            counts = np.zeros(len(names) + 1, dtype=np.int64)
            has_key = ids >= 0
            counts[: len(names)] = np.bincount(
                ids[has_key], weights=node_counts[has_key], minlength=len(names)
            ).astype(np.int64)
            id_list = self._domain_ids.get(topology_key)
            if id_list is None:
                id_list = ids.tolist()
                self._domain_ids[topology_key] = id_list
            self._domain_counts[matcher_id].append((id_list, counts))
            self._domain_counts_by_key[matcher_id][topology_key] = counts
        return counts

    # --- listener -----------------------------------------------------------

    def on_pod_added(self, pod: Pod, node: int) -> None:
        cls = self._class_of(pod)
        self._pod_class[pod.key] = cls
        nodes = self._class_nodes[cls]
        nodes[node] = nodes.get(node, 0) + 1
        for matcher_id in self._class_matchers[cls]:
            self._node_counts[matcher_id][node] += 1
            for id_list, counts in self._domain_counts[matcher_id]:
                domain = id_list[node]
                if domain >= 0:
                    counts[domain] += 1

    def on_pod_removed(self, pod: Pod, node: int) -> None:
        cls = self._pod_class.pop(pod.key, None)
        if cls is None:
            cls = self._class_of(pod)
        nodes = self._class_nodes[cls]
        remaining = nodes.get(node, 0) - 1
        if remaining > 0:
            nodes[node] = remaining
        else:
            nodes.pop(node, None)
        for matcher_id in self._class_matchers[cls]:
            self._node_counts[matcher_id][node] -= 1
            for id_list, counts in self._domain_counts[matcher_id]:
                domain = id_list[node]
                if domain >= 0:
                    counts[domain] -= 1

    # --- internals ----------------------------------------------------------

    def _live_cluster(self) -> ClusterState:
        cluster = self._cluster()
        if cluster is None:  # pragma: no cover - the index dies with its cluster
            raise RuntimeError("the cluster of this pod index is gone")
        return cluster

    def _class_of(self, pod: Pod) -> int:
        key = self._projection.key_of(pod.namespace, pod.labels)
        cls = self._class_ids.get(key)
        if cls is not None:
            return cls
        cls = len(self._class_namespace)
        self._class_ids[key] = cls
        labels = self._projection.project(pod.labels)
        self._class_namespace.append(pod.namespace)
        self._class_labels.append(labels)
        self._class_nodes.append({})
        matched = [
            m
            for m in self._registry.candidates(pod.namespace, labels)
            if self._matchers[m].matches(pod.namespace, labels)
        ]
        self._class_matchers.append(matched)
        for pair in labels.items():
            self._classes_by_label.setdefault(pair, []).append(cls)
        self._classes_by_namespace.setdefault(pod.namespace, []).append(cls)
        return cls

    def _regroup(self) -> None:
        """Rebuild the classes from the placed pods (after the projection grew)."""
        self._reset_classes()
        for node, pods in enumerate(self._live_cluster().pods_on):
            for pod in pods:
                cls = self._class_of(pod)
                self._pod_class[pod.key] = cls
                nodes = self._class_nodes[cls]
                nodes[node] = nodes.get(node, 0) + 1

    def _id(self, matcher: PodMatcher) -> int:
        matcher_id = self._matcher_ids.get(matcher)
        if matcher_id is None:
            matcher_id = self._register(matcher)
        return matcher_id

    def _register(self, matcher: PodMatcher) -> int:
        keys = tuple(k for _, selector in matcher.clauses for k in selector_keys(selector))
        if self._projection.extend(keys):
            self._regroup()
        matcher_id = len(self._matchers)
        self._matcher_ids[matcher] = matcher_id
        self._matchers.append(matcher)
        counts = np.zeros(self._num_nodes, dtype=np.int64)
        anchors, scope = self._anchors(matcher)
        for cls in self._candidate_classes(anchors, scope):
            if matcher.matches(self._class_namespace[cls], self._class_labels[cls]):
                self._class_matchers[cls].append(matcher_id)
                for node, count in self._class_nodes[cls].items():
                    counts[node] += count
        self._node_counts.append(counts)
        self._domain_counts.append([])
        self._domain_counts_by_key.append({})
        self._registry.add(matcher_id, anchors, scope)
        return matcher_id

    @staticmethod
    def _anchors(
        matcher: PodMatcher,
    ) -> tuple[tuple[LabelPair, ...] | None, NamespaceScope | None]:
        scope = matcher.clauses[0][0] if matcher.clauses else None
        for _, selector in matcher.clauses:
            anchors = selector_anchors(selector)
            if anchors:
                return anchors, scope
        return None, scope

    def _candidate_classes(
        self, anchors: tuple[LabelPair, ...] | None, scope: NamespaceScope | None
    ) -> list[int]:
        if anchors:
            found: list[int] = []
            for anchor in anchors:
                found += self._classes_by_label.get(anchor, ())
            return found
        if scope is not None and not scope.everything:
            found = []
            for namespace in scope.names:
                found += self._classes_by_namespace.get(namespace, ())
            return found
        return list(range(len(self._class_namespace)))


_INDEXES: weakref.WeakKeyDictionary[ClusterState, PodIndex] = weakref.WeakKeyDictionary()


_LAST: list[tuple[weakref.ref[ClusterState], PodIndex]] = []


def pod_index(cluster: ClusterState) -> PodIndex:
    """The index of `cluster`, created and subscribed to placements on first use."""
    if _LAST and _LAST[0][0]() is cluster:
        return _LAST[0][1]
    index = _INDEXES.get(cluster)
    if index is None:
        index = PodIndex(cluster)
        _INDEXES[cluster] = index
        cluster.add_listener(index)
    _LAST[:] = [(weakref.ref(cluster), index)]
    return index


def count_from_scratch(cluster: ClusterState, matcher: PodMatcher) -> IntArray:
    """Per-node counts by walking every placed pod: the reference for tests."""
    return np.array(
        [
            sum(1 for pod in pods if matcher.matches(pod.namespace, pod.labels))
            for pods in cluster.pods_on
        ],
        dtype=np.int64,
    )
