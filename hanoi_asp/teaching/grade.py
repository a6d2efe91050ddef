"""Grade a student's encoding against the reference, instance by instance.

For every horizon from 0 up to the reference optimum the student's encoding is asked
"is there a plan of exactly h moves?"; the reference says no below the optimum and yes
at it.  Every plan the student's encoding returns is replayed by the simulator, so
an illegal move or a missed goal is caught and drawn, whatever the encoding claims.
If the student's encoding has no plan at the optimum, the horizons above are tried
to see whether it finds only longer plans.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from hanoi_asp.engine import (
    TEACHING_THREADS,
    ClingoCalls,
    HorizonSolver,
    horizon_solver,
    solve,
)
from hanoi_asp.inputs.asp_text import check_encoding, derives
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.model.errors import (
    EncodingError,
    GoalNotReached,
    IllegalMove,
    MalformedAnswer,
    VerificationError,
)
from hanoi_asp.model.options import Encoding, SolveOptions
from hanoi_asp.model.plan import replay
from hanoi_asp.model.puzzle import Puzzle, State
from hanoi_asp.model.result import Status
from hanoi_asp.outputs.board import draw_board
from hanoi_asp.processes import beat
from hanoi_asp.teaching.grade_report import Finding, GradeReport, InstanceGrade
from hanoi_asp.teaching.random_puzzles import Trial

HORIZON_SECONDS = 10.0
"""Budget for one horizon of the student's encoding."""
EXTRA_HORIZONS = 20
"""How far above the optimum to look for a student's longer plan."""

UNREACHABLE_HORIZONS = 12
"""Horizons 0..12 are checked on an instance whose goal no plan reaches."""


def check_whole(encoding: Encoding) -> None:
    """Grading runs an encoding on its own: it must derive ``move/3``, the plan.  An
    add-on such as ``distance3.lp`` or ``mirror.lp`` cannot be graded alone."""
    check_encoding(encoding)
    if not derives(encoding.text, "move", 3):
        raise EncodingError(
            "not a whole encoding: no rule derives move/3 (the plan), so it cannot solve "
            "a puzzle on its own (add-ons such as distance3.lp and mirror.lp are loaded "
            "beside incremental.lp and cannot be graded alone)",
            path=encoding.name,
        )


def grade(
    encoding: Encoding,
    instances: Sequence[str],
    seconds: float = HORIZON_SECONDS,
    trials: Sequence[Trial] = (),
    *,
    names: Sequence[str] | None = None,
) -> GradeReport:
    """Grade ``encoding`` on ``instances`` (paths), each against the reference optimum,
    then on the random ``trials`` until one fails; the first failure (of either) is
    kept for :func:`hanoi_asp.teaching.shrink.with_counterexample`.  ``names`` are the
    instances' names in the report.
    The encoding and every instance are checked before any grading starts."""
    check_whole(encoding)
    puzzles = [load_puzzle(instance) for instance in instances]
    report = GradeReport(encoding.name)
    first: tuple[Puzzle, list[int]] | None = None
    shown = list(names) if names is not None else list(instances)
    for instance, name, puzzle in zip(instances, shown, puzzles, strict=True):
        grade_, warnings = grade_instance(encoding, instance, puzzle, seconds)
        report.grades.append(replace(grade_, instance=name))
        report.warnings.extend(w for w in warnings if w not in report.warnings)
        if first is None and not grade_.passed:
            first = (puzzle, sorted(grade_.answers))
    skipped = 0
    for index, trial in enumerate(trials):
        if first is not None:
            skipped = len(trials) - index
            break
        grade_, warnings = grade_trial(
            encoding, trial.name, trial.puzzle, trial.optimum, trial.horizons, seconds
        )
        report.grades.append(grade_)
        report.warnings.extend(w for w in warnings if w not in report.warnings)
        if not grade_.passed:
            first = (trial.puzzle, sorted(grade_.answers))
    return replace(report, random_skipped=skipped, first_failure=first)


