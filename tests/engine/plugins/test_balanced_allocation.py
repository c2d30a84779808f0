"""NodeResourcesBalancedAllocation against pkg/scheduler/framework/plugins/
noderesources/balanced_allocation_test.go (v1.36, which scores the change in
balance: 50 + (50 + balance_with_pod - balance_without_pod) / 2).

Quantities as upstream's makeNode / cpuAndMemory: cpu in milli, memory in bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from engine.config.args import NodeResourcesBalancedAllocationArgs, ResourceSpec
from engine.framework.interface import CycleState
from engine.framework.status import Code
from engine.model.objects import CPU, GPU, MEMORY, Node, Pod
from engine.plugins.noderesources.balanced_allocation import BalancedAllocation, balance_score
from tests.engine.plugins.builders import all_nodes, by_name, make_cluster, make_node, make_pod

DEFAULT = NodeResourcesBalancedAllocationArgs()
WITH_GPU = NodeResourcesBalancedAllocationArgs(
    (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1), ResourceSpec(GPU, 1))
)


def node(name: str, cpu_milli: int, memory: int, gpus: int | None = None) -> Node:
    allocatable = {CPU: cpu_milli, MEMORY: memory}
    if gpus is not None:
        allocatable[GPU] = gpus
    return make_node(name, allocatable=allocatable)


def pod(name: str, **requests: int) -> Pod:
    return make_pod(name, requests={GPU if r == "gpu" else r: v for r, v in requests.items()})


def cpu_only(name: str) -> Pod:  # Req(cpuOnly("1000m")).Req(cpuOnly("2000m"))
    return pod(name, cpu=3000)


def cpu_and_memory(name: str) -> Pod:  # Req(cpuAndMemory("1000m", "2000")).Req(("2000m", "3000"))
    return pod(name, cpu=3000, memory=5000)


def scores(
    args: NodeResourcesBalancedAllocationArgs,
    incoming: Pod,
    nodes: Sequence[Node],
    existing: Mapping[str, Sequence[Pod]] | None = None,
    *,
    run_pre_score: bool = True,
) -> dict[str, int]:
    cluster = make_cluster(nodes, existing)
    plugin = BalancedAllocation(args)
    state = CycleState()
    candidates = all_nodes(cluster)
    if run_pre_score:
        assert plugin.pre_score(state, incoming, cluster, candidates).ok
    result = plugin.score(state, incoming, cluster, candidates)
    return by_name(cluster, candidates, result.tolist())


@pytest.mark.parametrize(
    ("args", "incoming", "nodes", "existing", "expected"),
    [
        pytest.param(
            # node1 cpu 0 -> 3000/4000 (0% -> 75%), memory 0 -> 5000/10000 (0% -> 50%):
            #   balance 100 -> 87, score 50 + (50 + 87 - 100) / 2 = 68
            # node2 cpu 0% -> 50%, memory 0% -> 50%: balance 100 -> 100, score 75
            DEFAULT,
            cpu_and_memory("p"),
            [node("node1", 4000, 10000), node("node2", 6000, 10000)],
            None,
            {"node1": 68, "node2": 75},
            id="nothing scheduled, resources requested, differently sized nodes",
        ),
        pytest.param(
            # node1 cpu 30% -> 60%, memory 0% -> 25%: balance 85 -> 82, score 73
            # node2 cpu 30% -> 60%, memory 25% -> 50%: balance 97 -> 95, score 74
            DEFAULT,
            cpu_and_memory("p"),
            [node("node1", 10000, 20000), node("node2", 10000, 20000)],
            {"node1": [cpu_only("e1")], "node2": [cpu_and_memory("e2")]},
            {"node1": 73, "node2": 74},
            id="resources requested, pods scheduled with resources",
        ),
        pytest.param(
            # node2 memory 10% -> 20%: balance 90 -> 80, score 70
            DEFAULT,
            cpu_and_memory("p"),
            [node("node1", 10000, 20000), node("node2", 10000, 50000)],
            {"node1": [cpu_only("e1")], "node2": [cpu_and_memory("e2")]},
            {"node1": 73, "node2": 70},
            id="resources requested, pods scheduled with resources, differently sized nodes",
        ),
        pytest.param(
            # node1 cpu 100%, memory 0% -> 100%: balance 50 -> 100, score 100
            # node2 cpu 0%, memory 0% -> 100%: balance 100 -> 50, score 50
            DEFAULT,
            pod("p", memory=5000),
            [node("node1", 3000, 5000), node("node2", 3000, 5000)],
            {"node1": [cpu_only("e1")]},
            {"node1": 100, "node2": 50},
            id="resources requested, pods scheduled with resources, nodes to reach min/max score",
        ),
        pytest.param(
            # node1 cpu 50% -> 100%, memory 0%: balance 75 -> 50, score 62
            # node2 cpu 50% -> 100%, memory 50%: balance 100 -> 75, score 62
            DEFAULT,
            cpu_only("p"),
            [node("node1", 6000, 10000), node("node2", 6000, 10000)],
            {"node1": [cpu_only("e1")], "node2": [cpu_and_memory("e2")]},
            {"node1": 62, "node2": 62},
            id="requested resources at node capacity",
        ),
        pytest.param(
            # node1 cpu 85.7%, memory 12.5%, gpu 3 -> 4 of 8: balance 69 -> 70, score 75
            # node2 cpu 85.7%, memory 12.5%, gpu 0 -> 1 of 8: balance 62 -> 65, score 76
            WITH_GPU,
            pod("p", cpu=0, memory=0, gpu=1),
            [node("node1", 3500, 40000, 8), node("node2", 3500, 40000, 8)],
            {
                "node1": [pod("e1", cpu=3000, memory=5000, gpu=3)],
                "node2": [pod("e2", cpu=3000, memory=5000)],
            },
            {"node1": 75, "node2": 76},
            id="scalar resource is included in the score computation if pod requests it",
        ),
        pytest.param(
            # gpu left out: cpu 0% -> 85.7%, memory 0% -> 12.5%: balance 100 -> 63, score 56
            WITH_GPU,
            cpu_and_memory("p"),
            [node("node1", 3500, 40000, 8), node("node2", 3500, 40000)],
            None,
            {"node1": 56, "node2": 56},
            id="scalar resource is not included in the score computation if pod doesn't request it",
        ),
    ],
)
def test_upstream_scores(
    args: NodeResourcesBalancedAllocationArgs,
    incoming: Pod,
    nodes: list[Node],
    existing: dict[str, list[Pod]] | None,
    expected: dict[str, int],
) -> None:
    assert scores(args, incoming, nodes, existing) == expected


def test_scores_are_the_same_when_pre_score_did_not_run() -> None:
    nodes = [node("node1", 10000, 20000), node("node2", 10000, 20000)]
    existing = {"node1": [cpu_only("e1")], "node2": [cpu_and_memory("e2")]}
    result = scores(DEFAULT, cpu_and_memory("p"), nodes, existing, run_pre_score=False)
    assert result == {"node1": 73, "node2": 74}


def test_best_effort_pods_are_skipped_in_pre_score() -> None:
    cluster = make_cluster([node("node1", 4000, 10000), node("node2", 4000, 10000)])
    plugin = BalancedAllocation(DEFAULT)
    state = CycleState()
    status = plugin.pre_score(state, pod("p"), cluster, all_nodes(cluster))
    assert status.code == Code.SKIP
    # Without PreScore, Score itself gives best-effort pods 0 everywhere.
    assert plugin.score(CycleState(), pod("p"), cluster, all_nodes(cluster)).tolist() == [0, 0]


def test_balance_uses_plain_requests_not_scoring_defaults() -> None:
    # A pod whose containers set no requests would count 100m/200Mi under
    # NodeResourcesFit; BalancedAllocation reads plain requests (useRequested).
    existing = pod("e", memory=5000)
    existing.nonzero_requests = (100, 200 * 1024 * 1024)
    result = scores(DEFAULT, pod("p", cpu=1000), [node("n", 4000, 10000)], {"n": [existing]})
    # cpu 0% -> 25%, memory 50%: balance 75 -> 87, score 50 + (50 + 87 - 75) / 2 = 81
    assert result == {"n": 81}


@pytest.mark.parametrize(
    ("requested", "allocatable", "expected"),
    [
        pytest.param([[3, 1]], [[4, 2]], [87], id="two resources: 100 * (1 - |0.75 - 0.5| / 2)"),
        pytest.param([[9, 1]], [[4, 2]], [75], id="fractions are capped at 1"),
        pytest.param([[3, 5]], [[4, 0]], [100], id="one counted resource: std 0"),
        pytest.param([[0, 0]], [[0, 0]], [100], id="no counted resource: std 0"),
        pytest.param(
            # fractions 0.8571, 0, 0.125: std 0.378 -> 62 (balanced_allocation_test.go DRA row)
            [[3000, 0, 1]],
            [[3500, 40000, 8]],
            [62],
            id="three resources: population standard deviation",
        ),
    ],
)
def test_balance_score(
    requested: list[list[int]], allocatable: list[list[int]], expected: list[int]
) -> None:
    req = np.array(requested, dtype=np.int64)
    alloc = np.array(allocatable, dtype=np.int64)
    assert balance_score(req, alloc, alloc != 0).tolist() == expected


def test_gpu_pod_prefers_the_node_it_balances() -> None:
    # Node "cpu-heavy" has its CPUs taken but idle GPUs; "gpu-heavy" the reverse.
    # A GPU-hungry pod balances the first and unbalances the second.
    nodes = [node("cpu-heavy", 64000, 1 << 40, 8), node("gpu-heavy", 64000, 1 << 40, 8)]
    existing = {
        "cpu-heavy": [pod("e1", cpu=48000, memory=1 << 38)],
        "gpu-heavy": [pod("e2", cpu=8000, memory=1 << 37, gpu=6)],
    }
    result = scores(WITH_GPU, pod("p", cpu=8000, memory=1 << 37, gpu=2), nodes, existing)
    assert result["cpu-heavy"] > 75 > result["gpu-heavy"]
