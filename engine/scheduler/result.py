"""What one scheduling attempt decided, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.model.objects import Pod

SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
SCHEDULING_GATED = "SchedulingGated"
NO_SCHEDULER = "NoScheduler"


@dataclass(slots=True)
class FilterVerdict:
    plugin: str
    reasons: tuple[str, ...]

    def as_json(self) -> dict[str, str]:
        return {"plugin": self.plugin, "reason": ", ".join(self.reasons)}


@dataclass(slots=True)
class NodeExplanation:
    """One evaluated node: its filter verdict, and scores if it was feasible."""

    filter: FilterVerdict | None = None  # None: passed every filter
    scores: dict[str, int] = field(default_factory=dict)  # normalized, before weight
    total: int | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"filter": "passed" if self.filter is None else self.filter.as_json()}
        if self.total is not None:
            out["scores"] = dict(self.scores)
            out["total"] = self.total
        return out


@dataclass(slots=True)
class PodResult:
    pod: Pod
    status: str
    node: str | None = None
    message: str = ""
    unschedulable_plugins: tuple[str, ...] = ()
    victims: list[str] = field(default_factory=list)
    gpus: list[int] = field(default_factory=list)
    evaluated_nodes: int = 0
    feasible_nodes: int = 0
    attempts: int = 1
    explain: dict[str, NodeExplanation] | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pod": self.pod.key,
            "node": self.node,
            "status": self.status,
            "message": self.message,
            "victims": list(self.victims),
            "gpus": list(self.gpus),
            "priority": self.pod.priority,
            "scheduler": self.pod.scheduler_name,
            "evaluated_nodes": self.evaluated_nodes,
            "feasible_nodes": self.feasible_nodes,
            "attempts": self.attempts,
        }
        if self.explain is not None:
            out["explain"] = {"nodes": {n: e.as_json() for n, e in self.explain.items()}}
        return out
