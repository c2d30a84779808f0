"""InterPodAffinity PreFilter + Filter.

Rows follow pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go
(TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes), with
upstream's empty namespace written as "default"; then the seed article's
examples 04 and 17, matchLabelKeys, and the incremental index against a
recount from scratch.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from engine.cluster.state import ClusterState
from engine.config.args import InterPodAffinityArgs
from engine.framework.interface import CycleState
from engine.framework.status import Code
from engine.model.objects import (
    LabelSelector,
    LabelSelectorRequirement,
    Namespace,
    Node,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    WeightedPodAffinityTerm,
)
from engine.plugins.interpodaffinity.index import KINDS, existing_terms_index
from engine.plugins.interpodaffinity.plugin import InterPodAffinity
from engine.plugins.interpodaffinity.terms import pod_terms
from tests.engine.plugins.builders import all_nodes, make_cluster, make_node, make_pod

AFFINITY = (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) didn't match pod affinity rules")
ANTI = (Code.UNSCHEDULABLE, "node(s) didn't match pod anti-affinity rules")
EXISTING = (Code.UNSCHEDULABLE, "node(s) didn't satisfy existing pods anti-affinity rules")
OK = None
SKIP = "skip"

NAMESPACES = [
    Namespace("subteam1.team1", (("team", "team1"),)),
    Namespace("subteam2.team1", (("team", "team1"),)),
    Namespace("subteam1.team2", (("team", "team2"),)),
    Namespace("subteam2.team2", (("team", "team2"),)),
    Namespace("NS1"),
]


# --- tiny builders ---------------------------------------------------------------


def r(key: str, operator: str, *values: str) -> LabelSelectorRequirement:
    return LabelSelectorRequirement(key, operator, values)


def t(
    topology_key: str,
    *requirements: LabelSelectorRequirement,
    namespaces: tuple[str, ...] = (),
    namespace_selector: LabelSelector | None = None,
    match_label_keys: tuple[str, ...] = (),
    mismatch_label_keys: tuple[str, ...] = (),
) -> PodAffinityTerm:
    return PodAffinityTerm(
        topology_key,
        LabelSelector(match_expressions=requirements),
        namespaces,
        namespace_selector,
        match_label_keys,
        mismatch_label_keys,
    )


def pod(
    name: str = "p",
    namespace: str = "default",
    labels: dict[str, str] | None = None,
    affinity: list[PodAffinityTerm] | None = None,
    anti: list[PodAffinityTerm] | None = None,
) -> Pod:
    return make_pod(
        name,
        namespace,
        labels=labels,
        pod_affinity=PodAffinity(required=tuple(affinity)) if affinity else None,
        pod_anti_affinity=PodAffinity(required=tuple(anti)) if anti else None,
    )


def nodes(*specs: tuple[str, dict[str, str]]) -> list[Node]:
    return [make_node(name, labels) for name, labels in specs]


def run_filter(
    node_list: list[Node], placed: list[tuple[str, Pod]], incoming: Pod
) -> str | dict[str, tuple[Code, str] | None]:
    """ "skip" when PreFilter skips, else each node's (code, reason) or None."""
    pods_on: dict[str, list[Pod]] = {}
    for i, (node_name, p) in enumerate(placed):
        # A fresh copy with its own name: rows share pods, keys must be unique.
        pods_on.setdefault(node_name, []).append(replace(p, name=f"{p.name}-{i}"))
    cluster = make_cluster(node_list, pods_on, namespaces=NAMESPACES)
    plugin = InterPodAffinity(InterPodAffinityArgs())
    state = CycleState()
    status, _ = plugin.pre_filter(state, incoming, cluster)
    if status.skipped:
        return SKIP
    assert status.ok
    every = all_nodes(cluster)
    outcome: dict[str, tuple[Code, str] | None] = {n.name: None for n in cluster.nodes}
    for failure in plugin.filter(state, incoming, cluster, every).failures:
        for i in every[failure.mask]:
            name = cluster.nodes[int(i)].name
            assert outcome[name] is None, "a node fails for one reason only"
            outcome[name] = (failure.code, failure.reason)
    return outcome


