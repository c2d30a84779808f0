"""NodeResourcesBalancedAllocation (pkg/scheduler/framework/plugins/noderesources/
balanced_allocation.go, v1.36: kubernetes/kubernetes#135573).

Favors nodes whose resource usage becomes more balanced with the pod:

1. For each configured resource (default cpu, memory) the fraction
   requested / allocatable, capped at 1, from plain requests (no 100m/200Mi
   defaults); resources with allocatable 0, and scalar resources the pod
   does not request, are left out.
2. balance = int64((1 - std) * 100) with std the population standard
   deviation of the fractions (|f1 - f2| / 2 for two, 0 for fewer), once
   with the pod added and once without it.
3. score = 50 + (50 + balance_with - balance_without) / 2 in integer
   arithmetic: 75 for no change, towards 100 when the pod improves the
   balance, towards 50 when it worsens it.

PreScore returns Skip for a pod that requests none of the resources
(best-effort), so such pods are not all piled onto one node (#129138).

Score takes one of three routes with the same float64 operations, so the
same results (tests/engine/plugins/test_noderesources_fast_paths.py): Python
floats for a single node, where numpy's per-call cost would dominate; one
[with/without x resources x nodes] stack for a few nodes and two resources;
balance_score otherwise.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from engine.cluster.state import ClusterState
from engine.config.args import NodeResourcesBalancedAllocationArgs
from engine.framework.interface import (
    MAX_NODE_SCORE,
    BoolArray,
    CycleState,
    IntArray,
    PreScorePlugin,
    ScorePlugin,
)
from engine.framework.status import Status
from engine.model.objects import Pod
from engine.plugins.noderesources.resource_allocation import (
    FEW_NODES,
    ResourceAllocationScorer,
)

NAME = "NodeResourcesBalancedAllocation"
PRE_SCORE_STATE_KEY = "PreScore" + NAME
_SKIP = Status.skip(NAME)
_HALF = MAX_NODE_SCORE // 2

FloatArray = npt.NDArray[np.float64]


class BalancedAllocation(PreScorePlugin, ScorePlugin):
    name: ClassVar[str] = NAME
    node_local: ClassVar[bool] = True

    def __init__(self, args: NodeResourcesBalancedAllocationArgs | None = None) -> None:
        args = args if args is not None else NodeResourcesBalancedAllocationArgs()
        if not args.resources:
            raise ValueError(f"{NAME}: resources must name at least one resource")
        self._allocation = ResourceAllocationScorer(args.resources, use_requested=True)
        self._offsets: dict[tuple[int, ...], IntArray] = {}

    def pre_score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> Status:
        pod_requests = self._allocation.pod_requests(pod)
        if not any(pod_requests):
            return _SKIP
        state[PRE_SCORE_STATE_KEY] = pod_requests
        return Status.success()

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        pod_requests: tuple[int, ...] | None = state.get(PRE_SCORE_STATE_KEY)
        if pod_requests is None:  # PreScore disabled: upstream computes it here
            pod_requests = self._allocation.pod_requests(pod)
            if not any(pod_requests):
                return np.zeros(len(nodes), dtype=np.int64)
        if len(nodes) == 1:
            score = self._score_one_node(cluster, nodes.item(0), pod_requests)
            return np.array([score], dtype=np.int64)
        allocation = self._allocation.allocation(cluster, nodes, pod_requests)
        allocatable = allocation.allocatable
        without_pod_requested = allocation.requested_without_pod
        if len(nodes) <= FEW_NODES and allocatable.shape[1] == 2 and allocatable.all():
            with_pod, without_pod = balance_scores_of_two(
                without_pod_requested, allocatable, self._with_and_without(pod_requests)
            )
        else:
            counted = allocatable != 0
            with_pod = balance_score(allocation.requested, allocatable, counted)
            without_pod = balance_score(without_pod_requested, allocatable, counted)
        change = _HALF + with_pod - without_pod
        # Go's division truncates toward zero; `change` is >= 0 unless float
        # rounding pushes a balance just below 50, where the two differ.
        result: IntArray = _HALF + (change + (change < 0)) // 2
        return result

    def _score_one_node(
        self, cluster: ClusterState, node: int, pod_requests: tuple[int, ...]
    ) -> int:
        """score() for one node in Python arithmetic."""
        used, allocatable = self._allocation.one_node(cluster, node, pod_requests)
        requested = [u + p for u, p in zip(used, pod_requests, strict=True)]
        without_pod = balance_one_node(used, allocatable)
        change = _HALF + balance_one_node(requested, allocatable) - without_pod
        return _HALF + (change + (change < 0)) // 2  # Go's truncating division

    def _with_and_without(self, pod_requests: tuple[int, ...]) -> IntArray:
        """[[pod_requests], [0, ...]] shaped to broadcast over [2 x resources x nodes]."""
        found = self._offsets.get(pod_requests)
        if found is None:
            zeros = [0] * len(pod_requests)
            found = np.array([pod_requests, zeros], dtype=np.int64)[:, :, np.newaxis]
            if len(self._offsets) > 4096:  # one entry per distinct pod template
                self._offsets.clear()
            self._offsets[pod_requests] = found
        return found


def balance_scores_of_two(
    requested_without_pod: IntArray, allocatable: IntArray, offsets: IntArray
) -> tuple[IntArray, IntArray]:
    """balance_score with and without the pod, for exactly two resources that
    every node has, both at once for a few nodes (fewer numpy calls): the same
    float64 steps as balance_score, elementwise, so the results are
    bit-identical. Works on [with/without x resource x node] stacks."""
    requested = requested_without_pod.T + offsets
    fractions = np.minimum(requested / allocatable.T, 1.0)
    std = np.abs((fractions[:, 0] - fractions[:, 1]) / 2)
    balance: IntArray = ((1.0 - std) * float(MAX_NODE_SCORE)).astype(np.int64)
    return balance[0], balance[1]


def balance_one_node(requested: list[int], allocatable: list[int]) -> int:
    """balance_score for one node in Python floats (IEEE float64 as numpy's,
    operation for operation, so bit-identical): for one node a numpy call
    costs more than the arithmetic. Resources with allocatable 0 do not count."""
    fractions = [
        min(float(r) / float(a), 1.0) for r, a in zip(requested, allocatable, strict=True) if a
    ]
    count = len(fractions)
    if count == 2:
        std = abs((fractions[0] - fractions[1]) / 2)
    elif count > 2:
        total = 0.0
        for fraction in fractions:
            total = total + fraction
        mean = total / count
        squares = 0.0
        for fraction in fractions:
            deviation = fraction - mean
            squares = squares + deviation * deviation
        std = math.sqrt(squares / count)
    else:
        std = 0.0
    return int((1.0 - std) * float(MAX_NODE_SCORE))


def balance_score(requested: IntArray, allocatable: IntArray, counted: BoolArray) -> IntArray:
    """int64((1 - std) * MaxNodeScore) per node, in upstream's float64 steps.

    Fractions are summed and squared in resource order, as the Go loop does,
    so the floating-point results are bit-identical.
    """
    if counted.all():  # the usual case: every node has every resource
        std = _std(np.minimum(requested / allocatable, 1.0))
    else:
        std = _std_where_counted(requested, allocatable, counted)
    result: IntArray = ((1.0 - std) * float(MAX_NODE_SCORE)).astype(np.int64)
    return result


def _std(fractions: FloatArray) -> FloatArray:
    n, k = fractions.shape
    if k == 2:  # upstream's shortcut for two resources: |f1 - f2| / 2
        return np.abs((fractions[:, 0] - fractions[:, 1]) / 2)
    if k < 2:
        return np.zeros(n)
    total = np.zeros(n)
    for j in range(k):
        total = total + fractions[:, j]
    mean = total / k
    squares = np.zeros(n)
    for j in range(k):
        deviation = fractions[:, j] - mean
        squares = squares + deviation * deviation
    std: FloatArray = np.sqrt(squares / k)
    return std


def _std_where_counted(
    requested: IntArray, allocatable: IntArray, counted: BoolArray
) -> FloatArray:
    """_std row by row over a varying set of resources (some nodes lack one)."""
    fractions = np.minimum(requested / np.where(counted, allocatable, 1), 1.0)
    count = counted.sum(axis=1)
    n, k = fractions.shape
    total = np.zeros(n)
    for j in range(k):
        total = total + np.where(counted[:, j], fractions[:, j], 0.0)
    mean = total / np.maximum(count, 1)
    squares = np.zeros(n)
    for j in range(k):
        deviation = fractions[:, j] - mean
        squares = squares + np.where(counted[:, j], deviation * deviation, 0.0)
    std: FloatArray = np.where(count > 2, np.sqrt(squares / np.maximum(count, 1)), 0.0)

    two = count == 2
    if two.any():
        rows = np.arange(n)
        first = np.argmax(counted, axis=1)
        last = k - 1 - np.argmax(counted[:, ::-1], axis=1)
        pair = np.abs((fractions[rows, first] - fractions[rows, last]) / 2)
        std = np.where(two, pair, std)
    return std