def grade_instance(
    encoding: Encoding, instance: str, puzzle: Puzzle, seconds: float
) -> tuple[InstanceGrade, list[str]]:
    """The grade on one instance, and clingo's warnings about the encoding there."""
    beat("instance", instance)
    reference = solve(puzzle, SolveOptions(source=instance))
    if reference.stopped == "interrupt":  # the engine answers a Ctrl-C: grading stops
        raise KeyboardInterrupt
    optimum = reference.length
    if optimum is not None:
        top = optimum
    else:
        top = UNREACHABLE_HORIZONS if reference.max_moves is None else reference.max_moves
    findings: list[Finding] = []

    def then(solver: HorizonSolver, answers: dict[int, Status]) -> None:
        if optimum is not None and answers[optimum] == "UNSAT":
            findings.append(_too_strict(optimum))
            _look_higher(solver, puzzle, optimum, seconds, answers, findings)

    answers, warnings = _ask_horizons(
        encoding, instance, puzzle, range(top + 1), seconds, findings, then
    )
    # the reference's answer is known up to ``top``: a plan at the optimum, none below
    expected = {h: ("SAT" if h == optimum else "UNSAT") for h in range(top + 1)}
    wrong = [h for h in expected if answers.get(h, "UNKNOWN") not in ("UNKNOWN", expected[h])]
    if wrong:
        shown = ", ".join(f"{h} ({answers[h]}, expected {expected[h]})" for h in wrong[:3])
        more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        findings.append(Finding("horizons-differ", f"horizons answered differently: {shown}{more}"))
    return InstanceGrade(instance, optimum, answers, _first_of_each(findings)), warnings


def grade_trial(
    encoding: Encoding,
    name: str,
    puzzle: Puzzle,
    optimum: int | None,
    horizons: Sequence[int],
    seconds: float,
) -> tuple[InstanceGrade, list[str]]:
    """The grade on a puzzle whose optimum is known, at the given ``horizons`` only: a
    plan at the optimum, none below it, and above it any plan given must replay (an
    exact length above the optimum may have no plan, so UNSAT there is no finding)."""
    beat("instance", name)
    findings: list[Finding] = []
    answers, warnings = _ask_horizons(
        encoding, name, puzzle, sorted(set(horizons)), seconds, findings
    )
    if optimum is not None and answers.get(optimum) == "UNSAT":
        findings.append(_too_strict(optimum))
    wrong = [h for h, a in answers.items() if a == "SAT" and (optimum is None or h < optimum)]
    if wrong:
        findings.append(
            Finding(
                "horizons-differ",
                f"horizons answered differently: {wrong[0]} (SAT, expected UNSAT)",
                wrong[0],
            )
        )
    return InstanceGrade(name, optimum, answers, _first_of_each(findings)), warnings


def _ask_horizons(
    encoding: Encoding,
    name: str,
    puzzle: Puzzle,
    horizons: Iterable[int],
    seconds: float,
    findings: list[Finding],
    then: Callable[[HorizonSolver, dict[int, Status]], None] | None = None,
) -> tuple[dict[int, Status], list[str]]:
    """The encoding's answer at each horizon (one solver, horizon after horizon), then
    ``then`` with the same solver; clingo's warnings about the encoding.  An encoding
    that does not ground is a finding."""
    options = SolveOptions(encoding=encoding, threads=TEACHING_THREADS, source=name)
    answers: dict[int, Status] = {}
    warnings: list[str] = []
    try:
        with _grounding(["base"]):  # an incremental encoding's base is grounded here
            solver = horizon_solver(puzzle, options, warnings=True)
        _beat_around_grounding(solver.calls)
        try:
            for horizon in horizons:
                answers[horizon] = _ask(solver, puzzle, horizon, seconds, findings)
            if then is not None:
                then(solver, answers)
        finally:
            warnings = clingo_warnings(solver.calls.messages, encoding.name)
    except EncodingError as error:
        findings.append(Finding("error", str(error)))
    return answers, warnings


@contextmanager
def _grounding(parts: list[str]) -> Iterator[None]:
    """Tell a watching parent that clingo grounds meanwhile: grounding cannot be
    interrupted, so the parent ends it at the time limit itself, without the grace a
    solve has to answer late (``grade --timeout 2`` on ``p(X+1) :- p(X).`` ends 0.6 s
    sooner; an incremental encoding's base was not watched at all)."""
    beat("grounding", parts)
    try:
        yield
    finally:
        beat("solving", parts)


def _beat_around_grounding(calls: ClingoCalls) -> None:
    """Every grounding of ``calls`` inside :func:`_grounding`."""
    ground = calls.ground

    def ground_and_beat(ctl: Any, parts: list[tuple[str, list[Any]]]) -> None:
        with _grounding([name for name, _ in parts]):
            ground(ctl, parts)

    calls.ground = ground_and_beat  # type: ignore[method-assign]


