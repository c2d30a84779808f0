"""Kubernetes objects as the engine sees them.

Only the fields that placement and simulation read are kept, already
validated and in integer base units (cpu in milli, memory and storage in
bytes, extended resources as counts). Ingest builds these; everything else
only reads them. Immutable parts of a pod spec are tuples of frozen
dataclasses so that plugins can use them as cache keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Canonical resource names (upstream v1.ResourceName values).
CPU = "cpu"
MEMORY = "memory"
EPHEMERAL_STORAGE = "ephemeral-storage"
PODS = "pods"
GPU = "nvidia.com/gpu"


@dataclass(frozen=True, slots=True)
class Source:
    """Where an object came from, for error messages and explanations."""

    file: str
    line: int | None = None
    index: int | None = None  # position of the document or list item in the file

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file


@dataclass(frozen=True, slots=True)
class ObjectRef:
    kind: str
    namespace: str | None
    name: str

    def __str__(self) -> str:
        if not self.name:  # configuration documents have no name
            return self.kind
        return (
            f"{self.kind} {self.namespace}/{self.name}"
            if self.namespace
            else f"{self.kind} {self.name}"
        )


# --- selectors -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LabelSelectorRequirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LabelSelector:
    """metav1.LabelSelector. An empty selector matches everything; where the
    API allows a nil selector, callers hold `None`, which matches nothing."""

    match_labels: tuple[tuple[str, str], ...] = ()
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()

    def matches(self, labels: dict[str, str]) -> bool:
        for key, value in self.match_labels:
            if labels.get(key) != value:
                return False
        for req in self.match_expressions:
            present = req.key in labels
            if req.operator == "In":
                if not present or labels[req.key] not in req.values:
                    return False
            elif req.operator == "NotIn":
                if present and labels[req.key] in req.values:
                    return False
            elif req.operator == "Exists":
                if not present:
                    return False
            elif req.operator == "DoesNotExist":
                if present:
                    return False
            else:  # ingest rejects other operators
                return False
        return True

    @property
    def is_empty(self) -> bool:
        return not self.match_labels and not self.match_expressions


@dataclass(frozen=True, slots=True)
class NodeSelectorRequirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist, Gt, Lt
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()  # only key metadata.name


@dataclass(frozen=True, slots=True)
class PreferredSchedulingTerm:
    weight: int
    preference: NodeSelectorTerm


@dataclass(frozen=True, slots=True)
class NodeAffinity:
    # None: no required terms at all; an empty tuple would match no node.
    required: tuple[NodeSelectorTerm, ...] | None = None
    preferred: tuple[PreferredSchedulingTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class PodAffinityTerm:
    topology_key: str
    label_selector: LabelSelector | None = None
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WeightedPodAffinityTerm:
    weight: int
    term: PodAffinityTerm


@dataclass(frozen=True, slots=True)
class PodAffinity:
    """Used for both podAffinity and podAntiAffinity."""

    required: tuple[PodAffinityTerm, ...] = ()
    preferred: tuple[WeightedPodAffinityTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class Affinity:
    node_affinity: NodeAffinity | None = None
    pod_affinity: PodAffinity | None = None
    pod_anti_affinity: PodAffinity | None = None


@dataclass(frozen=True, slots=True)
class Toleration:
    key: str = ""
    operator: str = "Equal"  # Equal or Exists
    value: str = ""
    effect: str = ""  # "" matches every effect
    toleration_seconds: int | None = None

    def tolerates(self, taint: Taint) -> bool:
        """v1.Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go)."""
        if self.effect and self.effect != taint.effect:
            return False
        if self.key and self.key != taint.key:
            return False
        if self.operator == "Exists":
            return True
        if self.operator in ("Equal", ""):
            return self.value == taint.value
        return False


@dataclass(frozen=True, slots=True)
class Taint:
    key: str
    effect: str  # NoSchedule, PreferNoSchedule, NoExecute
    value: str = ""

    def __str__(self) -> str:
        # Upstream's untolerated-taint reason prints "{key: value}".
        return f"{{{self.key}: {self.value}}}"


@dataclass(frozen=True, slots=True)
class TopologySpreadConstraint:
    max_skew: int
    topology_key: str
    when_unsatisfiable: str  # DoNotSchedule or ScheduleAnyway
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: str | None = None  # Honor (default) or Ignore
    node_taints_policy: str | None = None  # Ignore (default) or Honor
    match_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HostPort:
    port: int
    protocol: str = "TCP"
    ip: str = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class OwnerRef:
    kind: str
    name: str
    uid: str = ""


# --- objects ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImageState:
    names: tuple[str, ...]
    size_bytes: int


@dataclass(slots=True)
class Node:
    name: str
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    # status.allocatable, falling back to status.capacity per resource.
    allocatable: dict[str, int] = field(default_factory=dict)
    capacity: dict[str, int] = field(default_factory=dict)
    images: tuple[ImageState, ...] = ()
    source: Source | None = None

    @property
    def ref(self) -> ObjectRef:
        return ObjectRef("Node", None, self.name)


@dataclass(slots=True)
class Pod:
    namespace: str
    name: str
    uid: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    # spec.nodeName: where the pod already runs (snapshot truth) or is pinned.
    node_name: str | None = None
    scheduler_name: str = "default-scheduler"
    priority_class_name: str | None = None
    priority: int = 0
    preemption_policy: str = "PreemptLowerPriority"
    # Upstream PodRequests: max(sum(containers), max(init containers)) with
    # sidecars, plus overhead; limits stand in for missing requests.
    requests: dict[str, int] = field(default_factory=dict)
    # (cpu milli, memory bytes) as scoring sees them: PodRequests with
    # NonMissingContainerRequests, i.e. 100m / 200Mi for each container
    # that sets no request (pkg/scheduler/util/pod_resources.go). None: ingest
    # did not compute it and the pod-level fallback applies.
    nonzero_requests: tuple[int, int] | None = None
    host_ports: tuple[HostPort, ...] = ()
    node_selector: tuple[tuple[str, str], ...] = ()
    affinity: Affinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()
    images: tuple[str, ...] = ()  # init containers first, then containers
    scheduling_gates: tuple[str, ...] = ()
    owner: OwnerRef | None = None
    phase: str = "Pending"
    # Position in the input: upstream's queue timestamp for PrioritySort ties.
    arrival_index: int = 0
    source: Source | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def ref(self) -> ObjectRef:
        return ObjectRef("Pod", self.namespace, self.name)


@dataclass(frozen=True, slots=True)
class PriorityClass:
    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = "PreemptLowerPriority"
    description: str = ""
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class Namespace:
    name: str
    labels: tuple[tuple[str, str], ...] = ()
    source: Source | None = None

    @property
    def label_dict(self) -> dict[str, str]:
        return dict(self.labels)
