"""Plugin verdicts as data, following pkg/scheduler/framework/interface.go."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Code(IntEnum):
    SUCCESS = 0
    ERROR = 1
    # Preemption may help: removing pods could make the node fit.
    UNSCHEDULABLE = 2
    # Preemption cannot help on this node (e.g. a label mismatch).
    UNSCHEDULABLE_AND_UNRESOLVABLE = 3
    WAIT = 4
    SKIP = 5
    PENDING = 6


@dataclass(frozen=True, slots=True)
class Status:
    code: Code = Code.SUCCESS
    reasons: tuple[str, ...] = ()
    plugin: str = ""

    @property
    def ok(self) -> bool:
        return self.code == Code.SUCCESS

    @property
    def skipped(self) -> bool:
        return self.code == Code.SKIP

    @property
    def message(self) -> str:
        return ", ".join(self.reasons)

    @classmethod
    def success(cls) -> Status:
        return _SUCCESS

    @classmethod
    def skip(cls, plugin: str = "") -> Status:
        return cls(Code.SKIP, (), plugin)

    @classmethod
    def unschedulable(cls, plugin: str, *reasons: str, resolvable: bool = True) -> Status:
        code = Code.UNSCHEDULABLE if resolvable else Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        return cls(code, tuple(reasons), plugin)

    @classmethod
    def error(cls, plugin: str, reason: str) -> Status:
        return cls(Code.ERROR, (reason,), plugin)


_SUCCESS = Status()
