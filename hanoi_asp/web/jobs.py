"""What the web app's API does, as plain functions of a request body: each runs in a
process of its own (see :mod:`hanoi_asp.web.app`), so a slow solve is killed at its hard
time limit or when the browser goes away, and two tabs never wait for each other.

Submitted texts are data: the instance goes through the same readers as a file (which
never run anything), and an encoding through the engine's check that refuses
``#script`` and ``#include``.  Every answer is the CLI's JSON object for the same
command, or an :class:`ApiError` with the CLI's one-line message.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hanoi_asp.engine import read_encoding, shipped, solve
from hanoi_asp.inputs.instance import parse_puzzle
from hanoi_asp.model.errors import HanoiError
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import BoundChoice, Encoding, SolveOptions
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.outputs.html import player_data

if TYPE_CHECKING:
    from hanoi_asp.teaching.grade import GradeReport

MAX_TEXT = 100_000
"""Characters in a submitted instance or encoding (the shipped ones are under 10,000)."""
DEFAULT_SECONDS = 30.0
MAX_SECONDS = 120.0
MAX_RANDOM = 300
"""At most this many random puzzles per /api/grade call (about 15-60 s of grading)."""
LIMITS = Limits(moves=20_000)
"""The CLI's size limits, with plans cut at 20,000 moves (a page, not a file)."""
SUFFIXES = {"lp": "lp", "aspcomp": "asp", "json": "json", "toml": "toml"}
ENCODING_NAME = "encoding.lp"
DEFAULT_ENCODING = "incremental"


class ApiError(Exception):
    """A request the app refuses: its HTTP status and the one-line message, with where
    it points (``instance`` or ``encoding``) and the line, when the message says."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        match = re.match(r"(instance|encoding)\.\w+(?::(\d+))?", message)
        self.where = match.group(1) if match else None
        self.line = int(match.group(2)) if match and match.group(2) else None

    def as_dict(self) -> dict[str, Any]:
        return {"error": str(self), "where": self.where, "line": self.line}


class JobBody(BaseModel):
    """The body of ``/api/solve``, ``/api/explain``, ``/api/grade`` and ``/api/hint``."""

    model_config = ConfigDict(extra="forbid")

    instance: str = Field(max_length=MAX_TEXT)
    format: Literal["lp", "aspcomp", "json", "toml"] = "lp"
    encoding: str | None = Field(default=None, max_length=MAX_TEXT)
    moves: int | None = Field(default=None, ge=0, le=LIMITS.moves)
    timeout: float = Field(default=DEFAULT_SECONDS, gt=0, le=MAX_SECONDS, allow_inf_nan=False)
    bound: BoundChoice = "auto"
    """Where the upward search starts, as ``--bound``: ``none`` starts at 0, so Explain
    shows every refuted horizon (the lesson), not only the one at the lower bound."""
    random: int | None = Field(default=None, ge=0, le=MAX_RANDOM)
    """/api/grade only: grade the teaching set and this many random puzzles too."""
    seed: int = Field(default=0, ge=0, le=2**31 - 1)

    @classmethod
    def read(cls, data: Any) -> JobBody:
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            raise ApiError(422, f"{where}: {first['msg']}") from None

    @property
    def name(self) -> str:
        """The instance's name in messages: ``instance.lp`` (``.asp``, ...)."""
        return f"instance.{SUFFIXES[self.format]}"

    def puzzle(self) -> Puzzle:
        puzzle = parse_puzzle(self.instance, self.name, self.format)
        LIMITS.check_size(pegs=len(puzzle.pegs), disks=puzzle.disks, where=self.name)
        return puzzle

    def options(self, **changes: Any) -> SolveOptions:
        encoding = None if self.encoding is None else Encoding(self.encoding, ENCODING_NAME)
        options = SolveOptions(
            exact_moves=self.moves,
            timeout=self.timeout,
            encoding=encoding,
            bound=self.bound,
            limits=LIMITS,
            source=self.name,
        )
        return replace(options, **changes)


def run_job(kind: str, body: JobBody) -> tuple[int, dict[str, Any]]:
    """One API call on a checked body: (HTTP status, JSON object).  Bad input is a 4xx
    with the message."""
    try:
        return 200, JOBS[kind](body)
    except ApiError as error:
        return error.status, error.as_dict()
    except HanoiError as error:
        return 400, ApiError(400, str(error)).as_dict()


def solve_job(body: JobBody) -> dict[str, Any]:
    """Exactly ``hanoi-asp solve --json``'s object."""
    return solve(body.puzzle(), body.options()).to_dict(body.name)


def explain_job(body: JobBody) -> dict[str, Any]:
    """Exactly ``hanoi-asp explain --json``'s object."""
    from hanoi_asp.teaching.explain import explain

    return explain(body.puzzle(), body.options()).as_dict(body.name)


