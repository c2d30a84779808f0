"""NodeResourcesFit Filter against pkg/scheduler/framework/plugins/noderesources/fit_test.go.

Rows of TestEnoughRequests, TestNotEnoughRequests and TestStorageRequests
(v1.36, with the Unresolvable status for requests beyond a node's whole
allocatable). Upstream builds pods from containers; here the pod's requests
are already PodRequests (max of init containers, sum of containers, plus
overhead), as ingest computes them, so each row gives that result.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest

from engine.cluster.state import ClusterState
from engine.config.args import NodeResourcesFitArgs, ScoringStrategy
from engine.framework.interface import CycleState, FilterResult, IntArray
from engine.framework.status import Code
from engine.model.objects import GPU, Node, Pod
from engine.plugins.noderesources.fit import NodeResourcesFit
from tests.engine.plugins.builders import all_nodes, make_cluster, make_node, make_pod

EXT_A = "example.com/aaa"
EXT_B = "example.com/bbb"
K8S_IO_A = "kubernetes.io/something"
K8S_IO_B = "subdomain.kubernetes.io/something"
HUGEPAGES_A = "hugepages-2Mi"

UNSCHEDULABLE = Code.UNSCHEDULABLE
UNRESOLVABLE = Code.UNSCHEDULABLE_AND_UNRESOLVABLE

# makeAllocatableResources(10, 20, 32, 5, 20, 5) of fit_test.go.
TEST_NODE = {
    "cpu": 10,
    "memory": 20,
    "pods": 32,
    EXT_A: 5,
    "ephemeral-storage": 20,
    HUGEPAGES_A: 5,
}

Verdict = tuple[Code, tuple[str, ...]] | None


def verdicts(cluster: ClusterState, nodes: IntArray, result: FilterResult) -> dict[str, Verdict]:
    """Each node's status as upstream reports it: one code, all its reasons."""
    out: dict[str, Verdict] = {cluster.nodes[int(i)].name: None for i in nodes}
    for failure in result.failures:
        for position in np.flatnonzero(failure.mask):
            name = cluster.nodes[int(nodes[position])].name
            current = out[name]
            if current is None:
                out[name] = (failure.code, (failure.reason,))
            else:
                assert current[0] == failure.code, "a node has one status code"
                out[name] = (current[0], (*current[1], failure.reason))
    return out


def run_filter(plugin: NodeResourcesFit, cluster: ClusterState, pod: Pod) -> dict[str, Verdict]:
    state = CycleState()
    status, narrowed = plugin.pre_filter(state, pod, cluster)
    assert status.ok and narrowed is None
    nodes = all_nodes(cluster)
    return verdicts(cluster, nodes, plugin.filter(state, pod, cluster, nodes))


def one_node(used: Mapping[str, int], allocatable: Mapping[str, int] = TEST_NODE) -> ClusterState:
    node = make_node("node", allocatable=allocatable)
    return make_cluster([node], {"node": [make_pod("existing", requests=used)]})