# --- TestRequiredAffinitySingleNode ---------------------------------------------------

NODE1 = ("node1", {"region": "r1", "zone": "z11"})
SCAN = {"service": "securityscan"}
S1 = {"security": "S1"}
TEAM1 = LabelSelector(match_expressions=(r("team", "In", "team1"),))
SCAN_IN = r("service", "In", "securityscan", "value2")


def on_node1(p: Pod) -> list[tuple[str, Pod]]:
    return [("node1", p)]


SINGLE_NODE = [
    ("no required terms, no pods: Skip", [], pod(), SKIP),
    (
        "affinity In matches the existing pod",
        on_node1(pod("e", labels=SCAN)),
        pod(labels=S1, affinity=[t("region", SCAN_IN)]),
        OK,
    ),
    (
        "affinity NotIn matches the existing pod",
        on_node1(pod("e", labels=SCAN)),
        pod(labels=S1, affinity=[t("region", r("service", "NotIn", "securityscan3", "value3"))]),
        OK,
    ),
    (
        "affinity misses the pod in another namespace",
        on_node1(pod("e", "ns", labels=SCAN)),
        pod(labels=S1, affinity=[t("", SCAN_IN, namespaces=("DiffNameSpace",))]),
        AFFINITY,
    ),
    (
        "affinity selector does not match the existing pod",
        on_node1(pod("e", labels=SCAN)),
        pod(labels=SCAN, affinity=[t("", r("service", "In", "antivirusscan", "value2"))]),
        AFFINITY,
    ),
    (
        "two affinity terms with several operators, all match",
        on_node1(pod("e", labels=SCAN)),
        pod(
            labels=S1,
            affinity=[
                t("region", r("service", "Exists"), r("wrongkey", "DoesNotExist")),
                t(
                    "region",
                    r("service", "In", "securityscan"),
                    r("service", "NotIn", "WrongValue"),
                ),
            ],
        ),
        OK,
    ),
    (
        "requirements are ANDed: one of them fails",
        on_node1(pod("e", labels=SCAN)),
        pod(
            labels=S1,
            affinity=[
                t("region", r("service", "Exists"), r("wrongkey", "DoesNotExist")),
                t(
                    "region",
                    r("service", "In", "securityscan2"),
                    r("service", "NotIn", "WrongValue"),
                ),
            ],
        ),
        AFFINITY,
    ),
    (
        "affinity and anti-affinity both satisfied",
        on_node1(pod("e", labels=SCAN)),
        pod(
            labels=S1,
            affinity=[t("region", SCAN_IN)],
            anti=[t("node", r("service", "In", "antivirusscan", "value2"))],
        ),
        OK,
    ),
    (
        "anti-affinity symmetry satisfied too",
        on_node1(
            pod("e", labels=SCAN, anti=[t("node", r("service", "In", "antivirusscan", "value2"))])
        ),
        pod(
            labels=S1,
            affinity=[t("region", SCAN_IN)],
            anti=[t("node", r("service", "In", "antivirusscan", "value2"))],
        ),
        OK,
    ),
    (
        "affinity satisfied, anti-affinity not",
        on_node1(pod("e", labels=SCAN)),
        pod(labels=S1, affinity=[t("region", SCAN_IN)], anti=[t("zone", SCAN_IN)]),
        ANTI,
    ),
    (
        "the existing pod's anti-affinity rejects the incoming pod",
        on_node1(pod("e", labels=SCAN, anti=[t("zone", SCAN_IN)])),
        pod(
            labels=SCAN,
            affinity=[t("region", SCAN_IN)],
            anti=[t("node", r("service", "In", "antivirusscan", "value2"))],
        ),
        EXISTING,
    ),
    (
        "existing anti-affinity applies to a pod without terms",
        on_node1(pod("e", labels=SCAN, anti=[t("zone", SCAN_IN)])),
        pod(labels=SCAN),
        EXISTING,
    ),
    (
        "existing anti-affinity that does not match: Skip",
        on_node1(
            pod("e", labels=SCAN, anti=[t("zone", r("service", "NotIn", "securityscan", "value2"))])
        ),
        pod(labels=SCAN),
        SKIP,
    ),
    (
        "incoming anti-affinity matches, the existing one would not",
        on_node1(pod("e", labels=S1, anti=[t("zone", r("security", "Exists"))])),
        pod(
            labels=SCAN,
            anti=[t("region", r("service", "Exists")), t("region", r("security", "Exists"))],
        ),
        ANTI,
    ),
    (
        "symmetry a1: both match partially, incoming anti-affinity decides",
        on_node1(pod("e", labels=S1, anti=[t("zone", r("security", "Exists"))])),
        pod(
            labels=SCAN,
            anti=[t("zone", r("service", "Exists")), t("zone", r("security", "Exists"))],
        ),
        ANTI,
    ),
    (
        "symmetry a2: existing anti-affinity decides",
        on_node1(
            pod(
                "e",
                labels=SCAN,
                anti=[t("zone", r("service", "Exists")), t("zone", r("security", "Exists"))],
            )
        ),
        pod(labels=S1, anti=[t("zone", r("security", "Exists"))]),
        EXISTING,
    ),
    (
        "symmetry b1",
        on_node1(
            pod(
                "e",
                labels={"def": "", "xyz": ""},
                anti=[t("zone", r("abc", "Exists")), t("zone", r("def", "Exists"))],
            )
        ),
        pod(
            labels={"abc": "", "xyz": ""},
            anti=[t("zone", r("abc", "Exists")), t("zone", r("def", "Exists"))],
        ),
        ANTI,
    ),
    (
        "symmetry b2",
        on_node1(
            pod(
                "e",
                labels={"abc": "", "xyz": ""},
                anti=[t("zone", r("abc", "Exists")), t("zone", r("def", "Exists"))],
            )
        ),
        pod(
            labels={"def": "", "xyz": ""},
            anti=[t("zone", r("abc", "Exists")), t("zone", r("def", "Exists"))],
        ),
        ANTI,
    ),
    (
        "affinity with a namespaceSelector that matches",
        on_node1(pod("e", "subteam1.team1", labels=SCAN)),
        pod(labels=S1, affinity=[t("region", SCAN_IN, namespace_selector=TEAM1)]),
        OK,
    ),
    (
        "affinity with a namespaceSelector that does not match",
        on_node1(pod("e", "subteam1.team2", labels=SCAN)),
        pod(labels=S1, affinity=[t("region", SCAN_IN, namespace_selector=TEAM1)]),
        AFFINITY,
    ),
    (
        "anti-affinity with a namespaceSelector that matches",
        on_node1(pod("e", "subteam2.team1", labels=SCAN)),
        pod(
            namespace="subteam1.team1",
            labels=S1,
            anti=[t("zone", SCAN_IN, namespace_selector=TEAM1)],
        ),
        ANTI,
    ),
    (
        "anti-affinity with an empty namespaceSelector matches every namespace",
        on_node1(pod("e", "subteam2.team1", labels=SCAN)),
        pod(
            namespace="subteam1.team1",
            labels=S1,
            anti=[t("zone", SCAN_IN, namespace_selector=LabelSelector())],
        ),
        ANTI,
    ),
    (
        "anti-affinity with a namespaceSelector that does not match",
        on_node1(pod("e", "subteam1.team2", labels=SCAN)),
        pod(
            namespace="subteam1.team1",
            labels=S1,
            anti=[t("zone", SCAN_IN, namespace_selector=TEAM1)],
        ),
        OK,
    ),
]


