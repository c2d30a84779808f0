"""Typed plugin arguments (kubescheduler.config.k8s.io/v1 *Args), with upstream defaults.

The KubeSchedulerConfiguration loader builds these from `pluginConfig`,
applying the defaults of pkg/scheduler/apis/config/v1/defaults.go and the
checks of pkg/scheduler/apis/config/validation/validation_pluginargs.go.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.model.objects import NodeAffinity, TopologySpreadConstraint

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    name: str
    weight: int = 1


@dataclass(frozen=True, slots=True)
class UtilizationShapePoint:
    utilization: int  # 0..100
    score: int  # 0..10 (MaxCustomPriorityScore)


DEFAULT_RESOURCES = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))


@dataclass(frozen=True, slots=True)
class ScoringStrategy:
    type: str = LEAST_ALLOCATED
    resources: tuple[ResourceSpec, ...] = DEFAULT_RESOURCES
    shape: tuple[UtilizationShapePoint, ...] = ()  # RequestedToCapacityRatio only


@dataclass(frozen=True, slots=True)
class NodeResourcesFitArgs:
    ignored_resources: tuple[str, ...] = ()
    ignored_resource_groups: tuple[str, ...] = ()
    scoring_strategy: ScoringStrategy = field(default_factory=ScoringStrategy)


@dataclass(frozen=True, slots=True)
class NodeResourcesBalancedAllocationArgs:
    resources: tuple[ResourceSpec, ...] = DEFAULT_RESOURCES


@dataclass(frozen=True, slots=True)
class NodeAffinityArgs:
    added_affinity: NodeAffinity | None = None


@dataclass(frozen=True, slots=True)
class InterPodAffinityArgs:
    hard_pod_affinity_weight: int = 1
    ignore_preferred_terms_of_existing_pods: bool = False


SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"


@dataclass(frozen=True, slots=True)
class PodTopologySpreadArgs:
    default_constraints: tuple[TopologySpreadConstraint, ...] = ()
    defaulting_type: str = SYSTEM_DEFAULTING


@dataclass(frozen=True, slots=True)
class DefaultPreemptionArgs:
    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100


@dataclass(frozen=True, slots=True)
class NoArgs:
    """For plugins that take no arguments."""
