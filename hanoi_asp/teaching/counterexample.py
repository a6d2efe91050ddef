"""A counterexample to a student's encoding: the smallest puzzle found where it fails,
the horizon, the plan in question and the reason, as ``grade --json`` gives it.
It is made by :mod:`hanoi_asp.teaching.shrink`."""

from __future__ import annotations

from dataclasses import dataclass

from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.teaching.why_rejected import RuleAt


@dataclass(frozen=True)
class Counterexample:
    puzzle: Puzzle
    horizon: int
    kind: str
    """One of grade's finding kinds (illegal-plan, too-strict, ...)."""
    plan: tuple[dict[str, object], ...]
    """The student's plan (an illegal one) or the reference plan (one it rejects)."""
    reason: str
    rules: tuple[RuleAt, ...] = ()
    board: str | None = None
    """The board before and after the illegal move, or at the end of the plan."""

    @property
    def instance(self) -> str:
        """The instance as facts with ``moves/1``: clingo runs it with the encoding."""
        fixed = self.puzzle.model_copy(update={"max_moves": self.horizon})
        return to_facts(fixed) + "\n"
