"""One run of one method on one case of the hard benchmark, as a CSV row; and the
cross-check of a case's runs (every proven optimum the same, our bounds around it)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.hard.families import Case
from benchmarks.harness.paths import ROOT, shown
from benchmarks.harness.peers import fast_downward, symk
from benchmarks.harness.peers.ours import Answer, check_plan, solve_command, solve_json
from hanoi_asp import Puzzle

METHODS = ("asp", "astar", "baseline", "symk", "fd-blind", "fd-lmcut", "fd-ms", "competition")
OURS = ("asp", "astar", "baseline")
TIMING_KEYS = ("reading", "first_plan", "bounds", "grounding", "solving")
FAILED = ("TIMEOUT", "MEMOUT")
COLUMNS = (
    "family",
    "case",
    "pegs",
    "disks",
    "goal",
    "method",
    "run",
    "status",
    "proven",
    "length",
    "lower_bound",
    "upper_bound",
    "seconds",
    "peak_mib",
    "exit_code",
    "check",
    "agree",
    *(f"{key}_s" for key in TIMING_KEYS),
    "detail",
    "instance",
)


@dataclass
class Run:
    """One row of the CSV."""

    case: Case
    method: str
    run: int
    status: str = ""
    proven: bool = False
    length: int | None = None
    lower_bound: int | None = None
    upper_bound: int | None = None
    seconds: float | None = None
    peak_mib: float | None = None
    exit_code: int | None = None
    check: str = ""
    agree: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    detail: str = ""

    def row(self) -> dict[str, Any]:
        return {
            "family": self.case.family.name,
            "case": self.case.name,
            "pegs": self.case.family.pegs,
            "disks": self.case.puzzle.disks,
            "goal": "partial" if self.case.family.partial else "full",
            "method": self.method,
            "run": self.run,
            "status": self.status,
            "proven": int(self.proven),
            "length": self.length,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "seconds": None if self.seconds is None else round(self.seconds, 4),
            "peak_mib": None if self.peak_mib is None else round(self.peak_mib, 1),
            "exit_code": self.exit_code,
            "check": self.check,
            "agree": self.agree,
            **{f"{key}_s": self.timings.get(key) for key in TIMING_KEYS},
            "detail": self.detail,
            "instance": shown(self.case.path),
        }


def applies(method: str, case: Case) -> bool:
    return method != "competition" or case.family.kind == "aspcomp"


@dataclass(frozen=True)
class Settings:
    timeout: float
    grace: float
    memory_limit: float | None
    baseline: Path | None  # the worktree, None if it could not be made
    baseline_error: str = ""
    tables: Path | None = None
    """The pattern-table cache our runs share (``--cache shared``); None: each run of
    ours gets an empty one of its own (``cold``), as a first solve on a new machine."""


def ours_command(method: str, path: Path, timeout: float) -> list[str]:
    return solve_command(path, timeout, *(["--method", "astar"] if method == "astar" else []))


def competition_command(path: Path, timeout: float) -> list[str]:
    module = "benchmarks.harness.peers.competition"
    return [sys.executable, "-m", module, str(path), "--timeout", f"{timeout:g}"]


def _launched(record: Run, answer: Answer) -> dict[str, Any] | None:
    """The run's time, memory and exit code on ``record``; its JSON, or None (the
    record says why: killed, or no JSON)."""
    done = answer.run
    record.seconds, record.peak_mib, record.exit_code = done.seconds, done.peak_mib, done.returncode
    if answer.json is None:
        record.status = {"timeout": "TIMEOUT", "memory": "MEMOUT"}.get(done.stopped or "", "ERROR")
        record.detail = answer.why
    return answer.json


def run_ours(record: Run, puzzle: Puzzle, settings: Settings) -> None:
    """``asp``, ``astar`` or ``baseline``: the CLI in a fresh process."""
    tree = ROOT
    if record.method == "baseline":
        if settings.baseline is None:
            record.status, record.detail = "ERROR", settings.baseline_error
            return
        tree = settings.baseline
    command = ours_command(record.method, record.case.path, settings.timeout)
    answer = _launched(
        record,
        solve_json(
            command,
            tree,
            kill_after=settings.timeout + settings.grace,
            tables=settings.tables,
            memory_limit_mib=settings.memory_limit,
        ),
    )
    if answer is None:
        return
    result = str(answer.get("result"))
    record.length = answer.get("length")
    record.lower_bound = answer.get("lower_bound")
    record.upper_bound = answer.get("upper_bound")
    record.proven = result == "OPTIMUM FOUND"
    timings = answer.get("timings")
    if isinstance(timings, dict):
        record.timings = {k: v for k, v in timings.items() if isinstance(v, int | float)}
    if answer.get("plan"):
        record.check = check_plan(puzzle, answer["plan"])
    if record.check.startswith("failed"):
        record.status, record.proven = "INVALID PLAN", False
        record.detail = record.check
    elif answer.get("stopped") == "timeout":
        record.status = "TIMEOUT"
        record.detail = f"stopped with bounds {record.lower_bound}..{record.upper_bound}"
    elif result == "ERROR":
        record.status, record.detail = "ERROR", str(answer.get("error", ""))
    else:
        record.status = result
        record.detail = str(answer.get("bound", {}).get("name", ""))


def run_competition(record: Run, settings: Settings) -> None:
    command = competition_command(record.case.path, settings.timeout)
    answer = _launched(
        record,
        solve_json(
            command,
            ROOT,
            kill_after=settings.timeout + settings.grace,
            memory_limit_mib=settings.memory_limit,
        ),
    )
    if answer is None:
        return
    record.status, record.length = answer["status"], answer["length"]
    record.proven = record.status == "OPTIMUM FOUND"
    record.check = "ok" if record.proven else ""  # replayed by the peer before it answers
    record.detail = answer.get("detail", "")


def run_fd(record: Run, puzzle: Puzzle, settings: Settings) -> None:
    """A Fast Downward configuration or SymK."""
    if record.method == "symk":
        answer = symk.solve_symk(puzzle, settings.timeout, memory_limit_mib=settings.memory_limit)
    else:
        config = record.method.removeprefix("fd-")
        answer = fast_downward.solve_fd(
            puzzle, config, settings.timeout, memory_limit_mib=settings.memory_limit
        )
    record.status, record.length, record.seconds = answer.status, answer.length, answer.seconds
    record.peak_mib, record.detail = answer.peak_mib, answer.detail
    record.proven = answer.status == "OPTIMUM FOUND"
    record.check = "ok" if record.proven else ""  # replayed inside solve_fd


def run_once(record: Run, puzzle: Puzzle, settings: Settings) -> Run:
    try:
        if record.method in OURS:
            run_ours(record, puzzle, settings)
        elif record.method == "competition":
            run_competition(record, settings)
        else:
            run_fd(record, puzzle, settings)
    except Exception as error:  # a broken run is a row, not the end of the benchmark
        record.status, record.detail = "ERROR", f"{type(error).__name__}: {error}"
    if record.status == "OPTIMUM FOUND" and (record.seconds or 0) > settings.timeout:
        record.status = "TIMEOUT"
        record.detail = f"optimum proven after the limit ({record.seconds:.2f} s)"
    return record


def cross_check(runs: list[Run]) -> list[str]:
    """Mark ``agree`` on a case's runs; return the complaints (empty when all agree)."""
    optima = sorted({r.length for r in runs if r.proven and r.length is not None})
    if not optima:
        return []
    if len(optima) > 1:
        by_length = {
            n: sorted({r.method for r in runs if r.proven and r.length == n}) for n in optima
        }
        for r in runs:
            if r.proven:
                r.agree = "DISAGREE"
        shown = "; ".join(f"{n} by {', '.join(m)}" for n, m in by_length.items())
        return [f"DISAGREEMENT on {runs[0].case.name}: optimum {shown}"]
    optimum, complaints = optima[0], []
    for r in runs:
        if r.proven:
            r.agree = "ok"
        elif (r.lower_bound is not None and r.lower_bound > optimum) or (
            r.upper_bound is not None and r.upper_bound < optimum
        ):
            r.agree = "BOUND CONFLICT"
            complaints.append(
                f"BOUND CONFLICT on {r.case.name}: {r.method} run {r.run} has bounds "
                f"{r.lower_bound}..{r.upper_bound}, the optimum is {optimum}"
            )
    return complaints
