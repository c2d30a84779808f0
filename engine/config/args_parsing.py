"""pluginConfig args -> typed args, as kube-scheduler decodes, defaults and checks them.

Decoding is strict, as upstream's scheme decodes nested plugin args
(staging/src/k8s.io/kube-scheduler/config/v1/types.go decodeNestedObjects):
an unknown field is an error. Defaults follow SetDefaults_*Args in
pkg/scheduler/apis/config/v1/defaults.go; the checks and their messages
follow pkg/scheduler/apis/config/validation/validation_pluginargs.go.

Only plugins with an `<Name>Args` kind in v1 have their args decoded;
args given to any other plugin are not read (upstream keeps them opaque).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.config import args as a
from engine.config.defaults import API_VERSION
from engine.ingest.fields import (
    Ctx,
    as_bool,
    as_int,
    as_list,
    as_map,
    as_str,
    as_str_list,
    check_label_name,
    child,
    duplicate,
    forbidden,
    index,
    invalid,
    parse_node_affinity,
    parse_topology_spread_constraints,
    required,
    unsupported,
)

_TYPE_META = ("apiVersion", "kind")
SCORING_STRATEGY_TYPES = (a.LEAST_ALLOCATED, a.MOST_ALLOCATED, a.REQUESTED_TO_CAPACITY_RATIO)
DEFAULTING_TYPES = (a.SYSTEM_DEFAULTING, a.LIST_DEFAULTING)
MAX_CUSTOM_PRIORITY_SCORE = 10  # config.MaxCustomPriorityScore, the top of a shape's y axis


def check_known_fields(raw: dict[str, Any], known: Iterable[str], ctx: Ctx, path: str) -> None:
    """Strict decoding: every field must be one the Go struct has."""
    allowed = tuple(known)
    for name in raw:
        if str(name) not in allowed:
            ctx.error(
                child(path, str(name)),
                f'unknown field "{name}" (known fields: {", ".join(allowed)})',
            )


def parse_plugin_args(plugin: str, data: Any, ctx: Ctx, path: str) -> Any | None:
    """Typed, defaulted and checked args for `plugin`; None if v1 has no args kind for it.

    `path` names the args object (`profiles[0].pluginConfig[2].args`).
    """
    parser = _PARSERS.get(plugin)
    if parser is None:
        return None
    raw = as_map(data, ctx, path)
    _check_type_meta(plugin, raw, ctx, path)
    body = {k: v for k, v in raw.items() if k not in _TYPE_META}
    return parser(body, ctx, path)


def has_args_kind(plugin: str) -> bool:
    return plugin in _PARSERS


def _check_type_meta(plugin: str, raw: dict[str, Any], ctx: Ctx, path: str) -> None:
    """Args may name their own kind; it has to be the plugin's (decodeNestedObjects)."""
    kind = raw.get("kind")
    if kind is not None and kind != f"{plugin}Args":
        ctx.error(
            child(path, "kind"),
            invalid(kind, f"args for plugin {plugin} must be of kind {plugin}Args"),
        )
    api_version = raw.get("apiVersion")
    if api_version is not None and api_version != API_VERSION:
        ctx.error(child(path, "apiVersion"), unsupported(api_version, [API_VERSION]))


# --- NodeResourcesFit -----------------------------------------------------------------


def _parse_fit_args(raw: dict[str, Any], ctx: Ctx, path: str) -> a.NodeResourcesFitArgs:
    """NodeResourcesFitArgs: SetDefaults_NodeResourcesFitArgs + ValidateNodeResourcesFitArgs."""
    check_known_fields(
        raw, ("ignoredResources", "ignoredResourceGroups", "scoringStrategy"), ctx, path
    )
    res_path = child(path, "ignoredResources")
    ignored = as_str_list(raw.get("ignoredResources"), ctx, res_path)
    for i, name in enumerate(ignored):
        check_label_name(name, ctx, index(res_path, i))
    group_path = child(path, "ignoredResourceGroups")
    groups = as_str_list(raw.get("ignoredResourceGroups"), ctx, group_path)
    for i, group in enumerate(groups):
        if "/" in group:
            ctx.error(index(group_path, i), invalid(group, "resource group name can't contain '/'"))
        check_label_name(group, ctx, index(group_path, i))
    strategy = _parse_scoring_strategy(
        raw.get("scoringStrategy"), ctx, child(path, "scoringStrategy")
    )
    return a.NodeResourcesFitArgs(
        ignored_resources=ignored, ignored_resource_groups=groups, scoring_strategy=strategy
    )


