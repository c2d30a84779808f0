"""PodTopologySpread PreScore + Score + NormalizeScore.

Rows follow pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go
(TestPodTopologySpreadScore, with its System defaulting; TestPreScoreSkip;
TestPreScoreStateEmptyNodes' system-default case, checked through scores),
plus math.Log as Go computes it and the rounding of Score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pytest

from engine.cluster.state import ClusterState
from engine.config.args import LIST_DEFAULTING, PodTopologySpreadArgs
from engine.framework.interface import CycleState
from engine.model.objects import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelectorRequirement,
    OwnerRef,
    Pod,
    TopologySpreadConstraint,
)
from engine.plugins.podtopologyspread.plugin import PodTopologySpread
from engine.plugins.podtopologyspread.scoring import go_log, round_half_away_from_zero
from tests.engine.plugins.builders import (
    make_cluster,
    make_node,
    make_pod,
    node_indices,
    required_affinity,
    taint,
    term,
)

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
SKIP = "skip"


@dataclass(frozen=True)
class Controller:
    kind: str
    namespace: str
    name: str
    selector: LabelSelector


def exists(key: str) -> LabelSelector:
    return LabelSelector(match_expressions=(LabelSelectorRequirement(key, "Exists"),))


FOO = exists("foo")
BAR = exists("bar")


def soft(
    max_skew: int,
    key: str,
    selector: LabelSelector | None = FOO,
    *,
    min_domains: int | None = None,
    node_affinity_policy: str | None = None,
    node_taints_policy: str | None = None,
    match_label_keys: tuple[str, ...] = (),
    action: str = "ScheduleAnyway",
) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(
        max_skew,
        key,
        action,
        selector,
        min_domains,
        node_affinity_policy,
        node_taints_policy,
        match_label_keys,
    )


def pod(
    *constraints: TopologySpreadConstraint, labels: dict[str, str] | None = None, **extra: object
) -> Pod:
    return make_pod(
        "p",
        labels={"foo": ""} if labels is None else labels,
        topology_spread_constraints=constraints,
        **extra,  # type: ignore[arg-type]
    )


def on(
    node: str, count: int = 1, labels: dict[str, str] | None = None, namespace: str = "default"
) -> list[tuple[str, Pod]]:
    return [
        (node, make_pod("e", namespace, labels={"foo": ""} if labels is None else labels))
    ] * count


def run_score(
    candidates: list[tuple[str, dict[str, str]]],
    existing: list[tuple[str, Pod]],
    incoming: Pod,
    failed: list[tuple[str, dict[str, str]]] = (),  # type: ignore[assignment]
    *,
    args: PodTopologySpreadArgs | None = None,
    controllers: list[Controller] = (),  # type: ignore[assignment]
    taints: dict[str, list[object]] | None = None,
) -> str | dict[str, int]:
    pods_on: dict[str, list[Pod]] = {}
    for i, (node_name, p) in enumerate(existing):
        pods_on.setdefault(node_name, []).append(replace(p, name=f"{p.name}-{i}"))
    node_list = [
        make_node(n, labels, (taints or {}).get(n, ()))  # type: ignore[arg-type]
        for n, labels in [*candidates, *failed]
    ]
    cluster = make_cluster(node_list, pods_on, controllers=controllers)
    plugin = PodTopologySpread(args or PodTopologySpreadArgs())
    nodes = node_indices(cluster, *(n for n, _ in candidates))
    state = CycleState()
    if plugin.pre_score(state, incoming, cluster, nodes).skipped:
        return SKIP
    scores = plugin.normalize_scores(state, incoming, plugin.score(state, incoming, cluster, nodes))
    return {name: int(s) for (name, _), s in zip(candidates, scores, strict=True)}


def hosts(*names: str) -> list[tuple[str, dict[str, str]]]:
    return [(f"node-{n}", {HOST: f"node-{n}"}) for n in names]


def zoned(*specs: str) -> list[tuple[str, dict[str, str]]]:
    """'a1' is node-a in zone1."""
    return [(f"node-{s[0]}", {"zone": f"zone{s[1]}", HOST: f"node-{s[0]}"}) for s in specs]


NODE_KEY = [(f"node-{n}", {"node": f"node-{n}"}) for n in "abc"]
FOO_NODE_KEY = [
    ("node-a", {"node": "node-a", "foo": ""}),
    ("node-b", {"node": "node-b", "foo": ""}),
    ("node-c", {"node": "node-c"}),
]
SPREAD_2103 = on("node-a", 2) + on("node-b") + on("node-d", 3)
SPREAD_4321 = on("node-a", 4) + on("node-b", 3) + on("node-c", 2) + on("node-d")
SPREAD_4213 = on("node-a", 4) + on("node-b", 2) + on("node-x") + on("node-y", 3)
SPREAD_211 = on("node-a", 2) + on("node-b") + on("node-c")
FOO_IN_EMPTY = required_affinity(term(NodeSelectorRequirement("foo", "In", ("",))))
MIXED = (
    on("node-a")
    + on("node-b", labels={"foo": "", "bar": ""})
    + on("node-y")
    + on("node-y", labels={"bar": ""})
)
FOO_BAR = {"foo": "", "bar": ""}

ROWS = [
    (
        "one constraint on node, no existing pods",
        hosts("a", "b"),
        [],
        [],
        pod(soft(1, HOST)),
        [100, 100],
    ),
    (
        "one constraint on node, only one node is candidate",
        hosts("a"),
        hosts("b"),
        on("node-a", 2) + on("node-b"),
        pod(soft(1, HOST)),
        [100],
    ),
    (
        "one constraint on node, all nodes have the same number of matching pods",
        hosts("a", "b"),
        [],
        on("node-a") + on("node-b"),
        pod(soft(1, HOST)),
        [100, 100],
    ),
    (
        "2/1/0/3, all 4 nodes are candidates",
        hosts(*"abcd"),
        [],
        SPREAD_2103,
        pod(soft(1, HOST)),
        [20, 60, 100, 0],
    ),
    (
        "2/1/0/3, null selector",
        hosts(*"abcd"),
        [],
        SPREAD_2103,
        pod(soft(1, HOST, None)),
        [100, 100, 100, 100],
    ),
    ("2/1/0/3, maxSkew=2", hosts(*"abcd"), [], SPREAD_2103, pod(soft(2, HOST)), [33, 66, 100, 16]),
    ("4/3/2/1, maxSkew=3", hosts(*"abcd"), [], SPREAD_4321, pod(soft(3, HOST)), [44, 66, 77, 100]),
    (
        "one constraint on node, 3 out of 4 nodes are candidates",
        hosts("a", "b", "x"),
        hosts("y"),
        SPREAD_4213,
        pod(soft(1, HOST)),
        [33, 83, 100],
    ),
    (
        "3 out of 4 nodes are candidates, one without the topology key",
        [("node-a", {HOST: "node-a"}), ("node-b", {"n": "node-b"}), ("node-x", {HOST: "node-x"})],
        hosts("y"),
        SPREAD_4213,
        pod(soft(1, HOST)),
        [16, 0, 100],
    ),
    (
        "one constraint on zone, 3 out of 4 nodes are candidates",
        zoned("a1", "b1", "x2"),
        zoned("y2"),
        SPREAD_4213,
        pod(soft(1, "zone")),
        [75, 75, 100],
    ),
    (
        "zone and node, 2 out of 4 nodes are candidates",
        zoned("a1", "x2"),
        zoned("b1", "y2"),
        on("node-a", 2) + on("node-b") + on("node-x", 2) + on("node-y", 4),
        pod(soft(1, "zone"), soft(1, HOST)),
        [100, 63],
    ),
    (
        "zone and node with different selectors",
        zoned("a1", "b1", "x2", "y2"),
        [],
        MIXED,
        pod(soft(1, "zone", FOO), soft(1, HOST, BAR), labels=FOO_BAR),
        [60, 20, 100, 60],
    ),
    (
        "zone and node with different selectors, some nodes have 0 pods",
        zoned("a1", "b1", "x2", "y2"),
        [],
        on("node-b", labels={"bar": ""}) + on("node-x") + on("node-y", labels=FOO_BAR),
        pod(soft(1, "zone", FOO), soft(1, HOST, BAR), labels=FOO_BAR),
        [100, 60, 40, 0],
    ),
    (
        "zone and node with different selectors, 3 out of 4 nodes are candidates",
        zoned("a1", "b1", "x2"),
        zoned("y2"),
        MIXED,
        pod(soft(1, "zone", FOO), soft(1, HOST, BAR), labels=FOO_BAR),
        [50, 25, 100],
    ),
    (
        "existing pods in a different namespace do not count",
        hosts("a", "b"),
        [],
        on("node-a", namespace="ns1") + on("node-a") + on("node-b", 2),
        pod(soft(1, HOST)),
        [100, 33],
    ),
    (
        "minDomains has no effect when ScheduleAnyway",
        NODE_KEY,
        [],
        on("node-a", 2) + on("node-b", 2) + on("node-c"),
        pod(soft(2, "node", min_domains=10)),
        [75, 75, 100],
    ),
    (
        "NodeAffinityPolicy Honor with a nodeSelector",
        FOO_NODE_KEY,
        [],
        SPREAD_211,
        pod(soft(1, "node"), node_selector={"foo": ""}),
        [0, 33, 100],
    ),
    (
        "NodeAffinityPolicy Ignore with a nodeSelector",
        FOO_NODE_KEY,
        [],
        SPREAD_211,
        pod(soft(1, "node", node_affinity_policy="Ignore"), node_selector={"foo": ""}),
        [66, 100, 100],
    ),
    (
        "NodeAffinityPolicy Honor with nodeAffinity",
        FOO_NODE_KEY,
        [],
        SPREAD_211,
        pod(soft(1, "node"), node_affinity=FOO_IN_EMPTY),
        [0, 33, 100],
    ),
    (
        "NodeAffinityPolicy Ignore with nodeAffinity",
        FOO_NODE_KEY,
        [],
        SPREAD_211,
        pod(soft(1, "node", node_affinity_policy="Ignore"), node_affinity=FOO_IN_EMPTY),
        [66, 100, 100],
    ),
    (
        "matchLabelKeys ANDed with an empty selector",
        zoned("a1", "b1", "c2", "d2"),
        [],
        on("node-a")
        + on("node-b", labels=FOO_BAR)
        + on("node-c")
        + on("node-c", labels={"bar": ""}),
        pod(
            soft(1, "zone", LabelSelector(), match_label_keys=("foo",)),
            soft(1, HOST, LabelSelector(), match_label_keys=("bar",)),
            labels=FOO_BAR,
        ),
        [60, 20, 60, 100],
    ),
    (
        "matchLabelKeys ANDed with a selector",
        zoned("a1", "b1", "c2", "d2"),
        [],
        on("node-a")
        + on("node-b", labels={"foo": "", "bar": "", "baz": ""})
        + on("node-c")
        + on("node-c", labels={"bar": ""})
        + on("node-c", labels={"bar": "", "baz": ""}),
        pod(
            soft(1, "zone", FOO),
            soft(1, HOST, BAR, match_label_keys=("baz",)),
            labels={"foo": "", "bar": "", "baz": ""},
        ),
        [60, 20, 60, 100],
    ),
]


@pytest.mark.parametrize(
    ("candidates", "failed", "existing", "incoming", "expected"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_pod_topology_spread_score(
    candidates: list[tuple[str, dict[str, str]]],
    failed: list[tuple[str, dict[str, str]]],
    existing: list[tuple[str, Pod]],
    incoming: Pod,
    expected: list[int],
) -> None:
    got = run_score(candidates, existing, incoming, failed)
    assert got == {name: want for (name, _), want in zip(candidates, expected, strict=True)}


@pytest.mark.parametrize(
    ("policy", "expected"),
    [("Honor", [0, 33, 100]), (None, [66, 100, 100])],
    ids=["NodeTaintsPolicy honored", "NodeTaintsPolicy ignored"],
)
def test_node_taints_policy(policy: str | None, expected: list[int]) -> None:
    got = run_score(
        NODE_KEY,
        SPREAD_211,
        pod(soft(1, "node", node_taints_policy=policy)),
        taints={"node-c": [taint("node.kubernetes.io/unschedulable", "", "NoSchedule")]},
    )
    assert got == {name: want for (name, _), want in zip(NODE_KEY, expected, strict=True)}


def test_system_defaults_follow_a_service() -> None:
    """Upstream row "system defaulting, nodes don't have zone, pods match service":
    the same scores as one hostname constraint with maxSkew 3."""
    service = Controller("Service", "default", "svc", LabelSelector(match_labels=(("foo", ""),)))
    got = run_score(hosts(*"abcd"), SPREAD_4321, pod(), controllers=[service])
    assert got == {"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100}


def test_system_defaults_give_zoneless_nodes_their_own_zone() -> None:
    """TestPreScoreStateEmptyNodes "system default constraints and a replicaset":
    weights log(4+2) for hostname and log(2+2) for zone (mars and ""); with no pods,
    zoned nodes score 2 + 4 = 6, zoneless ones only the hostname's 2."""
    rs = Controller("ReplicaSet", "default", "rs1", FOO)
    owned = make_pod("p", labels={"foo": "tar", "baz": "sup"}, owner=OwnerRef("ReplicaSet", "rs1"))
    nodes = [
        ("node-a", {HOST: "node-a", ZONE: "mars"}),
        ("node-b", {HOST: "node-b", ZONE: "mars"}),
        ("node-c", {HOST: "node-c"}),
        ("node-d", {HOST: "node-d"}),
    ]
    got = run_score(nodes, [], owned, controllers=[rs])
    assert got == {"node-a": 33, "node-b": 33, "node-c": 100, "node-d": 100}


