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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from hanoi_asp.encodings import shipped
from hanoi_asp.errors import EncodingError, GoalNotReached, IllegalMove, VerificationError
from hanoi_asp.instance import load_puzzle
from hanoi_asp.plan import replay
from hanoi_asp.render import draw_board
from hanoi_asp.search import Mode, SolveOptions, make_solver, solve
from hanoi_asp.solver import HorizonSolver, Status, is_incremental
from hanoi_asp.spec import Puzzle

Kind = Literal[
    "illegal-plan",
    "goal-not-reached",
    "longer-than-optimal",
    "too-strict",
    "horizons-differ",
    "unknown",
    "error",
]
HORIZON_SECONDS = 10.0
"""Budget for one horizon of the student's encoding."""
EXTRA_HORIZONS = 20
"""How far above the optimum to look for a student's longer plan."""


@dataclass(frozen=True)
class Finding:
    kind: Kind
    message: str
    horizon: int | None = None
    board: str | None = None
    """The state drawn where it went wrong (before an illegal move, or at the end)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "horizon": self.horizon,
            "board": self.board,
        }


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

    def as_dict(self) -> dict[str, Any]:
        return {
            "instance": self.instance,
            "passed": self.passed,
            "optimum": self.optimum,
            "answers": {str(h): a for h, a in sorted(self.answers.items())},
            "findings": [f.as_dict() for f in self.findings],
        }


@dataclass(frozen=True)
class GradeReport:
    encoding: str
    grades: list[InstanceGrade] = field(default_factory=list)

    @property
    def score(self) -> tuple[int, int]:
        return sum(g.passed for g in self.grades), len(self.grades)

    @property
    def passed(self) -> bool:
        return all(g.passed for g in self.grades)

    def as_dict(self) -> dict[str, Any]:
        passed, total = self.score
        return {
            "encoding": self.encoding,
            "passed": self.passed,
            "score": {"passed": passed, "total": total},
            "instances": [g.as_dict() for g in self.grades],
        }


def teaching_set() -> list[str]:
    """The shipped teaching instances (inside the wheel, or the checkout's folder)."""
    folder = shipped("teaching", "instances/teaching")
    return sorted(str(p) for p in folder.iterdir() if p.name.endswith(".lp"))


def grade(
    encoding: str, encoding_path: str, instances: Sequence[str], seconds: float = HORIZON_SECONDS
) -> GradeReport:
    report = GradeReport(encoding_path)
    for instance in instances:
        report.grades.append(grade_instance(encoding, encoding_path, instance, seconds))
    return report


def grade_instance(
    encoding: str, encoding_path: str, instance: str, seconds: float
) -> InstanceGrade:
    puzzle = load_puzzle(instance)
    reference = solve(puzzle, SolveOptions(source=instance))
    optimum = reference.length
    top = optimum if optimum is not None else reference.max_moves
    mode: Mode = "incremental" if is_incremental(encoding) else "oneshot"
    options = SolveOptions(mode=mode, encoding=encoding, encoding_path=encoding_path, threads=1)
    findings: list[Finding] = []
    answers: dict[int, Status] = {}
    try:
        solver = make_solver(puzzle, options, minimal=False)
        for horizon in range(top + 1):
            answers[horizon] = _ask(solver, puzzle, horizon, seconds, findings)
        if optimum is not None and answers[optimum] == "UNSAT":
            findings.append(
                Finding(
                    "too-strict",
                    f"UNSATISFIABLE at {optimum} moves, but the reference has a plan of "
                    f"{optimum} moves: the encoding rules out legal plans",
                    optimum,
                )
            )
            _look_higher(solver, puzzle, optimum, seconds, answers, findings)
    except EncodingError as error:
        findings.append(Finding("error", str(error)))
    # the reference's answer is known up to ``top``: a plan at the optimum, none below
    expected = {h: ("SAT" if h == optimum else "UNSAT") for h in range(top + 1)}
    wrong = [h for h in expected if answers.get(h, "UNKNOWN") not in ("UNKNOWN", expected[h])]
    if wrong:
        shown = ", ".join(f"{h} ({answers[h]}, expected {expected[h]})" for h in wrong[:3])
        more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        findings.append(Finding("horizons-differ", f"horizons answered differently: {shown}{more}"))
    return InstanceGrade(instance, optimum, answers, _first_of_each(findings))


def _ask(
    solver: HorizonSolver, puzzle: Puzzle, horizon: int, seconds: float, findings: list[Finding]
) -> Status:
    """The student's answer at ``horizon``; a returned plan is replayed, problems noted."""
    try:
        run, steps = solver.run(horizon, time.monotonic() + seconds)
    except VerificationError as error:  # a malformed answer (two moves at one step, ...)
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
    return "SAT"


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