def grade_job(body: JobBody) -> dict[str, Any]:
    """``hanoi-asp grade --json``'s object, for the submitted instance."""
    from hanoi_asp.teaching.grade import GradeReport, check_whole, grade_instance

    if body.encoding is None:
        raise ApiError(400, "grade needs an encoding: the one in the editor is the shipped one")
    encoding = Encoding(body.encoding, ENCODING_NAME)
    check_whole(encoding)
    report = GradeReport(ENCODING_NAME)
    grade, warnings = grade_instance(encoding, body.name, body.puzzle(), body.timeout)
    report.grades.append(grade)
    report.warnings.extend(warnings)
    if body.random is not None:
        return _graded_with_random(encoding, body, report)
    return report.as_dict()


def _graded_with_random(encoding: Encoding, body: JobBody, first: GradeReport) -> dict[str, Any]:
    """The submitted instance's grade, then the teaching set and ``random`` puzzles, as
    ``grade --random N --seed S --json`` gives them (the counterexample included)."""
    from hanoi_asp.teaching.grade import grade, teaching_set
    from hanoi_asp.teaching.random_puzzles import mentions_edges, random_trials
    from hanoi_asp.teaching.shrink import first_counterexample, with_counterexample
    from hanoi_asp.teaching.views import shown_path

    instances = teaching_set()
    trials = random_trials(body.random or 0, body.seed, graphs=mentions_edges(encoding.text))
    names = [shown_path(i) for i in instances]
    submitted = first.grades[0]
    report = grade(encoding, instances, body.timeout, trials, names=names)
    if submitted.passed:
        report = with_counterexample(encoding, report, body.timeout)
    example = report.counterexample
    if not submitted.passed:
        answers = sorted(submitted.answers)
        example = first_counterexample(encoding, body.puzzle(), answers, body.timeout)
    warnings = [*first.warnings, *(w for w in report.warnings if w not in first.warnings)]
    return replace(
        report, grades=[submitted, *report.grades], warnings=warnings, counterexample=example
    ).as_dict()


def hint_job(body: JobBody) -> dict[str, Any]:
    """The first move of a minimal plan from the instance's start (the position now),
    the distance, and whether minimality is proven (a search stopped by the timeout
    gives its best plan's first move, and ``proven: false``)."""
    result = solve(body.puzzle(), body.options(exact_moves=None))
    if result.plan is None:
        return {"distance": None, "move": None, "proven": result.result == "UNSATISFIABLE"}
    first = result.plan[0] if result.plan else None
    return {
        "distance": len(result.plan),
        "move": None
        if first is None
        else {"disk": first.disk, "from": first.source, "to": first.target},
        "proven": result.proven_minimal,
    }


JOBS = {"solve": solve_job, "explain": explain_job, "grade": grade_job, "hint": hint_job}


def parse_instance(data: Any) -> dict[str, Any]:
    """``/api/parse``: the puzzle as the page draws it (the player's data, no plan)."""
    if not isinstance(data, dict) or set(data) - {"instance", "format"}:
        raise ApiError(422, 'body: give {"instance": TEXT, "format": ...} only')
    body = JobBody.read({"instance": data.get("instance"), "format": data.get("format", "lp")})
    try:
        puzzle = body.puzzle()
    except HanoiError as error:
        raise ApiError(400, str(error)) from None
    drawn = player_data(puzzle, [])
    del drawn["plan"]
    graph = puzzle.moves_allowed
    drawn["graph"] = None if graph is None else [list(edge) for edge in graph]
    drawn["max_moves"] = puzzle.max_moves
    return drawn


def encodings() -> list[dict[str, Any]]:
    """The shipped whole encodings (the engine's default first) and every exercise."""
    found = [
        {
            "name": f"{name}.lp",
            "title": title,
            "text": read_encoding(name),
            "default": name == DEFAULT_ENCODING,
        }
        for name, title in (
            (DEFAULT_ENCODING, "the engine's incremental encoding (default)"),
            ("quickstart", "the clingo quickstart encoding"),
        )
    ]
    exercises = shipped("encodings/exercises", "encodings/exercises")
    for item in sorted(exercises.iterdir(), key=lambda i: i.name):
        if item.name.endswith(".lp"):
            text = item.read_text(encoding="utf-8")
            title = f"exercise: {item.name.removesuffix('.lp').replace('-', ' ')}"
            found.append({"name": item.name, "title": title, "text": text, "default": False})
    return found


def examples() -> list[dict[str, Any]]:
    """The teaching instances, for the page's examples menu."""
    from hanoi_asp.teaching.grade import teaching_folder

    items = sorted(teaching_folder().iterdir(), key=lambda i: i.name)
    return [
        {"name": i.name, "text": i.read_text(encoding="utf-8"), "format": "lp"}
        for i in items
        if i.name.endswith(".lp")
    ]