@pytest.mark.parametrize(
    ("incoming", "args", "controllers"),
    [
        (pod(), PodTopologySpreadArgs(defaulting_type=LIST_DEFAULTING), []),
        (
            make_pod("p", labels={"foo": "bar"}, owner=OwnerRef("ReplicaSet", "rs2")),
            PodTopologySpreadArgs(
                default_constraints=(soft(2, "planet", None),), defaulting_type=LIST_DEFAULTING
            ),
            [Controller("ReplicaSet", "default", "rs1", exists("tar"))],
        ),
        (pod(soft(1, "zone", action="DoNotSchedule")), PodTopologySpreadArgs(), []),
        (pod(), PodTopologySpreadArgs(), []),
    ],
    ids=[
        "the pod has no soft constraints",
        "default constraints and a replicaset that is not the pod's owner",
        "only hard constraints",
        "system defaults, nothing selects the pod",
    ],
)
def test_pre_score_skip(
    incoming: Pod, args: PodTopologySpreadArgs, controllers: list[Controller]
) -> None:
    nodes = [
        ("node-a", {HOST: "node-a", "planet": "mars", "zone": "z"}),
        ("node-b", {HOST: "node-b", "planet": "mars", "zone": "z"}),
    ]
    assert run_score(nodes, [], incoming, args=args, controllers=controllers) == SKIP


