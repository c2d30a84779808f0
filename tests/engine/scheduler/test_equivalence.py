"""The per-template cache must not change a single decision.

`--explain` takes the full path for every pod; without it the cycle uses
the equivalence cache wherever every active filter is node-local. Both
runs of the same seeded workload must place every pod on the same node.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.synthetic import synthetic_nodes, synthetic_pods
from engine.config import default_config
from engine.scheduler.equivalence import first_feasible
from engine.scheduler.placement import place


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cached_and_full_paths_place_every_pod_identically(seed: int) -> None:
    def run(explain: bool) -> list[tuple[str, str | None, str]]:
        nodes = synthetic_nodes(120, seed=seed)
        pods = synthetic_pods(1500, nodes, seed=seed, templates=40)
        placement = place(nodes, pods, default_config(), seed=seed, explain=explain)
        return [(r.pod.key, r.node, r.status) for r in placement.results]

    cached, full = run(explain=False), run(explain=True)
    assert cached == full
    assert sum(1 for _, node, _ in cached if node) > 1000


@pytest.mark.parametrize(
    ("fits", "start", "to_find", "expected", "processed"),
    [
        ([1, 1, 1, 1], 0, 2, [0, 1], 2),
        ([0, 1, 0, 1, 1], 2, 2, [3, 4], 3),
        ([1, 0, 0, 1, 0], 2, 2, [3, 0], 4),  # wraps around
        ([1, 0, 0, 0, 0], 3, 3, [0], 5),  # too few: every node examined
        ([0, 0, 0], 1, 2, [], 3),
    ],
)
def test_first_feasible_follows_the_rotating_search(
    fits: list[int], start: int, to_find: int, expected: list[int], processed: int
) -> None:
    nodes, examined = first_feasible(np.array(fits, dtype=bool), start, to_find)
    assert nodes.tolist() == expected
    assert examined == processed
