"""The JSON shapes of ``explain --json`` and ``grade --json``, declared once: the objects
the command line prints are made from them (:func:`~hanoi_asp.model.json_shape.dump`) and
the web API's OpenAPI page documents them (``/api/explain``, ``/api/grade``)."""

from __future__ import annotations

from typing import Annotated

from typing_extensions import TypedDict

from hanoi_asp.model.json_shape import From, shape
from hanoi_asp.model.plan import MoveJSON
from hanoi_asp.model.result import HorizonJSON, ResultJSON, Status


@shape
class RuleJSON(TypedDict):
    """A rule of the encoding, with the comment above it."""

    text: str
    comment: str
    line: int
    program: str
    """The ``#program`` part it belongs to (``base`` for one-shot encodings)."""


@shape
class SectionJSON(TypedDict):
    """A section of the encoding: ``Generate``, ``Define``, ``Test``, ``Display``."""

    name: str
    intro: str
    rules: list[RuleJSON]


@shape
class WhyNotShorterJSON(TypedDict):
    """Why no plan has one move fewer."""

    horizon: int
    status: str
    """``UNSAT`` (proven), or ``UNKNOWN`` when out of budget."""
    reason: str
    core: list[str]
    """``goal_on`` facts that cannot all hold after ``horizon`` moves (a minimal set)."""


@shape
class ExplanationJSON(TypedDict):
    """``hanoi-asp explain --json``'s object: the encoding by section, the search horizon
    by horizon, why no shorter plan exists, and the solve object."""

    instance: str
    facts: str
    encoding: Annotated[str, From("encoding_name")]
    extras: list[str]
    """Shipped programs loaded beside the encoding (e.g. ``distance3.lp``)."""
    sections: list[SectionJSON]
    horizons: Annotated[list[HorizonJSON], From("result.horizons")]
    why_not_shorter: Annotated[WhyNotShorterJSON | None, From("why")]
    result: ResultJSON


@shape
class FindingJSON(TypedDict):
    """What is wrong, where."""

    kind: str
    """``illegal-plan``, ``goal-not-reached``, ``longer-than-optimal``, ``too-strict``,
    ``horizons-differ``, ``unknown``, ``error``."""
    message: str
    horizon: int | None
    board: str | None
    """The board where it went wrong (before an illegal move, or at the end)."""


def _answers(answers: dict[int, Status]) -> dict[str, Status]:
    return {str(horizon): answer for horizon, answer in sorted(answers.items())}


@shape
class InstanceGradeJSON(TypedDict):
    """One instance's grade."""

    instance: str
    passed: bool
    optimum: int | None
    """The reference's minimal length; null if no plan exists within the checked range."""
    answers: Annotated[dict[str, Status], From(convert=_answers)]
    """The encoding's answer per horizon."""
    findings: list[FindingJSON]


@shape
class ScoreJSON(TypedDict):
    passed: int
    total: int


@shape
class RuleAtJSON(TypedDict):
    """A rule of the student's file: where it is and what it says."""

    file: str
    line: int
    text: str


@shape
class CounterexampleJSON(TypedDict):
    """The first failure shrunk to a smallest puzzle, with its reason."""

    instance: str
    """The smallest failing puzzle as facts, with ``moves/1``."""
    pegs: Annotated[int, From("puzzle", lambda puzzle: len(puzzle.pegs))]
    disks: Annotated[int, From("puzzle.disks")]
    horizon: int
    kind: str
    plan: Annotated[list[MoveJSON], From(convert=list)]
    """The student's plan (an illegal one) or the reference plan (one it rejects)."""
    reason: str
    rules: list[RuleAtJSON]


@shape
class GradeJSON(TypedDict):
    """``hanoi-asp grade --json``'s object."""

    encoding: str
    passed: bool
    score: ScoreJSON
    instances: Annotated[list[InstanceGradeJSON], From("grades")]
    warnings: list[str]
    """clingo's warnings about the encoding, each once."""
    counterexample: CounterexampleJSON | None
