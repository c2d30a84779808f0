"""NodeResourcesFit Score: the LeastAllocated, MostAllocated and
RequestedToCapacityRatio strategies.

Rows from pkg/scheduler/framework/plugins/noderesources/least_allocated_test.go,
most_allocated_test.go, requested_to_capacity_ratio_test.go and
fit_test.go (TestFitScore). Upstream quantities are kept as written there:
"4000" cpu is 4000 cores, memory is in bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from engine.config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from engine.framework.interface import CycleState
from engine.model.objects import CPU, GPU, MEMORY, Node, Pod
from engine.plugins.noderesources.fit import NodeResourcesFit
from engine.plugins.noderesources.strategies import broken_linear_function
from tests.engine.plugins.builders import (
    Quantity,
    all_nodes,
    by_name,
    make_cluster,
    make_node,
    make_pod,
)

EXT = "intel.com/foo"
BAR = "intel.com/bar"
DEFAULT = (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1))
WITH_EXT = (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1), ResourceSpec(EXT, 1))

Requests = Mapping[str, Quantity]


def pod(name: str, requests: Requests | None = None, nonzero: tuple[int, int] | None = None) -> Pod:
    """A pod whose containers set the requests given (upstream's st.MakePod().Req()).

    Scoring's non-zero cpu/memory then equal the requests; `nonzero` states
    them for containers that set none (100m / 200Mi each).
    """
    p = make_pod(name, requests=requests)
    p.nonzero_requests = nonzero or (p.requests.get(CPU, 0), p.requests.get(MEMORY, 0))
    return p


def node(name: str, allocatable: Requests) -> Node:
    return make_node(name, allocatable=allocatable)


def scores(
    strategy: ScoringStrategy,
    incoming: Pod,
    nodes: Sequence[Node],
    existing: Mapping[str, Sequence[Pod]] | None = None,
    *,
    run_pre_score: bool = True,
) -> dict[str, int]:
    cluster = make_cluster(nodes, existing)
    plugin = NodeResourcesFit(NodeResourcesFitArgs(scoring_strategy=strategy))
    state = CycleState()
    candidates = all_nodes(cluster)
    if run_pre_score:
        assert plugin.pre_score(state, incoming, cluster, candidates).ok
    result = plugin.score(state, incoming, cluster, candidates)
    assert plugin.normalize_scores(state, incoming, result) is result  # no NormalizeScore
    return by_name(cluster, candidates, result.tolist())


def least(resources: tuple[ResourceSpec, ...] = DEFAULT) -> ScoringStrategy:
    return ScoringStrategy(LEAST_ALLOCATED, resources)


def most(resources: tuple[ResourceSpec, ...] = DEFAULT) -> ScoringStrategy:
    return ScoringStrategy(MOST_ALLOCATED, resources)


def ratio(
    shape: Sequence[tuple[int, int]], resources: tuple[ResourceSpec, ...] = DEFAULT
) -> ScoringStrategy:
    points = tuple(UtilizationShapePoint(u, s) for u, s in shape)
    return ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, resources, points)


def small(name: str) -> Node:
    return node(name, {"cpu": "4000", "memory": 10000})


def medium(name: str) -> Node:
    return node(name, {"cpu": "6000", "memory": 10000})


def large(name: str, memory: int = 20000) -> Node:
    return node(name, {"cpu": "10000", "memory": memory})


POD_3000_5000 = {"cpu": "3000", "memory": 5000}  # two containers: 1000/2000 + 2000/3000


LEAST_ALLOCATED_ROWS = [
    # least_allocated_test.go TestLeastAllocatedScoringStrategy
    pytest.param(
        least(),
        pod("p"),
        [small("node1"), small("node2")],
        None,
        {"node1": 100, "node2": 100},
        id="least: nothing scheduled, nothing requested",
    ),
    pytest.param(
        # cpu ((4000-3000)*100)/4000 = 25, memory 50: (25+50)/2 = 37; node2 (50+50)/2 = 50
        least(),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        None,
        {"node1": 37, "node2": 50},
        id="least: nothing scheduled, resources requested, differently sized nodes",
    ),
    pytest.param(
        least(),
        pod("p"),
        [small("node1"), small("node2")],
        {"node1": [pod("e1"), pod("e2")], "node2": [pod("e3"), pod("e4")]},
        {"node1": 100, "node2": 100},
        id="least: no resources requested, pods scheduled",
    ),
    pytest.param(
        # node1 cpu 40, memory 100 -> 70; node2 cpu 40, memory 75 -> 57
        least(),
        pod("p"),
        [large("node1"), large("node2")],
        {
            "node1": [pod("e1", {"cpu": "3000", "memory": 0}), pod("e2", {"cpu": "3000"})],
            "node2": [pod("e3", {"cpu": "3000"}), pod("e4", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 70, "node2": 57},
        id="least: no resources requested, pods scheduled with resources",
    ),
    pytest.param(
        least(),
        pod("p", POD_3000_5000),
        [large("node1"), large("node2")],
        {
            "node1": [pod("e1", {"cpu": "3000"})],
            "node2": [pod("e2", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 57, "node2": 45},
        id="least: resources requested, pods scheduled with resources",
    ),
    pytest.param(
        least(),
        pod("p", POD_3000_5000),
        [large("node1"), large("node2", 50000)],
        {
            "node1": [pod("e1", {"cpu": "3000"})],
            "node2": [pod("e2", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 57, "node2": 60},
        id="least: resources requested, pods scheduled with resources, differently sized nodes",
    ),
    pytest.param(
        # cpu 6000 > 4000 scores 0: node1 (0+100)/2 = 50, node2 (0+50)/2 = 25
        least(),
        pod("p", {"cpu": "3000", "memory": 0}),
        [small("node1"), small("node2")],
        {
            "node1": [pod("e1", {"cpu": "3000"})],
            "node2": [pod("e2", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 50, "node2": 25},
        id="least: requested resources exceed node capacity",
    ),
    pytest.param(
        least(),
        pod("p"),
        [node("node1", {}), node("node2", {})],
        {
            "node1": [pod("e1", {"cpu": "3000"})],
            "node2": [pod("e2", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 0, "node2": 0},
        id="least: zero node resources, pods scheduled with resources",
    ),
    pytest.param(
        # node1 (25*1 + 50*2)/3 = 41; node2 (50*1 + 50*2)/3 = 50
        least((ResourceSpec(MEMORY, 2), ResourceSpec(CPU, 1))),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        None,
        {"node1": 41, "node2": 50},
        id="least: different weight on cpu and memory",
    ),
    pytest.param(
        least(WITH_EXT),
        pod("p", POD_3000_5000),
        [medium("node1"), node("node2", {"cpu": "6000", "memory": 10000, EXT: 4})],
        None,
        {"node1": 50, "node2": 50},
        id="least: bypass extended resource if the pod does not request",
    ),
    pytest.param(
        # extended: node1 (4-2)/4 = 50, node2 (10-2)/10 = 80 -> (50+50+80)/3 = 60
        least(WITH_EXT),
        pod("p", {"cpu": "3000", "memory": 5000, EXT: 2}),
        [
            node("node1", {"cpu": "6000", "memory": 10000, EXT: 4}),
            node("node2", {"cpu": "6000", "memory": 10000, EXT: 10}),
        ],
        None,
        {"node1": 50, "node2": 60},
        id="least: honor extended resource if the pod requests",
    ),
    pytest.param(
        # the extended resource's weight 2 never counts: (50 + 60)/2 = 55
        least((ResourceSpec(EXT, 2), ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1))),
        pod("p", {"cpu": "3000", "memory": 4000}),
        [medium("node1"), node("node2", {"cpu": "6000", "memory": 10000, EXT: 4})],
        None,
        {"node1": 55, "node2": 55},
        id="least: if the node doesn't have a resource",
    ),
]

MOST_ALLOCATED_ROWS = [
    # most_allocated_test.go TestMostAllocatedScoringStrategy
    pytest.param(
        most(),
        pod("p"),
        [small("node1"), small("node2")],
        None,
        {"node1": 0, "node2": 0},
        id="most: nothing scheduled, nothing requested",
    ),
    pytest.param(
        # node1 cpu 75, memory 50 -> 62; node2 50, 50 -> 50
        most(),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        None,
        {"node1": 62, "node2": 50},
        id="most: nothing scheduled, resources requested, differently sized nodes",
    ),
    pytest.param(
        most(),
        pod("p"),
        [large("node1"), large("node2")],
        {
            "node1": [pod("e1", {"cpu": "3000", "memory": 0}), pod("e2", {"cpu": "3000"})],
            "node2": [pod("e3", {"cpu": "3000"}), pod("e4", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 30, "node2": 42},
        id="most: no resources requested, pods scheduled with resources",
    ),
    pytest.param(
        most(),
        pod("p", POD_3000_5000),
        [large("node1"), large("node2")],
        {
            "node1": [pod("e1", {"cpu": "3000"})],
            "node2": [pod("e2", {"cpu": "3000", "memory": 5000})],
        },
        {"node1": 42, "node2": 55},
        id="most: resources requested, pods scheduled with resources",
    ),
    pytest.param(
        # node1 cpu 5000/5000 = 100, memory 90 -> 95; node2 cpu 50, memory 9000/9000 -> 75
        most(),
        pod("p", {"cpu": "5000", "memory": 9000}),
        [
            node("node1", {"cpu": "5000", "memory": 10000}),
            node("node2", {"cpu": "10000", "memory": 9000}),
        ],
        None,
        {"node1": 95, "node2": 75},
        id="most: resources requested equal node capacity",
    ),
    pytest.param(
        # node1 (75*1 + 50*2)/3 = 58
        most((ResourceSpec(MEMORY, 2), ResourceSpec(CPU, 1))),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        None,
        {"node1": 58, "node2": 50},
        id="most: different weight on cpu and memory",
    ),
    pytest.param(
        # Containers without requests count 100m / 200Mi each. node1: cpu 300m of
        # 250m, capped at 100; memory 600Mi of 1000Mi = 60 -> 80. node2: 40, 20 -> 30.
        most(),
        pod("p", nonzero=(100, 200 * 1024 * 1024)),
        [
            node("node1", {"cpu": "250m", "memory": "1000Mi"}),
            node("node2", {"cpu": "250m", "memory": "1000Mi"}),
        ],
        {
            "node1": [
                pod("e1", nonzero=(100, 200 * 1024 * 1024)),
                pod("e2", nonzero=(100, 200 * 1024 * 1024)),
            ]
        },
        {"node1": 80, "node2": 30},
        id="most: no resources requested, pods scheduled, nonzero request for resource",
    ),
    pytest.param(
        most(WITH_EXT),
        pod("p", POD_3000_5000),
        [medium("node1"), node("node2", {"cpu": "6000", "memory": 10000, EXT: 4})],
        None,
        {"node1": 50, "node2": 50},
        id="most: bypass extended resource if the pod does not request",
    ),
    pytest.param(
        # extended: node1 2/4 = 50, node2 2/10 = 20 -> (50+50+20)/3 = 40
        most(WITH_EXT),
        pod("p", {"cpu": "3000", "memory": 5000, EXT: 2}),
        [
            node("node1", {"cpu": "6000", "memory": 10000, EXT: 4}),
            node("node2", {"cpu": "6000", "memory": 10000, EXT: 10}),
        ],
        None,
        {"node1": 50, "node2": 40},
        id="most: honor extended resource if the pod requests",
    ),
    pytest.param(
        most((ResourceSpec(EXT, 2), ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1))),
        pod("p", {"cpu": "3000", "memory": 4000}),
        [medium("node1"), node("node2", {"cpu": "6000", "memory": 10000, EXT: 4})],
        None,
        {"node1": 45, "node2": 45},
        id="most: if the node doesn't have a resource",
    ),
]

LEAST_REQUESTED_SHAPE = [(0, 10), (100, 0)]
BIN_PACKING_SHAPE = [(0, 0), (100, 1)]


def foo_bar_node(name: str, foo: int, bar: int | None = None) -> Node:
    allocatable: dict[str, Quantity] = {"cpu": "4", "memory": 10000 * 1024 * 1024, EXT: foo}
    if bar is not None:
        allocatable[BAR] = bar
    return node(name, allocatable)


FOO_BAR = (ResourceSpec(EXT, 3), ResourceSpec(BAR, 5))

RATIO_ROWS = [
    # requested_to_capacity_ratio_test.go TestRequestedToCapacityRatioScoringStrategy
    pytest.param(
        ratio(LEAST_REQUESTED_SHAPE),
        pod("p"),
        [small("node1"), small("node2")],
        {"node1": [pod("e1"), pod("e2")]},
        {"node1": 100, "node2": 100},
        id="ratio: nothing scheduled, nothing requested",
    ),
    pytest.param(
        # node1 cpu 75% -> 25, memory 50% -> 50: round(37.5) = 38
        ratio(LEAST_REQUESTED_SHAPE),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        {"node1": [pod("e1"), pod("e2")]},
        {"node1": 38, "node2": 50},
        id="ratio: nothing scheduled, resources requested, differently sized nodes",
    ),
    pytest.param(
        ratio(LEAST_REQUESTED_SHAPE),
        pod("p"),
        [small("node1"), medium("node2")],
        {"node1": [pod("e1", POD_3000_5000)], "node2": [pod("e2", POD_3000_5000)]},
        {"node1": 38, "node2": 50},
        id="ratio: no resources requested, pods scheduled with resources",
    ),
    # TestResourceBinPackingSingleExtended: shape scores 0..1 become 0..10.
    pytest.param(
        ratio(BIN_PACKING_SHAPE, (ResourceSpec(EXT, 1),)),
        pod("p"),
        [foo_bar_node("node1", 8), foo_bar_node("node2", 4)],
        {"node1": [pod("e1")]},
        {"node1": 0, "node2": 0},
        id="bin packing single: nothing scheduled, nothing requested",
    ),
    pytest.param(
        ratio(BIN_PACKING_SHAPE, (ResourceSpec(EXT, 1),)),
        pod("p", {EXT: 2}),
        [foo_bar_node("node1", 8), foo_bar_node("node2", 4)],
        {"node1": [pod("e1")]},
        {"node1": 2, "node2": 5},
        id="bin packing single: resources requested, pods scheduled with less resources",
    ),
    pytest.param(
        ratio(BIN_PACKING_SHAPE, (ResourceSpec(EXT, 1),)),
        pod("p", {EXT: 2}),
        [foo_bar_node("node1", 8), foo_bar_node("node2", 4)],
        {"node2": [pod("e1", {EXT: 2})]},
        {"node1": 2, "node2": 10},
        id="bin packing single: on node with existing pod running",
    ),
    pytest.param(
        ratio(BIN_PACKING_SHAPE, (ResourceSpec(EXT, 1),)),
        pod("p", {EXT: 4}),
        [foo_bar_node("node1", 8), foo_bar_node("node2", 4)],
        {"node1": [pod("e1")]},
        {"node1": 5, "node2": 10},
        id="bin packing single: resources requested, pods scheduled with more resources",
    ),
    # TestResourceBinPackingMultipleExtended: foo weight 3, bar weight 5.
    pytest.param(
        ratio(BIN_PACKING_SHAPE, FOO_BAR),
        pod("p"),
        [foo_bar_node("node1", 8, 4), foo_bar_node("node2", 4, 8)],
        None,
        {"node1": 0, "node2": 0},
        id="bin packing multiple: nothing scheduled, nothing requested",
    ),
    pytest.param(
        # node1 foo 25% -> 2, bar 50% -> 5: round((2*3 + 5*5)/8 = 3.875) = 4
        ratio(BIN_PACKING_SHAPE, FOO_BAR),
        pod("p", {EXT: 2, BAR: 2}),
        [foo_bar_node("node1", 8, 4), foo_bar_node("node2", 4, 8)],
        {"node1": [pod("e1")]},
        {"node1": 4, "node2": 3},
        id="bin packing multiple: pods scheduled with less resources",
    ),
    pytest.param(
        # node2 foo (4+2)/4 over capacity -> 10, bar 50% -> 5: round(55/8) = 7
        ratio(BIN_PACKING_SHAPE, FOO_BAR),
        pod("p", {EXT: 2, BAR: 2}),
        [foo_bar_node("node1", 8, 4), foo_bar_node("node2", 4, 8)],
        {"node2": [pod("e1", {EXT: 4, BAR: 2})]},
        {"node1": 4, "node2": 7},
        id="bin packing multiple: on node with existing pod running",
    ),
    pytest.param(
        ratio(BIN_PACKING_SHAPE, FOO_BAR),
        pod("p", {EXT: 4, BAR: 2}),
        [foo_bar_node("node1", 8, 4), foo_bar_node("node2", 4, 8)],
        {"node1": [pod("e1")]},
        {"node1": 5, "node2": 5},
        id="bin packing multiple: pods scheduled with more resources",
    ),
]

FIT_SCORE_EXISTING = {
    "node1": [pod("e1", {"cpu": "2000", "memory": 4000})],
    "node2": [pod("e2", {"cpu": "1000", "memory": 2000})],
}

FIT_SCORE_ROWS = [
    # fit_test.go TestFitScore
    pytest.param(
        # node1: cpu (2000+3000)/4000 over capacity -> 0, not counted; memory 90% -> 10
        ratio(LEAST_REQUESTED_SHAPE),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        FIT_SCORE_EXISTING,
        {"node1": 10, "node2": 32},
        id="fit: RequestedToCapacityRatio case1",
    ),
    pytest.param(
        ratio([(0, 0), (100, 10)]),
        pod("p", POD_3000_5000),
        [small("node1"), medium("node2")],
        FIT_SCORE_EXISTING,
        {"node1": 95, "node2": 68},
        id="fit: RequestedToCapacityRatio case2",
    ),
    pytest.param(
        most(),
        pod("p", {"cpu": "1000", "memory": 2000}),
        [small("node1"), medium("node2")],
        FIT_SCORE_EXISTING,
        {"node1": 67, "node2": 36},
        id="fit: MostAllocated",
    ),
    pytest.param(
        least(),
        pod("p", {"cpu": "1000", "memory": 2000}),
        [small("node1"), medium("node2")],
        FIT_SCORE_EXISTING,
        {"node1": 32, "node2": 63},
        id="fit: LeastAllocated",
    ),
]


@pytest.mark.parametrize(
    ("strategy", "incoming", "nodes", "existing", "expected"),
    LEAST_ALLOCATED_ROWS + MOST_ALLOCATED_ROWS + RATIO_ROWS + FIT_SCORE_ROWS,
)
def test_upstream_scores(
    strategy: ScoringStrategy,
    incoming: Pod,
    nodes: list[Node],
    existing: dict[str, list[Pod]] | None,
    expected: dict[str, int],
) -> None:
    assert scores(strategy, incoming, nodes, existing) == expected


@pytest.mark.parametrize(
    "strategy",
    [least(), most(), ratio(LEAST_REQUESTED_SHAPE)],
    ids=["least", "most", "ratio"],
)
def test_scores_are_the_same_when_pre_score_did_not_run(strategy: ScoringStrategy) -> None:
    # TestFitScore "... if PreScore is not called": Score computes the requests itself.
    incoming = pod("p", {"cpu": "1000", "memory": 2000})
    nodes = [small("node1"), medium("node2")]
    assert scores(strategy, incoming, nodes, FIT_SCORE_EXISTING, run_pre_score=False) == scores(
        strategy, incoming, nodes, FIT_SCORE_EXISTING
    )


# --- GPUs: the seed article's configurations ---------------------------------

GPU_MOST = most((ResourceSpec(GPU, 10), ResourceSpec(CPU, 3), ResourceSpec(MEMORY, 1)))
GPU_LEAST = least((ResourceSpec(GPU, 8), ResourceSpec(CPU, 2), ResourceSpec(MEMORY, 1)))


def dgx(name: str) -> Node:
    return node(name, {"cpu": "64", "memory": "512Gi", GPU: 8})


GPU_NODES = [dgx("gpus-0-used"), dgx("gpus-4-used"), dgx("gpus-7-used")]
GPU_EXISTING = {
    "gpus-4-used": [pod("half", {"cpu": "16", "memory": "128Gi", GPU: 4})],
    "gpus-7-used": [pod("most", {"cpu": "28", "memory": "224Gi", GPU: 7})],
}
TRAINER = {"cpu": "8", "memory": "64Gi", GPU: 2}


@pytest.mark.parametrize(
    ("strategy", "requests", "expected"),
    [
        pytest.param(
            # per resource (requested * 100) / allocatable, requested capped at allocatable:
            #   0 used: gpu 2/8 -> 25, cpu 8/64 -> 12, memory 64/512 -> 12
            #           (25*10 + 12*3 + 12*1) / 14 = 298 / 14 = 21
            #   4 used: gpu 6/8 -> 75, cpu 24/64 -> 37, memory 192/512 -> 37
            #           (750 + 111 + 37) / 14 = 898 / 14 = 64
            #   7 used: gpu 9/8 capped -> 100, cpu 36/64 -> 56, memory 288/512 -> 56
            #           (1000 + 168 + 56) / 14 = 1224 / 14 = 87
            GPU_MOST,
            TRAINER,
            {"gpus-0-used": 21, "gpus-4-used": 64, "gpus-7-used": 87},
            id="MostAllocated gpu 10 cpu 3 memory 1: 2-GPU pod packs",
        ),
        pytest.param(
            # per resource ((allocatable - requested) * 100) / allocatable, 0 when over:
            #   0 used: gpu 6/8 -> 75, cpu 56/64 -> 87, memory 448/512 -> 87
            #           (75*8 + 87*2 + 87*1) / 11 = 861 / 11 = 78
            #   4 used: gpu 2/8 -> 25, cpu 40/64 -> 62, memory 320/512 -> 62
            #           (200 + 124 + 62) / 11 = 386 / 11 = 35
            #   7 used: gpu 9 > 8 -> 0, cpu 28/64 -> 43, memory 224/512 -> 43
            #           (0 + 86 + 43) / 11 = 129 / 11 = 11
            GPU_LEAST,
            TRAINER,
            {"gpus-0-used": 78, "gpus-4-used": 35, "gpus-7-used": 11},
            id="LeastAllocated gpu 8 cpu 2 memory 1: 2-GPU pod spreads",
        ),
        pytest.param(
            # The pod asks for no GPU, so the gpu weight is not counted at all:
            #   0 used: cpu 8/64 -> 12, memory 12: (12*3 + 12*1) / 4 = 12
            #   4 used: cpu 24/64 -> 37, memory 37: (111 + 37) / 4 = 37
            #   7 used: cpu 36/64 -> 56, memory 56: (168 + 56) / 4 = 56
            # (Counting it with a 0 score would give 48/14 = 3 on the idle node.)
            GPU_MOST,
            {"cpu": "8", "memory": "64Gi"},
            {"gpus-0-used": 12, "gpus-4-used": 37, "gpus-7-used": 56},
            id="MostAllocated: CPU-only pod on GPU nodes ignores the gpu weight",
        ),
        pytest.param(
            #   0 used: cpu 56/64 -> 87, memory 87: (87*2 + 87) / 3 = 87
            #   4 used: cpu 40/64 -> 62, memory 62 -> 62
            #   7 used: cpu 28/64 -> 43, memory 43 -> 43
            GPU_LEAST,
            {"cpu": "8", "memory": "64Gi"},
            {"gpus-0-used": 87, "gpus-4-used": 62, "gpus-7-used": 43},
            id="LeastAllocated: CPU-only pod on GPU nodes ignores the gpu weight",
        ),
    ],
)
def test_gpu_scoring(
    strategy: ScoringStrategy, requests: Requests, expected: dict[str, int]
) -> None:
    assert scores(strategy, pod("p", requests), GPU_NODES, GPU_EXISTING) == expected


def test_gpu_resource_on_a_cpu_only_node_is_skipped_for_that_node() -> None:
    # The cpu node has no GPU column value: gpu is skipped there, cpu/memory count.
    nodes = [dgx("gpu"), node("cpu", {"cpu": "64", "memory": "512Gi"})]
    result = scores(GPU_MOST, pod("p", TRAINER), nodes)
    assert result == {"gpu": 21, "cpu": 12}


# --- helper.BuildBrokenLinearFunction (TestBrokenLinearFunction) -------------


@pytest.mark.parametrize(
    ("points", "assertions"),
    [
        pytest.param(
            [(10, 1), (90, 9)],
            [
                (-10, 1),
                (0, 1),
                (9, 1),
                (10, 1),
                (15, 1),
                (19, 1),
                (20, 2),
                (89, 8),
                (90, 9),
                (99, 9),
                (100, 9),
                (110, 9),
            ],
            id="case_0",
        ),
        pytest.param(
            [(0, 2), (40, 10), (100, 0)],
            [(-10, 2), (0, 2), (20, 6), (30, 8), (40, 10), (70, 5), (100, 0), (110, 0)],
            id="case_1",
        ),
        pytest.param(
            [(0, 2), (40, 2), (100, 2)],
            [(-10, 2), (0, 2), (20, 2), (30, 2), (40, 2), (70, 2), (100, 2), (110, 2)],
            id="case_2",
        ),
        pytest.param(
            # Go truncates toward zero on a falling segment (Python would floor):
            # p=50: 10 + (-100 / 60) = 10 - 1 = 9; p=99: 10 + (-590 / 60) = 10 - 9 = 1
            [(0, 2), (40, 10), (100, 0)],
            [(50, 9), (41, 10), (99, 1)],
            id="ours: truncation toward zero",
        ),
        pytest.param([(50, 7)], [(0, 7), (50, 7), (100, 7)], id="ours: single point"),
    ],
)
def test_broken_linear_function(
    points: list[tuple[int, int]], assertions: list[tuple[int, int]]
) -> None:
    f = broken_linear_function([u for u, _ in points], [s for _, s in points])
    p = np.array([x for x, _ in assertions], dtype=np.int64)
    assert f(p).tolist() == [y for _, y in assertions]
