"""PodTopologySpread PreFilter + Filter.

Rows follow pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go
(TestSingleConstraint, TestMultipleConstraints); then the seed article's
example 10 placed pod by pod, and the incremental pod index against a
recount from scratch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np
import pytest

from engine.cluster.state import ClusterState
from engine.config.args import LIST_DEFAULTING, PodTopologySpreadArgs
from engine.framework.interface import CycleState
from engine.framework.status import Code
from engine.model.objects import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelectorRequirement,
    OwnerRef,
    Pod,
    TopologySpreadConstraint,
)
from engine.plugins.podindex import NamespaceScope, PodMatcher, count_from_scratch, pod_index
from engine.plugins.podtopologyspread.plugin import PodTopologySpread
from tests.engine.plugins.builders import (
    all_nodes,
    make_cluster,
    make_node,
    make_pod,
    required_affinity,
    taint,
    term,
)

OK = "ok"
SKEW = "skew"
LABEL = "label"
REASONS = {
    SKEW: (Code.UNSCHEDULABLE, "node(s) didn't match pod topology spread constraints"),
    LABEL: (
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) didn't match pod topology spread constraints (missing required label)",
    ),
}


def exists(key: str) -> LabelSelector:
    return LabelSelector(match_expressions=(LabelSelectorRequirement(key, "Exists"),))


FOO = exists("foo")
BAR = exists("bar")


def spread(
    max_skew: int,
    key: str,
    selector: LabelSelector | None = FOO,
    *,
    action: str = "DoNotSchedule",
    min_domains: int | None = None,
    node_affinity_policy: str | None = None,
    node_taints_policy: str | None = None,
    match_label_keys: tuple[str, ...] = (),
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
    *constraints: TopologySpreadConstraint,
    labels: dict[str, str] | None = None,
    name: str = "p",
    namespace: str = "default",
    **extra: object,
) -> Pod:
    return make_pod(
        name,
        namespace,
        labels={"foo": ""} if labels is None else labels,
        topology_spread_constraints=constraints,
        **extra,  # type: ignore[arg-type]
    )


def placed(
    node: str, count: int, labels: dict[str, str] | None = None, namespace: str = "default"
) -> list[tuple[str, Pod]]:
    return [
        (node, make_pod("e", namespace, labels={"foo": ""} if labels is None else labels))
    ] * count


def run_filter(
    node_specs: list[tuple[str, dict[str, str]]],
    existing: list[tuple[str, Pod]],
    incoming: Pod,
    taints: dict[str, list[object]] | None = None,
) -> dict[str, str] | str:
    pods_on: dict[str, list[Pod]] = {}
    for i, (node_name, p) in enumerate(existing):
        pods_on.setdefault(node_name, []).append(replace(p, name=f"{p.name}-{i}"))
    node_list = [make_node(n, labels, (taints or {}).get(n, ())) for n, labels in node_specs]  # type: ignore[arg-type]
    cluster = make_cluster(node_list, pods_on)
    plugin = PodTopologySpread(PodTopologySpreadArgs(defaulting_type=LIST_DEFAULTING))
    state = CycleState()
    status, _ = plugin.pre_filter(state, incoming, cluster)
    if status.skipped:
        return "skip"
    every = all_nodes(cluster)
    outcome = {n.name: OK for n in cluster.nodes}
    for failure in plugin.filter(state, incoming, cluster, every).failures:
        kind = next(k for k, v in REASONS.items() if v == (failure.code, failure.reason))
        for i in every[failure.mask]:
            assert outcome[cluster.nodes[int(i)].name] == OK
            outcome[cluster.nodes[int(i)].name] = kind
    return outcome


def zone_nodes(*names: str) -> list[tuple[str, dict[str, str]]]:
    zones = {"a": "zone1", "b": "zone1", "x": "zone2", "y": "zone2", "o": "zone3", "p": "zone3"}
    return [(f"node-{n}", {"zone": zones[n], "node": f"node-{n}"}) for n in names]


ABXY = zone_nodes("a", "b", "x", "y")
SPREAD_2103 = placed("node-a", 2) + placed("node-b", 1) + placed("node-y", 3)
NODE_ONLY = [(f"node-{n}", {"node": f"node-{n}"}) for n in "abc"]
SPREAD_221 = placed("node-a", 2) + placed("node-b", 2) + placed("node-c", 1)
ZONE_21 = placed("node-a", 1) + placed("node-b", 1) + placed("node-y", 1)
FOO_NODES = [
    ("node-a", {"node": "node-a", "foo": ""}),
    ("node-b", {"node": "node-b", "foo": ""}),
    ("node-x", {"node": "node-x", "foo": ""}),
    ("node-y", {"node": "node-y"}),
]
SPREAD_110_1 = placed("node-a", 1) + placed("node-b", 1) + placed("node-y", 1)
FOO_IN_EMPTY = required_affinity(term(NodeSelectorRequirement("foo", "In", ("",))))

SINGLE = [
    ("no existing pods", ABXY, [], pod(spread(1, "zone")), [OK, OK, OK, OK]),
    (
        "no existing pods, incoming pod doesn't match itself",
        ABXY,
        [],
        pod(spread(1, "zone", BAR)),
        [OK, OK, OK, OK],
    ),
    (
        "existing pods in a different namespace do not count",
        ABXY,
        placed("node-a", 1, namespace="ns1")
        + placed("node-a", 1, namespace="ns2")
        + placed("node-x", 1)
        + placed("node-y", 1),
        pod(spread(1, "zone")),
        [OK, OK, SKEW, SKEW],
    ),
    (
        "existing pods do not match a null selector",
        ABXY,
        placed("node-x", 1) + placed("node-y", 1),
        pod(spread(1, "zone", None)),
        [OK, OK, OK, OK],
    ),
    (
        "pods spread across zones as 3/3, all nodes fit",
        ABXY,
        SPREAD_2103,
        pod(spread(1, "zone")),
        [OK, OK, OK, OK],
    ),
    (
        "spread 1/2 due to absence of label 'zone' on node-b",
        [ABXY[0], ("node-b", {"zon": "zone1", "node": "node-b"}), *ABXY[2:]],
        placed("node-a", 1) + placed("node-b", 1) + placed("node-x", 1) + placed("node-y", 1),
        pod(spread(1, "zone")),
        [OK, LABEL, SKEW, SKEW],
    ),
    (
        "no node has label 'rack'",
        zone_nodes("a", "x"),
        [],
        pod(spread(1, "rack")),
        [LABEL, LABEL],
    ),
    (
        "pods spread across nodes as 2/1/0/3, only node-x fits",
        ABXY,
        SPREAD_2103,
        pod(spread(1, "node")),
        [SKEW, SKEW, OK, SKEW],
    ),
    (
        "2/1/0/3 with maxSkew 2: node-b and node-x fit",
        ABXY,
        SPREAD_2103,
        pod(spread(2, "node")),
        [SKEW, OK, OK, SKEW],
    ),
    (
        "2/1/0/3, the pod doesn't match itself",
        ABXY,
        SPREAD_2103,
        pod(spread(1, "node"), labels={"bar": ""}),
        [SKEW, OK, OK, SKEW],
    ),
    (
        "nodeAffinity In node-a/node-y: spread 2/~1~/~0~/3, node-a fits",
        ABXY,
        SPREAD_2103,
        pod(
            spread(1, "node"),
            node_affinity=required_affinity(
                term(NodeSelectorRequirement("node", "In", ("node-a", "node-y")))
            ),
        ),
        [OK, OK, OK, SKEW],
    ),
    (
        "nodeAffinity NotIn node-b: spread 0/~2~/0/1, zone1 fits",
        ABXY,
        placed("node-b", 2) + placed("node-y", 1),
        pod(
            spread(1, "zone"),
            node_affinity=required_affinity(
                term(NodeSelectorRequirement("node", "NotIn", ("node-b",)))
            ),
        ),
        [OK, OK, SKEW, SKEW],
    ),
    (
        "2/2/1 with maxSkew 2 and fewer domains than minDomains: the third fits",
        NODE_ONLY,
        SPREAD_221,
        pod(spread(2, "node", min_domains=4)),
        [SKEW, SKEW, OK],
    ),
    (
        "2/2/1 with maxSkew 2 and more domains than minDomains: all fit",
        NODE_ONLY,
        SPREAD_221,
        pod(spread(2, "node", min_domains=2)),
        [OK, OK, OK],
    ),
    (
        "zones 2/1 with maxSkew 2 and fewer domains than minDomains: zone2 fits",
        ABXY,
        ZONE_21,
        pod(spread(2, "zone", min_domains=3)),
        [SKEW, SKEW, OK, OK],
    ),
    (
        "zones 2/1 with maxSkew 2 and minDomains 1: all fit",
        ABXY,
        ZONE_21,
        pod(spread(2, "zone", min_domains=1)),
        [OK, OK, OK, OK],
    ),
    (
        "NodeAffinityPolicy Honor with a nodeSelector: 1/1/0/~1~",
        FOO_NODES,
        SPREAD_110_1,
        pod(spread(1, "node"), node_selector={"foo": ""}),
        [SKEW, SKEW, OK, OK],
    ),
    (
        "NodeAffinityPolicy Ignore with a nodeSelector: 1/1/0/1",
        FOO_NODES,
        SPREAD_110_1,
        pod(spread(1, "node", node_affinity_policy="Ignore"), node_selector={"foo": ""}),
        [SKEW, SKEW, OK, SKEW],
    ),
    (
        "NodeAffinityPolicy Honor with nodeAffinity: 1/1/0/~1~",
        FOO_NODES,
        SPREAD_110_1,
        pod(spread(1, "node"), node_affinity=FOO_IN_EMPTY),
        [SKEW, SKEW, OK, OK],
    ),
    (
        "NodeAffinityPolicy Ignore with nodeAffinity: 1/1/0/1",
        FOO_NODES,
        SPREAD_110_1,
        pod(spread(1, "node", node_affinity_policy="Ignore"), node_affinity=FOO_IN_EMPTY),
        [SKEW, SKEW, OK, SKEW],
    ),
]

TAINTED_Y = {"node-y": [taint("node.kubernetes.io/unschedulable", "", "NoSchedule")]}
TAINT_NODES = [*FOO_NODES[:3], ("node-y", {"node": "node-y"})]


@pytest.mark.parametrize(
    ("node_specs", "existing", "incoming", "expected"),
    [row[1:] for row in SINGLE],
    ids=[row[0] for row in SINGLE],
)
def test_single_constraint(
    node_specs: list[tuple[str, dict[str, str]]],
    existing: list[tuple[str, Pod]],
    incoming: Pod,
    expected: list[str],
) -> None:
    got = run_filter(node_specs, existing, incoming)
    assert got == {name: want for (name, _), want in zip(node_specs, expected, strict=True)}


@pytest.mark.parametrize(
    ("policy", "expected"),
    [("Honor", [SKEW, SKEW, OK, OK]), (None, [SKEW, SKEW, OK, SKEW])],
    ids=["NodeTaintsPolicy honored: 1/1/0/~1~", "NodeTaintsPolicy ignored: 1/1/0/1"],
)
def test_node_taints_policy(policy: str | None, expected: list[str]) -> None:
    incoming = pod(spread(1, "node", node_taints_policy=policy))
    got = run_filter(TAINT_NODES, SPREAD_110_1, incoming, TAINTED_Y)
    assert got == {name: want for (name, _), want in zip(TAINT_NODES, expected, strict=True)}


FOO_BAR = {"foo": "", "bar": ""}
MULTIPLE = [
    (
        "zone and node, spreads = [3/3, 2/1/0/3]",
        SPREAD_2103,
        pod(spread(1, "zone"), spread(1, "node")),
        [SKEW, SKEW, OK, SKEW],
    ),
    (
        "zone and node, spreads = [3/4, 2/1/0/4]",
        placed("node-a", 2) + placed("node-b", 1) + placed("node-y", 4),
        pod(spread(1, "zone"), spread(1, "node")),
        [SKEW, SKEW, SKEW, SKEW],
    ),
    (
        "different selectors, spreads = [1/0, 1/0/0/1]",
        placed("node-a", 1) + placed("node-y", 1, {"bar": ""}),
        pod(spread(1, "zone", FOO), spread(1, "node", BAR), labels=FOO_BAR),
        [SKEW, SKEW, OK, SKEW],
    ),
    (
        "different selectors, spreads = [1/0, 0/0/1/1]",
        placed("node-a", 1) + placed("node-x", 1, {"bar": ""}) + placed("node-y", 1, {"bar": ""}),
        pod(spread(1, "zone", FOO), spread(1, "node", BAR), labels=FOO_BAR),
        [SKEW, SKEW, SKEW, SKEW],
    ),
    (
        "different selectors, spreads = [2/3, 1/0/0/1]",
        placed("node-a", 1)
        + placed("node-a", 1, FOO_BAR)
        + placed("node-y", 1)
        + placed("node-y", 1, FOO_BAR)
        + placed("node-y", 1),
        pod(spread(1, "zone", FOO), spread(1, "node", BAR), labels=FOO_BAR),
        [SKEW, OK, SKEW, SKEW],
    ),
    (
        "the pod doesn't match itself on the zone constraint",
        placed("node-a", 1) + placed("node-x", 1, {"bar": ""}) + placed("node-y", 1, {"bar": ""}),
        pod(spread(1, "zone", FOO), spread(1, "node", BAR), labels={"bar": ""}),
        [OK, OK, SKEW, SKEW],
    ),
]


@pytest.mark.parametrize(
    ("existing", "incoming", "expected"),
    [row[1:] for row in MULTIPLE],
    ids=[row[0] for row in MULTIPLE],
)
def test_multiple_constraints(
    existing: list[tuple[str, Pod]], incoming: Pod, expected: list[str]
) -> None:
    got = run_filter(ABXY, existing, incoming)
    assert got == {name: want for (name, _), want in zip(ABXY, expected, strict=True)}


def test_missing_label_on_second_constraint() -> None:
    """Upstream row: absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]."""
    node_specs = [*ABXY[:2], ("node-x", {"zone": "zone2"}), ABXY[3]]
    got = run_filter(
        node_specs,
        placed("node-a", 1) + placed("node-y", 1),
        pod(spread(1, "zone"), spread(1, "node")),
    )
    assert got == {"node-a": SKEW, "node-b": OK, "node-x": LABEL, "node-y": SKEW}


def test_first_failing_constraint_decides_the_reason() -> None:
    """node-b lacks 'rack' but already fails the zone constraint, which comes first."""
    node_specs = [
        ("node-a", {"zone": "zone1", "rack": "r1"}),
        ("node-b", {"zone": "zone1"}),
        ("node-x", {"zone": "zone2", "rack": "r2"}),
        ("node-y", {"zone": "zone2", "rack": "r2"}),
    ]
    got = run_filter(node_specs, placed("node-a", 2), pod(spread(1, "zone"), spread(1, "rack")))
    assert got == {"node-a": SKEW, "node-b": SKEW, "node-x": OK, "node-y": OK}
    got = run_filter(node_specs, placed("node-a", 2), pod(spread(1, "rack"), spread(1, "zone")))
    assert got == {"node-a": SKEW, "node-b": LABEL, "node-x": OK, "node-y": OK}


def test_pre_filter_skips_without_hard_constraints() -> None:
    soft = pod(spread(1, "zone", action="ScheduleAnyway"))
    assert run_filter(ABXY, [], soft) == "skip"
    assert run_filter(ABXY, [], pod()) == "skip"


def test_match_label_keys_narrow_the_count() -> None:
    """matchLabelKeys: only pods of the same revision count (zone 1: 2 old, zone 2: 1 new)."""
    existing = placed("node-a", 2, {"app": "web", "rev": "1"}) + placed(
        "node-x", 1, {"app": "web", "rev": "2"}
    )
    web = LabelSelector(match_labels=(("app", "web"),))
    incoming = pod(
        spread(1, "zone", web, match_label_keys=("rev",)), labels={"app": "web", "rev": "2"}
    )
    # rev 2: 0 in zone1, 1 in zone2: only zone1 fits; without the key zone1 (2) would be worse.
    assert run_filter(ABXY, existing, incoming) == dict(
        zip([n for n, _ in ABXY], [OK, OK, SKEW, SKEW], strict=True)
    )


# --- seed article: 10-pod-topology-spread-zones.yaml -------------------------------------

ZONE = "topology.kubernetes.io/zone"
HOST = "kubernetes.io/hostname"


def training(name: str, **extra: object) -> Pod:
    """The article's distributed-training pod: maxSkew 1 over zones, hard."""
    app = LabelSelector(match_labels=(("app", "ml-training"),))
    return make_pod(
        name,
        labels={"app": "ml-training"},
        topology_spread_constraints=(
            TopologySpreadConstraint(1, ZONE, "DoNotSchedule", app),
            TopologySpreadConstraint(2, HOST, "ScheduleAnyway", app),
        ),
        **extra,  # type: ignore[arg-type]
    )