def _too_strict(optimum: int) -> Finding:
    return Finding(
        "too-strict",
        f"UNSATISFIABLE at {optimum} moves, but the reference has a plan of "
        f"{optimum} moves: the encoding rules out legal plans",
        optimum,
    )


def clingo_warnings(messages: list[str], name: str) -> list[str]:
    """clingo's warnings about the student's program, one line each, its place given as
    ``name:line:column`` instead of clingo's internal ``<block>``."""
    out: list[str] = []
    for message in messages:
        if "error" in message:
            continue
        line = " ".join(message.replace("<block>", name).split())
        if line and line not in out:
            out.append(line)
    return out


def _ask(
    solver: HorizonSolver, puzzle: Puzzle, horizon: int, seconds: float, findings: list[Finding]
) -> Status:
    """The student's answer at ``horizon``; a returned plan is replayed, problems noted."""
    beat("horizon", horizon)
    try:
        run, steps = solver.run(horizon, time.monotonic() + seconds)
    except MalformedAnswer as error:  # two moves at one step, or none
        board = draw_board(puzzle, _shown_state(puzzle, error.moves, error.step))
        moved = " and ".join(
            f"disk {disk} -> {peg}" for disk, peg in error.moves.get(error.step, ())
        )
        where = f"(before step {error.step}: {moved or 'no move'})"
        findings.append(
            Finding("illegal-plan", f"at {horizon} moves: {error}", horizon, f"{board}\n{where}")
        )
        return "SAT"
    except VerificationError as error:  # a move that is no move (to a non-peg, ...)
        findings.append(Finding("illegal-plan", f"at {horizon} moves: {error}", horizon))
        return "SAT"
    if run.status == "UNKNOWN":
        findings.append(
            Finding("unknown", f"no answer at {horizon} moves within {seconds:g} s", horizon)
        )
    if steps is None:
        return run.status
    try:
        replay(puzzle, steps)
    except IllegalMove as error:
        board = draw_board(puzzle, error.state)
        findings.append(
            Finding(
                "illegal-plan",
                f"at {horizon} moves: {error}",
                horizon,
                f"{board}\n(before step {error.step}: disk {error.disk} -> {error.target})",
            )
        )
    except GoalNotReached as error:
        findings.append(
            Finding(
                "goal-not-reached",
                f"at {horizon} moves: {error}",
                horizon,
                draw_board(puzzle, error.state),
            )
        )
    except VerificationError as error:  # a move to a peg this puzzle does not have
        findings.append(Finding("illegal-plan", f"at {horizon} moves: {error}", horizon))
    return "SAT"


def _shown_state(puzzle: Puzzle, moves: dict[int, tuple[tuple[int, str], ...]], step: int) -> State:
    """The state an answer shows before ``step``: its moves before it made as shown (one
    a step there), whatever the rules say of them."""
    state = list(puzzle.initial_state())
    for number in range(1, step):
        for disk, peg in moves.get(number, ())[:1]:
            if 1 <= disk <= puzzle.disks and peg in puzzle.pegs:
                state[disk - 1] = puzzle.peg_index(peg)
    return tuple(state)


def _look_higher(
    solver: HorizonSolver,
    puzzle: Puzzle,
    optimum: int,
    seconds: float,
    answers: dict[int, Status],
    findings: list[Finding],
) -> None:
    for horizon in range(optimum + 1, optimum + EXTRA_HORIZONS + 1):
        before = len(findings)
        answers[horizon] = _ask(solver, puzzle, horizon, seconds, findings)
        if answers[horizon] == "SAT":
            if len(findings) == before:
                findings.append(
                    Finding(
                        "longer-than-optimal",
                        f"the encoding's shortest plan has {horizon} moves; the optimum "
                        f"is {optimum}",
                        horizon,
                    )
                )
            return


def _first_of_each(findings: list[Finding]) -> tuple[Finding, ...]:
    """One finding per kind: the first (lowest horizon) is the one to look at."""
    seen: set[str] = set()
    out: list[Finding] = []
    for finding in findings:
        if finding.kind not in seen:
            seen.add(finding.kind)
            out.append(finding)
    return tuple(out)
