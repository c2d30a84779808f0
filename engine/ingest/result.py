"""What ingest hands to the rest of the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.ingest.fields import IngestError, LineMap
from engine.model.objects import (
    LabelSelector,
    Namespace,
    Node,
    ObjectRef,
    Pod,
    PriorityClass,
    Source,
)

BUILT_IN = Source("<built-in>")  # the source of objects every cluster has


@dataclass(frozen=True, slots=True)
class Controller:
    """An object whose selector PodTopologySpread's system defaults use
    (Service, ReplicationController, ReplicaSet, StatefulSet)."""

    kind: str
    namespace: str
    name: str
    selector: LabelSelector


@dataclass(slots=True)
class NotSimulated:
    """A recognised object that the engine does not act on (yet)."""

    kind: str
    api_version: str
    namespace: str | None
    name: str
    source: Source
    note: str

    def __str__(self) -> str:
        ref = ObjectRef(self.kind, self.namespace, self.name) if self.name else self.kind
        return f"{self.source}: {ref}: {self.note}"


@dataclass(slots=True)
class PrioritySite:
    """Where pods name (or omit) a PriorityClass: one pod, or every pod made
    from one workload template, so a bad name is reported once."""

    pods: list[Pod]
    file: str
    lines: LineMap | None  # dropped once ingest finishes; `line` keeps what was needed
    line: int | None
    obj: ObjectRef
    field: str
    class_name: str | None
    spec_priority: int | None
    spec_preemption_policy: str | None


@dataclass
class IngestResult:
    nodes: list[Node] = field(default_factory=list)
    pods: list[Pod] = field(default_factory=list)  # arrival_index = position here
    priority_classes: list[PriorityClass] = field(default_factory=list)
    namespaces: list[Namespace] = field(default_factory=list)
    controllers: list[Controller] = field(default_factory=list)
    # Raw KubeSchedulerConfiguration documents for the config loader.
    scheduler_configs: list[tuple[dict[str, Any], Source]] = field(default_factory=list)
    # Their field lines, for the config loader's errors: config_lines(source).
    scheduler_config_lines: dict[Source, LineMap] = field(default_factory=dict, repr=False)
    not_simulated: list[NotSimulated] = field(default_factory=list)
    errors: list[IngestError] = field(default_factory=list)
    skipped_terminal: int = 0  # Succeeded/Failed pods: the scheduler cache ignores them
    priority_sites: list[PrioritySite] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    def config_lines(self, source: Source) -> LineMap | None:
        """The LineMap of the scheduler configuration read from `source`."""
        return self.scheduler_config_lines.get(source)

    def merge(self, other: IngestResult) -> IngestResult:
        """Append `other` (read after self) and redo the checks that span
        files: generated pods whose real ones arrived, arrival order,
        duplicates and priorities. Returns self."""
        from engine.ingest.loader import finish  # loader imports this module

        self.nodes.extend(other.nodes)
        self.pods.extend(other.pods)
        self.priority_classes.extend(pc for pc in other.priority_classes if pc.source != BUILT_IN)
        self.namespaces.extend(other.namespaces)
        self.controllers.extend(other.controllers)
        self.scheduler_configs.extend(other.scheduler_configs)
        self.scheduler_config_lines.update(other.scheduler_config_lines)
        self.not_simulated.extend(other.not_simulated)
        self.errors.extend(other.errors)
        self.skipped_terminal += other.skipped_terminal
        self.priority_sites.extend(other.priority_sites)
        finish(self)
        return self
