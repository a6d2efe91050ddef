"""What grading finds: a finding per failed check, a grade per instance, the report.

Data only (results as data): :mod:`hanoi_asp.teaching.grade` fills it, the command line,
the web and the autograder output read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from hanoi_asp.model.json_shape import dump
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Status
from hanoi_asp.teaching.counterexample import Counterexample
from hanoi_asp.teaching.json_shapes import GradeJSON

Kind = Literal[
    "illegal-plan",
    "goal-not-reached",
    "longer-than-optimal",
    "too-strict",
    "horizons-differ",
    "unknown",
    "error",
]


@dataclass(frozen=True)
class Finding:
    kind: Kind
    message: str
    horizon: int | None = None
    board: str | None = None
    """The state drawn where it went wrong (before an illegal move, or at the end)."""


@dataclass(frozen=True)
class InstanceGrade:
    instance: str
    optimum: int | None
    """The reference's minimal length; None if no plan exists within the checked range."""
    answers: dict[int, Status]
    """The student's answer per horizon."""
    findings: tuple[Finding, ...]

    @property
    def passed(self) -> bool:
        return not self.findings


@dataclass(frozen=True)
class GradeReport:
    encoding: str
    grades: list[InstanceGrade] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """clingo's warnings about the encoding (e.g. an atom no rule derives), each once."""
    counterexample: Counterexample | None = None
    """The first failure shrunk to a smallest puzzle, with its reason."""
    random_skipped: int = 0
    """Random puzzles not run: grading stops at the first failure."""
    first_failure: tuple[Puzzle, list[int]] | None = field(default=None, compare=False)
    """The first failing puzzle and its horizons, for :mod:`hanoi_asp.teaching.shrink`."""

    @property
    def score(self) -> tuple[int, int]:
        return sum(g.passed for g in self.grades), len(self.grades)

    @property
    def passed(self) -> bool:
        return all(g.passed for g in self.grades)

    def as_dict(self) -> dict[str, Any]:
        """``grade --json``'s object (:class:`~hanoi_asp.teaching.json_shapes.GradeJSON`)."""
        return dump(GradeJSON, self)