def three_zones() -> ClusterState:
    return make_cluster(
        [
            make_node(f"gpu-{z}{i}", {ZONE: f"zone-{z}", HOST: f"gpu-{z}{i}"})
            for z in "abc"
            for i in (1, 2)
        ]
    )


def feasible(plugin: PodTopologySpread, cluster: ClusterState, p: Pod) -> list[str]:
    state = CycleState()
    status, _ = plugin.pre_filter(state, p, cluster)
    every = all_nodes(cluster)
    failed = np.zeros(len(every), dtype=bool)
    if not status.skipped:
        for failure in plugin.filter(state, p, cluster, every).failures:
            failed |= failure.mask
    return [cluster.nodes[int(i)].name for i in every[~failed]]


def zone_counts(cluster: ClusterState) -> dict[str, int]:
    counts = {"zone-a": 0, "zone-b": 0, "zone-c": 0}
    for node, pods in zip(cluster.nodes, cluster.pods_on, strict=True):
        counts[node.labels[ZONE]] += len(pods)
    return counts


def test_seed_10_six_replicas_land_two_per_zone() -> None:
    cluster = three_zones()
    plugin = PodTopologySpread(PodTopologySpreadArgs())
    for i in range(6):
        p = training(f"distributed-training-{i}")
        fits = feasible(plugin, cluster, p)
        # A zone that already holds one more replica than the emptiest is closed.
        assert len(fits) == 6 - 2 * (i % 3)
        cluster.add_pod(p, cluster.node_index[fits[-1]])
    assert zone_counts(cluster) == {"zone-a": 2, "zone-b": 2, "zone-c": 2}


