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


# Up to this many nodes a call costs about its number of numpy operations:
# gather whole rows once. Beyond it, gather column by column into a
# column-major matrix, where adding a per-resource vector runs along nodes
# (broadcasting over a row of 2 to 5 resources is several times slower).
FEW_NODES = 128


def gather(matrix: IntMatrix, nodes: IntArray, columns: IntArray) -> IntMatrix:
    """matrix[nodes][:, columns], by the faster route for the number of nodes."""
    if len(nodes) <= FEW_NODES:
        # take() copies rows several times faster than fancy indexing does.
        return matrix.take(nodes, 0).take(columns, 1)
    # (fancy indexing, not take(): take() first copies a strided column whole)
    stacked: IntMatrix = np.array([matrix[:, column][nodes] for column in columns.tolist()])
    return stacked.T


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


@dataclass(slots=True)
class Allocation:
    """Per candidate node and configured resource: [nodes x resources] int64."""

    allocatable: IntMatrix  # 0 where the resource is skipped on that node
    requested_without_pod: IntMatrix  # 0 where the resource is skipped
    pod_requests: IntArray  # the incoming pod's request per resource

    @property
    def requested(self) -> IntMatrix:
        """With the incoming pod added."""
        return self.requested_without_pod + self.pod_requests


# Per resource: (allocatable column, matrix the used amount is in, its column).
Source = tuple[int, str, int]


@dataclass(frozen=True, slots=True)
class _ReadPlan:
    """Where allocation() reads each configured resource, for one pod request
    on one cluster."""

    requests: IntArray
    sources: tuple[Source | None, ...]  # None: skipped for this pod
    # Set when nothing is skipped and every used amount is in one matrix:
    # then two gathers over nodes replace two per resource.
    allocatable_columns: IntArray | None
    used_matrix: str  # "requested" or "nonzero_requested"
    used_columns: IntArray | None


class ResourceAllocationScorer:
    """Which resources a scorer reads and how, for one plugin instance."""

    def __init__(self, resources: Sequence[ResourceSpec], use_requested: bool) -> None:
        self.resources = tuple(resources)
        self.use_requested = use_requested
        self.kinds = tuple(resource_kind(r.name) for r in self.resources)
        self.weights: IntArray = np.array([r.weight for r in self.resources], dtype=np.int64)
        self._request_cache: dict[tuple[object, ...], tuple[int, ...]] = {}
        # Read plans per pod request, for the cluster last asked about.
        self._plans: dict[tuple[int, ...], _ReadPlan] = {}
        self._plans_cluster: ClusterState | None = None

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
        self, cluster: ClusterState, nodes: IntArray, pod_requests: tuple[int, ...]
    ) -> Allocation:
        """calculateResourceAllocatableRequest for every node and resource at once."""
        plan = self._read_plan(cluster, pod_requests)
        if plan.allocatable_columns is not None and plan.used_columns is not None:
            allocatable = gather(cluster.allocatable, nodes, plan.allocatable_columns)
            used = gather(getattr(cluster, plan.used_matrix), nodes, plan.used_columns)
            return Allocation(allocatable, used, plan.requests)
        n, k = len(nodes), len(self.resources)
        allocatable = np.zeros((n, k), dtype=np.int64, order="F")
        used = np.zeros((n, k), dtype=np.int64, order="F")
        for j, source in enumerate(plan.sources):
            if source is not None:
                col, matrix, used_col = source
                # Gathering from a column view is several times faster than [nodes, col].
                allocatable[:, j] = cluster.allocatable[:, col][nodes]
                used[:, j] = getattr(cluster, matrix)[:, used_col][nodes]
        return Allocation(allocatable, used, plan.requests)

    def one_node(
        self, cluster: ClusterState, node: int, pod_requests: tuple[int, ...]
    ) -> tuple[list[int], list[int]]:
        """allocation() for a single node, as Python ints: what is requested
        there without the pod, and allocatable (0 where skipped)."""
        used: list[int] = []
        allocatable: list[int] = []
        for source in self._read_plan(cluster, pod_requests).sources:
            if source is None:
                used.append(0)
                allocatable.append(0)
            else:
                col, matrix, used_col = source
                used.append(getattr(cluster, matrix).item(node, used_col))
                allocatable.append(cluster.allocatable.item(node, col))
        return used, allocatable

    def _read_plan(self, cluster: ClusterState, pod_requests: tuple[int, ...]) -> _ReadPlan:
        if cluster is not self._plans_cluster:
            self._plans.clear()
            self._plans_cluster = cluster
        plan = self._plans.get(pod_requests)
        if plan is None:
            plan = self._plan(cluster, pod_requests)
            if len(self._plans) > 4096:  # one entry per distinct pod template
                self._plans.clear()
            self._plans[pod_requests] = plan
        return plan

    def _plan(self, cluster: ClusterState, pod_requests: tuple[int, ...]) -> _ReadPlan:
        sources: list[Source | None] = []
        for j, (spec, kind) in enumerate(zip(self.resources, self.kinds, strict=True)):
            col = cluster.column(spec.name)
            if (
                col is None
                or kind is ResourceKind.UNSCORED
                # an extended resource the pod does not ask for
                or (kind is ResourceKind.SCALAR and pod_requests[j] == 0)
            ):
                sources.append(None)
            elif not self.use_requested and kind is ResourceKind.CPU:
                sources.append((col, "nonzero_requested", 0))
            elif not self.use_requested and kind is ResourceKind.MEMORY:
                sources.append((col, "nonzero_requested", 1))
            else:
                sources.append((col, "requested", col))
        requests = np.array(pod_requests, dtype=np.int64)
        read = [s for s in sources if s is not None]
        matrices = {matrix for _, matrix, _ in read}
        if len(read) < len(sources) or len(matrices) != 1:
            return _ReadPlan(requests, tuple(sources), None, "", None)
        return _ReadPlan(
            requests,
            tuple(sources),
            np.array([col for col, _, _ in read], dtype=np.int64),
            matrices.pop(),
            np.array([used_col for _, _, used_col in read], dtype=np.int64),
        )
