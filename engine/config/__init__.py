"""Scheduler configuration: KubeSchedulerConfiguration loading, defaults and typed plugin args.

The loader is imported on first use: it needs the plugin registry, and the
registry needs `engine.config.args`, which lives in this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.config.loader import (
        ConfigError,
        default_config,
        load_scheduler_config,
        load_scheduler_config_file,
        load_scheduler_config_text,
    )

__all__ = [
    "ConfigError",
    "default_config",
    "load_scheduler_config",
    "load_scheduler_config_file",
    "load_scheduler_config_text",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from engine.config import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'engine.config' has no attribute {name!r}")
