"""NodeName: a pod with spec.nodeName fits only the node of that name.

Follows pkg/scheduler/framework/plugins/nodename/node_name.go (Filter only;
upstream has no PreFilter for it). The engine treats pods with spec.nodeName
as already bound, so this matters for explanations and for completeness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.config.args import NoArgs
from engine.framework.interface import CycleState, FilterPlugin, FilterResult, IntArray
from engine.framework.status import Code

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

ERR_REASON = "node(s) didn't match the requested node name"


class NodeName(FilterPlugin):
    name: ClassVar[str] = "NodeName"
    node_local: ClassVar[bool] = True
    reads_placed_pods: ClassVar[bool] = False

    def __init__(self, args: NoArgs) -> None:
        pass

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        result = FilterResult()
        if pod.node_name:
            # -1 when no node has that name: then every node fails.
            wanted = cluster.node_index.get(pod.node_name, -1)
            result.add(nodes != wanted, ERR_REASON, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
        return result
