"""NodePorts, rows from upstream pkg/scheduler/framework/plugins/nodeports/node_ports_test.go
(TestNodePorts) and the HostPortInfo rules of pkg/scheduler/framework/types.go."""

from __future__ import annotations

import pytest

from engine.config.args import NoArgs
from engine.framework.interface import CycleState
from engine.framework.status import Code
from engine.model.objects import HostPort, Pod
from engine.plugins.nodeports import ERR_REASON, NodePorts
from tests.engine.plugins.builders import make_cluster, make_node, make_pod, run_filter

FAILS = [(ERR_REASON, Code.UNSCHEDULABLE)]


def ports_pod(name: str, *specs: str) -> Pod:
    """Upstream's newPod: each spec is "PROTOCOL/HOST_IP/HOST_PORT"."""
    host_ports = []
    for spec in specs:
        protocol, ip, port = spec.split("/")
        host_ports.append(HostPort(port=int(port), protocol=protocol, ip=ip))
    return make_pod(name, host_ports=host_ports)


@pytest.mark.parametrize(
    ("wanted", "in_use", "want"),
    [
        pytest.param(["UDP/127.0.0.1/8080"], ["UDP/127.0.0.1/9090"], None, id="other port"),
        pytest.param(["UDP/127.0.0.1/8080"], ["UDP/127.0.0.1/8080"], FAILS, id="same udp port"),
        pytest.param(["TCP/127.0.0.1/8080"], ["TCP/127.0.0.1/8080"], FAILS, id="same tcp port"),
        pytest.param(["TCP/127.0.0.1/8080"], ["TCP/127.0.0.2/8080"], None, id="different host ip"),
        pytest.param(["UDP/127.0.0.1/8080"], ["TCP/127.0.0.1/8080"], None, id="different protocol"),
        pytest.param(
            ["UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"],
            ["UDP/127.0.0.1/8080"],
            FAILS,
            id="second udp port conflict",
        ),
        pytest.param(
            ["TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"],
            ["TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"],
            FAILS,
            id="first tcp port conflict",
        ),
        pytest.param(
            ["TCP/0.0.0.0/8001"],
            ["TCP/127.0.0.1/8001"],
            FAILS,
            id="first tcp port conflict due to 0.0.0.0 hostIP",
        ),
        pytest.param(
            ["TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"],
            ["TCP/127.0.0.1/8001"],
            FAILS,
            id="TCP hostPort conflict due to 0.0.0.0 hostIP",
        ),
        pytest.param(
            ["TCP/127.0.0.1/8001"],
            ["TCP/0.0.0.0/8001"],
            FAILS,
            id="second tcp port conflict to 0.0.0.0 hostIP",
        ),
        pytest.param(
            ["UDP/127.0.0.1/8001"], ["TCP/0.0.0.0/8001"], None, id="second different protocol"
        ),
        pytest.param(
            ["UDP/127.0.0.1/8001"],
            ["TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"],
            FAILS,
            id="UDP hostPort conflict due to 0.0.0.0 hostIP",
        ),
        pytest.param(["/127.0.0.1/8001"], ["TCP//8001"], FAILS, id="empty means TCP and 0.0.0.0"),
    ],
)
def test_filter(wanted: list[str], in_use: list[str], want: object) -> None:
    cluster = make_cluster([make_node("m1")], {"m1": [ports_pod("existing", *in_use)]})
    failed = run_filter(NodePorts(NoArgs()), ports_pod("incoming", *wanted), cluster)
    assert failed.get("m1") == want


@pytest.mark.parametrize(
    "pod",
    [
        pytest.param(make_pod(), id="upstream: skip filter without ports"),
        pytest.param(make_pod(host_ports=[HostPort(port=0)]), id="port 0 is no host port"),
    ],
)
def test_pre_filter_skips_pods_without_host_ports(pod: Pod) -> None:
    cluster = make_cluster([make_node("m1")])
    status, result = NodePorts(NoArgs()).pre_filter(CycleState(), pod, cluster)
    assert status.code == Code.SKIP
    assert result is None


def test_conflicts_follow_placements_and_removals() -> None:
    existing = ports_pod("existing", "TCP/0.0.0.0/8080")
    cluster = make_cluster([make_node("a"), make_node("b"), make_node("c")], {"b": [existing]})
    plugin = NodePorts(NoArgs())
    incoming = ports_pod("incoming", "TCP/10.0.0.1/8080")
    assert set(run_filter(plugin, incoming, cluster)) == {"b"}

    cluster.add_pod(ports_pod("later", "TCP/10.0.0.1/8080"), cluster.node_index["c"])
    assert set(run_filter(plugin, incoming, cluster)) == {"b", "c"}

    cluster.remove_pod(existing)
    assert set(run_filter(plugin, incoming, cluster)) == {"c"}
