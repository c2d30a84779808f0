"""SchedulingGates (pkg/scheduler/framework/plugins/schedulinggates).

A PreEnqueue plugin: a pod with spec.schedulingGates never enters the
active queue, so it is not attempted at all.
"""

from __future__ import annotations

from typing import ClassVar

from engine.config.args import NoArgs
from engine.framework.interface import Plugin
from engine.framework.status import Code, Status
from engine.model.objects import Pod


class SchedulingGates(Plugin):
    name: ClassVar[str] = "SchedulingGates"

    def __init__(self, args: NoArgs | None = None) -> None:
        pass

    def pre_enqueue(self, pod: Pod) -> Status:
        if not pod.scheduling_gates:
            return Status.success()
        gates = " ".join(pod.scheduling_gates)
        return Status(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            (f"waiting for scheduling gates: [{gates}]",),
            self.name,
        )
