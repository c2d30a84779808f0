"""A profile's plugins, instantiated and ordered per extension point.

Follows pkg/scheduler/framework/runtime/framework.go: one instance per
plugin shared by every extension point it is enabled at, score weights
from the profile, and inert plugins (volumes, binding) known but not run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from engine.config.types import Profile
from engine.framework.interface import (
    FilterPlugin,
    Plugin,
    PreFilterPlugin,
    PreScorePlugin,
    QueueSortPlugin,
    ScorePlugin,
)
from engine.plugins.registry import REGISTRY, create_plugin

P = TypeVar("P", bound=Plugin)


class FrameworkError(ValueError):
    """A profile names a plugin at an extension point it does not implement."""


@dataclass(slots=True)
class WeightedScorePlugin:
    plugin: ScorePlugin
    weight: int
    # False when the plugin has no NormalizeScore (its raw score is final).
    normalizes: bool = True


class Framework:
    def __init__(self, profile: Profile, instances: dict[str, Plugin] | None = None) -> None:
        """`instances` supplies ready-made plugins by name (tests use it for fakes)."""
        self.profile = profile
        self.scheduler_name = profile.scheduler_name
        self.percentage_of_nodes_to_score = profile.percentage_of_nodes_to_score
        self._instances: dict[str, Plugin] = dict(instances or {})

        self.queue_sort: QueueSortPlugin | None = None
        for ref in profile.enabled("queueSort"):
            self.queue_sort = self._get(ref.name, "queueSort", QueueSortPlugin)
        self.pre_enqueue: list[Plugin] = [
            self._instance(ref.name) for ref in profile.enabled("preEnqueue")
        ]
        self.pre_filter: list[PreFilterPlugin] = self._active("preFilter", PreFilterPlugin)
        self.filter: list[FilterPlugin] = self._active("filter", FilterPlugin)
        self.pre_score: list[PreScorePlugin] = self._active("preScore", PreScorePlugin)
        self.score: list[WeightedScorePlugin] = [
            WeightedScorePlugin(
                plugin,
                ref.weight,
                type(plugin).normalize_scores is not ScorePlugin.normalize_scores,
            )
            for ref in profile.enabled("score")
            if (plugin := self._get(ref.name, "score", ScorePlugin)) is not None
        ]

    @property
    def has_filter_plugins(self) -> bool:
        return bool(self.filter)

    @property
    def has_score_plugins(self) -> bool:
        return bool(self.score)

    def _instance(self, name: str) -> Plugin:
        plugin = self._instances.get(name)
        if plugin is None:
            plugin = create_plugin(name, self.profile.plugin_args.get(name))
            self._instances[name] = plugin
        return plugin

    def _get(self, name: str, point: str, kind: type[P]) -> P | None:
        """The plugin if it runs at `point`; None for inert plugins."""
        spec = REGISTRY.get(name)
        if spec is not None and spec.inert:
            return None
        plugin = self._instance(name)
        if not isinstance(plugin, kind):
            raise FrameworkError(
                f'profile "{self.scheduler_name}": plugin "{name}" does not extend {point} plugin'
            )
        return plugin

    def _active(self, point: str, kind: type[P]) -> list[P]:
        return [
            plugin
            for ref in self.profile.enabled(point)
            if (plugin := self._get(ref.name, point, kind)) is not None
        ]
