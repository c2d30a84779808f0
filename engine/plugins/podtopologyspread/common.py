"""Constraints as PodTopologySpread uses them, and which nodes count.

Follows pkg/scheduler/framework/plugins/podtopologyspread/common.go and
plugin.go, and pkg/scheduler/framework/plugins/helper/spread.go:

- a pod's own constraints of the wanted action (DoNotSchedule for Filter,
  ScheduleAnyway for Score); matchLabelKeys values the pod carries are
  ANDed into the selector (nothing is merged into a nil selector);
  minDomains defaults to 1, nodeAffinityPolicy to Honor, nodeTaintsPolicy
  to Ignore;
- a pod without constraints gets the default constraints of that action
  (the System defaults are hostname maxSkew 3 and zone maxSkew 5, both
  ScheduleAnyway), with the selector helper.DefaultSelector builds: the
  selectors of the Services in the pod's namespace that select it, plus
  that of its controller (ReplicationController, ReplicaSet or
  StatefulSet named by its owner reference); none when that is empty;
- placed pods count when they are in the incoming pod's namespace and the
  selector matches them; a nil or empty selector counts nothing
  (countPodsMatchSelector), although an empty one matches the pod itself;
- a node counts for a constraint when it has every constraint's topology
  key and passes the constraint's inclusion policies: Honor nodeAffinity
  means the pod's nodeSelector and required node affinity match it; Honor
  nodeTaints means the pod tolerates its NoSchedule/NoExecute taints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.framework.interface import BoolArray, IntArray
from engine.model.objects import (
    LabelSelector,
    LabelSelectorRequirement,
    Pod,
    TopologySpreadConstraint,
)
from engine.plugins.nodeselector import cluster_cache, required_node_affinity_mask
from engine.plugins.podindex import NamespaceScope, PodMatcher
from engine.plugins.tainttoleration import find_untolerated_taint, taint_groups

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState

LABEL_HOSTNAME = "kubernetes.io/hostname"
LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"
DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
HONOR = "Honor"
IGNORE = "Ignore"

SYSTEM_DEFAULT_CONSTRAINTS = (
    TopologySpreadConstraint(
        max_skew=3, topology_key=LABEL_HOSTNAME, when_unsatisfiable=SCHEDULE_ANYWAY
    ),
    TopologySpreadConstraint(
        max_skew=5, topology_key=LABEL_TOPOLOGY_ZONE, when_unsatisfiable=SCHEDULE_ANYWAY
    ),
)

CONTROLLER_KINDS = ("ReplicationController", "ReplicaSet", "StatefulSet")


@dataclass(frozen=True, slots=True)
class SpreadConstraint:
    """topologySpreadConstraint: a v1 constraint with its selector resolved."""

    max_skew: int
    topology_key: str
    selector: LabelSelector | None  # None: matches nothing
    min_domains: int = 1
    honor_node_affinity: bool = True
    honor_node_taints: bool = False

    def matches_pod(self, labels: dict[str, str]) -> bool:
        """Selector.Matches: the incoming pod's "self match"."""
        return self.selector is not None and self.selector.matches(labels)

    def counting_matcher(self, namespace: str) -> PodMatcher | None:
        """The placed pods this constraint counts, or None when it counts none."""
        if self.selector is None or self.selector.is_empty:
            return None
        return PodMatcher(((NamespaceScope(frozenset((namespace,))), self.selector),))

    @property
    def inclusion(self) -> tuple[str, bool, bool]:
        """What decides which nodes count, beyond the pod's own spec."""
        return (self.topology_key, self.honor_node_affinity, self.honor_node_taints)


def _merge_match_label_keys(
    selector: LabelSelector | None, keys: tuple[str, ...], labels: dict[str, str]
) -> LabelSelector | None:
    """mergeLabelSetWithSelector: the pod's values for `keys`, ANDed in."""
    if selector is None or not keys:
        return selector
    pairs = tuple((key, labels[key]) for key in keys if key in labels)
    if not pairs:
        return selector
    return LabelSelector(selector.match_labels + pairs, selector.match_expressions)


def _resolve(c: TopologySpreadConstraint, selector: LabelSelector | None) -> SpreadConstraint:
    return SpreadConstraint(
        max_skew=c.max_skew,
        topology_key=c.topology_key,
        selector=selector,
        min_domains=c.min_domains if c.min_domains is not None else 1,
        honor_node_affinity=(c.node_affinity_policy or HONOR) == HONOR,
        honor_node_taints=(c.node_taints_policy or IGNORE) == HONOR,
    )


_OWN: dict[Any, tuple[SpreadConstraint, ...]] = {}


def own_constraints(pod: Pod, action: str) -> tuple[SpreadConstraint, ...]:
    """filterTopologySpreadConstraints over the pod's own constraints."""
    specs = pod.topology_spread_constraints
    keys = tuple(k for c in specs for k in c.match_label_keys)
    cache_key = (specs, action, tuple(pod.labels.get(k) for k in keys))
    found = _OWN.get(cache_key)
    if found is None:
        found = tuple(
            _resolve(c, _merge_match_label_keys(c.label_selector, c.match_label_keys, pod.labels))
            for c in specs
            if c.when_unsatisfiable == action
        )
        _OWN[cache_key] = found
    return found


@dataclass(frozen=True, slots=True)
class _Controllers:
    """cluster.controllers arranged for DefaultSelector."""

    services: dict[str, list[LabelSelector]]  # by namespace
    owners: dict[tuple[str, str, str], LabelSelector]  # (kind, namespace, name)
    service_keys: tuple[str, ...]  # label keys the Service selectors read


