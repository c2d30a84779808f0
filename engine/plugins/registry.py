"""Every scheduler plugin the engine knows, by its upstream name.

Adding a plugin is one module and one line here. Entries name the module
and class lazily so that loading a configuration does not import every
plugin, and so that each plugin stays one self-contained file.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.config import args as a
from engine.framework.interface import Plugin


@dataclass(frozen=True, slots=True)
class PluginSpec:
    module: str
    cls: str
    args_type: type = a.NoArgs
    # Known to kube-scheduler but with nothing to simulate (volumes, binding).
    inert: bool = False

    def load(self) -> type[Plugin]:
        plugin: type[Plugin] = getattr(importlib.import_module(self.module), self.cls)
        return plugin


_P = "engine.plugins."

REGISTRY: dict[str, PluginSpec] = {
    "PrioritySort": PluginSpec(_P + "queuesort", "PrioritySort"),
    "SchedulingGates": PluginSpec(_P + "schedulinggates", "SchedulingGates"),
    "NodeUnschedulable": PluginSpec(_P + "nodeunschedulable", "NodeUnschedulable"),
    "NodeName": PluginSpec(_P + "nodename", "NodeName"),
    "NodePorts": PluginSpec(_P + "nodeports", "NodePorts"),
    "TaintToleration": PluginSpec(_P + "tainttoleration", "TaintToleration"),
    "NodeAffinity": PluginSpec(_P + "nodeaffinity", "NodeAffinity", a.NodeAffinityArgs),
    "NodeResourcesFit": PluginSpec(
        _P + "noderesources.fit", "NodeResourcesFit", a.NodeResourcesFitArgs
    ),
    "NodeResourcesBalancedAllocation": PluginSpec(
        _P + "noderesources.balanced_allocation",
        "BalancedAllocation",
        a.NodeResourcesBalancedAllocationArgs,
    ),
    "ImageLocality": PluginSpec(_P + "imagelocality", "ImageLocality"),
    "InterPodAffinity": PluginSpec(
        _P + "interpodaffinity.plugin", "InterPodAffinity", a.InterPodAffinityArgs
    ),
    "PodTopologySpread": PluginSpec(
        _P + "podtopologyspread.plugin", "PodTopologySpread", a.PodTopologySpreadArgs
    ),
    "DefaultPreemption": PluginSpec(
        _P + "inert", "DefaultPreemption", a.DefaultPreemptionArgs, inert=True
    ),
    "VolumeRestrictions": PluginSpec(_P + "inert", "VolumeRestrictions", inert=True),
    "NodeVolumeLimits": PluginSpec(_P + "inert", "NodeVolumeLimits", inert=True),
    "VolumeBinding": PluginSpec(_P + "inert", "VolumeBinding", inert=True),
    "VolumeZone": PluginSpec(_P + "inert", "VolumeZone", inert=True),
    "DynamicResources": PluginSpec(_P + "inert", "DynamicResources", inert=True),
    "DefaultBinder": PluginSpec(_P + "inert", "DefaultBinder", inert=True),
}


def create_plugin(name: str, args: Any = None) -> Plugin:
    spec = REGISTRY[name]
    return spec.load()(args if args is not None else spec.args_type())  # type: ignore[call-arg]
