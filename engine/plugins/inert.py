"""Plugins kube-scheduler runs that have nothing to decide in a simulation.

Volumes are not modelled (a snapshot carries no PersistentVolumes to bind),
binding always succeeds, and DynamicResources needs ResourceClaims, which
are not ingested. They exist so that configurations naming them load and
explain output lists them; DefaultPreemption's PostFilter is simulated by
the preemption work, not here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.framework.interface import Plugin


class _Inert(Plugin):
    def __init__(self, args: Any = None) -> None:
        self.args = args


class DefaultPreemption(_Inert):
    name: ClassVar[str] = "DefaultPreemption"


class VolumeRestrictions(_Inert):
    name: ClassVar[str] = "VolumeRestrictions"


class NodeVolumeLimits(_Inert):
    name: ClassVar[str] = "NodeVolumeLimits"


class VolumeBinding(_Inert):
    name: ClassVar[str] = "VolumeBinding"


class VolumeZone(_Inert):
    name: ClassVar[str] = "VolumeZone"


class DynamicResources(_Inert):
    name: ClassVar[str] = "DynamicResources"


class DefaultBinder(_Inert):
    name: ClassVar[str] = "DefaultBinder"