def _parse_scoring_strategy(data: Any, ctx: Ctx, path: str) -> a.ScoringStrategy:
    if data is None:
        return a.ScoringStrategy()  # LeastAllocated over cpu and memory, weight 1 each
    raw = as_map(data, ctx, path)
    check_known_fields(raw, ("type", "resources", "requestedToCapacityRatio"), ctx, path)
    # No default for the type once a strategy is given: an empty type is rejected.
    strategy_type = as_str(raw.get("type"), ctx, child(path, "type"))
    resources = _parse_resources(raw.get("resources"), ctx, child(path, "resources"))
    if strategy_type not in SCORING_STRATEGY_TYPES:
        ctx.error(child(path, "type"), unsupported(strategy_type, SCORING_STRATEGY_TYPES))
    for i, res in enumerate(resources):
        if res.weight <= 0 or res.weight > 100:
            ctx.error(
                child(index(child(path, "resources"), i), "weight"),
                invalid(res.weight, f"resource weight of {res.name} not in valid range (0, 100]"),
            )
    shape: tuple[a.UtilizationShapePoint, ...] = ()
    ratio_path = child(path, "requestedToCapacityRatio")
    ratio = raw.get("requestedToCapacityRatio")
    if strategy_type == a.REQUESTED_TO_CAPACITY_RATIO:
        if ratio is None:
            ctx.error(
                ratio_path, required("must be specified when type is RequestedToCapacityRatio")
            )
        else:
            ratio_raw = as_map(ratio, ctx, ratio_path)
            check_known_fields(ratio_raw, ("shape",), ctx, ratio_path)
            shape = _parse_shape(ratio_raw.get("shape"), ctx, child(ratio_path, "shape"))
    elif ratio is not None:
        ctx.error(ratio_path, forbidden("must be nil when type is not RequestedToCapacityRatio"))
    return a.ScoringStrategy(type=strategy_type, resources=resources, shape=shape)


def _parse_resources(data: Any, ctx: Ctx, path: str) -> tuple[a.ResourceSpec, ...]:
    """[]ResourceSpec; an empty list becomes cpu and memory, and weight 0 becomes 1."""
    specs: list[a.ResourceSpec] = []
    for i, item in enumerate(as_list(data, ctx, path)):
        item_path = index(path, i)
        raw = as_map(item, ctx, item_path)
        check_known_fields(raw, ("name", "weight"), ctx, item_path)
        name = as_str(raw.get("name"), ctx, child(item_path, "name"))
        weight = as_int(raw.get("weight"), ctx, child(item_path, "weight"), 0) or 0
        specs.append(a.ResourceSpec(name, weight if weight != 0 else 1))
    return tuple(specs) if specs else a.DEFAULT_RESOURCES