@pytest.mark.parametrize(
    ("requests", "used", "args", "expected"),
    [
        pytest.param(
            {}, {"cpu": 10, "memory": 20}, None, None, id="no resources requested always fits"
        ),
        pytest.param(
            {"cpu": 1, "memory": 1},
            {"cpu": 10, "memory": 20},
            None,
            (UNSCHEDULABLE, ("Insufficient cpu", "Insufficient memory")),
            id="too many resources fails",
        ),
        pytest.param(
            {"cpu": 3, "memory": 1},  # init container cpu 3 beats the container's 1
            {"cpu": 8, "memory": 19},
            None,
            (UNSCHEDULABLE, ("Insufficient cpu",)),
            id="too many resources fails due to init container cpu",
        ),
        pytest.param(
            {"cpu": 1, "memory": 3},
            {"cpu": 9, "memory": 19},
            None,
            (UNSCHEDULABLE, ("Insufficient memory",)),
            id="too many resources fails due to init container memory",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1},  # max, not sum, of containers and init containers
            {"cpu": 9, "memory": 19},
            None,
            None,
            id="init container fits because it's the max",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1}, {"cpu": 5, "memory": 5}, None, None, id="both resources fit"
        ),
        pytest.param(
            {"cpu": 2, "memory": 1},
            {"cpu": 9, "memory": 5},
            None,
            (UNSCHEDULABLE, ("Insufficient cpu",)),
            id="one resource memory fits",
        ),
        pytest.param(
            {"cpu": 1, "memory": 2},
            {"cpu": 5, "memory": 19},
            None,
            (UNSCHEDULABLE, ("Insufficient memory",)),
            id="one resource cpu fits",
        ),
        pytest.param(
            {"cpu": 5, "memory": 1}, {"cpu": 5, "memory": 19}, None, None, id="equal edge case"
        ),
        pytest.param({EXT_A: 1}, {}, None, None, id="extended resource fits"),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_A: 10},
            {EXT_A: 0},
            None,
            (UNRESOLVABLE, (f"Insufficient {EXT_A}",)),
            id="extended resource capacity enforced",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_A: 1},
            {EXT_A: 5},
            None,
            (UNSCHEDULABLE, (f"Insufficient {EXT_A}",)),
            id="extended resource allocatable enforced",
        ),
        pytest.param(
            {"cpu": 2, "memory": 2, EXT_A: 6},  # two containers asking 3 each
            {EXT_A: 2},
            None,
            (UNRESOLVABLE, (f"Insufficient {EXT_A}",)),
            id="extended resource allocatable enforced for multiple containers",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_A: 3},  # two init containers asking 3 each
            {EXT_A: 2},
            None,
            None,
            id="extended resource allocatable admits multiple init containers",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_B: 1},
            {},
            None,
            (UNRESOLVABLE, (f"Insufficient {EXT_B}",)),
            id="extended resource allocatable enforced for unknown resource",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, K8S_IO_A: 10},
            {},
            None,
            (UNRESOLVABLE, (f"Insufficient {K8S_IO_A}",)),
            id="kubernetes.io resource capacity enforced",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, K8S_IO_B: 10},
            {},
            None,
            (UNRESOLVABLE, (f"Insufficient {K8S_IO_B}",)),
            id="subdomain kubernetes.io resource capacity enforced",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, HUGEPAGES_A: 10},
            {HUGEPAGES_A: 0},
            None,
            (UNRESOLVABLE, (f"Insufficient {HUGEPAGES_A}",)),
            id="hugepages resource capacity enforced",
        ),
        pytest.param(
            {"cpu": 2, "memory": 2, HUGEPAGES_A: 6},
            {HUGEPAGES_A: 2},
            None,
            (UNRESOLVABLE, (f"Insufficient {HUGEPAGES_A}",)),
            id="hugepages resource allocatable enforced for multiple containers",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_B: 1},
            {},
            NodeResourcesFitArgs(ignored_resources=(EXT_B,)),
            None,
            id="skip checking ignored extended resource",
        ),
        pytest.param(
            {"cpu": 1 + 3, "memory": 1 + 13},  # requests + pod overhead
            {"cpu": 5, "memory": 5},
            None,
            None,
            id="resources + pod overhead fits",
        ),
        pytest.param(
            {"cpu": 1 + 1, "memory": 1 + 15},
            {"cpu": 5, "memory": 5},
            None,
            (UNSCHEDULABLE, ("Insufficient memory",)),
            id="requests + overhead does not fit for memory",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_B: 1, K8S_IO_A: 1},
            {},
            NodeResourcesFitArgs(ignored_resource_groups=("example.com",)),
            (UNRESOLVABLE, (f"Insufficient {K8S_IO_A}",)),
            id="skip checking ignored extended resource via resource groups",
        ),
        pytest.param(
            {"cpu": 1, "memory": 1, EXT_A: 0},
            {EXT_A: 6},
            None,
            None,
            id="skip checking extended resource request with quantity zero",
        ),
        pytest.param(
            {HUGEPAGES_A: 1},
            {},
            NodeResourcesFitArgs(
                ignored_resources=(HUGEPAGES_A,), ignored_resource_groups=("hugepages-2Mi",)
            ),
            None,
            id="ours: ignoring applies to extended resources only, hugepages still fit",
        ),
        pytest.param(
            {HUGEPAGES_A: 6},
            {},
            NodeResourcesFitArgs(ignored_resources=(HUGEPAGES_A,)),
            (UNRESOLVABLE, (f"Insufficient {HUGEPAGES_A}",)),
            id="ours: hugepages cannot be ignored",
        ),
        # TestStorageRequests
        pytest.param(
            {"cpu": 1, "memory": 1},
            {"cpu": 2, "memory": 10},
            None,
            None,
            id="empty storage requested, and pod fits",
        ),
        pytest.param(
            {"ephemeral-storage": 25},
            {"cpu": 2, "memory": 2},
            None,
            (UNRESOLVABLE, ("Insufficient ephemeral-storage",)),
            id="storage ephemeral local storage request exceeds allocatable",
        ),
        pytest.param(
            {"ephemeral-storage": 5},
            {"cpu": 2, "memory": 2, "ephemeral-storage": 10},
            None,
            None,
            id="ephemeral local storage is sufficient",
        ),
        pytest.param({"ephemeral-storage": 10}, {"cpu": 2, "memory": 2}, None, None, id="pod fits"),
    ],
)
def test_enough_requests(
    requests: dict[str, int],
    used: dict[str, int],
    args: NodeResourcesFitArgs | None,
    expected: Verdict,
) -> None:
    cluster = one_node(used)
    plugin = NodeResourcesFit(args)
    assert run_filter(plugin, cluster, make_pod("incoming", requests=requests)) == {
        "node": expected
    }


