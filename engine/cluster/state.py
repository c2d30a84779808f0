"""The cluster as the scheduler's snapshot sees it, as numpy arrays over nodes.

Node order follows upstream's node tree (pkg/scheduler/backend/cache/
node_tree.go): zones in order of first appearance, nodes taken round-robin
across zones. That order decides which nodes `percentageOfNodesToScore`
examines, so it is part of the fidelity, not a detail.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engine.model.objects import (
    CPU,
    EPHEMERAL_STORAGE,
    MEMORY,
    PODS,
    LabelSelector,
    Namespace,
    Node,
    Pod,
)

# Scoring pretends best-effort containers asked for this much
# (pkg/scheduler/util/pod_resources.go: DefaultMilliCPURequest, DefaultMemoryRequest).
DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024

BASE_RESOURCES = (CPU, MEMORY, EPHEMERAL_STORAGE, PODS)

REGION_LABELS = ("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region")
ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")


def zone_key(labels: dict[str, str]) -> str:
    """utilnode.GetZoneKey: "region:\\x00:zone", or "" when neither is set."""
    region = next((labels[k] for k in REGION_LABELS if labels.get(k)), "")
    zone = next((labels[k] for k in ZONE_LABELS if labels.get(k)), "")
    if not region and not zone:
        return ""
    return region + ":\x00:" + zone


def node_tree_order(nodes: Sequence[Node]) -> list[Node]:
    """Upstream nodeTree.list(): one node from each zone in turn."""
    zones: dict[str, list[Node]] = {}
    for node in nodes:
        zones.setdefault(zone_key(node.labels), []).append(node)
    ordered: list[Node] = []
    columns = list(zones.values())
    depth = max((len(c) for c in columns), default=0)
    for i in range(depth):
        for column in columns:
            if i < len(column):
                ordered.append(column[i])
    return ordered


def normalized_image_name(name: str) -> str:
    """ImageLocality's normalizedImageName: an untagged image means ":latest"."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


