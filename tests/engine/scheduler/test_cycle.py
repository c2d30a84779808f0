"""The scheduling cycle against pkg/scheduler/schedule_one.go and framework/types.go."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

from engine.cluster.state import ClusterState, node_tree_order
from engine.config.types import PluginRef, Profile
from engine.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterResult,
    IntArray,
    ScorePlugin,
)
from engine.framework.runtime import Framework
from engine.framework.status import Code
from engine.model.objects import Node, Pod
from engine.scheduler.cycle import SchedulingCycle, num_feasible_nodes_to_find
from engine.scheduler.diagnosis import Diagnosis


def node(name: str, zone: str | None = None, **labels: str) -> Node:
    if zone is not None:
        labels["topology.kubernetes.io/zone"] = zone
    return Node(name, labels=labels, allocatable={"cpu": 4000, "memory": 8 << 30, "pods": 110})


# Rows from schedule_one_test.go TestNumFeasibleNodesToFind.
@pytest.mark.parametrize(
    ("percentage", "num_all_nodes", "expected"),
    [
        (None, 10, 10),
        (40, 10, 10),
        (None, 1000, 420),
        (40, 1000, 400),
        (None, 6000, 300),
        (40, 6000, 2400),
        (None, 100, 100),
        (5, 1000, 100),  # never fewer than minFeasibleNodesToFind
        (100, 5000, 5000),
    ],
)
def test_num_feasible_nodes_to_find(
    percentage: int | None, num_all_nodes: int, expected: int
) -> None:
    assert num_feasible_nodes_to_find(percentage, num_all_nodes) == expected


def test_node_tree_order_interleaves_zones_in_order_of_first_appearance() -> None:
    nodes = [
        node("a1", "zone-a"),
        node("a2", "zone-a"),
        node("a3", "zone-a"),
        node("b1", "zone-b"),
        node("c1", "zone-c"),
        node("c2", "zone-c"),
        node("nozone"),
    ]
    assert [n.name for n in node_tree_order(nodes)] == [
        "a1",
        "b1",
        "c1",
        "nozone",
        "a2",
        "c2",
        "a3",
    ]


@pytest.mark.parametrize(
    ("rejections", "num_nodes", "expected"),
    [
        (
            [([0], "Insufficient cpu"), ([1, 2], "Insufficient memory")],
            3,
            "0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.",
        ),
        # One node can carry several reasons, each counted; "10 x" sorts before "2 y".
        (
            [
                (list(range(10)), "node(s) didn't match Pod's node affinity/selector"),
                ([10, 11], "Insufficient nvidia.com/gpu"),
                ([11], "Insufficient cpu"),
            ],
            12,
            "0/12 nodes are available: 1 Insufficient cpu, 10 node(s) didn't match Pod's "
            "node affinity/selector, 2 Insufficient nvidia.com/gpu.",
        ),
    ],
)
def test_fit_error_message(
    rejections: list[tuple[list[int], str]], num_nodes: int, expected: str
) -> None:
    diagnosis = Diagnosis()
    for nodes, reason in rejections:
        diagnosis.reject(np.array(nodes), "P", reason, Code.UNSCHEDULABLE)
    assert diagnosis.fit_error(num_nodes) == expected


class RejectOdd(FilterPlugin):
    """Rejects nodes whose name ends in an odd digit; records what it saw."""

    name: ClassVar[str] = "RejectOdd"

    def __init__(self) -> None:
        self.seen: list[int] = []

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        self.seen.extend(nodes.tolist())
        odd = np.array([int(cluster.nodes[i].name[-1]) % 2 == 1 for i in nodes], dtype=bool)
        result = FilterResult()
        result.add(odd, "odd node")
        return result


class RejectAll(RejectOdd):
    name: ClassVar[str] = "RejectAll"

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        self.seen.extend(nodes.tolist())
        result = FilterResult()
        result.add(np.ones(len(nodes), dtype=bool), "no way", Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
        return result


class PreferLowIndex(ScorePlugin):
    name: ClassVar[str] = "PreferLowIndex"

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        return 100 - nodes.astype(np.int64)


class Flat(ScorePlugin):
    name: ClassVar[str] = "Flat"

    def score(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> IntArray:
        return np.full(len(nodes), 7, dtype=np.int64)


def framework(
    filters: list, scores: list[tuple[ScorePlugin, int]], percentage: int | None = None
) -> Framework:
    profile = Profile(
        plugins={
            "filter": [PluginRef(p.name) for p in filters],
            "score": [PluginRef(p.name, w) for p, w in scores],
        },
        percentage_of_nodes_to_score=percentage,
    )
    instances = {p.name: p for p in filters} | {p.name: p for p, _ in scores}
    return Framework(profile, instances)


def test_a_node_is_dropped_at_its_first_failing_filter() -> None:
    cluster = ClusterState([node(f"n{i}") for i in range(4)])
    odd, never = RejectOdd(), RejectAll()
    cycle = SchedulingCycle(cluster, None, np.random.default_rng(0))
    result = cycle.schedule(
        framework([odd, never], [(Flat(), 1)]), Pod("default", "p"), explain=True
    )
    assert never.seen == [0, 2]  # the second filter never sees nodes the first rejected
    assert result.status == "Unschedulable"
    assert result.message == "0/4 nodes are available: 2 no way, 2 odd node."
    assert result.explain is not None
    assert result.explain["n1"].as_json() == {
        "filter": {"plugin": "RejectOdd", "reason": "odd node"}
    }
    assert result.explain["n2"].as_json() == {"filter": {"plugin": "RejectAll", "reason": "no way"}}


def test_search_stops_at_enough_feasible_nodes_and_the_next_cycle_resumes_there() -> None:
    # 200 nodes, 50%: 100 feasible nodes to find. Every other node is feasible,
    # so the search stops after examining 199 nodes and the next cycle starts at 199.
    cluster = ClusterState([node(f"n{i:03d}{i % 2}") for i in range(200)])
    odd = RejectOdd()
    cycle = SchedulingCycle(cluster, 50, np.random.default_rng(0))
    fwk = framework([odd], [(PreferLowIndex(), 1)])
    first = cycle.schedule(fwk, Pod("default", "a"))
    assert first.feasible_nodes == 100
    assert first.evaluated_nodes == 199
    assert cycle.next_start_node_index == 199
    assert first.node == "n0000"
    odd.seen.clear()
    second = cycle.schedule(fwk, Pod("default", "b"))
    assert odd.seen[0] == 199  # rotation: starts where the previous cycle stopped
    # n1991 fails, then the 100 even nodes 0..198 pass: all 200 nodes examined.
    assert second.evaluated_nodes == 200
    assert cycle.next_start_node_index == (199 + 200) % 200


def test_scores_are_weighted_and_ties_break_with_the_seed() -> None:
    cluster = ClusterState([node(f"n{i}") for i in range(6)])
    picks = set()
    for seed in range(20):
        cycle = SchedulingCycle(cluster, None, np.random.default_rng(seed))
        result = cycle.schedule(framework([], [(Flat(), 3)]), Pod("default", "p"), explain=True)
        assert result.explain is not None
        assert all(e.total == 21 and e.scores == {"Flat": 7} for e in result.explain.values())
        picks.add(result.node)
        again = SchedulingCycle(cluster, None, np.random.default_rng(seed))
        assert again.schedule(framework([], [(Flat(), 3)]), Pod("default", "p")).node == result.node
    assert len(picks) > 1


def test_a_single_feasible_node_is_taken_without_scoring() -> None:
    cluster = ClusterState([node("n0"), node("n1")])
    result = SchedulingCycle(cluster, None, np.random.default_rng(0)).schedule(
        framework([RejectOdd()], [(PreferLowIndex(), 1)]), Pod("default", "p"), explain=True
    )
    assert result.node == "n0"
    assert result.explain is not None
    assert result.explain["n0"].total is None  # never scored
