"""PrioritySort (pkg/scheduler/framework/plugins/queuesort/priority_sort.go)."""

from __future__ import annotations

from typing import ClassVar

from engine.config.args import NoArgs
from engine.framework.interface import QueueSortPlugin
from engine.model.objects import Pod


class PrioritySort(QueueSortPlugin):
    """Higher priority first; equal priority in the order pods entered the queue."""

    name: ClassVar[str] = "PrioritySort"

    def __init__(self, args: NoArgs | None = None) -> None:
        pass

    def sort_key(self, pod: Pod) -> tuple[int, int]:
        return (-pod.priority, pod.arrival_index)
