"""A loaded KubeSchedulerConfiguration: profiles with their resolved plugin sets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.model.objects import Source

DEFAULT_SCHEDULER_NAME = "default-scheduler"


@dataclass(frozen=True, slots=True)
class PluginRef:
    name: str
    weight: int = 0  # only meaningful at the score extension point


@dataclass(slots=True)
class Profile:
    """One scheduler profile after defaults, multiPoint expansion and disables.

    `plugins` maps each extension point (upstream's field names: queueSort,
    preFilter, filter, postFilter, preScore, score, reserve, permit, preBind,
    bind, postBind) to its plugins in execution order. `plugin_args` holds a
    typed args object (engine.config.args) for every plugin that takes args.
    """

    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    plugins: dict[str, list[PluginRef]] = field(default_factory=dict)
    plugin_args: dict[str, Any] = field(default_factory=dict)
    percentage_of_nodes_to_score: int | None = None

    def enabled(self, extension_point: str) -> list[PluginRef]:
        return self.plugins.get(extension_point, [])


@dataclass(slots=True)
class SchedulerConfig:
    profiles: list[Profile]
    percentage_of_nodes_to_score: int | None = None  # None or 0: adaptive
    source: Source | None = None
    # Queue backoff for unschedulable pods (podInitialBackoffSeconds, podMaxBackoffSeconds).
    pod_initial_backoff_seconds: int = 1
    pod_max_backoff_seconds: int = 10
    parallelism: int = 16
    # HTTP extenders kube-scheduler would call; kept as given, not simulated.
    extenders: list[dict[str, Any]] = field(default_factory=list)
    # Fields with no effect on placement (leaderElection, clientConnection, ...), as given.
    other_settings: dict[str, Any] = field(default_factory=dict)
    # Things the user should know that are not errors ("extenders are not simulated").
    notes: list[str] = field(default_factory=list)

    def profile_for(self, scheduler_name: str) -> Profile | None:
        return next((p for p in self.profiles if p.scheduler_name == scheduler_name), None)