@pytest.mark.parametrize(
    ("policy", "stuck_after"),
    [(None, None), ("Ignore", 2)],
    ids=["Honor: the excluded zone does not count", "Ignore: the excluded zone pins the minimum"],
)
def test_seed_10_replicas_that_cannot_use_one_zone(
    policy: str | None, stuck_after: int | None
) -> None:
    """After 2/2/2, replicas whose node affinity excludes zone-c (say its GPUs are
    taken) keep going with the default Honor policy; with Ignore, zone-c stays at
    2 and blocks once zones a and b are one replica ahead."""
    cluster = three_zones()
    plugin = PodTopologySpread(PodTopologySpreadArgs())
    for i in range(6):
        p = training(f"t-{i}")
        cluster.add_pod(p, cluster.node_index[feasible(plugin, cluster, p)[-1]])
    not_c = required_affinity(term(NodeSelectorRequirement(ZONE, "NotIn", ("zone-c",))))
    for i in range(4):
        p = training(f"late-{i}", node_affinity=not_c)
        if policy is not None:
            p.topology_spread_constraints = (
                replace(p.topology_spread_constraints[0], node_affinity_policy=policy),
                p.topology_spread_constraints[1],
            )
        fits = [n for n in feasible(plugin, cluster, p) if not n.startswith("gpu-c")]
        if stuck_after is not None and i >= stuck_after:
            assert fits == []
            return
        assert fits
        cluster.add_pod(p, cluster.node_index[fits[0]])
    assert zone_counts(cluster) == {"zone-a": 4, "zone-b": 4, "zone-c": 2}


