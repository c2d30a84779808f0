"""NodeUnschedulable: keep pods off cordoned nodes.

Follows pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go:
a node with spec.unschedulable fails unless the pod tolerates the taint
node.kubernetes.io/unschedulable:NoSchedule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.config.args import NoArgs
from engine.framework.interface import CycleState, FilterPlugin, FilterResult, IntArray
from engine.framework.status import Code
from engine.model.objects import Taint, Toleration

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState
    from engine.model.objects import Pod

ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"

# v1.TaintNodeUnschedulable with the effect the plugin checks.
UNSCHEDULABLE_TAINT = Taint(key="node.kubernetes.io/unschedulable", effect="NoSchedule")


class NodeUnschedulable(FilterPlugin):
    name: ClassVar[str] = "NodeUnschedulable"
    node_local: ClassVar[bool] = True
    reads_placed_pods: ClassVar[bool] = False

    def __init__(self, args: NoArgs) -> None:
        self._tolerates: dict[tuple[Toleration, ...], bool] = {}

    def _tolerates_unschedulable(self, tolerations: tuple[Toleration, ...]) -> bool:
        tolerated = self._tolerates.get(tolerations)
        if tolerated is None:
            tolerated = any(t.tolerates(UNSCHEDULABLE_TAINT) for t in tolerations)
            self._tolerates[tolerations] = tolerated
        return tolerated

    def filter(
        self, state: CycleState, pod: Pod, cluster: ClusterState, nodes: IntArray
    ) -> FilterResult:
        result = FilterResult()
        if not self._tolerates_unschedulable(pod.tolerations):
            # Read live: a simulation may cordon or uncordon nodes.
            result.add(
                cluster.unschedulable[nodes],
                ERR_REASON_UNSCHEDULABLE,
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            )
        return result
