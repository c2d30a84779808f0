"""Differential tests: the resource plugins' fast paths against their general ones.

NodeResourcesFit and NodeResourcesBalancedAllocation answer a call on one
node in Python arithmetic, on a few nodes with whole-row gathers and on
many nodes column by column (engine/plugins/noderesources). A node's
verdict and score must not depend on which of these computes it, so every
test here scores or filters the same random nodes one at a time, in small
batches and all at once, and asserts exact equality; the filter is also
checked against fit.go's per-node rule written out plainly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from engine.cluster.state import ClusterState
from engine.config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesBalancedAllocationArgs,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from engine.framework.interface import CycleState, FilterResult, IntArray
from engine.framework.status import Code
from engine.model.objects import CPU, EPHEMERAL_STORAGE, GPU, MEMORY, PODS, Node, Pod
from engine.plugins.noderesources.balanced_allocation import (
    BalancedAllocation,
    balance_one_node,
    balance_score,
)
from engine.plugins.noderesources.fit import NodeResourcesFit
from engine.plugins.noderesources.resource_allocation import FEW_NODES
from engine.plugins.normalize import default_normalize_score
from tests.engine.plugins.builders import all_nodes, make_cluster, make_node, make_pod

GI = 2**30
FOO = "example.com/foo"  # an extended resource only some nodes have
NOWHERE = "example.com/nowhere"  # one no node has
NUM_NODES = 3 * FEW_NODES  # enough for the column-by-column path
SEEDS = range(6)

Verdict = tuple[Code, tuple[str, ...]] | None


def random_node(rng: np.random.Generator, i: int) -> Node:
    """A node of varied size; some lack GPUs or FOO, a few are tiny (requests
    then exceed their whole allocatable) and a few allow only two pods."""
    allocatable = {
        CPU: int(rng.choice([500, 4000, 16000, 96000])),
        MEMORY: int(rng.choice([1, 16, 256, 1024])) * GI,
        EPHEMERAL_STORAGE: int(rng.choice([10, 100, 1000])) * GI,
        PODS: int(rng.choice([2, 110], p=[0.1, 0.9])),
    }
    if rng.random() < 0.7:
        allocatable[GPU] = int(rng.choice([1, 4, 8]))
    if rng.random() < 0.3:
        allocatable[FOO] = int(rng.integers(1, 5))
    return make_node(f"node-{i:03d}", allocatable=allocatable)


def random_requests(rng: np.random.Generator, *, nowhere: bool = False) -> dict[str, int]:
    requests = {
        CPU: int(rng.choice([0, 100, 1000, 8000])),
        MEMORY: int(rng.choice([0, 1, 8, 64])) * GI,
    }
    if rng.random() < 0.3:
        requests[EPHEMERAL_STORAGE] = int(rng.choice([1, 50])) * GI
    if rng.random() < 0.5:
        requests[GPU] = int(rng.choice([1, 2, 8]))
    if rng.random() < 0.2:
        requests[FOO] = int(rng.integers(1, 3))
    if nowhere:
        requests[NOWHERE] = 1
    return requests


def random_cluster(seed: int) -> tuple[ClusterState, list[Pod]]:
    """Random nodes, filled to random levels (some over-committed, as
    snapshots can be), and incoming pods to filter and score."""
    rng = np.random.default_rng(seed)
    nodes = [random_node(rng, i) for i in range(NUM_NODES)]
    placed: dict[str, list[Pod]] = {}
    for i in range(4 * NUM_NODES):
        node = nodes[int(rng.integers(NUM_NODES))]
        pod = make_pod(f"placed-{i}", requests=random_requests(rng))
        placed.setdefault(node.name, []).append(pod)
    incoming = [make_pod(f"incoming-{i}", requests=random_requests(rng)) for i in range(6)]
    incoming.append(make_pod("best-effort"))
    incoming.append(make_pod("nowhere", requests=random_requests(rng, nowhere=True)))
    return make_cluster(nodes, placed, extra_resources=[NOWHERE]), incoming


def batches(rng: np.random.Generator, nodes: IntArray) -> list[IntArray]:
    """`nodes` shuffled and cut into batches of 1 to 2 * FEW_NODES nodes."""
    order = rng.permutation(nodes)
    cuts: list[IntArray] = []
    start = 0
    while start < len(order):
        size = int(rng.choice([1, 2, 5, FEW_NODES, FEW_NODES + 1, 2 * FEW_NODES]))
        cuts.append(order[start : start + size])
        start += size
    return cuts


# --- NodeResourcesFit Filter ---------------------------------------------------------


def verdicts(nodes: IntArray, result: FilterResult) -> dict[int, Verdict]:
    """Each node's status as upstream reports it: one code, all its reasons."""
    out: dict[int, Verdict] = {int(i): None for i in nodes}
    for failure in result.failures:
        for position in np.flatnonzero(failure.mask):
            node = int(nodes[position])
            current = out[node]
            if current is None:
                out[node] = (failure.code, (failure.reason,))
            else:
                assert current[0] == failure.code, "a node has one status code"
                out[node] = (current[0], (*current[1], failure.reason))
    return out