class ControllerSelector(Protocol):
    """A Service, ReplicationController, ReplicaSet or StatefulSet selecting pods.

    PodTopologySpread's system default constraints (helper.DefaultSelector)
    apply to pods that such an object selects.
    """

    @property
    def kind(self) -> str: ...

    @property
    def namespace(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def selector(self) -> LabelSelector: ...


class PodListener(Protocol):
    """Incremental indexes (e.g. for pod affinity) that follow placements."""

    def on_pod_added(self, pod: Pod, node: int) -> None: ...

    def on_pod_removed(self, pod: Pod, node: int) -> None: ...


class ClusterState:
    """Nodes, their resources and the pods placed on them.

    `allocatable` and `requested` are [nodes x resources] int64 matrices in
    base units (cpu milli, bytes, counts); the `pods` column of `requested`
    is the number of pods on the node. `nonzero_requested` holds cpu and
    memory with upstream's scoring defaults for pods that request none.
    """

    def __init__(
        self,
        nodes: Sequence[Node],
        extra_resources: Iterable[str] = (),
        namespaces: Iterable[Namespace] = (),
        controllers: Sequence[ControllerSelector] = (),
    ) -> None:
        # Namespace labels for namespaceSelector in pod affinity terms; a
        # namespace that no object declares has no labels.
        self.namespace_labels: dict[str, dict[str, str]] = {
            ns.name: ns.label_dict for ns in namespaces
        }
        self.controllers: list[ControllerSelector] = list(controllers)
        self.nodes: list[Node] = node_tree_order(nodes)
        self.node_index: dict[str, int] = {n.name: i for i, n in enumerate(self.nodes)}
        names = set(BASE_RESOURCES)
        for node in self.nodes:
            names.update(node.allocatable)
        names.update(extra_resources)
        self.resources: list[str] = list(BASE_RESOURCES) + sorted(names - set(BASE_RESOURCES))
        self.resource_index: dict[str, int] = {r: i for i, r in enumerate(self.resources)}

        n, r = len(self.nodes), len(self.resources)
        self.allocatable: npt.NDArray[np.int64] = np.zeros((n, r), dtype=np.int64)
        for i, node in enumerate(self.nodes):
            for name, value in node.allocatable.items():
                self.allocatable[i, self.resource_index[name]] = value
        self.requested: npt.NDArray[np.int64] = np.zeros((n, r), dtype=np.int64)
        self.nonzero_requested: npt.NDArray[np.int64] = np.zeros((n, 2), dtype=np.int64)
        self.unschedulable: npt.NDArray[np.bool_] = np.array(
            [node.unschedulable for node in self.nodes], dtype=bool
        )
        # Bumped whenever a node's pods change, so per-template caches of
        # node-local plugin results know which rows to recompute.
        self.node_version: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)
        # Every node whose pods changed, in order: caches remember how far
        # they have read and refresh just the nodes named since.
        self.changes: list[int] = []
        self.pods_on: list[list[Pod]] = [[] for _ in range(n)]
        self.used_host_ports: list[set[tuple[str, str, int]]] = [set() for _ in range(n)]
        self.pod_node: dict[str, int] = {}
        self._listeners: list[PodListener] = []
        self._label_columns: dict[str, npt.NDArray[np.object_]] = {}
        self._topology: dict[str, tuple[npt.NDArray[np.int64], list[str]]] = {}
        self._build_image_states()

    # --- nodes ----------------------------------------------------------

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    def column(self, resource: str) -> int | None:
        return self.resource_index.get(resource)

    def label_values(self, key: str) -> npt.NDArray[np.object_]:
        """The value of label `key` on every node, None where absent."""
        values = self._label_columns.get(key)
        if values is None:
            values = np.array([node.labels.get(key) for node in self.nodes], dtype=object)
            self._label_columns[key] = values
        return values

    def topology(self, key: str) -> tuple[npt.NDArray[np.int64], list[str]]:
        """Domain id per node for topology key `key` (-1 where the label is absent)."""
        cached = self._topology.get(key)
        if cached is None:
            domains: dict[str, int] = {}
            ids = np.full(self.num_nodes, -1, dtype=np.int64)
            for i, node in enumerate(self.nodes):
                value = node.labels.get(key)
                if value is not None:
                    ids[i] = domains.setdefault(value, len(domains))
            cached = (ids, list(domains))
            self._topology[key] = cached
        return cached

    def _build_image_states(self) -> None:
        self.node_images: list[dict[str, int]] = []
        spread: dict[str, int] = {}
        for node in self.nodes:
            images: dict[str, int] = {}
            for image in node.images:
                # Upstream's cache keys node images by the names kubelet
                # reports (always tagged or digested); only pod images are normalised.
                for name in image.names:
                    images[name] = image.size_bytes
            self.node_images.append(images)
            for name in images:
                spread[name] = spread.get(name, 0) + 1
        self.image_num_nodes: dict[str, int] = spread

    # --- pods -----------------------------------------------------------

    def changed_since(self, seen: int) -> npt.NDArray[np.int64] | None:
        """Nodes whose pods changed after the first `seen` changes (None: none)."""
        if seen >= len(self.changes):
            return None
        changed = self.changes[seen:]
        if len(changed) == 1:
            return np.array(changed, dtype=np.int64)
        if len(changed) * 4 > self.num_nodes:
            return np.arange(self.num_nodes, dtype=np.int64)
        return np.unique(np.array(changed, dtype=np.int64))

    def add_listener(self, listener: PodListener) -> None:
        self._listeners.append(listener)
        for node, pods in enumerate(self.pods_on):
            for pod in pods:
                listener.on_pod_added(pod, node)

    def request_vector(self, pod: Pod) -> npt.NDArray[np.int64]:
        """The pod's requests as a row over `resources` (pods column = 1)."""
        vector = np.zeros(len(self.resources), dtype=np.int64)
        for name, value in pod.requests.items():
            col = self.resource_index.get(name)
            if col is not None:
                vector[col] = value
        vector[self.resource_index[PODS]] = 1
        return vector

    def add_pod(self, pod: Pod, node: int) -> None:
        self.requested[node] += self.request_vector(pod)
        self.nonzero_requested[node] += nonzero_requests(pod)
        self.node_version[node] += 1
        self.changes.append(node)
        self.pods_on[node].append(pod)
        self.pod_node[pod.key] = node
        for port in pod.host_ports:
            self.used_host_ports[node].add((port.ip, port.protocol, port.port))
        for listener in self._listeners:
            listener.on_pod_added(pod, node)

    def remove_pod(self, pod: Pod) -> int:
        node = self.pod_node.pop(pod.key)
        self.requested[node] -= self.request_vector(pod)
        self.nonzero_requested[node] -= nonzero_requests(pod)
        self.node_version[node] += 1
        self.changes.append(node)
        self.pods_on[node] = [p for p in self.pods_on[node] if p.key != pod.key]
        self.used_host_ports[node] = {
            (port.ip, port.protocol, port.port) for p in self.pods_on[node] for port in p.host_ports
        }
        for listener in self._listeners:
            listener.on_pod_removed(pod, node)
        return node


def nonzero_requests(pod: Pod) -> tuple[int, int]:
    """(cpu milli, memory bytes) as scoring counts them (see Pod.nonzero_requests)."""
    if pod.nonzero_requests is not None:
        return pod.nonzero_requests
    cpu = pod.requests.get(CPU, 0) or DEFAULT_MILLI_CPU_REQUEST
    memory = pod.requests.get(MEMORY, 0) or DEFAULT_MEMORY_REQUEST
    return cpu, memory