def test_list_default_constraints_with_the_owning_replicaset() -> None:
    """TestPreScoreStateEmptyNodes "default constraints and a replicaset": the
    DoNotSchedule default is left to Filter; hostname and planet score."""
    rs = Controller("ReplicaSet", "default", "rs1", FOO)
    args = PodTopologySpreadArgs(
        default_constraints=(
            soft(1, HOST, None),
            soft(2, "rack", None, action="DoNotSchedule"),
            soft(2, "planet", None),
        ),
        defaulting_type=LIST_DEFAULTING,
    )
    nodes = [
        ("node-a", {"rack": "r1", HOST: "node-a", "planet": "mars"}),
        ("node-b", {"rack": "r1", HOST: "node-b", "planet": "mars"}),
    ]
    existing = on("node-a", 2, labels={"foo": "x"}) + on("node-b", 1, labels={"other": ""})
    owned = make_pod("p", labels={"foo": "tar"}, owner=OwnerRef("ReplicaSet", "rs1"))
    # hostname weight log(4): a = 2*1.386 + 0 = 2.77 -> 3, b = 0; planet (one
    # domain, weight log(3), 2 pods): + 2*1.0986 + 1 = 3.197 for both -> a 6, b 3.
    assert run_score(nodes, existing, owned, args=args, controllers=[rs]) == {
        "node-a": 50,
        "node-b": 100,
    }


