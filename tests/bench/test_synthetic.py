"""The synthetic benchmark inputs have the promised shape, and the benchmark runs.

Shape: 8-GPU nodes over 4 zones with the GPU labels and a few taints; pods
from a bounded number of templates, a quarter node-constrained, a tenth with
spread or anti-affinity, GPU demand near 75% of the cluster's GPUs.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.synthetic import (
    DEDICATED_TAINT,
    GPU_SOFT_TAINT,
    POOL_LABEL,
    ZONE_LABEL,
    synthetic_nodes,
    synthetic_pods,
)
from engine.model.objects import CPU, GPU, MEMORY, Node, Pod

ROOT = Path(__file__).resolve().parents[2]
NUM_NODES = 100
NUM_PODS = 1000
NODE_LABELS = (
    "kubernetes.io/hostname",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "node.kubernetes.io/instance-type",
    "nvidia.com/gpu.product",
    "nvidia.com/gpu.memory",
    "nvidia.com/gpu.count",
    POOL_LABEL,
)


def node_constrained(pod: Pod) -> bool:
    node_affinity = pod.affinity is not None and pod.affinity.node_affinity is not None
    return bool(pod.node_selector or pod.tolerations or node_affinity)


def spread(pod: Pod) -> bool:
    anti = pod.affinity is not None and pod.affinity.pod_anti_affinity is not None
    return bool(pod.topology_spread_constraints or anti)


@pytest.fixture(scope="module")
def nodes() -> list[Node]:
    return synthetic_nodes(NUM_NODES, seed=7)


@pytest.fixture(scope="module")
def pods(nodes: list[Node]) -> list[Pod]:
    return synthetic_pods(NUM_PODS, nodes, seed=7)


Measure = Callable[[list[Node], list[Pod]], object]

SHAPE = [
    pytest.param(lambda n, p: len(n), NUM_NODES, id="node count"),
    pytest.param(lambda n, p: {x.allocatable[GPU] for x in n}, {8}, id="8 GPUs per node"),
    pytest.param(
        lambda n, p: sorted(Counter(x.labels[ZONE_LABEL] for x in n).values()),
        [25, 25, 25, 25],
        id="4 zones, balanced",
    ),
    pytest.param(
        lambda n, p: all(all(x.labels.get(k) for k in NODE_LABELS) for x in n),
        True,
        id="every node has the GPU and topology labels",
    ),
    pytest.param(lambda n, p: len({x.labels[POOL_LABEL] for x in n}), 4, id="4 node pools"),
    pytest.param(
        lambda n, p: Counter(t for x in n for t in x.taints),
        {DEDICATED_TAINT: 5, GPU_SOFT_TAINT: 2},
        id="5% dedicated NoSchedule, 2% PreferNoSchedule",
    ),
    pytest.param(lambda n, p: len(p), NUM_PODS, id="pod count"),
    pytest.param(
        lambda n, p: sum(map(node_constrained, p)), NUM_PODS // 4, id="a quarter node-constrained"
    ),
    pytest.param(lambda n, p: sum(map(spread, p)), NUM_PODS // 10, id="a tenth spread"),
    pytest.param(
        lambda n, p: sum(1 for x in p if node_constrained(x) and spread(x)),
        0,
        id="constraint kinds are disjoint",
    ),
    pytest.param(lambda n, p: {x.requests.get(GPU, 0) for x in p}, {0, 1, 2, 4, 8}, id="GPU sizes"),
    pytest.param(
        lambda n, p: round(100 * sum(x.requests.get(GPU, 0) for x in p) / (8 * len(n))),
        75,
        id="GPU demand 75% of GPUs",
    ),
    pytest.param(
        lambda n, p: len({x.owner.name for x in p if x.owner}) <= 200,
        True,
        id="at most 200 templates",
    ),
    pytest.param(
        lambda n, p: sorted(x.arrival_index for x in p) == list(range(len(p))),
        True,
        id="arrival indexes are the input order",
    ),
    pytest.param(
        lambda n, p: all(x.nonzero_requests == (x.requests[CPU], x.requests[MEMORY]) for x in p),
        True,
        id="nonzero requests are the cpu and memory requests",
    ),
    pytest.param(
        lambda n, p: all(
            any(all(x.requests[r] <= node.allocatable[r] for r in x.requests) for node in n)
            for x in p
        ),
        True,
        id="every pod fits some node",
    ),
    pytest.param(
        lambda n, p: all(
            c.label_selector is not None and c.label_selector.matches(x.labels)
            for x in p
            for c in x.topology_spread_constraints
        ),
        True,
        id="spread selectors match their own pods",
    ),
]


@pytest.mark.parametrize(("measure", "expected"), SHAPE)
def test_shape(nodes: list[Node], pods: list[Pod], measure: Measure, expected: object) -> None:
    assert measure(nodes, pods) == expected


def test_same_seed_same_workload(nodes: list[Node], pods: list[Pod]) -> None:
    again = synthetic_pods(NUM_PODS, synthetic_nodes(NUM_NODES, seed=7), seed=7)
    assert again == pods
    assert synthetic_pods(NUM_PODS, nodes, seed=8) != pods


def test_resource_only_pods_are_the_same_pods_without_constraints(
    nodes: list[Node], pods: list[Pod]
) -> None:
    plain = synthetic_pods(NUM_PODS, nodes, seed=7, constraints=False)
    assert [(p.key, p.requests, p.arrival_index) for p in plain] == [
        (p.key, p.requests, p.arrival_index) for p in pods
    ]
    assert not any(node_constrained(p) or spread(p) for p in plain)


def test_benchmark_runs_end_to_end(tmp_path: Path) -> None:
    profile = tmp_path / "bench.prof"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "placement.py"),
            "--nodes",
            "40",
            "--pods",
            "200",
            "--no-check",
            "--profile-output",
            str(profile),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    assert [(row[0], row[1], row[2]) for row in rows] == [
        ("mix", "40", "200"),
        ("resource-only", "40", "200"),
    ]
    assert (tmp_path / "bench.mix.prof").exists()
    assert (tmp_path / "bench.resource-only.prof").exists()