def _parse_shape(data: Any, ctx: Ctx, path: str) -> tuple[a.UtilizationShapePoint, ...]:
    """validateFunctionShape: sorted utilizations in [0, 100], scores in [0, 10]."""
    points: list[a.UtilizationShapePoint] = []
    for i, item in enumerate(as_list(data, ctx, path)):
        item_path = index(path, i)
        raw = as_map(item, ctx, item_path)
        check_known_fields(raw, ("utilization", "score"), ctx, item_path)
        utilization = as_int(raw.get("utilization"), ctx, child(item_path, "utilization"), 0) or 0
        score = as_int(raw.get("score"), ctx, child(item_path, "score"), 0) or 0
        points.append(a.UtilizationShapePoint(utilization, score))
    if not points:
        ctx.error(path, required("at least one point must be specified"))
        return ()
    for i in range(1, len(points)):
        if points[i - 1].utilization >= points[i].utilization:
            ctx.error(
                child(index(path, i), "utilization"),
                invalid(points[i].utilization, "values must be sorted in increasing order"),
            )
            break
    for i, point in enumerate(points):
        if not 0 <= point.utilization <= 100:
            ctx.error(
                child(index(path, i), "utilization"),
                invalid(point.utilization, "not in valid range [0, 100]"),
            )
        if not 0 <= point.score <= MAX_CUSTOM_PRIORITY_SCORE:
            ctx.error(
                child(index(path, i), "score"),
                invalid(point.score, f"not in valid range [0, {MAX_CUSTOM_PRIORITY_SCORE}]"),
            )
    return tuple(points)


# --- NodeResourcesBalancedAllocation -----------------------------------------------------


def _parse_balanced_allocation_args(
    raw: dict[str, Any], ctx: Ctx, path: str
) -> a.NodeResourcesBalancedAllocationArgs:
    """Every resource weighs 1 here: the score is a standard deviation of fractions."""
    check_known_fields(raw, ("resources",), ctx, path)
    res_path = child(path, "resources")
    resources = _parse_resources(raw.get("resources"), ctx, res_path)
    seen: set[str] = set()
    for i, res in enumerate(resources):
        if res.name in seen:
            ctx.error(child(index(res_path, i), "name"), duplicate(res.name))
        seen.add(res.name)
        if res.weight != 1:
            ctx.error(child(index(res_path, i), "weight"), invalid(res.weight, "must be 1"))
    return a.NodeResourcesBalancedAllocationArgs(resources=resources)


# --- NodeAffinity, InterPodAffinity, PodTopologySpread -----------------------------------


def _parse_node_affinity_args(raw: dict[str, Any], ctx: Ctx, path: str) -> a.NodeAffinityArgs:
    check_known_fields(raw, ("addedAffinity",), ctx, path)
    added = parse_node_affinity(raw.get("addedAffinity"), ctx, child(path, "addedAffinity"))
    return a.NodeAffinityArgs(added_affinity=added)


def _parse_inter_pod_affinity_args(
    raw: dict[str, Any], ctx: Ctx, path: str
) -> a.InterPodAffinityArgs:
    check_known_fields(
        raw, ("hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"), ctx, path
    )
    weight_path = child(path, "hardPodAffinityWeight")
    weight = as_int(raw.get("hardPodAffinityWeight"), ctx, weight_path, 1)
    weight = 1 if weight is None else weight
    if not 0 <= weight <= 100:
        ctx.error(weight_path, invalid(weight, "not in valid range [0, 100]"))
    ignore = as_bool(
        raw.get("ignorePreferredTermsOfExistingPods"),
        ctx,
        child(path, "ignorePreferredTermsOfExistingPods"),
    )
    return a.InterPodAffinityArgs(
        hard_pod_affinity_weight=weight, ignore_preferred_terms_of_existing_pods=ignore
    )


def _parse_pod_topology_spread_args(
    raw: dict[str, Any], ctx: Ctx, path: str
) -> a.PodTopologySpreadArgs:
    """ValidatePodTopologySpreadArgs: the pod-spec rules, no selector, List to use them."""
    check_known_fields(raw, ("defaultConstraints", "defaultingType"), ctx, path)
    type_path = child(path, "defaultingType")
    defaulting = as_str(raw.get("defaultingType"), ctx, type_path) or a.SYSTEM_DEFAULTING
    constraints_path = child(path, "defaultConstraints")
    constraints = parse_topology_spread_constraints(
        raw.get("defaultConstraints"), ctx, constraints_path
    )
    if defaulting not in DEFAULTING_TYPES:
        ctx.error(type_path, unsupported(defaulting, DEFAULTING_TYPES))
    elif defaulting == a.SYSTEM_DEFAULTING and constraints:
        ctx.error(type_path, invalid(defaulting, "when .defaultConstraints are not empty"))
    for i, constraint in enumerate(constraints):
        if constraint.label_selector is not None:
            ctx.error(
                child(index(constraints_path, i), "labelSelector"),
                forbidden("constraint must not define a selector, as they deduced for each pod"),
            )
    return a.PodTopologySpreadArgs(default_constraints=constraints, defaulting_type=defaulting)


