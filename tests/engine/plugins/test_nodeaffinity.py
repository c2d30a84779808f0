"""NodeAffinity, rows from upstream
pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go
(TestNodeAffinity, TestNodeAffinityPriority) and the seed article's examples."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from engine.config.args import NodeAffinityArgs
from engine.framework.interface import CycleState
from engine.framework.status import Code
from engine.model.objects import NodeAffinity as NodeAffinitySpec
from engine.model.objects import NodeSelectorTerm, Pod
from engine.plugins.nodeaffinity import (
    ERR_REASON_CONFLICT,
    ERR_REASON_ENFORCED,
    ERR_REASON_POD,
    NodeAffinity,
)
from tests.engine.plugins.builders import (
    all_nodes,
    make_cluster,
    make_node,
    make_pod,
    preferred_affinity,
    req,
    required_affinity,
    run_filter,
    run_scores,
    term,
)

NAME = "metadata.name"
POD_FAILS = [(ERR_REASON_POD, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)]
ENFORCED_FAILS = [(ERR_REASON_ENFORCED, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)]


def affinity_pod(*terms: NodeSelectorTerm, node_selector: dict[str, str] | None = None) -> Pod:
    return make_pod(node_selector=node_selector, node_affinity=required_affinity(*terms))


@dataclass
class FilterRow:
    pod: Pod
    labels: dict[str, str] = field(default_factory=dict)
    node_name: str = "node"
    added: NodeAffinitySpec | None = None
    pre_filter: tuple[Code, str] = (Code.SUCCESS, "")
    node_names: set[str] | None = None  # PreFilterResult
    failures: list[tuple[str, Code]] | None = None


GPU_K1 = {"GPU": "NVIDIA-GRID-K1"}
FOO_BAR = {"foo": "bar"}
IN_NODE1 = req(NAME, "In", "node1")
IN_NODE2 = req(NAME, "In", "node2")


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(
            FilterRow(make_pod(node_selector=FOO_BAR), failures=POD_FAILS), id="missing labels"
        ),
        pytest.param(FilterRow(make_pod(node_selector=FOO_BAR), FOO_BAR), id="same labels"),
        pytest.param(
            FilterRow(make_pod(node_selector=FOO_BAR), {"foo": "bar", "baz": "blah"}),
            id="node labels are superset",
        ),
        pytest.param(
            FilterRow(
                make_pod(node_selector={"foo": "bar", "baz": "blah"}), FOO_BAR, failures=POD_FAILS
            ),
            id="node labels are subset",
        ),
        pytest.param(
            FilterRow(affinity_pod(term(req("foo", "In", "bar", "value2"))), FOO_BAR),
            id="In operator matches",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("kernel-version", "Gt", "0204"))), {"kernel-version": "0206"}
            ),
            id="Gt operator matches",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("mem-type", "NotIn", "DDR", "DDR2"))), {"mem-type": "DDR3"}
            ),
            id="NotIn operator matches",
        ),
        pytest.param(
            FilterRow(affinity_pod(term(req("GPU", "Exists"))), GPU_K1),
            id="Exists operator matches",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("foo", "In", "value1", "value2"))),
                FOO_BAR,
                failures=POD_FAILS,
            ),
            id="affinity does not match labels",
        ),
        pytest.param(
            FilterRow(affinity_pod(term()), FOO_BAR, failures=POD_FAILS),
            id="empty MatchExpressions matches nothing",
        ),
        pytest.param(
            FilterRow(make_pod(), FOO_BAR, pre_filter=(Code.SKIP, "")), id="no affinity: Skip"
        ),
        pytest.param(
            FilterRow(
                make_pod(node_affinity=NodeAffinitySpec(required=None)),
                FOO_BAR,
                pre_filter=(Code.SKIP, ""),
            ),
            id="affinity without required terms: Skip",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("GPU", "Exists"), req("GPU", "NotIn", "AMD", "INTER"))),
                GPU_K1,
            ),
            id="multiple matchExpressions ANDed match",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("GPU", "Exists"), req("GPU", "In", "AMD", "INTER"))),
                GPU_K1,
                failures=POD_FAILS,
            ),
            id="multiple matchExpressions ANDed do not match",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(
                    term(req("foo", "In", "bar", "value2")),
                    term(req("diffkey", "In", "wrong", "value2")),
                ),
                FOO_BAR,
            ),
            id="multiple terms ORed",
        ),
        pytest.param(
            FilterRow(affinity_pod(term(req("foo", "Exists")), node_selector=FOO_BAR), FOO_BAR),
            id="affinity and nodeSelector both satisfied",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("foo", "Exists")), node_selector=FOO_BAR),
                {"foo": "barrrrrr"},
                failures=POD_FAILS,
            ),
            id="affinity matches but nodeSelector does not",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("foo", "NotIn", "invalid value: ___@#$%^"))),
                FOO_BAR,
                failures=POD_FAILS,
            ),
            id="invalid value in affinity term",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(fields=[IN_NODE1])), node_name="node1", node_names={"node1"}
            ),
            id="matchFields In matches the node",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(fields=[IN_NODE1])),
                node_name="node2",
                node_names={"node1"},
                failures=POD_FAILS,
            ),
            id="matchFields In does not match the node",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(fields=[IN_NODE1, IN_NODE2]), term(req("foo", "In", "bar"))),
                FOO_BAR,
                node_name="node2",
            ),
            id="two terms: matchFields does not match, matchExpressions does",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("foo", "In", "bar"), fields=[IN_NODE1])),
                FOO_BAR,
                node_name="node2",
                node_names={"node1"},
                failures=POD_FAILS,
            ),
            id="one term: matchFields does not match, matchExpressions does",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("foo", "In", "bar"), fields=[IN_NODE1])),
                FOO_BAR,
                node_name="node1",
                node_names={"node1"},
            ),
            id="one term: both matchFields and matchExpressions match",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(fields=[IN_NODE1]), term(req("foo", "In", "not-match-to-bar"))),
                FOO_BAR,
                node_name="node2",
                failures=POD_FAILS,
            ),
            id="two terms: neither matches",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(fields=[IN_NODE1]), term(fields=[IN_NODE2])),
                node_name="node2",
                node_names={"node1", "node2"},
            ),
            id="two terms of node.Name affinity",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(fields=[IN_NODE1, IN_NODE2])),
                FOO_BAR,
                node_name="node2",
                pre_filter=(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ERR_REASON_CONFLICT),
                failures=POD_FAILS,
            ),
            id="two conflicting matchFields requirements",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("zone", "In", "foo"))),
                {"zone": "foo"},
                node_name="node2",
                added=required_affinity(term(fields=[IN_NODE2])),
            ),
            id="matches added affinity and the pod's",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("zone", "In", "bar"))),
                {"zone": "foo"},
                node_name="node2",
                added=required_affinity(term(fields=[IN_NODE2])),
                failures=POD_FAILS,
            ),
            id="matches added affinity but not the pod's",
        ),
        pytest.param(
            FilterRow(
                make_pod(),
                {"zone": "foo"},
                node_name="node2",
                added=required_affinity(term(req("zone", "In", "bar"))),
                failures=ENFORCED_FAILS,
            ),
            id="doesn't match added affinity",
        ),
        pytest.param(
            FilterRow(
                affinity_pod(term(req("zone", "In", "baz"))),
                {"zone": "foo"},
                added=required_affinity(term(req("zone", "In", "bar"))),
                failures=ENFORCED_FAILS,
            ),
            id="fails both: only the enforced reason",
        ),
    ],
)
def test_pre_filter_and_filter(row: FilterRow) -> None:
    cluster = make_cluster([make_node(row.node_name, row.labels)])
    plugin = NodeAffinity(NodeAffinityArgs(added_affinity=row.added))
    state = CycleState()
    status, result = plugin.pre_filter(state, row.pod, cluster)
    assert (status.code, status.message) == row.pre_filter
    assert (result.node_names if result else None) == (
        frozenset(row.node_names) if row.node_names else None
    )
    # Like upstream's test, Filter runs whatever PreFilter said.
    failures = plugin.filter(state, row.pod, cluster, all_nodes(cluster)).failures
    assert ([(f.reason, f.code) for f in failures if f.mask[0]] or None) == row.failures


def test_seed_article_node_selector_v100_passes_only_the_v100_node() -> None:
    # 00-pod-nodeselector-v100.yaml
    cluster = make_cluster(
        [
            make_node("gpu-node-0", {"gpu-type": "tesla-v100"}),
            make_node("gpu-node-1", {"gpu-type": "a100"}),
            make_node("cpu-node-0"),
        ]
    )
    pod = make_pod("gpu-inference", node_selector={"gpu-type": "tesla-v100"})
    failed = run_filter(NodeAffinity(NodeAffinityArgs()), pod, cluster)
    assert failed == {"gpu-node-1": POD_FAILS, "cpu-node-0": POD_FAILS}


def test_filter_answers_for_the_nodes_asked_about() -> None:
    cluster = make_cluster([make_node(f"n{i}", {"i": str(i)}) for i in range(6)])
    pod = affinity_pod(term(req("i", "Gt", "2")))
    nodes = np.array([5, 1, 3, 0], dtype=np.int64)
    failed = run_filter(NodeAffinity(NodeAffinityArgs()), pod, cluster, nodes)
    assert set(failed) == {cluster.nodes[1].name, cluster.nodes[0].name}


# --- scoring ----------------------------------------------------------------

LABEL1 = {"foo": "bar"}
LABEL2 = {"key": "value"}
LABEL3 = {"az": "az1"}
LABEL4 = {"abc": "az11", "def": "az22"}
LABEL5 = {"foo": "bar", "key": "value", "az": "az1"}

AFFINITY1 = preferred_affinity((2, term(req("foo", "In", "bar"))))
AFFINITY2 = preferred_affinity(
    (2, term(req("foo", "In", "bar"))),
    (4, term(req("key", "In", "value"))),
    (5, term(req("foo", "In", "bar"), req("key", "In", "value"), req("az", "In", "az1"))),
)


@pytest.mark.parametrize(
    ("pod_affinity", "nodes", "added", "want"),
    [
        pytest.param(
            None,
            {"node1": LABEL1, "node2": LABEL2, "node3": LABEL3},
            None,
            {"node1": 0, "node2": 0, "node3": 0},
            id="upstream: no NodeAffinity, all the same",
        ),
        pytest.param(
            AFFINITY1,
            {"node1": LABEL4, "node2": LABEL2, "node3": LABEL3},
            None,
            {"node1": 0, "node2": 0, "node3": 0},
            id="upstream: no node matches the preferred terms",
        ),
        pytest.param(
            AFFINITY1,
            {"node1": LABEL1, "node2": LABEL2, "node3": LABEL3},
            None,
            {"node1": 100, "node2": 0, "node3": 0},
            id="upstream: only node1 matches",
        ),
        pytest.param(
            AFFINITY2,
            {"node1": LABEL1, "node5": LABEL5, "node2": LABEL2},
            None,
            {"node1": 18, "node5": 100, "node2": 36},
            id="upstream: all match with different priorities",
        ),
        pytest.param(
            None,
            {"node1": LABEL1, "node2": LABEL2},
            AFFINITY1,
            {"node1": 100, "node2": 0},
            id="upstream: added affinity",
        ),
        pytest.param(
            AFFINITY1,
            {"node1": LABEL1, "node2": LABEL2, "node3": LABEL5},
            preferred_affinity((3, term(req("key", "In", "value")))),
            {"node1": 40, "node2": 60, "node3": 100},
            id="upstream: added affinity and the pod's",
        ),
    ],
)
def test_score(
    pod_affinity: NodeAffinitySpec | None,
    nodes: dict[str, dict[str, str]],
    added: NodeAffinitySpec | None,
    want: dict[str, int],
) -> None:
    cluster = make_cluster([make_node(name, labels) for name, labels in nodes.items()])
    plugin = NodeAffinity(NodeAffinityArgs(added_affinity=added))
    assert run_scores(plugin, make_pod(node_affinity=pod_affinity), cluster) == want


def test_raw_score_is_the_sum_of_matching_weights() -> None:
    cluster = make_cluster(
        [make_node("node1", LABEL1), make_node("node5", LABEL5), make_node("node2", LABEL2)]
    )
    plugin = NodeAffinity(NodeAffinityArgs())
    pod = make_pod(node_affinity=AFFINITY2)
    assert plugin.score(CycleState(), pod, cluster, all_nodes(cluster)).tolist() == [2, 11, 4]


@pytest.mark.parametrize(
    ("pod", "added", "want_code"),
    [
        pytest.param(make_pod(), None, Code.SKIP, id="upstream: Skip without NodeAffinity"),
        pytest.param(
            make_pod(node_affinity=required_affinity(term(req("a", "Exists")))),
            None,
            Code.SKIP,
            id="required only",
        ),
        pytest.param(make_pod(), AFFINITY1, Code.SUCCESS, id="added preferred terms"),
        pytest.param(
            make_pod(node_affinity=AFFINITY1), None, Code.SUCCESS, id="pod preferred terms"
        ),
        pytest.param(
            make_pod(node_affinity=preferred_affinity((2, term(req("invalid key", "In", "bar"))))),
            None,
            Code.ERROR,
            id="upstream: broken preferred affinity is an error",
        ),
    ],
)
def test_pre_score(pod: Pod, added: NodeAffinitySpec | None, want_code: Code) -> None:
    cluster = make_cluster([make_node("node1", LABEL1)])
    plugin = NodeAffinity(NodeAffinityArgs(added_affinity=added))
    status = plugin.pre_score(CycleState(), pod, cluster, all_nodes(cluster))
    assert status.code == want_code
    if want_code == Code.ERROR:
        assert status.message.startswith(
            '[0].matchExpressions[0].key: Invalid value: "invalid key"'
        )


def test_seed_article_required_v100_preferring_an_instance_type() -> None:
    # 02-pod-node-affinity-v100-preferred-instance.yaml (+ 03: NotIn gpu-shared, weight 100)
    cluster = make_cluster(
        [
            make_node(
                "v100-std",
                {"gpu-type": "v100", "node.kubernetes.io/instance-type": "gpu-standard-v2"},
            ),
            make_node(
                "v100-big", {"gpu-type": "v100", "node.kubernetes.io/instance-type": "gpu-large"}
            ),
            make_node("v100-shared", {"gpu-type": "v100", "workload-type": "gpu-shared"}),
            make_node(
                "a100", {"gpu-type": "a100", "node.kubernetes.io/instance-type": "gpu-standard-v2"}
            ),
        ]
    )
    spec = NodeAffinitySpec(
        required=(term(req("gpu-type", "In", "v100")),),
        preferred=preferred_affinity(
            (100, term(req("node.kubernetes.io/instance-type", "In", "gpu-standard-v2"))),
            (100, term(req("workload-type", "NotIn", "gpu-shared"))),
        ).preferred,
    )
    pod = make_pod("gpu-training", node_affinity=spec)
    plugin = NodeAffinity(NodeAffinityArgs())
    assert run_filter(plugin, pod, cluster) == {"a100": POD_FAILS}
    feasible = np.array([cluster.node_index[n] for n in ("v100-std", "v100-big", "v100-shared")])
    assert run_scores(plugin, pod, cluster, feasible) == {
        "v100-std": 100,
        "v100-big": 50,
        "v100-shared": 0,
    }


def test_invalid_added_affinity_is_rejected() -> None:
    added = required_affinity(term(req("gpu", "Gt", "many")))
    with pytest.raises(
        ValueError, match=r"addedAffinity\.requiredDuringSchedulingIgnoredDuringExecution"
    ):
        NodeAffinity(NodeAffinityArgs(added_affinity=added))
