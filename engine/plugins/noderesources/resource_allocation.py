"""The shared resourceAllocationScorer of NodeResourcesFit and BalancedAllocation.

Follows pkg/scheduler/framework/plugins/noderesources/resource_allocation.go:
for each configured resource the scorer needs the node's allocatable and
what is requested on it with the incoming pod added. Which numbers count:

- cpu and memory: `NonZeroRequested` plus the pod's non-zero request
  (100m / 200Mi for containers that set none) when `use_requested` is false
  (NodeResourcesFit); plain `Requested` and requests when it is true
  (BalancedAllocation);
- ephemeral-storage: always plain `Requested`;
- scalar resources (extended, hugepages-*, *kubernetes.io/*): plain
  `Requested`, and only if the pod requests them; an unrequested one returns
  (0, 0) and so is skipped;
- anything else (e.g. "pods") is never scored.

A resource whose allocatable is 0 on a node is skipped on that node: its
weight does not count. Here that is expressed by an allocatable of 0 in the
returned matrix, which every strategy masks out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from engine.cluster.state import ClusterState, nonzero_requests
from engine.config.args import ResourceSpec
from engine.framework.interface import IntArray
from engine.model.objects import CPU, EPHEMERAL_STORAGE, MEMORY, Pod

IntMatrix = IntArray  # [nodes x resources]

# v1.ResourceDefaultNamespacePrefix and the prefixes of util.IsScalarResourceName.
_NATIVE_PREFIX = "kubernetes.io/"
_HUGEPAGES_PREFIX = "hugepages-"
_ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"
_QUOTA_REQUESTS_PREFIX = "requests."


def is_extended_resource_name(name: str) -> bool:
    """v1helper.IsExtendedResourceName: a domain-prefixed name outside kubernetes.io."""
    native = "/" not in name or _NATIVE_PREFIX in name
    return not native and not name.startswith(_QUOTA_REQUESTS_PREFIX)


def is_scalar_resource_name(name: str) -> bool:
    """schedutil.IsScalarResourceName: the resources NodeInfo keeps in ScalarResources."""
    return (
        is_extended_resource_name(name)
        or name.startswith(_HUGEPAGES_PREFIX)
        or _NATIVE_PREFIX in name
        or name.startswith(_ATTACHABLE_VOLUMES_PREFIX)
    )


class ResourceKind(Enum):
    CPU = "cpu"
    MEMORY = "memory"
    EPHEMERAL_STORAGE = "ephemeral-storage"
    SCALAR = "scalar"
    UNSCORED = "unscored"  # upstream's default branch finds no such scalar resource


def resource_kind(name: str) -> ResourceKind:
    if name == CPU:
        return ResourceKind.CPU
    if name == MEMORY:
        return ResourceKind.MEMORY
    if name == EPHEMERAL_STORAGE:
        return ResourceKind.EPHEMERAL_STORAGE
    if is_scalar_resource_name(name):
        return ResourceKind.SCALAR
    return ResourceKind.UNSCORED


@dataclass(frozen=True, slots=True)
class Allocation:
    """Per candidate node and configured resource: [nodes x resources] int64."""

    allocatable: IntMatrix  # 0 where the resource is skipped on that node
    requested: IntMatrix  # with the incoming pod
    pod_requests: IntArray  # the pod's own share of `requested`, per resource

    @property
    def requested_without_pod(self) -> IntMatrix:
        return self.requested - self.pod_requests[np.newaxis, :]


class ResourceAllocationScorer:
    """Which resources a scorer reads and how, for one plugin instance."""

    def __init__(self, resources: Sequence[ResourceSpec], use_requested: bool) -> None:
        self.resources = tuple(resources)
        self.use_requested = use_requested
        self.kinds = tuple(resource_kind(r.name) for r in self.resources)
        self.weights: IntArray = np.array([r.weight for r in self.resources], dtype=np.int64)
        self._request_cache: dict[tuple[object, ...], tuple[int, ...]] = {}

    def pod_requests(self, pod: Pod) -> tuple[int, ...]:
        """calculatePodResourceRequestList: the pod's request per configured resource."""
        cpu_memory = None if self.use_requested else nonzero_requests(pod)
        key = (tuple(pod.requests.items()), cpu_memory)
        cached = self._request_cache.get(key)
        if cached is not None:
            return cached
        values: list[int] = []
        for spec, kind in zip(self.resources, self.kinds, strict=True):
            if cpu_memory is not None and kind is ResourceKind.CPU:
                values.append(cpu_memory[0])
            elif cpu_memory is not None and kind is ResourceKind.MEMORY:
                values.append(cpu_memory[1])
            else:
                values.append(pod.requests.get(spec.name, 0))
        result = tuple(values)
        if len(self._request_cache) > 4096:  # one entry per distinct pod template
            self._request_cache.clear()
        self._request_cache[key] = result
        return result

    def allocation(
        self, cluster: ClusterState, nodes: IntArray, pod_requests: Sequence[int]
    ) -> Allocation:
        """calculateResourceAllocatableRequest for every node and resource at once."""
        n, k = len(nodes), len(self.resources)
        allocatable = np.zeros((n, k), dtype=np.int64)
        requested = np.empty((n, k), dtype=np.int64)
        for j, (spec, kind) in enumerate(zip(self.resources, self.kinds, strict=True)):
            col = cluster.column(spec.name)
            skipped = (
                col is None
                or kind is ResourceKind.UNSCORED
                # an extended resource the pod does not ask for
                or (kind is ResourceKind.SCALAR and pod_requests[j] == 0)
            )
            if skipped:
                requested[:, j] = pod_requests[j]
                continue
            # Gathering from a column view is several times faster than [nodes, col].
            allocatable[:, j] = cluster.allocatable[:, col][nodes]
            if not self.use_requested and kind is ResourceKind.CPU:
                used = cluster.nonzero_requested[:, 0][nodes]
            elif not self.use_requested and kind is ResourceKind.MEMORY:
                used = cluster.nonzero_requested[:, 1][nodes]
            else:
                used = cluster.requested[:, col][nodes]
            requested[:, j] = used + pod_requests[j]
        return Allocation(allocatable, requested, np.asarray(pod_requests, dtype=np.int64))