@pytest.mark.parametrize(
    ("placed", "incoming", "expected"),
    [row[1:] for row in SINGLE_NODE],
    ids=[row[0] for row in SINGLE_NODE],
)
def test_required_affinity_single_node(
    placed: list[tuple[str, Pod]], incoming: Pod, expected: object
) -> None:
    outcome = run_filter(nodes(NODE1), placed, incoming)
    assert outcome == (SKIP if expected == SKIP else {"node1": expected})


# --- TestRequiredAffinityMultipleNodes -------------------------------------------------

CHINA = {"region": "China"}
CHINA_AZ1 = {"region": "China", "az": "az1"}
INDIA = {"region": "India"}
R1Z1A = {"region": "r1", "zone": "z1", "hostname": "nodeA"}
R1Z1B = {"region": "r1", "zone": "z1", "hostname": "nodeB"}
R1Z2B = {"region": "r1", "zone": "z2", "hostname": "nodeB"}
R1Z3C = {"region": "r1", "zone": "z3", "hostname": "nodeC"}
EX = "Exists"
SELF_AFFINE = pod(
    labels={"foo": "bar", "service": "securityscan"},
    affinity=[t("zone", r("foo", "In", "bar")), t("zone", r("service", "In", "securityscan"))],
)

MULTIPLE_NODES = [
    (
        "same topology value as the node with a matching pod fits",
        [("node1", CHINA), ("node2", CHINA_AZ1), ("node3", INDIA)],
        [("node1", pod("p1", labels={"foo": "bar"}))],
        pod(affinity=[t("region", r("foo", "In", "bar"))]),
        [OK, OK, AFFINITY],
    ),
    (
        "the first pod of a self-affine collection is not blocked",
        [
            ("nodeA", {"zone": "az1", "hostname": "h1"}),
            ("nodeB", {"zone": "az2", "hostname": "h2"}),
        ],
        [("nodeA", pod("p1", labels={"foo": "bar"}))],
        SELF_AFFINE,
        [OK, OK],
    ),
    (
        "the first pod still needs the topology keys",
        [
            ("nodeA", {"zoneLabel": "az1", "hostname": "h1"}),
            ("nodeB", {"zoneLabel": "az2", "hostname": "h2"}),
        ],
        [("nodeA", pod("p1", labels={"foo": "bar"}))],
        SELF_AFFINE,
        [AFFINITY, AFFINITY],
    ),
    (
        "anti-affinity covers the whole region",
        [
            ("nodeA", {"region": "r1", "hostname": "nodeA"}),
            ("nodeB", {"region": "r1", "hostname": "nodeB"}),
        ],
        [("nodeA", pod("e", labels={"foo": "abc"}))],
        pod(anti=[t("region", r("foo", "In", "abc"))]),
        [ANTI, ANTI],
    ),
    (
        "anti-affinity fails when any term matches",
        [
            ("nodeA", {"region": "r1", "zone": "z1", "hostname": "nodeA"}),
            ("nodeB", {"region": "r1", "zone": "z2", "hostname": "nodeB"}),
        ],
        [("nodeA", pod("e", labels={"foo": "abc", "service": "securityscan"}))],
        pod(
            anti=[
                t("region", r("foo", "In", "abc")),
                t("zone", r("service", "In", "securityscan")),
            ]
        ),
        [ANTI, ANTI],
    ),
    (
        "another region stays open",
        [("nodeA", CHINA), ("nodeB", CHINA_AZ1), ("nodeC", INDIA)],
        [("nodeA", pod("e", labels={"foo": "abc"}))],
        pod(anti=[t("region", r("foo", "In", "abc"))]),
        [ANTI, ANTI, OK],
    ),
    (
        "an anti-affinity term of another namespace does not apply",
        [("nodeA", CHINA), ("nodeB", CHINA_AZ1), ("nodeC", INDIA)],
        [
            ("nodeA", pod("e1", "NS1", labels={"foo": "bar"})),
            ("nodeC", pod("e2", "NS2", anti=[t("region", r("foo", "In", "123"))])),
        ],
        pod(namespace="NS1", labels={"foo": "123"}, anti=[t("region", r("foo", "In", "bar"))]),
        [ANTI, ANTI, OK],
    ),
    (
        "existing term on a key no node has: Skip",
        [("nodeA", R1Z1A), ("nodeB", R1Z1B)],
        [("nodeA", pod("e", anti=[t("invalid-node-label", r("foo", EX))]))],
        pod(labels={"foo": ""}),
        SKIP,
    ),
    (
        "incoming term on a key no node has",
        [("nodeA", R1Z1A), ("nodeB", R1Z1B)],
        [("nodeA", pod("e", labels={"foo": ""}))],
        pod(anti=[t("invalid-node-label", r("foo", EX))]),
        [OK, OK],
    ),
    (
        "each existing pod's term rejects the incoming pod",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [
            ("nodeA", pod("e1", anti=[t("zone", r("foo", EX))])),
            ("nodeA", pod("e2", anti=[t("region", r("bar", EX))])),
        ],
        pod(labels={"foo": "", "bar": ""}),
        [EXISTING, EXISTING],
    ),
    (
        "each incoming term rejects one node",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [("nodeA", pod("e1", labels={"foo": ""})), ("nodeB", pod("e2", labels={"bar": ""}))],
        pod(anti=[t("zone", r("foo", EX)), t("region", r("bar", EX))]),
        [ANTI, ANTI],
    ),
    (
        "existing terms count only with the key: one invalid",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [
            (
                "nodeA",
                pod("e", anti=[t("invalid-node-label", r("foo", EX)), t("zone", r("bar", EX))]),
            )
        ],
        pod(labels={"foo": "", "bar": ""}),
        [EXISTING, OK],
    ),
    (
        "incoming terms count only with the key: one invalid",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [("nodeA", pod("e", labels={"foo": "", "bar": ""}))],
        pod(anti=[t("invalid-node-label", r("foo", EX)), t("zone", r("bar", EX))]),
        [ANTI, OK],
    ),
    (
        "existing terms count only with the key: all valid",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [("nodeA", pod("e", anti=[t("region", r("foo", EX)), t("zone", r("bar", EX))]))],
        pod(labels={"foo": "", "bar": ""}),
        [EXISTING, EXISTING],
    ),
    (
        "incoming terms count only with the key: all valid",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [("nodeA", pod("e", labels={"foo": "", "bar": ""}))],
        pod(anti=[t("region", r("foo", EX)), t("zone", r("bar", EX))]),
        [ANTI, ANTI],
    ),
    (
        "only the zone without a rejecting pod stays open",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B), ("nodeC", R1Z3C)],
        [
            ("nodeA", pod("e1", anti=[t("zone", r("foo", EX)), t("zone", r("labelA", EX))])),
            ("nodeB", pod("e2", anti=[t("zone", r("bar", EX)), t("zone", r("labelB", EX))])),
        ],
        pod(labels={"foo": "", "bar": ""}),
        [EXISTING, EXISTING, OK],
    ),
    (
        "one pod matching every affinity term",
        [("nodeA", R1Z1A), ("nodeB", R1Z1B)],
        [("nodeA", pod("pod1", labels={"foo": "", "bar": ""}))],
        pod(affinity=[t("region", r("foo", EX)), t("zone", r("bar", EX))]),
        [OK, OK],
    ),
    (
        "the affinity terms must be met by the same pod",
        [("nodeA", R1Z1A), ("nodeB", R1Z2B)],
        [("nodeA", pod("pod1", labels={"foo": ""})), ("nodeB", pod("pod2", labels={"bar": ""}))],
        pod(affinity=[t("region", r("foo", EX)), t("zone", r("bar", EX))]),
        [AFFINITY, AFFINITY],
    ),
]