# --- arithmetic -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 2, 3, 8, 98, 4998, 5000])
def test_topology_weight_is_gos_log(size: int) -> None:
    # Go's log agrees with the C library within one unit in the last place.
    assert go_log(size + 2) == pytest.approx(math.log(size + 2), rel=1e-15, abs=0)


def test_go_log_is_not_libm_log() -> None:
    """Go's math.Log differs from the C library's in the last bit for about 1% of
    the sizes a cluster can have, which can move a score that rounds at .5."""
    mismatches = [n for n in range(2, 5002) if go_log(float(n)) != math.log(n)]
    assert mismatches, "no difference found: the port would be pointless"


@pytest.mark.parametrize(
    ("raw", "rounded"),
    [(0.49999999999999994, 0), (0.5, 1), (1.5, 2), (2.5, 3), (5.375, 5), (3.5835, 4)],
)
def test_score_rounds_half_away_from_zero(raw: float, rounded: int) -> None:
    assert round_half_away_from_zero(np.array([raw])).tolist() == [rounded]


def test_system_defaulting_with_default_constraints_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"when \.defaultConstraints are not empty"):
        PodTopologySpread(PodTopologySpreadArgs(default_constraints=(soft(1, HOST, None),)))


# --- remembered default constraints ------------------------------------------------------