def upstream_verdict(cluster: ClusterState, node: int, pod: Pod) -> Verdict:
    """fit.go fitsRequest and Filter for one node, written out plainly."""

    def amounts(resource: str) -> tuple[int, int]:
        col = cluster.column(resource)
        if col is None:
            return 0, 0
        return int(cluster.allocatable[node, col]), int(cluster.requested[node, col])

    reasons: list[str] = []
    unresolvable = False
    allowed, placed = amounts(PODS)
    if placed + 1 > allowed:
        reasons.append("Too many pods")
    names = [r for r in (CPU, MEMORY, EPHEMERAL_STORAGE) if pod.requests.get(r, 0) > 0]
    names += sorted(r for r in pod.requests if "/" in r and pod.requests[r] > 0)
    for resource in names:
        quantity = pod.requests[resource]
        allocatable, requested = amounts(resource)
        if quantity > allocatable - requested:
            reasons.append(f"Insufficient {resource}")
            unresolvable |= quantity > allocatable
    if not reasons:
        return None
    code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if unresolvable else Code.UNSCHEDULABLE
    return code, tuple(reasons)


@pytest.mark.parametrize("seed", SEEDS)
def test_filter_verdicts_do_not_depend_on_the_batch(seed: int) -> None:
    cluster, incoming = random_cluster(seed)
    rng = np.random.default_rng(seed)
    plugin = NodeResourcesFit()
    everything = all_nodes(cluster)
    for pod in incoming:
        state = CycleState()
        plugin.pre_filter(state, pod, cluster)
        expected = {int(i): upstream_verdict(cluster, int(i), pod) for i in everything}
        assert verdicts(everything, plugin.filter(state, pod, cluster, everything)) == expected
        got: dict[int, Verdict] = {}
        for batch in batches(rng, everything):
            got.update(verdicts(batch, plugin.filter(state, pod, cluster, batch)))
        assert got == expected, pod.name


def test_the_random_clusters_exercise_every_kind_of_verdict() -> None:
    """The differential tests above are only as good as their inputs."""
    seen: set[object] = set()
    for seed in SEEDS:
        cluster, incoming = random_cluster(seed)
        for pod in incoming:
            for node in range(cluster.num_nodes):
                verdict = upstream_verdict(cluster, node, pod)
                seen.add(None if verdict is None else verdict[0])
                if verdict is not None:
                    seen.update(verdict[1])
    assert {None, Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE} <= seen
    assert {"Too many pods", f"Insufficient {GPU}", f"Insufficient {NOWHERE}"} <= seen


# --- scores --------------------------------------------------------------------------


def scores_by_batch(
    score: Callable[[CycleState, IntArray], IntArray],
    state: CycleState,
    rng: np.random.Generator,
    nodes: IntArray,
) -> dict[int, int]:
    got: dict[int, int] = {}
    for batch in batches(rng, nodes):
        got.update(zip(batch.tolist(), score(state, batch).tolist(), strict=True))
    return got


RESOURCE_SETS = {
    "cpu, memory": (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1)),
    "weighted, with a GPU": (ResourceSpec(CPU, 3), ResourceSpec(MEMORY, 1), ResourceSpec(GPU, 5)),
    "with an extended resource": (ResourceSpec(MEMORY, 2), ResourceSpec(FOO, 1)),
}
STRATEGIES = {
    LEAST_ALLOCATED: (),
    MOST_ALLOCATED: (),
    REQUESTED_TO_CAPACITY_RATIO: (UtilizationShapePoint(0, 10), UtilizationShapePoint(100, 0)),
}