@pytest.mark.parametrize(
    ("node_specs", "placed", "incoming", "expected"),
    [row[1:] for row in MULTIPLE_NODES],
    ids=[row[0] for row in MULTIPLE_NODES],
)
def test_required_affinity_multiple_nodes(
    node_specs: list[tuple[str, dict[str, str]]],
    placed: list[tuple[str, Pod]],
    incoming: Pod,
    expected: object,
) -> None:
    outcome = run_filter(nodes(*node_specs), placed, incoming)
    if expected == SKIP:
        assert outcome == SKIP
    else:
        assert isinstance(expected, list)
        assert outcome == {name: want for (name, _), want in zip(node_specs, expected, strict=True)}


# --- seed article ---------------------------------------------------------------------

HOST = "kubernetes.io/hostname"
GPU_NODES = [
    (f"gpu-node-{i}", {HOST: f"gpu-node-{i}", "nvidia.com/gpu.product": "NVIDIA-T4"})
    for i in (1, 2, 3)
]


def test_seed_04_model_server_goes_where_the_model_cache_runs() -> None:
    """04-pod-pod-affinity-model-cache.yaml: required podAffinity on the hostname."""
    cache = pod("model-cache", labels={"app": "model-cache"})
    server = pod(
        "model-server",
        labels={"app": "inference", "model": "gpt-j"},
        affinity=[t(HOST, r("app", "In", "model-cache"))],
    )
    outcome = run_filter(nodes(*GPU_NODES), [("gpu-node-2", cache)], server)
    assert outcome == {"gpu-node-1": AFFINITY, "gpu-node-2": OK, "gpu-node-3": AFFINITY}


