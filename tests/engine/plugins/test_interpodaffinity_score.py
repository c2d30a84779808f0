"""InterPodAffinity PreScore + Score + NormalizeScore.

Rows follow pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go
(TestPreferredAffinity, TestPreferredAffinityWithHardPodAffinitySymmetricWeight),
upstream's empty namespace written as "default"; then the seed article's
example 05 and NormalizeScore's float arithmetic.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.config.args import InterPodAffinityArgs
from engine.framework.interface import CycleState
from engine.model.objects import (
    Affinity,
    LabelSelector,
    LabelSelectorRequirement,
    Namespace,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    WeightedPodAffinityTerm,
)
from engine.plugins.interpodaffinity.plugin import InterPodAffinity
from engine.plugins.interpodaffinity.scoring import PreScoreState, normalize
from tests.engine.plugins.builders import all_nodes, make_cluster, make_node, make_pod

SKIP = "skip"
NAMESPACES = [
    Namespace("subteam1.team1", (("team", "team1"),)),
    Namespace("subteam2.team1", (("team", "team1"),)),
    Namespace("subteam1.team2", (("team", "team2"),)),
    Namespace("subteam2.team2", (("team", "team2"),)),
]


def r(key: str, operator: str, *values: str) -> LabelSelectorRequirement:
    return LabelSelectorRequirement(key, operator, values)


def t(
    topology_key: str,
    *requirements: LabelSelectorRequirement,
    namespaces: tuple[str, ...] = (),
    namespace_selector: LabelSelector | None = None,
) -> PodAffinityTerm:
    return PodAffinityTerm(
        topology_key, LabelSelector(match_expressions=requirements), namespaces, namespace_selector
    )


def w(weight: int, term: PodAffinityTerm) -> WeightedPodAffinityTerm:
    return WeightedPodAffinityTerm(weight, term)


def prefer(*terms: WeightedPodAffinityTerm) -> PodAffinity:
    return PodAffinity(preferred=terms)


def pod(
    name: str = "p",
    labels: dict[str, str] | None = None,
    affinity: Affinity | None = None,
    namespace: str = "default",
) -> Pod:
    return make_pod(name, namespace, labels=labels, affinity=affinity)


def run_score(
    node_specs: list[tuple[str, dict[str, str]]],
    placed: list[tuple[str, Pod]],
    incoming: Pod,
    args: InterPodAffinityArgs | None = None,
) -> str | dict[str, int]:
    pods_on: dict[str, list[Pod]] = {}
    for i, (node_name, p) in enumerate(placed):
        # A fresh copy with its own name: rows share pods, keys must be unique.
        pods_on.setdefault(node_name, []).append(replace(p, name=f"{p.name}-{i}"))
    cluster = make_cluster(
        [make_node(n, labels) for n, labels in node_specs], pods_on, namespaces=NAMESPACES
    )
    plugin = InterPodAffinity(args or InterPodAffinityArgs())
    state = CycleState()
    every = all_nodes(cluster)
    if plugin.pre_score(state, incoming, cluster, every).skipped:
        return SKIP
    scores = plugin.normalize_scores(state, incoming, plugin.score(state, incoming, cluster, every))
    return {cluster.nodes[int(i)].name: int(s) for i, s in zip(every, scores, strict=True)}


CHINA = {"region": "China"}
INDIA = {"region": "India"}
AZ1 = {"az": "az1"}
AZ2 = {"az": "az2"}
CHINA_AZ1 = {"region": "China", "az": "az1"}
S1 = {"security": "S1"}
S2 = {"security": "S2"}
TEAM1 = LabelSelector(match_expressions=(r("team", "In", "team1"),))

STAY_WITH_S1_IN_REGION = Affinity(pod_affinity=prefer(w(5, t("region", r("security", "In", "S1")))))
STAY_WITH_S2_IN_REGION = Affinity(pod_affinity=prefer(w(6, t("region", r("security", "In", "S2")))))
AFFINITY3 = Affinity(
    pod_affinity=prefer(
        w(8, t("region", r("security", "NotIn", "S1"), r("security", "In", "S2"))),
        w(2, t("region", r("security", "Exists"), r("wrongkey", "DoesNotExist"))),
    )
)
HARD_AFFINITY = Affinity(
    pod_affinity=PodAffinity(
        required=(
            t("region", r("security", "In", "S1", "value2")),
            t("region", r("security", "Exists"), r("wrongkey", "DoesNotExist")),
        )
    )
)
AWAY_FROM_S1_IN_AZ = Affinity(pod_anti_affinity=prefer(w(5, t("az", r("security", "In", "S1")))))
AWAY_FROM_S2_IN_AZ = Affinity(pod_anti_affinity=prefer(w(5, t("az", r("security", "In", "S2")))))
STAY_S1_REGION_AWAY_S2_AZ = Affinity(
    pod_affinity=prefer(w(8, t("region", r("security", "In", "S1")))),
    pod_anti_affinity=prefer(w(5, t("az", r("security", "In", "S2")))),
)
NS_SELECTOR_TERM = t(
    "region",
    r("security", "In", "S1"),
    namespaces=("subteam2.team2",),
    namespace_selector=TEAM1,
)
AFFINITY_NS_SELECTOR = Affinity(pod_affinity=prefer(w(5, NS_SELECTOR_TERM)))
ANTI_AFFINITY_NS_SELECTOR = Affinity(pod_anti_affinity=prefer(w(5, NS_SELECTOR_TERM)))

NS_PODS = [
    ("node1", pod("a", S1, namespace="subteam1.team1")),
    ("node1", pod("b", S1, namespace="subteam1.team1")),
    ("node1", pod("c", S1, namespace="subteam1.team2")),
    ("node2", pod("d", S1, namespace="subteam2.team1")),
]
NS_PODS_WITH_NAMESPACES = [
    *NS_PODS[:2],
    ("node1", pod("c", S1, namespace="subteam2.team2")),
    NS_PODS[3],
]

PREFERRED = [
    (
        "no affinity anywhere: Skip",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [],
        pod(labels=S1),
        SKIP,
    ),
    (
        "matching pods in the node's region score high",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [("node1", pod("e", S1)), ("node2", pod("e", S2)), ("node3", pod("e", S1))],
        pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION),
        [100, 0, 0],
    ),
    (
        "every node of that region scores the same",
        [("node1", CHINA), ("node2", CHINA_AZ1), ("node3", INDIA)],
        [("node1", pod("e", S1))],
        pod(affinity=STAY_WITH_S1_IN_REGION),
        [100, 100, 0],
    ),
    (
        "the region with more matches scores high",
        [("node1", CHINA), ("node2", INDIA), ("node3", CHINA), ("node4", CHINA), ("node5", INDIA)],
        [(n, pod("e", S2)) for n in ("node1", "node1", "node2", "node3", "node4", "node5")],
        pod(labels=S1, affinity=STAY_WITH_S2_IN_REGION),
        [100, 0, 100, 100, 0],
    ),
    (
        "several operators, some terms failing",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [("node1", pod("e", S1)), ("node2", pod("e", S2)), ("node3", pod("e", S1))],
        pod(labels=S1, affinity=AFFINITY3),
        [20, 100, 0],
    ),
    (
        "symmetry: existing pods' preferred affinity",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [
            ("node1", pod("e", S1, STAY_WITH_S1_IN_REGION)),
            ("node2", pod("e", S2, STAY_WITH_S2_IN_REGION)),
        ],
        pod(labels=S2),
        [0, 100, 0],
    ),
    (
        "symmetry with a namespaceSelector",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [
            ("node1", pod("e", S1, AFFINITY_NS_SELECTOR)),
            ("node2", pod("e", S2, STAY_WITH_S2_IN_REGION)),
        ],
        pod(labels=S1, namespace="subteam1.team1"),
        [100, 0, 0],
    ),
    (
        "anti-affinity symmetry with a namespaceSelector",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [
            ("node1", pod("e", S1, ANTI_AFFINITY_NS_SELECTOR)),
            ("node2", pod("e", S2, STAY_WITH_S2_IN_REGION)),
        ],
        pod(labels=S1, namespace="subteam1.team1"),
        [0, 100, 100],
    ),
    (
        "symmetry: existing pods' required affinity at hardPodAffinityWeight",
        [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)],
        [("node1", pod("e", S1, HARD_AFFINITY)), ("node2", pod("e", S2, HARD_AFFINITY))],
        pod(labels=S1),
        [100, 100, 0],
    ),
    (
        "anti-affinity: a node without matching pods scores high",
        [("node1", AZ1), ("node2", CHINA)],
        [("node1", pod("e", S1)), ("node2", pod("e", S2))],
        pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ),
        [0, 100],
    ),
    (
        "anti-affinity: a node without the topology key scores high",
        [("node1", AZ1), ("node2", CHINA)],
        [("node1", pod("e", S1)), ("node2", pod("e", S1))],
        pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ),
        [0, 100],
    ),
    (
        "anti-affinity: more matching pods score lower",
        [("node1", AZ1), ("node2", INDIA)],
        [("node1", pod("e", S1)), ("node1", pod("e", S1)), ("node2", pod("e", S2))],
        pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ),
        [0, 100],
    ),
    (
        "anti-affinity symmetry",
        [("node1", AZ1), ("node2", AZ2)],
        [("node1", pod("e", S1, AWAY_FROM_S2_IN_AZ)), ("node2", pod("e", S2, AWAY_FROM_S1_IN_AZ))],
        pod(labels=S2),
        [0, 100],
    ),
    (
        "affinity and anti-affinity",
        [("node1", CHINA), ("node2", AZ1)],
        [("node1", pod("e", S1)), ("node2", pod("e", S1))],
        pod(labels=S1, affinity=STAY_S1_REGION_AWAY_S2_AZ),
        [100, 0],
    ),
    (
        "affinity and anti-affinity with pods of the same labels",
        [
            ("node1", CHINA_AZ1),
            ("node2", INDIA),
            ("node3", CHINA),
            ("node4", CHINA),
            ("node5", INDIA),
        ],
        [
            (n, pod("e", S1))
            for n in ("node1", "node1", "node2", "node3", "node3", "node4", "node5")
        ],
        pod(labels=S1, affinity=STAY_S1_REGION_AWAY_S2_AZ),
        [100, 0, 100, 100, 0],
    ),
    (
        "affinity, anti-affinity and symmetry together",
        [("node1", CHINA), ("node2", AZ1), ("node3", INDIA), ("node4", AZ2)],
        [
            ("node1", pod("e", S1)),
            ("node2", pod("e", S2)),
            ("node3", pod("e", None, STAY_S1_REGION_AWAY_S2_AZ)),
            ("node4", pod("e", None, AWAY_FROM_S1_IN_AZ)),
        ],
        pod(labels=S1, affinity=STAY_S1_REGION_AWAY_S2_AZ),
        [100, 0, 100, 0],
    ),
    (
        "only some nodes of a topology have pods with affinity",
        [("node1", CHINA), ("node2", CHINA)],
        [("node1", pod("e", S1)), ("node2", pod("e", None, STAY_S1_REGION_AWAY_S2_AZ))],
        pod(labels=S1),
        [0, 0],
    ),
    (
        "affinity with pods matching the namespaceSelector",
        [("node1", CHINA), ("node2", INDIA)],
        NS_PODS,
        pod(labels=S1, affinity=AFFINITY_NS_SELECTOR, namespace="subteam1.team1"),
        [100, 0],
    ),
    (
        "affinity with pods matching the namespaceSelector and the namespaces",
        [("node1", CHINA), ("node2", INDIA)],
        NS_PODS_WITH_NAMESPACES,
        pod(labels=S1, affinity=AFFINITY_NS_SELECTOR, namespace="subteam1.team1"),
        [100, 0],
    ),
    (
        "anti-affinity with pods matching the namespaceSelector",
        [("node1", CHINA), ("node2", INDIA)],
        NS_PODS,
        pod(labels=S1, affinity=ANTI_AFFINITY_NS_SELECTOR, namespace="subteam1.team1"),
        [0, 100],
    ),
    (
        "anti-affinity with pods matching the namespaceSelector and the namespaces",
        [("node1", CHINA), ("node2", INDIA)],
        NS_PODS_WITH_NAMESPACES,
        pod(labels=S1, affinity=ANTI_AFFINITY_NS_SELECTOR, namespace="subteam1.team1"),
        [0, 100],
    ),
    (
        "existing pods' preferred terms count by default",
        [("node1", CHINA), ("node2", INDIA)],
        [
            ("node1", pod("e", S1, STAY_S1_REGION_AWAY_S2_AZ)),
            ("node2", pod("e", S2, STAY_WITH_S2_IN_REGION)),
        ],
        pod(labels=S2),
        [0, 100],
    ),
    ("no nodes to score: Skip", [], [], pod(labels=S2), SKIP),
]


@pytest.mark.parametrize(
    ("node_specs", "placed", "incoming", "expected"),
    [row[1:] for row in PREFERRED],
    ids=[row[0] for row in PREFERRED],
)
def test_preferred_affinity(
    node_specs: list[tuple[str, dict[str, str]]],
    placed: list[tuple[str, Pod]],
    incoming: Pod,
    expected: object,
) -> None:
    got = run_score(node_specs, placed, incoming)
    if expected == SKIP:
        assert got == SKIP
    else:
        assert isinstance(expected, list)
        assert got == {name: want for (name, _), want in zip(node_specs, expected, strict=True)}


def test_ignore_preferred_terms_of_existing_pods_skips() -> None:
    got = run_score(
        [("node1", CHINA), ("node2", INDIA)],
        [
            ("node1", pod("e", S1, STAY_S1_REGION_AWAY_S2_AZ)),
            ("node2", pod("e", S2, STAY_WITH_S2_IN_REGION)),
        ],
        pod(labels=S2),
        InterPodAffinityArgs(ignore_preferred_terms_of_existing_pods=True),
    )
    assert got == SKIP


HARD_POD_AFFINITY = Affinity(
    pod_affinity=PodAffinity(
        required=(
            t(
                "region",
                r("service", "In", "S1"),
                namespaces=("default", "subteam2.team2"),
                namespace_selector=TEAM1,
            ),
        )
    )
)
HARD_NODES = [("node1", CHINA), ("node2", INDIA), ("node3", AZ1)]
HARD_PLACED = [
    ("node1", pod("e", None, HARD_POD_AFFINITY)),
    ("node2", pod("e", None, HARD_POD_AFFINITY)),
]


@pytest.mark.parametrize(
    ("weight", "namespace", "expected"),
    [
        (1, "default", [100, 100, 0]),
        (0, "default", SKIP),
        (1, "subteam1.team2", SKIP),
        (1, "subteam1.team1", [100, 100, 0]),
        (1, "subteam2.team2", [100, 100, 0]),
    ],
    ids=[
        "with default weight",
        "with zero weight",
        "with no matching namespace",
        "with matching NamespaceSelector",
        "with matching Namespaces",
    ],
)
def test_hard_pod_affinity_weight(weight: int, namespace: str, expected: object) -> None:
    incoming = pod(labels={"service": "S1"}, namespace=namespace)
    got = run_score(
        HARD_NODES, HARD_PLACED, incoming, InterPodAffinityArgs(hard_pod_affinity_weight=weight)
    )
    if expected == SKIP:
        assert got == SKIP
    else:
        assert isinstance(expected, list)
        assert got == {name: want for (name, _), want in zip(HARD_NODES, expected, strict=True)}


def test_seed_05_preferred_anti_affinity_spreads_inference_pods() -> None:
    """05-fragment-pod-anti-affinity-inference.yaml: weight 100, app=inference, per host.

    Placing replicas one by one on the best-scored node puts each on its own host.
    """
    host = "kubernetes.io/hostname"
    spread = Affinity(pod_anti_affinity=prefer(w(100, t(host, r("app", "In", "inference")))))
    cluster = make_cluster([make_node(f"gpu-{i}", {host: f"gpu-{i}"}) for i in range(3)])
    plugin = InterPodAffinity(InterPodAffinityArgs())
    every = all_nodes(cluster)
    used: list[str] = []
    for i in range(3):
        replica = pod(f"inference-{i}", {"app": "inference"}, spread)
        state = CycleState()
        if plugin.pre_score(state, replica, cluster, every).skipped:
            scores = np.zeros(len(every), dtype=np.int64)
        else:
            scores = plugin.normalize_scores(
                state, replica, plugin.score(state, replica, cluster, every)
            )
        if i == 1:
            assert scores.tolist() == [0, 100, 100]
        best = int(every[int(np.argmax(scores))])
        used.append(cluster.nodes[best].name)
        cluster.add_pod(replica, best)
    assert sorted(used) == ["gpu-0", "gpu-1", "gpu-2"]


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ([-5, 0, 2], [0, 71, 100]),
        # float64(100) * (29.0 / 100.0) is 28.999999999999996: Go truncates to 28.
        ([0, 29, 100], [0, 28, 100]),
        ([7, 7, 7], [0, 0, 0]),
        ([-10, -4], [0, 100]),
    ],
    ids=["negative and positive", "float truncation as upstream", "all equal", "all negative"],
)
def test_normalize_score_arithmetic(raw: list[int], normalized: list[int]) -> None:
    state = PreScoreState({"zone": (np.zeros(1, dtype=np.int64), np.zeros(2, dtype=np.int64))})
    assert normalize(state, np.array(raw, dtype=np.int64)).tolist() == normalized


@pytest.mark.parametrize("weight", [-1, 101])
def test_hard_pod_affinity_weight_out_of_range_is_rejected(weight: int) -> None:
    with pytest.raises(ValueError, match=r"not in valid range \[0, 100\]"):
        InterPodAffinity(InterPodAffinityArgs(hard_pod_affinity_weight=weight))


def test_placed_pods_with_only_required_anti_affinity_leave_scoring_skipped() -> None:
    """scoring.go counts placed pods' required affinity and preferred terms,
    not their required anti-affinity (Filter's business): an incoming pod
    without terms of its own is skipped although it matches such a term."""
    keep_s1_away = Affinity(
        pod_anti_affinity=PodAffinity(required=(t("region", r("security", "In", "S1")),))
    )
    placed = [("node1", pod("e", S2, keep_s1_away))]
    assert run_score([("node1", CHINA), ("node2", INDIA)], placed, pod(labels=S1)) == SKIP
    # A preferred term of a placed pod still scores for the same incoming pod.
    drawn_to_s1 = Affinity(pod_affinity=prefer(w(5, t("region", r("security", "In", "S1")))))
    placed.append(("node1", pod("f", S2, drawn_to_s1)))
    got = run_score([("node1", CHINA), ("node2", INDIA)], placed, pod(labels=S1))
    assert got == {"node1": 100, "node2": 0}