@pytest.mark.parametrize("seed", SEEDS[:3])
@pytest.mark.parametrize("resources", RESOURCE_SETS.values(), ids=RESOURCE_SETS.keys())
@pytest.mark.parametrize("strategy", STRATEGIES, ids=STRATEGIES.keys())
def test_fit_scores_do_not_depend_on_the_batch(
    seed: int, resources: tuple[ResourceSpec, ...], strategy: str
) -> None:
    cluster, incoming = random_cluster(seed)
    rng = np.random.default_rng(seed)
    args = NodeResourcesFitArgs(
        scoring_strategy=ScoringStrategy(strategy, resources, STRATEGIES[strategy])
    )
    plugin = NodeResourcesFit(args)
    everything = all_nodes(cluster)
    for pod in incoming:
        state = CycleState()
        plugin.pre_score(state, pod, cluster, everything)
        expected = dict(
            zip(
                everything.tolist(),
                plugin.score(state, pod, cluster, everything).tolist(),
                strict=True,
            )
        )

        def score(state: CycleState, nodes: IntArray, pod: Pod = pod) -> IntArray:
            return plugin.score(state, pod, cluster, nodes)

        assert scores_by_batch(score, state, rng, everything) == expected, pod.name


BALANCED_RESOURCES = {
    "cpu, memory": (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1)),
    "cpu, memory, GPU": (ResourceSpec(CPU, 1), ResourceSpec(MEMORY, 1), ResourceSpec(GPU, 1)),
    "memory, extended resource": (ResourceSpec(MEMORY, 1), ResourceSpec(FOO, 1)),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("resources", BALANCED_RESOURCES.values(), ids=BALANCED_RESOURCES.keys())
def test_balanced_scores_do_not_depend_on_the_batch(
    seed: int, resources: tuple[ResourceSpec, ...]
) -> None:
    cluster, incoming = random_cluster(seed)
    rng = np.random.default_rng(seed)
    plugin = BalancedAllocation(NodeResourcesBalancedAllocationArgs(resources))
    everything = all_nodes(cluster)
    for pod in incoming:
        state = CycleState()
        if not plugin.pre_score(state, pod, cluster, everything).ok:
            continue  # best-effort: skipped
        expected = dict(
            zip(
                everything.tolist(),
                plugin.score(state, pod, cluster, everything).tolist(),
                strict=True,
            )
        )

        def score(state: CycleState, nodes: IntArray, pod: Pod = pod) -> IntArray:
            return plugin.score(state, pod, cluster, nodes)

        assert scores_by_batch(score, state, rng, everything) == expected, pod.name


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("num_resources", [1, 2, 3, 4])
def test_balance_of_one_node_is_bit_identical_to_balance_score(
    seed: int, num_resources: int
) -> None:
    """balance_one_node against the vectorised balance_score, including
    fractions above 1, resources a node lacks and values near float ties."""
    rng = np.random.default_rng(seed)
    n = 2000
    allocatable = rng.integers(1, 10**12, size=(n, num_resources))
    allocatable[rng.random((n, num_resources)) < 0.15] = 0  # resource absent there
    requested = (allocatable * rng.uniform(0, 1.3, size=(n, num_resources))).astype(np.int64)
    # Equal fractions, and fractions one unit apart, stress the rounding.
    requested[: n // 4] = allocatable[: n // 4] // 3
    requested[n // 4 : n // 2, 0] += 1
    vectorised = balance_score(requested, allocatable, allocatable != 0).tolist()
    one_by_one = [
        balance_one_node(r, a)
        for r, a in zip(requested.tolist(), allocatable.tolist(), strict=True)
    ]
    assert one_by_one == vectorised


# --- DefaultNormalizeScore -----------------------------------------------------------


def upstream_normalize(max_priority: int, reverse: bool, scores: Sequence[int]) -> list[int]:
    """helper.DefaultNormalizeScore, written out plainly."""
    max_count = max([0, *scores])
    if max_count == 0:
        return [max_priority if reverse else s for s in scores]
    normalized = [max_priority * s // max_count for s in scores]
    return [max_priority - s for s in normalized] if reverse else normalized


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
def test_default_normalize_score_matches_the_plain_formula(reverse: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for size in (0, 1, 3, 500):
        for high in (0, 1, 7, 1000):
            raw = rng.integers(0, high + 1, size=size)
            got = default_normalize_score(100, reverse, raw)
            assert got.tolist() == upstream_normalize(100, reverse, raw.tolist())
            assert got is not raw