def test_seed_04_without_a_model_cache_nowhere_fits() -> None:
    server = pod(
        "model-server",
        labels={"app": "inference"},
        affinity=[t(HOST, r("app", "In", "model-cache"))],
    )
    outcome = run_filter(nodes(*GPU_NODES), [], server)
    assert outcome == dict.fromkeys(("gpu-node-1", "gpu-node-2", "gpu-node-3"), AFFINITY)


def test_seed_17_production_inference_avoids_training_nodes() -> None:
    """17-pod-production-inference-combined.yaml: anti-affinity to app=training per host."""
    inference = pod(
        "production-inference",
        labels={"app": "inference", "environment": "production"},
        anti=[t(HOST, r("app", "In", "training"))],
    )
    placed = [
        ("gpu-node-1", pod("train-0", labels={"app": "training"})),
        ("gpu-node-3", pod("web", labels={"app": "web"})),
    ]
    outcome = run_filter(nodes(*GPU_NODES), placed, inference)
    assert outcome == {"gpu-node-1": ANTI, "gpu-node-2": OK, "gpu-node-3": OK}


# --- matchLabelKeys / mismatchLabelKeys --------------------------------------------------


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        # Same app, same tenant (matchLabelKeys): only the host running tenant a.
        (
            t(HOST, r("app", "In", "inference"), match_label_keys=("tenant",)),
            [AFFINITY, OK, AFFINITY],
        ),
        # Same app, another tenant (mismatchLabelKeys): the hosts of tenants b and c.
        (t(HOST, r("app", "In", "inference"), mismatch_label_keys=("tenant",)), [OK, AFFINITY, OK]),
        # A key the pod lacks is ignored.
        (t(HOST, r("app", "In", "inference"), match_label_keys=("missing",)), [OK, OK, OK]),
    ],
    ids=["matchLabelKeys", "mismatchLabelKeys", "key the pod lacks"],
)
def test_match_label_keys_merge_into_the_selector(
    term: PodAffinityTerm, expected: list[object]
) -> None:
    placed = [
        (f"gpu-node-{i}", pod(f"e{i}", labels={"app": "inference", "tenant": tenant}))
        for i, tenant in ((1, "b"), (2, "a"), (3, "c"))
    ]
    incoming = pod(labels={"app": "inference", "tenant": "a"}, affinity=[term])
    outcome = run_filter(nodes(*GPU_NODES), placed, incoming)
    assert outcome == {name: want for (name, _), want in zip(GPU_NODES, expected, strict=True)}