# --- the pod index against a recount ---------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_pod_index_equals_a_recount_after_random_adds_and_removes(seed: int) -> None:
    rng = random.Random(seed)
    cluster = make_cluster(
        [make_node(f"n{i}", {HOST: f"n{i}", ZONE: f"z{i % 4}"}) for i in range(10)]
    )
    index = pod_index(cluster)
    default = NamespaceScope(frozenset({"default"}))
    matchers = [
        PodMatcher(((default, LabelSelector(match_labels=(("app", "a"),))),)),
        PodMatcher(((default, exists("tier")),)),
        PodMatcher(
            (
                (
                    NamespaceScope(everything=True),
                    LabelSelector(
                        match_expressions=(LabelSelectorRequirement("app", "In", ("a", "b")),)
                    ),
                ),
            )
        ),
        PodMatcher(
            (
                (default, LabelSelector(match_labels=(("app", "b"),))),
                (NamespaceScope(frozenset({"default", "ml"})), exists("tier")),
            )
        ),
        PodMatcher(
            (
                (
                    NamespaceScope(frozenset({"ml"})),
                    LabelSelector(
                        match_expressions=(LabelSelectorRequirement("app", "NotIn", ("a",)),)
                    ),
                ),
            )
        ),
    ]
    live: list[Pod] = []
    for step in range(300):
        if step % 60 == 0:  # matchers registered at different times start from the same truth
            registered = matchers[: step // 60 + 1]
            for m in registered:
                index.domain_counts(m, ZONE)
        if live and rng.random() < 0.4:
            cluster.remove_pod(live.pop(rng.randrange(len(live))))
        else:
            labels = {"app": rng.choice("abc")}
            if rng.random() < 0.5:
                labels["tier"] = rng.choice(["gpu", "cpu"])
            p = make_pod(f"p{step}", rng.choice(["default", "ml"]), labels=labels)
            cluster.add_pod(p, rng.randrange(cluster.num_nodes))
            live.append(p)
        ids, names = cluster.topology(ZONE)
        for m in registered:
            expected = count_from_scratch(cluster, m)
            assert index.node_counts(m).tolist() == expected.tolist()
            by_zone = np.bincount(ids, weights=expected, minlength=len(names)).astype(int).tolist()
            assert index.domain_counts(m, ZONE).tolist() == [*by_zone, 0]


@dataclass(frozen=True)
class Controller:
    kind: str
    namespace: str
    name: str
    selector: LabelSelector


@pytest.mark.parametrize(
    ("owner", "expected"),
    [
        (
            OwnerRef("ReplicaSet", "rs1"),
            {"node-a": SKEW, "node-b": SKEW, "node-x": OK, "node-y": OK},
        ),
        (OwnerRef("ReplicaSet", "rs2"), "skip"),
        (None, "skip"),
    ],
    ids=["owned by the ReplicaSet", "owned by an unknown ReplicaSet", "no owner"],
)
def test_list_default_constraints_filter_pods_their_controller_selects(
    owner: OwnerRef | None, expected: object
) -> None:
    """A DoNotSchedule default constraint applies, with the owning ReplicaSet's
    selector, to pods without constraints (plugin.go getConstraints)."""
    args = PodTopologySpreadArgs(
        default_constraints=(TopologySpreadConstraint(1, "zone", "DoNotSchedule"),),
        defaulting_type=LIST_DEFAULTING,
    )
    rs = Controller("ReplicaSet", "default", "rs1", FOO)
    cluster = make_cluster(
        [make_node(n, labels) for n, labels in ABXY],
        {
            "node-a": [make_pod("e1", labels={"foo": "x"})],
            "node-b": [make_pod("e2", labels={"foo": "y"})],
        },
        controllers=[rs],
    )
    incoming = make_pod("p", labels={"foo": "z"}, owner=owner)
    plugin = PodTopologySpread(args)
    state = CycleState()
    status, _ = plugin.pre_filter(state, incoming, cluster)
    if expected == "skip":
        assert status.skipped
        return
    every = all_nodes(cluster)
    outcome = {n.name: OK for n in cluster.nodes}
    for failure in plugin.filter(state, incoming, cluster, every).failures:
        for i in every[failure.mask]:
            outcome[cluster.nodes[int(i)].name] = SKEW
    assert outcome == expected