def _controllers(cluster: ClusterState) -> _Controllers:
    cache = cluster_cache(cluster, "podtopologyspread.controllers")
    found: _Controllers | None = cache.get("index")
    if found is None:
        services: dict[str, list[LabelSelector]] = {}
        owners: dict[tuple[str, str, str], LabelSelector] = {}
        keys: dict[str, None] = {}
        for controller in cluster.controllers:
            if controller.kind == "Service":
                services.setdefault(controller.namespace, []).append(controller.selector)
                keys.update(dict.fromkeys(key for key, _ in controller.selector.match_labels))
            elif controller.kind in CONTROLLER_KINDS:
                owners[(controller.kind, controller.namespace, controller.name)] = (
                    controller.selector
                )
        found = _Controllers(services, owners, tuple(keys))
        cache["index"] = found
    return found


def service_label_keys(cluster: ClusterState) -> tuple[str, ...]:
    """The label keys that the cluster's Service selectors read: with the
    namespace and the owner, all DefaultSelector reads of a pod."""
    return _controllers(cluster).service_keys


def default_selector(cluster: ClusterState, pod: Pod) -> LabelSelector | None:
    """helper.DefaultSelector, or None when it has no requirement."""
    controllers = _controllers(cluster)
    services = controllers.services.get(pod.namespace, ())
    owner = pod.owner
    owned_by: LabelSelector | None = None
    if owner is not None and owner.kind in CONTROLLER_KINDS:
        owned_by = controllers.owners.get((owner.kind, pod.namespace, owner.name))
    if not services and owned_by is None:
        return None
    labels = pod.labels
    cache = cluster_cache(cluster, "podtopologyspread.default_selector")
    cache_key = (
        pod.namespace,
        (owner.kind, owner.name) if owner is not None else None,
        tuple([labels.get(key) for key in controllers.service_keys]),
    )
    if cache_key in cache:
        found: LabelSelector | None = cache[cache_key]
        return found
    match_labels: dict[str, str] = {}
    requirements: list[LabelSelectorRequirement] = []
    for selector in services:
        if selector.matches(labels):
            match_labels.update(selector.match_labels)
    if owner is not None and owned_by is not None:
        if owner.kind == "ReplicationController":
            match_labels.update(owned_by.match_labels)
        else:
            requirements += [
                LabelSelectorRequirement(key, "In", (value,))
                for key, value in owned_by.match_labels
            ]
            requirements += owned_by.match_expressions
    result = (
        LabelSelector(tuple(sorted(match_labels.items())), tuple(requirements))
        if match_labels or requirements
        else None
    )
    cache[cache_key] = result
    return result


def default_constraints(
    cluster: ClusterState,
    pod: Pod,
    defaults: tuple[TopologySpreadConstraint, ...],
    action: str,
) -> tuple[SpreadConstraint, ...]:
    """buildDefaultConstraints."""
    wanted = [c for c in defaults if c.when_unsatisfiable == action]
    if not wanted:
        return ()
    selector = default_selector(cluster, pod)
    if selector is None:
        return ()
    return tuple(_resolve(c, selector) for c in wanted)


# --- which nodes count ---------------------------------------------------------


def tolerated_mask(cluster: ClusterState, pod: Pod) -> BoolArray:
    """Nodes without a NoSchedule/NoExecute taint the pod does not tolerate."""
    cache = cluster_cache(cluster, "podtopologyspread.tolerated")
    mask: BoolArray | None = cache.get(pod.tolerations)
    if mask is None:
        groups = taint_groups(cluster)
        ok = np.array(
            [find_untolerated_taint(taints, pod.tolerations) is None for taints in groups.taints],
            dtype=bool,
        )
        mask = ok[groups.group_of_node]
        mask.setflags(write=False)
        cache[pod.tolerations] = mask
    return mask


def inclusion_mask(
    cluster: ClusterState, pod: Pod, constraint: SpreadConstraint
) -> BoolArray | None:
    """matchNodeInclusionPolicies over all nodes; None when every node passes."""
    mask: BoolArray | None = None
    if constraint.honor_node_affinity and (
        pod.node_selector or (pod.affinity and pod.affinity.node_affinity)
    ):
        mask = required_node_affinity_mask(cluster, pod)
    if constraint.honor_node_taints:
        tolerated = tolerated_mask(cluster, pod)
        mask = tolerated if mask is None else mask & tolerated
    return mask


def has_all_keys_mask(cluster: ClusterState, keys: tuple[str, ...]) -> BoolArray:
    """nodeLabelsMatchSpreadConstraints over all nodes."""
    cache = cluster_cache(cluster, "podtopologyspread.has_keys")
    mask: BoolArray | None = cache.get(keys)
    if mask is None:
        mask = np.ones(cluster.num_nodes, dtype=bool)
        for key in keys:
            mask &= cluster.topology(key)[0] >= 0
        mask.setflags(write=False)
        cache[keys] = mask
    return mask


def node_affinity_key(pod: Pod) -> tuple[object, ...]:
    """The spec fields inclusion_mask reads, for caching per pod spec."""
    node_affinity = pod.affinity.node_affinity if pod.affinity else None
    return (pod.node_selector, node_affinity.required if node_affinity else None, pod.tolerations)


def padded_bincount(ids: IntArray, weights: IntArray, num_domains: int) -> IntArray:
    """Per-domain sums plus a trailing 0, so that `counts[-1]` reads 0."""
    counts = np.zeros(num_domains + 1, dtype=np.int64)
    if len(ids):
        counts[:num_domains] = np.bincount(ids, weights=weights, minlength=num_domains)
    return counts