# TestNotEnoughRequests: the node allows one pod and already runs one.
@pytest.mark.parametrize(
    ("requests", "used"),
    [
        pytest.param({}, {"cpu": 10, "memory": 20}, id="even without specified resources"),
        pytest.param(
            {"cpu": 1, "memory": 1}, {"cpu": 5, "memory": 5}, id="even if both resources fit"
        ),
        pytest.param(
            {"cpu": 5, "memory": 1}, {"cpu": 5, "memory": 19}, id="even for equal edge case"
        ),
    ],
)
def test_not_enough_pod_slots(requests: dict[str, int], used: dict[str, int]) -> None:
    cluster = one_node(used, allocatable={"cpu": 10, "memory": 20, "pods": 1})
    verdict = run_filter(NodeResourcesFit(), cluster, make_pod("incoming", requests=requests))
    assert verdict == {"node": (UNSCHEDULABLE, ("Too many pods",))}


def test_an_unresolvable_shortfall_makes_every_reason_of_the_node_unresolvable() -> None:
    # Upstream keeps all reasons in one status whose code is
    # UnschedulableAndUnresolvable as soon as one request exceeds allocatable.
    cluster = one_node({"cpu": 5, "memory": 5}, allocatable={"cpu": 10, "memory": 20, "pods": 1})
    pod = make_pod("incoming", requests={"cpu": 11, "memory": 16})
    verdict = run_filter(NodeResourcesFit(), cluster, pod)
    assert verdict == {
        "node": (UNRESOLVABLE, ("Too many pods", "Insufficient cpu", "Insufficient memory"))
    }


def gpu_node(name: str, gpus: int = 8) -> Node:
    allocatable: dict[str, int | str] = {"cpu": "64", "memory": "512Gi"}
    if gpus:
        allocatable[GPU] = gpus
    return make_node(name, allocatable=allocatable)


def test_gpu_requests_are_checked_per_node_in_one_call() -> None:
    """Nodes with 0, 4 and 7 of 8 GPUs used, and a CPU-only node, for a 2-GPU pod."""
    nodes = [gpu_node("gpu-free"), gpu_node("gpu-half"), gpu_node("gpu-full"), gpu_node("cpu", 0)]
    cluster = make_cluster(
        nodes,
        {
            "gpu-half": [make_pod("half", requests={GPU: 4})],
            "gpu-full": [make_pod("full", requests={GPU: 7})],
        },
    )
    pod = make_pod("train", requests={"cpu": "8", "memory": "64Gi", GPU: 2})
    assert run_filter(NodeResourcesFit(), cluster, pod) == {
        "gpu-free": None,
        "gpu-half": None,
        # Preemption could free GPUs here...
        "gpu-full": (UNSCHEDULABLE, (f"Insufficient {GPU}",)),
        # ...but not on a node with no GPUs at all.
        "cpu": (UNRESOLVABLE, (f"Insufficient {GPU}",)),
    }


def test_a_resource_no_node_has_is_insufficient_everywhere() -> None:
    cluster = make_cluster([gpu_node("a"), gpu_node("b")])
    pod = make_pod("mig", requests={"nvidia.com/mig-1g.10gb": 1})
    reason = (UNRESOLVABLE, ("Insufficient nvidia.com/mig-1g.10gb",))
    assert run_filter(NodeResourcesFit(), cluster, pod) == {"a": reason, "b": reason}


def test_filter_only_sees_the_nodes_it_is_given() -> None:
    cluster = make_cluster(
        [gpu_node("a"), gpu_node("b"), gpu_node("c")],
        {"b": [make_pod("busy", requests={GPU: 8})]},
    )
    plugin = NodeResourcesFit()
    pod = make_pod("train", requests={GPU: 1})
    state = CycleState()
    plugin.pre_filter(state, pod, cluster)
    nodes = np.array([cluster.node_index["c"], cluster.node_index["b"]], dtype=np.int64)
    result = plugin.filter(state, pod, cluster, nodes)
    assert verdicts(cluster, nodes, result) == {
        "c": None,
        "b": (UNSCHEDULABLE, (f"Insufficient {GPU}",)),
    }


def test_filter_computes_the_request_when_pre_filter_did_not_run() -> None:
    # Upstream returns an error status here; the engine computes the request
    # instead, so a profile that disables the PreFilter still simulates.
    cluster = one_node({"cpu": 10, "memory": 20})
    pod = make_pod("incoming", requests={"cpu": 1})
    result = NodeResourcesFit().filter(CycleState(), pod, cluster, all_nodes(cluster))
    assert verdicts(cluster, all_nodes(cluster), result) == {
        "node": (UNSCHEDULABLE, ("Insufficient cpu",))
    }


def test_the_request_is_computed_once_per_distinct_pod_spec() -> None:
    cluster = one_node({})
    plugin = NodeResourcesFit()
    first = plugin.fit_request(make_pod("a", requests={"cpu": 1, GPU: 1}), cluster)
    second = plugin.fit_request(make_pod("b", requests={"cpu": 1, GPU: 1}), cluster)
    assert first is second
    assert first.reasons == ("Insufficient cpu", f"Insufficient {GPU}")


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(
            NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(type="Bogus")),
            id="unknown strategy",
        ),
        pytest.param(
            NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(resources=())),
            id="no resources",
        ),
    ],
)
def test_invalid_args_are_rejected(args: NodeResourcesFitArgs) -> None:
    with pytest.raises(ValueError):
        NodeResourcesFit(args)