# --- DefaultPreemption ----------------------------------------------------------------------


def _parse_default_preemption_args(
    raw: dict[str, Any], ctx: Ctx, path: str
) -> a.DefaultPreemptionArgs:
    check_known_fields(raw, ("minCandidateNodesPercentage", "minCandidateNodesAbsolute"), ctx, path)
    pct_path = child(path, "minCandidateNodesPercentage")
    abs_path = child(path, "minCandidateNodesAbsolute")
    percentage = as_int(raw.get("minCandidateNodesPercentage"), ctx, pct_path, 10)
    absolute = as_int(raw.get("minCandidateNodesAbsolute"), ctx, abs_path, 100)
    percentage = 10 if percentage is None else percentage
    absolute = 100 if absolute is None else absolute
    if not 0 <= percentage <= 100:
        ctx.error(pct_path, invalid(percentage, "not in valid range [0, 100]"))
    if absolute < 0:
        ctx.error(abs_path, invalid(absolute, "not in valid range [0, inf)"))
    if percentage == 0 and absolute == 0:
        ctx.error(
            pct_path, invalid(0, "cannot be zero at the same time as minCandidateNodesAbsolute")
        )
        ctx.error(
            abs_path, invalid(0, "cannot be zero at the same time as minCandidateNodesPercentage")
        )
    return a.DefaultPreemptionArgs(
        min_candidate_nodes_percentage=percentage, min_candidate_nodes_absolute=absolute
    )


# --- plugins we do not simulate: checked so a config kube-scheduler rejects is rejected ----


def _parse_volume_binding_args(raw: dict[str, Any], ctx: Ctx, path: str) -> a.NoArgs:
    check_known_fields(raw, ("bindTimeoutSeconds", "shape"), ctx, path)
    timeout_path = child(path, "bindTimeoutSeconds")
    timeout = as_int(raw.get("bindTimeoutSeconds"), ctx, timeout_path, 600)
    if timeout is not None and timeout < 0:
        ctx.error(
            timeout_path,
            invalid(timeout, "invalid BindTimeoutSeconds, should not be a negative value"),
        )
    if raw.get("shape") is not None:
        _parse_shape(raw["shape"], ctx, child(path, "shape"))
    return a.NoArgs()


def _parse_dynamic_resources_args(raw: dict[str, Any], ctx: Ctx, path: str) -> a.NoArgs:
    check_known_fields(raw, ("filterTimeout", "bindingTimeout"), ctx, path)
    as_str(raw.get("filterTimeout"), ctx, child(path, "filterTimeout"))
    as_str(raw.get("bindingTimeout"), ctx, child(path, "bindingTimeout"))
    return a.NoArgs()


_PARSERS: dict[str, Callable[[dict[str, Any], Ctx, str], Any]] = {
    "NodeResourcesFit": _parse_fit_args,
    "NodeResourcesBalancedAllocation": _parse_balanced_allocation_args,
    "NodeAffinity": _parse_node_affinity_args,
    "InterPodAffinity": _parse_inter_pod_affinity_args,
    "PodTopologySpread": _parse_pod_topology_spread_args,
    "DefaultPreemption": _parse_default_preemption_args,
    "VolumeBinding": _parse_volume_binding_args,
    "DynamicResources": _parse_dynamic_resources_args,
}
