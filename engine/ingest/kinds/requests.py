"""A pod's resource requests as the scheduler counts them.

Follows k8s.io/component-helpers/resource/helpers.go (PodRequests,
AggregateContainerRequests, applyNonMissing) and the scheduler's
calculateResource / getNonMissingContainerRequests in
pkg/scheduler/framework/types.go:

1. each container's requests, with limits standing in for missing requests
   (API defaulting, SetDefaults_Pod);
2. the sum over regular containers, plus every restartable init container
   (a sidecar, restartPolicy: Always);
3. the max of that with each init container's peak: a regular init
   container's request plus the sidecars started before it, or a sidecar's
   running total;
4. pod-level spec.resources.requests replace cpu, memory and hugepages-*;
5. plus spec.overhead.

Amounts are integer nano-units (every parsed quantity is a whole number of
nanos), summed exactly and converted once at the end, as upstream sums
Quantities and then takes MilliValue/Value.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.model.objects import CPU, MEMORY

NANOS_PER_UNIT = 10**9
NANOS_PER_MILLI = 10**6
# pkg/scheduler/util/pod_resources.go
DEFAULT_MILLI_CPU_REQUEST = 100
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024
HUGEPAGES_PREFIX = "hugepages-"

ResourceNanos = dict[str, int]


@dataclass(frozen=True, slots=True)
class ContainerRequests:
    """One container's requests after API defaulting, in nanos."""

    requests: ResourceNanos
    restartable: bool = False  # an init container with restartPolicy: Always


def is_pod_level_resource(name: str) -> bool:
    """IsSupportedPodLevelResource: cpu, memory and hugepages-*."""
    return name in (CPU, MEMORY) or name.startswith(HUGEPAGES_PREFIX)


def _add(into: ResourceNanos, other: ResourceNanos) -> None:
    for name, amount in other.items():
        into[name] = into.get(name, 0) + amount


def _max_into(into: ResourceNanos, other: ResourceNanos) -> None:
    for name, amount in other.items():
        if name not in into or amount > into[name]:
            into[name] = amount


def _non_missing(requests: ResourceNanos, defaults: ResourceNanos | None) -> ResourceNanos:
    """applyNonMissing: defaults only for resources the container leaves unset
    (an explicit 0 stays 0)."""
    if not defaults:
        return requests
    filled = dict(requests)
    for name, amount in defaults.items():
        if name not in requests:
            filled[name] = amount
    return filled


def aggregate_container_requests(
    containers: list[ContainerRequests],
    init_containers: list[ContainerRequests],
    non_missing: ResourceNanos | None = None,
) -> ResourceNanos:
    result: ResourceNanos = {}
    for container in containers:
        _add(result, _non_missing(container.requests, non_missing))
    sidecars: ResourceNanos = {}
    init_peak: ResourceNanos = {}
    for container in init_containers:
        requests = _non_missing(container.requests, non_missing)
        if container.restartable:
            _add(result, requests)
            _add(sidecars, requests)
            in_use = sidecars
        else:
            in_use = dict(requests)
            _add(in_use, sidecars)
        _max_into(init_peak, in_use)
    _max_into(result, init_peak)
    return result


def pod_requests(
    containers: list[ContainerRequests],
    init_containers: list[ContainerRequests],
    overhead: ResourceNanos,
    pod_level: ResourceNanos,
    non_missing: ResourceNanos | None = None,
) -> ResourceNanos:
    """PodRequests in nanos. `pod_level` is spec.resources.requests after defaulting."""
    result = aggregate_container_requests(containers, init_containers, non_missing)
    for name, amount in pod_level.items():
        if is_pod_level_resource(name):
            result[name] = amount
    _add(result, overhead)
    return result


def default_pod_level_requests(
    containers: list[ContainerRequests],
    init_containers: list[ContainerRequests],
    pod_requests_set: ResourceNanos,
    pod_limits: ResourceNanos,
) -> ResourceNanos:
    """defaultPodRequests (pkg/apis/core/v1/defaults.go): with pod-level
    limits, a missing pod-level request takes the containers' aggregate
    request, or else the pod-level limit."""
    if not pod_limits:
        return pod_requests_set
    filled = dict(pod_requests_set)
    for name, amount in aggregate_container_requests(containers, init_containers).items():
        if name not in filled and name in (CPU, MEMORY):
            filled[name] = amount
    for name, amount in pod_limits.items():
        if name not in filled and name in (CPU, MEMORY):
            filled[name] = amount
    return filled


def _ceil_div(value: int, unit: int) -> int:
    """Round away from zero, as Quantity.ScaledValue does."""
    magnitude = -(-abs(value) // unit)
    return magnitude if value >= 0 else -magnitude


def to_base_units(nanos: ResourceNanos) -> dict[str, int]:
    """cpu in milli (MilliValue), everything else in units (Value)."""
    return {
        name: _ceil_div(amount, NANOS_PER_MILLI if name == CPU else NANOS_PER_UNIT)
        for name, amount in nanos.items()
    }


def scheduler_requests(
    containers: list[ContainerRequests],
    init_containers: list[ContainerRequests],
    overhead: ResourceNanos,
    pod_level: ResourceNanos,
) -> tuple[dict[str, int], tuple[int, int]]:
    """(PodRequests in base units, (non-zero cpu milli, non-zero memory bytes))
    as the scheduler's calculateResource computes them."""
    requests = pod_requests(containers, init_containers, overhead, pod_level)
    pod_level_set = any(is_pod_level_resource(name) for name in pod_level)
    defaults: ResourceNanos = {}
    if not pod_level_set or CPU not in requests:
        defaults[CPU] = DEFAULT_MILLI_CPU_REQUEST * NANOS_PER_MILLI
    if not pod_level_set or MEMORY not in requests:
        defaults[MEMORY] = DEFAULT_MEMORY_REQUEST * NANOS_PER_UNIT
    non_zero = requests
    if defaults:
        non_zero = pod_requests(containers, init_containers, overhead, pod_level, defaults)
    return to_base_units(requests), (
        _ceil_div(non_zero.get(CPU, 0), NANOS_PER_MILLI),
        _ceil_div(non_zero.get(MEMORY, 0), NANOS_PER_UNIT),
    )