def test_default_constraints_are_remembered_per_cluster_and_selecting_labels() -> None:
    """The plugin remembers DefaultSelector's answer per namespace, owner and
    the labels Services read; pods that differ there, and another cluster
    with other controllers, still get their own answer."""
    plugin = PodTopologySpread()
    nodes = [make_node("node-a", {HOST: "node-a", ZONE: "z1"})]
    web = LabelSelector(match_labels=(("app", "web"),))
    rs = Controller("ReplicaSet", "default", "rs1", FOO)
    with_controllers = make_cluster(
        nodes, controllers=[Controller("Service", "default", "svc", web), rs]
    )
    without = make_cluster(nodes)
    web_pod = make_pod("w", labels={"app": "web", "pod-index": "1"})
    db_pod = make_pod("d", labels={"app": "db", "pod-index": "1"})
    owned = make_pod("o", labels={"app": "db"}, owner=OwnerRef("ReplicaSet", "rs1"))
    elsewhere = make_pod("x", namespace="other", labels={"app": "web"})

    def selectors(cluster: ClusterState, pod: Pod) -> list[LabelSelector | None]:
        return [c.selector for c in plugin.constraints(cluster, pod, "ScheduleAnyway")]

    for _ in range(2):  # the second round reads the memo, after switching clusters
        assert selectors(with_controllers, web_pod) == [web, web]
        assert selectors(with_controllers, db_pod) == []
        assert [s is not None for s in selectors(with_controllers, owned)] == [True, True]
        assert selectors(with_controllers, elsewhere) == []
        assert selectors(without, web_pod) == []
        assert selectors(without, owned) == []
