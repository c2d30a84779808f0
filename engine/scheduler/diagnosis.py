"""Why nodes were rejected, aggregated into kube-scheduler's FitError message.

Follows pkg/scheduler/framework/types.go (FitError.Error): each reason is
counted once per node that carries it, the "<count> <reason>" strings are
sorted as strings, and nodes the cycle never looked at (a PreFilter that
narrowed the node set) count under the absent-nodes status.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from engine.framework.interface import IntArray
from engine.framework.status import Code

NO_NODE_AVAILABLE = "0/{} nodes are available"


@dataclass(slots=True)
class RejectedNodes:
    """Nodes that one plugin rejected for one reason."""

    nodes: IntArray
    plugin: str
    reason: str
    code: Code


@dataclass(slots=True)
class Diagnosis:
    rejected: list[RejectedNodes] = field(default_factory=list)
    pre_filter_message: str = ""
    absent_reason: str = ""  # status of nodes outside a PreFilterResult
    absent_count: int = 0
    unschedulable_plugins: set[str] = field(default_factory=set)

    def reject(self, nodes: IntArray, plugin: str, reason: str, code: Code) -> None:
        if len(nodes):
            self.rejected.append(RejectedNodes(nodes, plugin, reason, code))
            self.unschedulable_plugins.add(plugin)

    def rejected_node_count(self) -> int:
        if not self.rejected:
            return 0
        return len(np.unique(np.concatenate([r.nodes for r in self.rejected])))

    def fit_error(self, num_all_nodes: int) -> str:
        message = NO_NODE_AVAILABLE.format(num_all_nodes) + ":"
        if self.pre_filter_message:
            return message + f" {self.pre_filter_message}."
        counts: Counter[str] = Counter()
        for rejected in self.rejected:
            counts[rejected.reason] += len(rejected.nodes)
        if self.absent_reason and self.absent_count:
            counts[self.absent_reason] += self.absent_count
        histogram = sorted(f"{count} {reason}" for reason, count in counts.items())
        if histogram:
            message += " " + ", ".join(histogram) + "."
        return message
