"""kube-scheduler's defaults for kubescheduler.config.k8s.io/v1 (Kubernetes v1.35).

The default plugin set is upstream's getDefaultPlugins
(pkg/scheduler/apis/config/v1/default_plugins.go) with the feature gates at
their v1.35 defaults: every plugin is listed once under multiPoint, in this
order, with the score weights below, and the framework expands each to the
extension points it implements (pkg/scheduler/framework/runtime/framework.go).
DynamicResources scores since v1.35 (DRA prioritized-list scoring) with
weight 2. NodeDeclaredFeatures joins the list by default only from v1.36
and is not modelled.

Which extension points a plugin implements is a property of its Go type (the
`var _ fwk.FilterPlugin = &X{}` assertions in each plugin's file); the
table below carries those facts, since several of our plugins are inert
stand-ins that implement nothing in Python.
"""

from __future__ import annotations

from engine.config.types import DEFAULT_SCHEDULER_NAME, PluginRef
from engine.model.objects import TopologySpreadConstraint

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"

# Upstream's field names, in the order of the Plugins struct.
EXTENSION_POINTS: tuple[str, ...] = (
    "preEnqueue",
    "queueSort",
    "preFilter",
    "filter",
    "postFilter",
    "preScore",
    "score",
    "reserve",
    "permit",
    "preBind",
    "bind",
    "postBind",
)

# The Go interface behind each extension point, as framework errors name it
# ("plugin %q does not extend ScorePlugin plugin").
PLUGIN_INTERFACE: dict[str, str] = {
    point: point[0].upper() + point[1:] + "Plugin" for point in EXTENSION_POINTS
}

_PRE_FILTER_FILTER = frozenset({"preFilter", "filter"})
_FILTER_AND_SCORE = frozenset({"preFilter", "filter", "preScore", "score"})

# Upstream plugin name -> extension points its Go type implements.
PLUGIN_EXTENSION_POINTS: dict[str, frozenset[str]] = {
    "SchedulingGates": frozenset({"preEnqueue"}),  # schedulinggates/scheduling_gates.go
    "PrioritySort": frozenset({"queueSort"}),  # queuesort/priority_sort.go
    "NodeUnschedulable": frozenset({"filter"}),  # nodeunschedulable/node_unschedulable.go
    "NodeName": frozenset({"filter"}),  # nodename/node_name.go
    "TaintToleration": frozenset({"filter", "preScore", "score"}),  # tainttoleration/
    "NodeAffinity": _FILTER_AND_SCORE,  # nodeaffinity/node_affinity.go
    "NodePorts": _PRE_FILTER_FILTER,  # nodeports/node_ports.go
    "NodeResourcesFit": _FILTER_AND_SCORE,  # noderesources/fit.go
    "VolumeRestrictions": _PRE_FILTER_FILTER,  # volumerestrictions/volume_restrictions.go
    "NodeVolumeLimits": _PRE_FILTER_FILTER,  # nodevolumelimits/csi.go
    "VolumeBinding": frozenset(  # volumebinding/volume_binding.go
        {"preFilter", "filter", "reserve", "preBind", "preScore", "score"}
    ),
    "VolumeZone": _PRE_FILTER_FILTER,  # volumezone/volume_zone.go
    "PodTopologySpread": _FILTER_AND_SCORE,  # podtopologyspread/plugin.go
    "InterPodAffinity": _FILTER_AND_SCORE,  # interpodaffinity/plugin.go
    "DynamicResources": frozenset(  # dynamicresources/dynamicresources.go
        {"preEnqueue", "preFilter", "filter", "postFilter", "score", "reserve", "preBind"}
    ),
    # PostFilter is preemption; PreEnqueue holds a pod back while its
    # asynchronous preemption is still evicting victims.
    "DefaultPreemption": frozenset({"preEnqueue", "postFilter"}),
    "NodeResourcesBalancedAllocation": frozenset({"preScore", "score"}),
    "ImageLocality": frozenset({"score"}),  # imagelocality/image_locality.go
    "DefaultBinder": frozenset({"bind"}),  # defaultbinder/default_binder.go
}

# getDefaultPlugins: the multiPoint list. Weight 0 means "not set"; the
# framework then gives a score plugin weight 1.
DEFAULT_MULTI_POINT: tuple[PluginRef, ...] = (
    PluginRef("SchedulingGates"),
    PluginRef("PrioritySort"),
    PluginRef("NodeUnschedulable"),
    PluginRef("NodeName"),
    PluginRef("TaintToleration", 3),
    PluginRef("NodeAffinity", 2),
    PluginRef("NodePorts"),
    PluginRef("NodeResourcesFit", 1),
    PluginRef("VolumeRestrictions"),
    PluginRef("NodeVolumeLimits"),
    PluginRef("VolumeBinding"),
    PluginRef("VolumeZone"),
    PluginRef("PodTopologySpread", 2),
    PluginRef("InterPodAffinity", 2),
    PluginRef("DynamicResources", 2),
    PluginRef("DefaultPreemption"),
    PluginRef("NodeResourcesBalancedAllocation", 1),
    PluginRef("ImageLocality", 1),
    PluginRef("DefaultBinder"),
)

# Plugins that v1 rejects by name (validation.go invalidPluginsByVersion).
REMOVED_PLUGINS = frozenset({"AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"})

# SetDefaults_KubeSchedulerConfiguration.
DEFAULT_PROFILE_NAME = DEFAULT_SCHEDULER_NAME
DEFAULT_PARALLELISM = 16
DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE = 0  # adaptive: 50% minus nodes/125, at least 5%
DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1
DEFAULT_POD_MAX_BACKOFF_SECONDS = 10

# PodTopologySpread's constraints for pods that set none, when defaultingType
# is System (podtopologyspread/plugin.go systemDefaultConstraints). They only
# apply to pods that belong to a Service, ReplicaSet, StatefulSet or
# ReplicationController, whose selector becomes the constraint's selector.
SYSTEM_DEFAULT_SPREAD_CONSTRAINTS: tuple[TopologySpreadConstraint, ...] = (
    TopologySpreadConstraint(
        max_skew=3, topology_key="kubernetes.io/hostname", when_unsatisfiable="ScheduleAnyway"
    ),
    TopologySpreadConstraint(
        max_skew=5, topology_key="topology.kubernetes.io/zone", when_unsatisfiable="ScheduleAnyway"
    ),
)