def test_placing_a_pod_updates_the_next_cycle() -> None:
    """Anti-affinity pods spread one per host as they are placed one by one."""
    cluster = make_cluster(nodes(*GPU_NODES), namespaces=NAMESPACES)
    plugin = InterPodAffinity(InterPodAffinityArgs())
    every = all_nodes(cluster)
    for i in range(4):
        replica = pod(
            f"r{i}", labels={"app": "inference"}, anti=[t(HOST, r("app", "In", "inference"))]
        )
        state = CycleState()
        status, _ = plugin.pre_filter(state, replica, cluster)
        failed = np.zeros(len(every), dtype=bool)
        if status.ok:
            for failure in plugin.filter(state, replica, cluster, every).failures:
                failed |= failure.mask
        free = every[~failed]
        if i < 3:
            assert len(free) == 3 - i
            cluster.add_pod(replica, int(free[0]))
        else:
            assert len(free) == 0


# --- the index of placed pods' terms against a recount -------------------------------------


def _recount(cluster: ClusterState) -> dict[tuple[str, object, int], list[int]]:
    """Carriers per domain of each (kind, term, weight), walking every placed pod."""
    found: dict[tuple[str, object, int], list[int]] = {}
    for node, placed in enumerate(cluster.pods_on):
        for p in placed:
            terms = pod_terms(p)
            carried = [
                *(("requiredAffinity", x, 0) for x in terms.required_affinity),
                *(("requiredAntiAffinity", x, 0) for x in terms.required_anti_affinity),
                *(("preferredAffinity", x, w) for w, x in terms.preferred_affinity),
                *(("preferredAntiAffinity", x, w) for w, x in terms.preferred_anti_affinity),
            ]
            for kind, term, weight in carried:
                ids, names = cluster.topology(term.topology_key)
                counts = found.setdefault((kind, term, weight), [0] * (len(names) + 1))
                if ids[node] >= 0:
                    counts[ids[node]] += 1
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_existing_terms_index_equals_a_recount(seed: int) -> None:
    rng = random.Random(seed)
    zones = [make_node(f"n{i}", {HOST: f"n{i}", "zone": f"z{i % 3}"}) for i in range(8)]
    cluster = make_cluster(zones)
    index = existing_terms_index(cluster)
    templates = [
        (["a"], [t("zone", r("app", "In", "a"))], []),
        (["b"], [], [t(HOST, r("app", "In", "b"))]),
        (["c"], [t(HOST, r("app", EX))], [t("zone", r("app", "In", "a"))]),
    ]
    placed: list[Pod] = []
    for step in range(120):
        if placed and rng.random() < 0.35:
            cluster.remove_pod(placed.pop(rng.randrange(len(placed))))
            continue
        app, anti, affinity = rng.choice(templates)
        p = make_pod(
            f"p{step}",
            labels={"app": app[0]},
            pod_affinity=PodAffinity(
                required=tuple(affinity),
                preferred=(WeightedPodAffinityTerm(7, t("zone", r("app", "In", "c"))),),
            ),
            pod_anti_affinity=PodAffinity(required=tuple(anti)) if anti else None,
        )
        cluster.add_pod(p, rng.randrange(cluster.num_nodes))
        placed.append(p)
        expected = _recount(cluster)
        for kind in KINDS:
            for group in index.groups(kind):
                want = expected.get((kind, group.term, group.weight))
                got = group.domain_counts.tolist()
                assert got == (want if want is not None else [0] * len(got))
                assert group.on_keyed_nodes == sum(got)
