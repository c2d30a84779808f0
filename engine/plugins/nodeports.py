"""NodePorts: a pod's host ports must be free on the node.

Follows pkg/scheduler/framework/plugins/nodeports/node_ports.go and the
HostPortInfo rules of pkg/scheduler/framework/types.go:
- an empty host IP means 0.0.0.0 and an empty protocol means TCP;
- ports <= 0 are no host ports;
- a wanted 0.0.0.0 port conflicts with that protocol+port on any IP in use;
  a wanted specific IP conflicts with the same IP or with 0.0.0.0.
PreFilter returns Skip for pods without host ports.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from engine.config.args import NoArgs
from engine.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterResult,
    IntArray,
    PreFilterPlugin,
    PreFilterResult,
)
from engine.framework.status import Status
from engine.plugins.nodeselector import cluster_cache

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import HostPort, Pod

ERR_REASON = "node(s) didn't have free ports for the requested pod ports"
DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"

# (ip, protocol, port) after HostPortInfo.sanitize.
PortKey = tuple[str, str, int]


def sanitized_ports(ports: tuple[HostPort, ...]) -> tuple[PortKey, ...]:
    """The pod's host ports as HostPortInfo stores them."""
    return tuple(
        (p.ip or DEFAULT_BIND_ALL_HOST_IP, p.protocol or "TCP", p.port) for p in ports if p.port > 0
    )


class HostPortIndex:
    """Which nodes use each (protocol, port), and on which IPs.

    Follows placements as a ClusterState listener, so that a Filter call
    looks only at the nodes using the wanted ports instead of every node.
    """

    def __init__(self) -> None:
        # (protocol, port) -> node -> Counter of IPs (a count per pod using it).
        self.users: dict[tuple[str, int], dict[int, Counter[str]]] = {}

    def on_pod_added(self, pod: Pod, node: int) -> None:
        for ip, protocol, port in sanitized_ports(pod.host_ports):
            self.users.setdefault((protocol, port), {}).setdefault(node, Counter())[ip] += 1

    def on_pod_removed(self, pod: Pod, node: int) -> None:
        for ip, protocol, port in sanitized_ports(pod.host_ports):
            nodes = self.users.get((protocol, port), {})
            ips = nodes.get(node)
            if ips is None:
                continue
            ips[ip] -= 1
            if ips[ip] <= 0:
                del ips[ip]
            if not ips:
                del nodes[node]

    def conflicting_nodes(self, wanted: tuple[PortKey, ...]) -> set[int]:
        """Nodes where any wanted port conflicts (HostPortInfo.CheckConflict)."""
        conflicts: set[int] = set()
        for ip, protocol, port in wanted:
            for node, ips in self.users.get((protocol, port), {}).items():
                if ip == DEFAULT_BIND_ALL_HOST_IP or DEFAULT_BIND_ALL_HOST_IP in ips or ip in ips:
                    conflicts.add(node)
        return conflicts


def host_port_index(cluster: ClusterState) -> HostPortIndex:
    """The cluster's HostPortIndex, created and attached on first use."""
    cache = cluster_cache(cluster, "nodeports")
    index: HostPortIndex | None = cache.get("index")
    if index is None:
        index = HostPortIndex()
        cluster.add_listener(index)
        cache["index"] = index
    return index


class NodePorts(PreFilterPlugin, FilterPlugin):
    name: ClassVar[str] = "NodePorts"
    node_local: ClassVar[bool] = True

    def __init__(self, args: NoArgs) -> None:
        self._wanted: dict[tuple[HostPort, ...], tuple[PortKey, ...]] = {}

    def pre_filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState
    ) -> tuple[Status, PreFilterResult | None]:
        wanted = self._wanted.get(pod.host_ports)
        if wanted is None:
            wanted = sanitized_ports(pod.host_ports)
            self._wanted[pod.host_ports] = wanted
        if not wanted:
            return Status.skip(self.name), None
        state[self.name] = wanted
        return Status.success(), None

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        wanted = state.get(self.name)
        if wanted is None:  # PreFilter did not run; upstream would error, we recompute.
            wanted = sanitized_ports(pod.host_ports)
        result = FilterResult()
        if wanted:
            conflicts = host_port_index(cluster).conflicting_nodes(wanted)
            if conflicts:
                conflict_nodes = np.fromiter(conflicts, dtype=np.int64, count=len(conflicts))
                result.add(np.isin(nodes, conflict_nodes), ERR_REASON)
        return result
