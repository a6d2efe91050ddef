"""What the web app's API does, as plain functions of a checked request body: each job
runs in a process of its own (see :mod:`hanoi_asp.web.runner`), so a slow solve is killed
at its hard time limit or when the browser goes away, and two tabs never wait for each
other.

Submitted texts are data: the instance goes through the same readers as a file (which
never run anything), and an encoding through the engine's check that refuses
``#script`` and ``#include``.  Every answer is the CLI's JSON object for the same
command, or an :class:`~hanoi_asp.web.errors.ApiError` with the CLI's one-line message.

:data:`JOBS` is the one list of the job endpoints: the API's routes are made from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from hanoi_asp.engine import solve
from hanoi_asp.model.errors import HanoiError
from hanoi_asp.model.options import Encoding
from hanoi_asp.model.result import ResultJSON
from hanoi_asp.processes import OverMemory, memory_cap
from hanoi_asp.teaching.check import CheckJSON
from hanoi_asp.teaching.json_shapes import ExplanationJSON, GradeJSON
from hanoi_asp.web.errors import ApiError
from hanoi_asp.web.schemas import ENCODING_NAME, LIMITS, PLAN_NAME, Hint, HintMove, JobBody

if TYPE_CHECKING:
    from hanoi_asp.teaching.grade_report import GradeReport


def run_job(kind: str, body: JobBody) -> tuple[int, dict[str, Any]]:
    """One API call on a checked body: (HTTP status, JSON object).  Bad input is a 4xx
    with the message."""
    try:
        return 200, JOBS[kind].run(body)
    except ApiError as error:
        return error.status, error.as_dict()
    except HanoiError as error:
        return 400, ApiError.of(error).as_dict()


def solve_job(body: JobBody) -> dict[str, Any]:
    """Exactly ``hanoi-asp solve --json``'s object."""
    return solve(body.puzzle(), body.options()).to_dict(body.name)


def explain_job(body: JobBody) -> dict[str, Any]:
    """Exactly ``hanoi-asp explain --json``'s object."""
    from hanoi_asp.teaching.explain import explain

    return explain(body.puzzle(), body.options()).as_dict(body.name)


def grade_job(body: JobBody) -> dict[str, Any]:
    """``hanoi-asp grade --json``'s object, for the submitted instance."""
    from hanoi_asp.teaching.grade import check_whole, grade_instance
    from hanoi_asp.teaching.grade_report import GradeReport

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
    from hanoi_asp.teaching.grade import grade
    from hanoi_asp.teaching.random_puzzles import mentions_edges, random_trials
    from hanoi_asp.teaching.shrink import first_counterexample, with_counterexample
    from hanoi_asp.teaching.teaching_set import teaching_set
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
        hint = Hint(distance=None, move=None, proven=result.result == "UNSATISFIABLE")
    else:
        first = result.plan[0] if result.plan else None
        move = None
        if first is not None:
            move = HintMove.model_validate(
                {"disk": first.disk, "from": first.source, "to": first.target}
            )
        hint = Hint(distance=len(result.plan), move=move, proven=result.proven_minimal)
    return hint.model_dump(by_alias=True)


def check_job(body: JobBody) -> dict[str, Any]:
    """``hanoi-asp check --json``'s object: the submitted ``plan`` on the instance, legal
    or not (the step, disk and rule), the goal reached or not, and optimal or not where
    the optimum is proven within ``timeout``."""
    from hanoi_asp.inputs.plan_text import read_plan
    from hanoi_asp.teaching.check import check_json, check_plan

    if body.plan is None:
        raise ApiError(400, "check needs a plan", where="plan")
    steps = read_plan(body.plan, PLAN_NAME)
    if len(steps) > LIMITS.moves:
        raise ApiError(400, f"plans are checked up to {LIMITS.moves} moves here", where="plan")
    options = body.options(exact_moves=None, encoding=None)
    check = check_plan(
        body.puzzle(), [s.as_step() for s in steps], options, [s.line for s in steps]
    )
    return check_json(check, body.name, PLAN_NAME)


@dataclass(frozen=True)
class Job:
    """A job endpoint, ``POST /api/<kind>``: what it runs and what it answers."""

    run: Callable[[JobBody], dict[str, Any]]
    answer: type[BaseModel] | type[Mapping[str, Any]]
    """The answer's model or JSON shape, for the API's schema."""
    summary: str


JOBS: dict[str, Job] = {
    "solve": Job(solve_job, ResultJSON, "Solve: a plan, proven minimal (solve --json)"),
    "explain": Job(explain_job, ExplanationJSON, "Explain the search (explain --json)"),
    "grade": Job(grade_job, GradeJSON, "Grade an encoding (grade --json)"),
    "hint": Job(hint_job, Hint, "The first move of a minimal plan"),
    "check": Job(check_job, CheckJSON, "Check a plan: legal, the goal, optimal (check --json)"),
}
"""The job endpoints, by kind: the one list the API's routes are made from."""


def run_isolated(kind: str, body: JobBody, memory: int) -> tuple[int, dict[str, Any]]:
    """:func:`run_job` in a worker of the server's pool, under the memory cap (what the
    job may add to what the worker holds: clingo has no cap of its own)."""
    try:
        with memory_cap(memory, added=True):
            return run_job(kind, body)
    except OverMemory as error:
        return 503, ApiError(503, str(error)).as_dict()
