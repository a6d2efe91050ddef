"""Why a child gave no answer, said one way for every kind of child.

>>> died(-9, memory=2**30).why, died(-9, memory=None).why, died(1, memory=2**30).why
('memory', 'crash', 'crash')
"""

from __future__ import annotations

from typing import Any, Literal

from hanoi_asp.processes.memory import OUT_OF_MEMORY_EXITS

Why = Literal["timeout", "memory", "crash"]


class Stopped(Exception):
    """The child did not answer: ``why`` is ``timeout`` (killed at its limit),
    ``memory`` (over its cap) or ``crash`` (it died otherwise, ``code`` its exit code,
    negative for a signal); ``doing`` is what it last said it was doing
    (:func:`~hanoi_asp.processes.capped.beat`), if anything."""

    def __init__(
        self,
        why: Why,
        message: str,
        doing: dict[str, Any] | None = None,
        code: int | None = None,
    ) -> None:
        super().__init__(message)
        self.why: Why = why
        self.doing = doing or {}
        self.code = code

    def __reduce__(self) -> tuple[Any, ...]:  # sent back whole from a pool's worker
        return (Stopped, (self.why, str(self), self.doing, self.code))


def died(code: int | None, memory: int | None) -> Stopped:
    """A child that died without an answer, with exit ``code``: over its ``memory``
    cap if it had one and died as a process over it dies, else a crash."""
    if memory is not None and code in OUT_OF_MEMORY_EXITS:
        return Stopped("memory", f"over the memory limit of {memory} bytes", code=code)
    return Stopped("crash", f"the process died (exit code {code})", code=code)
