"""TaintToleration, rows from upstream
pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go, the
seed article's dedicated GPU nodes, and DefaultNormalizeScore's table from
pkg/scheduler/framework/plugins/helper/normalize_score_test.go."""

from __future__ import annotations

import numpy as np
import pytest

from engine.config.args import NoArgs
from engine.framework.interface import CycleState
from engine.framework.status import Code
from engine.model.objects import Node, Taint, Toleration
from engine.plugins.normalize import default_normalize_score
from engine.plugins.tainttoleration import TaintToleration
from tests.engine.plugins.builders import (
    make_cluster,
    make_node,
    make_pod,
    node_indices,
    run_filter,
    run_scores,
    taint,
    toleration,
)


def untolerated(key: str, value: str) -> list[tuple[str, Code]]:
    return [
        (f"node(s) had untolerated taint {{{key}: {value}}}", Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
    ]


# --- Filter -----------------------------------------------------------------

USER1_NO_SCHEDULE = taint("dedicated", "user1", "NoSchedule")


@pytest.mark.parametrize(
    ("tolerations", "taints", "want"),
    [
        pytest.param(
            (),
            (USER1_NO_SCHEDULE,),
            untolerated("dedicated", "user1"),
            id="upstream: no tolerations",
        ),
        pytest.param(
            (toleration("dedicated", "user1", "NoSchedule"),),
            (USER1_NO_SCHEDULE,),
            None,
            id="upstream: tolerated dedicated node",
        ),
        pytest.param(
            (toleration("dedicated", "user2", "NoSchedule"),),
            (USER1_NO_SCHEDULE,),
            untolerated("dedicated", "user1"),
            id="upstream: other value not tolerated",
        ),
        pytest.param(
            (toleration("foo", effect="NoSchedule", operator="Exists"),),
            (taint("foo", "bar", "NoSchedule"),),
            None,
            id="upstream: Exists tolerates any value",
        ),
        pytest.param(
            (
                toleration("dedicated", "user2", "NoSchedule"),
                toleration("foo", effect="NoSchedule", operator="Exists"),
            ),
            (taint("dedicated", "user2", "NoSchedule"), taint("foo", "bar", "NoSchedule")),
            None,
            id="upstream: every taint tolerated",
        ),
        pytest.param(
            (toleration("foo", "bar", "PreferNoSchedule"),),
            (taint("foo", "bar", "NoSchedule"),),
            untolerated("foo", "bar"),
            id="upstream: non-empty effect must match",
        ),
        pytest.param(
            (toleration("foo", "bar"),),
            (taint("foo", "bar", "NoSchedule"),),
            None,
            id="upstream: empty effect matches every effect",
        ),
        pytest.param(
            (toleration("dedicated", "user2", "NoSchedule"),),
            (taint("dedicated", "user1", "PreferNoSchedule"),),
            None,
            id="upstream: PreferNoSchedule does not filter",
        ),
        pytest.param(
            (),
            (taint("dedicated", "user1", "PreferNoSchedule"),),
            None,
            id="upstream: no toleration",
        ),
        pytest.param(
            (),
            (taint("evict", "now", "NoExecute"),),
            untolerated("evict", "now"),
            id="NoExecute filters too",
        ),
        pytest.param(
            (Toleration(operator="Exists"),),
            (USER1_NO_SCHEDULE, taint("evict", "now", "NoExecute")),
            None,
            id="empty key with Exists tolerates everything",
        ),
        pytest.param(
            (toleration("dedicated", "user1", "NoSchedule"),),
            (
                taint("a", "1", "PreferNoSchedule"),
                USER1_NO_SCHEDULE,
                taint("b", "2", "NoSchedule"),
                taint("c", "3", "NoExecute"),
            ),
            untolerated("b", "2"),
            id="the first untolerated taint in node order is named",
        ),
    ],
)
def test_filter(
    tolerations: tuple[Toleration, ...], taints: tuple[Taint, ...], want: object
) -> None:
    cluster = make_cluster([make_node("nodeA", taints=taints)])
    failed = run_filter(TaintToleration(NoArgs()), make_pod(tolerations=tolerations), cluster)
    assert failed.get("nodeA") == want


def seed_article_cluster() -> list[Node]:
    """The article's three GPU nodes: two dedicated by taint, one open."""
    return [
        make_node("gpu-node-0"),
        make_node("gpu-node-1", taints=[taint("dedicated", "ml-prod", "NoSchedule")]),
        make_node("gpu-node-2", taints=[taint("team", "computer-vision", "NoSchedule")]),
    ]


@pytest.mark.parametrize(
    ("tolerations", "want"),
    [
        pytest.param(
            (),
            {
                "gpu-node-1": untolerated("dedicated", "ml-prod"),
                "gpu-node-2": untolerated("team", "computer-vision"),
            },
            id="no tolerations: only the open node",
        ),
        pytest.param(
            (toleration("dedicated", "ml-prod", "NoSchedule"),),
            {"gpu-node-2": untolerated("team", "computer-vision")},
            id="07-pod-toleration-ml-prod",
        ),
        pytest.param(
            (toleration("team", "computer-vision", "NoSchedule"),),
            {"gpu-node-1": untolerated("dedicated", "ml-prod")},
            id="09-pod-toleration-team-cv",
        ),
        pytest.param(
            (toleration("dedicated", effect="NoSchedule", operator="Exists"),),
            {"gpu-node-2": untolerated("team", "computer-vision")},
            id="Exists on the key",
        ),
        pytest.param(
            (toleration(effect="NoSchedule", operator="Exists"),),
            {},
            id="empty key with Exists tolerates all NoSchedule",
        ),
        pytest.param(
            (toleration(effect="NoExecute", operator="Exists"),),
            {
                "gpu-node-1": untolerated("dedicated", "ml-prod"),
                "gpu-node-2": untolerated("team", "computer-vision"),
            },
            id="empty key but the wrong effect",
        ),
    ],
)
def test_seed_article_dedicated_nodes(tolerations: tuple[Toleration, ...], want: object) -> None:
    cluster = make_cluster(seed_article_cluster())
    failed = run_filter(TaintToleration(NoArgs()), make_pod(tolerations=tolerations), cluster)
    assert failed == want


def test_filter_answers_for_the_nodes_asked_about() -> None:
    cluster = make_cluster(seed_article_cluster())
    subset = node_indices(cluster, "gpu-node-2", "gpu-node-0")
    failed = run_filter(TaintToleration(NoArgs()), make_pod(), cluster, subset)
    assert failed == {"gpu-node-2": untolerated("team", "computer-vision")}


# --- Score ------------------------------------------------------------------


def prefer(key: str, value: str) -> Taint:
    return taint(key, value, "PreferNoSchedule")


@pytest.mark.parametrize(
    ("tolerations", "node_taints", "want"),
    [
        pytest.param(
            (toleration("foo", "bar", "PreferNoSchedule"),),
            {"nodeA": [prefer("foo", "bar")], "nodeB": [prefer("foo", "blah")]},
            {"nodeA": 100, "nodeB": 0},
            id="upstream: tolerated taints score higher",
        ),
        pytest.param(
            (
                toleration("cpu-type", "arm64", "PreferNoSchedule"),
                toleration("disk-type", "ssd", "PreferNoSchedule"),
            ),
            {
                "nodeA": [],
                "nodeB": [prefer("cpu-type", "arm64")],
                "nodeC": [prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")],
            },
            {"nodeA": 100, "nodeB": 100, "nodeC": 100},
            id="upstream: the number of tolerated taints does not matter",
        ),
        pytest.param(
            (toleration("foo", "bar", "PreferNoSchedule"),),
            {
                "nodeA": [],
                "nodeB": [prefer("cpu-type", "arm64")],
                "nodeC": [prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")],
            },
            {"nodeA": 100, "nodeB": 50, "nodeC": 0},
            id="upstream: more intolerable taints, lower score",
        ),
        pytest.param(
            (
                toleration("cpu-type", "arm64", "NoSchedule"),
                toleration("disk-type", "ssd", "NoSchedule"),
            ),
            {
                "nodeA": [],
                "nodeB": [taint("cpu-type", "arm64", "NoSchedule")],
                "nodeC": [prefer("cpu-type", "arm64"), prefer("disk-type", "ssd")],
            },
            {"nodeA": 100, "nodeB": 100, "nodeC": 0},
            id="upstream: only PreferNoSchedule taints and tolerations count",
        ),
        pytest.param(
            (),
            {"nodeA": [], "nodeB": [prefer("cpu-type", "arm64")]},
            {"nodeA": 100, "nodeB": 0},
            id="upstream: no tolerations, lands on the untainted node",
        ),
        pytest.param(
            (toleration("cpu-type", "arm64"),),
            {"nodeA": [prefer("cpu-type", "arm64")], "nodeB": [prefer("gpu", "shared")]},
            {"nodeA": 100, "nodeB": 0},
            id="empty effect tolerates PreferNoSchedule",
        ),
        pytest.param(
            (),
            {"nodeA": [], "nodeB": []},
            {"nodeA": 100, "nodeB": 100},
            id="no taints anywhere: all 100",
        ),
    ],
)
def test_score(
    tolerations: tuple[Toleration, ...], node_taints: dict[str, list[Taint]], want: dict[str, int]
) -> None:
    cluster = make_cluster([make_node(name, taints=t) for name, t in node_taints.items()])
    scores = run_scores(TaintToleration(NoArgs()), make_pod(tolerations=tolerations), cluster)
    assert scores == want


def test_raw_score_counts_intolerable_prefer_no_schedule_taints() -> None:
    cluster = make_cluster(
        [
            make_node(
                "a", taints=[prefer("x", "1"), prefer("y", "2"), taint("z", "3", "NoSchedule")]
            ),
            make_node("b", taints=[prefer("x", "1")]),
        ]
    )
    plugin = TaintToleration(NoArgs())
    pod = make_pod(tolerations=[toleration("x", "1", "PreferNoSchedule")])
    raw = plugin.score(CycleState(), pod, cluster, node_indices(cluster, "a", "b"))
    assert raw.tolist() == [1, 0]


# --- DefaultNormalizeScore --------------------------------------------------


@pytest.mark.parametrize(
    ("reverse", "scores", "want"),
    [
        pytest.param(False, [1, 2, 3, 4], [25, 50, 75, 100], id="case_0"),
        pytest.param(True, [1, 2, 3, 4], [75, 50, 25, 0], id="case_1"),
        pytest.param(False, [1000, 10, 20, 30], [100, 1, 2, 3], id="case_2"),
        pytest.param(True, [1000, 10, 20, 30], [0, 99, 98, 97], id="case_3"),
        pytest.param(False, [1, 1, 1, 1], [100, 100, 100, 100], id="case_4"),
        pytest.param(False, [1000, 1, 1, 1], [100, 0, 0, 0], id="case_5"),
        pytest.param(True, [0, 1, 1, 1], [100, 0, 0, 0], id="case_6"),
        pytest.param(False, [0, 0, 0], [0, 0, 0], id="all zero stays zero"),
        pytest.param(True, [0, 0, 0], [100, 100, 100], id="all zero reversed is max"),
        pytest.param(False, [], [], id="no nodes"),
    ],
)
def test_default_normalize_score(reverse: bool, scores: list[int], want: list[int]) -> None:
    normalized = default_normalize_score(100, reverse, np.array(scores, dtype=np.int64))
    assert normalized.tolist() == want
