"""Per-template caches of node-local plugin results (ours, decision-preserving).

Pods of one Job or ReplicaSet share a spec, and placing a pod changes one
node. For plugins marked `node_local` (see engine.framework.interface) the
verdict and raw score of node i depend only on node i and the pod's
template, so they are kept per template over all nodes and recomputed only
for nodes whose pods changed since (ClusterState.node_version). This is the
idea of kube-scheduler's former equivalence class cache (v1.10-v1.12); the
plugins are the same code either way, so decisions do not change.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.cluster.state import ClusterState
from engine.framework.interface import BoolArray, CycleState, FilterPlugin, IntArray, ScorePlugin
from engine.model.objects import Pod

_TEMPLATE_ID = "template_id"
MAX_ENTRIES = 2048
# Signatures hash their nested frozen dataclasses on every lookup; each
# distinct one gets a small integer once, and cache keys use that.
_template_ids: dict[tuple[Any, ...], int] = {}


def template_signature(pod: Pod) -> int:
    """An id shared by pods whose fields node-local plugins may read are equal."""
    template_id: int | None = pod.extra.get(_TEMPLATE_ID)
    if template_id is None:
        signature = (
            pod.scheduler_name,
            pod.node_name,
            tuple(sorted(pod.requests.items())),
            pod.nonzero_requests,
            pod.host_ports,
            pod.node_selector,
            pod.affinity.node_affinity if pod.affinity is not None else None,
            pod.tolerations,
            pod.images,
        )
        template_id = _template_ids.setdefault(signature, len(_template_ids))
        pod.extra[_TEMPLATE_ID] = template_id
    return template_id


@dataclass(slots=True)
class _Rows:
    values: IntArray  # raw scores over all nodes
    version: IntArray  # node_version each value was computed at


@dataclass(slots=True)
class _FilterRows:
    static: BoolArray  # passes the filters that ignore placed pods (computed once)
    fits: BoolArray  # passes every filter
    seen: int


class EquivalenceCache:
    def __init__(self, cluster: ClusterState) -> None:
        self.cluster = cluster
        self._entries: dict[Hashable, Any] = {}
        self._get = self._entries.get

    def _put(self, key: Hashable, entry: Any) -> None:
        # Past the bound (thousands of templates) start afresh: cheaper than
        # keeping an LRU order on every lookup, and rare.
        if len(self._entries) >= MAX_ENTRIES:
            self._entries.clear()
        self._entries[key] = entry

    def feasible(
        self,
        key: Hashable,
        filters: Sequence[FilterPlugin],
        state: CycleState,
        pod: Pod,
    ) -> BoolArray:
        """Whether each node passes every filter, refreshed where nodes changed.

        Filters that ignore placed pods are run once over all nodes; the
        others only on nodes that passed those and whose pods changed.
        """
        rows: _FilterRows | None = self._get(key)
        cluster = self.cluster
        if rows is None:
            everything = np.arange(cluster.num_nodes, dtype=np.int64)
            static = self._passing(
                [p for p in filters if not p.reads_placed_pods], state, pod, everything
            )
            fits = static.copy()
            candidates = np.flatnonzero(static)
            fits[candidates] = self._passing(
                [p for p in filters if p.reads_placed_pods], state, pod, candidates
            )
            rows = _FilterRows(static, fits, len(cluster.changes))
            self._put(key, rows)
            return rows.fits
        changed = cluster.changed_since(rows.seen)
        if changed is not None:
            changed = changed[rows.static[changed]]
            if len(changed):
                dynamic = [p for p in filters if p.reads_placed_pods]
                rows.fits[changed] = self._passing(dynamic, state, pod, changed)
            rows.seen = len(cluster.changes)
        return rows.fits

    def _passing(
        self, filters: Sequence[FilterPlugin], state: CycleState, pod: Pod, nodes: IntArray
    ) -> BoolArray:
        alive = np.ones(len(nodes), dtype=bool)
        for plugin in filters:
            idx = np.flatnonzero(alive)
            if len(idx) == 0:
                break
            result = plugin.filter(state, pod, self.cluster, nodes[idx])
            for failure in result.failures:
                alive[idx[failure.mask]] = False
        return alive

    def raw_scores(
        self,
        key: Hashable,
        plugin: ScorePlugin,
        state: CycleState,
        pod: Pod,
        nodes: IntArray,
    ) -> IntArray:
        """Raw scores of `nodes`, from rows kept over all nodes for the template.

        Rows are checked per node version on the nodes asked for only: a
        template that comes back after many placements elsewhere refreshes
        its few hundred feasible nodes, not the whole cluster.
        """
        cluster = self.cluster
        rows: _Rows | None = self._get(key)
        if rows is None:
            n = cluster.num_nodes
            if plugin.reads_placed_pods:
                # Filled lazily: only the nodes asked for are ever scored.
                rows = _Rows(np.zeros(n, dtype=np.int64), np.full(n, -1, dtype=np.int64))
            else:
                everything = np.arange(n, dtype=np.int64)
                values = np.asarray(plugin.score(state, pod, cluster, everything), dtype=np.int64)
                rows = _Rows(values, np.zeros(n, dtype=np.int64))
            self._put(key, rows)
        if plugin.reads_placed_pods:
            current = cluster.node_version[nodes]
            stale = rows.version[nodes] != current
            if stale.any():
                changed = nodes[stale]
                rows.values[changed] = plugin.score(state, pod, cluster, changed)
                rows.version[changed] = current[stale]
        scores: IntArray = rows.values[nodes]
        return scores


def first_feasible(fits: BoolArray, start: int, to_find: int) -> tuple[IntArray, int]:
    """The first `to_find` feasible nodes from `start`, wrapping, and how many
    nodes the search examined (the sequential reading of findNodesThatPassFilters)."""
    n = len(fits)
    head = np.flatnonzero(fits[start:])
    if len(head) >= to_find:
        chosen = head[:to_find]
        return chosen + start, int(chosen[-1]) + 1
    tail = np.flatnonzero(fits[:start])
    need = to_find - len(head)
    if len(tail) >= need:
        chosen_tail = tail[:need]
        return np.concatenate((head + start, chosen_tail)), n - start + int(chosen_tail[-1]) + 1
    return np.concatenate((head + start, tail)), n
