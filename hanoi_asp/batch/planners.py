"""Classical planners as batch configurations: Fast Downward, SymK, or any planner
driver on the PATH, run on the puzzle's PDDL (:mod:`hanoi_asp.outputs.pddl`), their
plan read back (:mod:`hanoi_asp.inputs.pddl_plan`) and replayed by the simulator.

    from hanoi_asp.batch.planners import run_planner
    result = run_planner(puzzle, Planner.parse("symk"), SolveOptions(timeout=60))

Fast Downward and SymK come from PyPI (``pip install 'hanoi-asp[planners]'``:
``up-fast-downward``, ``up-symk``, the Unified Planning project's builds, which ship
each planner's own driver ``fast-downward.py`` with its compiled search).  The driver is
called directly on our files, not through Unified Planning's Python objects: the search
is the configuration's to choose, and the planner's whole run is one process group of
its own that is timed and killed as one.

A run has the limits of any batch configuration: it is killed with its whole process
group at the time limit (``UNKNOWN``, ``stopped: timeout``), each of its processes has
the batch's memory cap as its address space (Fast Downward reports running out with its
own exit codes: ``UNKNOWN``, ``stopped: memory``), and it dies with the worker that runs
it (``PR_SET_PDEATHSIG``; and a CPU-time limit just past the time limit, which every
process it starts inherits: :func:`hanoi_asp.processes.run_command`).  Its answer is a
:class:`~hanoi_asp.model.result.Result` whose proof says whose claim it is
(:class:`~hanoi_asp.model.proof.PlannerRun`): a plan of a search known to be optimal is
``OPTIMUM FOUND`` by the planner's claim, any other plan ``SATISFIABLE``; a plan the
simulator rejects is a :class:`PlannerPlanError` (the batch's ``ERROR`` row, with the
step and the rule it breaks).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from hanoi_asp.inputs.pddl_plan import plan_steps
from hanoi_asp.model.errors import HanoiError, InputError, VerificationError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.planner import PLACEHOLDERS, Planner
from hanoi_asp.model.proof import UNREACHABLE, LowerBound, PlannerRun, PlanOrigin, Proof, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result, Verdict
from hanoi_asp.outputs.answer import assemble
from hanoi_asp.outputs.pddl import hanoi_pddl
from hanoi_asp.processes import run_command

INSTALL_HINT = "needs the planners extra: pip install 'hanoi-asp[planners]'"
DRIVERS = {"fast-downward": ("up_fast_downward", "downward"), "symk": ("up_symk", "symk")}
"""Where each planner's ``fast-downward.py`` lies: (package, folder in it)."""
UNSOLVABLE = {10, 11}
"""Fast Downward's exit codes for "proven unsolvable" (translator, complete search);
https://www.fast-downward.org/latest/documentation/exit-codes/"""
OUT_OF_MEMORY = {1, 20, 22, 24}
OUT_OF_TIME = {2, 3, 21, 23}
UNSOLVED = {12}
"""Ended without a plan and without proving there is none (SymK says so of a goal it
cannot reach): ``UNKNOWN``."""
PLAN_FOUND = {0, 1, 2, 3}
"""Exit codes with which a plan file may have been written (anytime searches stopped at
a limit keep their best plan)."""


class PlannerError(HanoiError):
    """A planner run that gave no answer (an error of the planner or of its
    configuration): the batch's ``ERROR`` row."""


class PlannerPlanError(PlannerError):
    """The planner's plan does not fit the PDDL or the simulator rejects it; the message
    names the step and the rule it breaks."""


def driver(planner: Planner) -> list[str]:
    """The command that starts ``planner``'s driver, without its arguments; an
    :class:`InputError` naming the extra (or the program) when it is not installed."""
    if planner.kind == "command":
        program = planner.words()[0]
        found = shutil.which(program)
        if found is None:
            raise InputError(f"planner:{planner.spec}: no program {program!r} on the PATH")
        return [found]
    package, folder = DRIVERS[planner.kind]
    spec = find_spec(package)
    folders = list(spec.submodule_search_locations or []) if spec else []
    path = Path(folders[0] if folders else ".") / folder / "fast-downward.py"
    if not path.is_file():
        raise InputError(f"planner:{planner.kind} {INSTALL_HINT}")
    return [sys.executable, str(path)]


def planner_command(planner: Planner, work: Path) -> list[str]:
    """The whole command line, run in ``work`` (which holds ``domain.pddl`` and
    ``problem.pddl``; the plan is to be written to ``plan``)."""
    start = driver(planner)
    if planner.kind != "command":
        return [
            *start,
            "--plan-file",
            "plan",
            "domain.pddl",
            "problem.pddl",
            "--search",
            planner.search,
        ]
    files = dict(zip(PLACEHOLDERS, ("domain.pddl", "problem.pddl", "plan"), strict=True))
    words = list(planner.words()[1:])
    for placeholder, name in files.items():
        words = [word.replace(placeholder, str(work / name)) for word in words]
    return [*start, *words]


@dataclass(frozen=True)
class PlannerEnded:
    """How the planner's process group ended."""

    exit_code: int | None
    """None: killed at the time limit."""
    seconds: float
    log: str


def run_process(
    command: list[str], work: Path, timeout: float | None, memory_limit: int | None
) -> PlannerEnded:
    """Run ``command`` in ``work`` as a capped process group of its own
    (:func:`~hanoi_asp.processes.run_command`), killed as one at ``timeout`` seconds."""
    log_path = work / "planner.log"
    ended = run_command(command, work, log_path, seconds=timeout, memory=memory_limit)
    log = log_path.read_text(encoding="utf-8", errors="replace")
    return PlannerEnded(ended.exit_code, ended.seconds, log)


def last_line(text: str, limit: int = 300) -> str:
    """The last non-empty line of ``text``, shortened: a failed planner's gist."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:limit] if lines else "(no output)"


def _plan_file(work: Path) -> Path | None:
    """``plan``, or an anytime search's last ``plan.N``."""
    if (work / "plan").is_file():
        return work / "plan"
    numbered = [(int(p.suffix[1:]), p) for p in work.glob("plan.*") if p.suffix[1:].isdigit()]
    return max(numbered)[1] if numbered else None


def run_planner(
    puzzle: Puzzle,
    planner: Planner,
    options: SolveOptions | None = None,
    memory_limit: int | None = None,
    keep: Path | None = None,
) -> Result:
    """``planner`` on ``puzzle`` under ``options.timeout`` (counted from
    ``options.started`` when set) and ``memory_limit`` bytes of address space per
    process; ``keep``: a folder to copy the PDDL, the plan and the planner's log into.
    Raises :class:`PlannerError` when the planner fails, :class:`PlannerPlanError` when
    its plan is rejected."""
    options = options or SolveOptions()
    started = time.monotonic()
    timeout = options.time_left(started)
    driver(planner)  # before any file is written: not installed is one line
    with tempfile.TemporaryDirectory(prefix="hanoi-planner-") as folder:
        work = Path(folder)
        domain, problem = hanoi_pddl(puzzle)
        (work / "domain.pddl").write_text(domain, encoding="utf-8")
        (work / "problem.pddl").write_text(problem, encoding="utf-8")
        done = run_process(planner_command(planner, work), work, timeout, memory_limit)
        plan_file = _plan_file(work)
        plan_text = None if plan_file is None else plan_file.read_text(encoding="utf-8")
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for path in work.iterdir():
                shutil.copyfile(path, keep / path.name)
    run = PlannerRun(planner.spec, planner.name, planner.optimal, done.exit_code, done.seconds)

    def answer(
        verdict: Verdict,
        *,
        plan_steps_: list[tuple[int, str]] | None = None,
        stopped: Stop | None = None,
        unreachable: bool = False,
    ) -> Result:
        moves = None if plan_steps_ is None else _replayed(puzzle, planner, plan_steps_)
        length = None if moves is None else len(moves)
        limit = options.move_limit(puzzle)
        claims = planner.optimal and length is not None
        if unreachable:
            bound = LowerBound(UNREACHABLE, "planner", f"{run.name} proved the goal unreachable")
        elif claims:
            assert length is not None
            bound = LowerBound(length, "planner", f"{run.name}'s optimal search's claim")
        else:
            bound = LowerBound(
                0, "none", "no lower bound: the planner's plan is not claimed minimal"
            )
        if length is not None and limit is not None and length > limit:
            verdict = "UNSATISFIABLE" if claims else "UNKNOWN"
        lower = None if unreachable else bound.value
        proof = Proof(
            kind="planner",
            lower=lower,
            bound=bound,
            plan=None if length is None else PlanOrigin("planner", length),
            planner=run,
            stopped=stopped,
            time_limit=timeout if stopped == "timeout" else None,
            memory_limit=memory_limit if stopped == "memory" else None,
            max_moves=limit,
        )
        within = moves is not None and (limit is None or len(moves) <= limit)
        return assemble(
            puzzle,
            options,
            started,
            verdict,
            proof,
            plan=moves if within else None,
            bound=bound,
            lower=lower,
            upper=length,
            max_moves=limit,
            method="planner",
            stopped=stopped,
            unreachable=unreachable,
        )

    code = done.exit_code
    if code is None:
        return answer("UNKNOWN", stopped="timeout")
    if plan_text is not None and (code in PLAN_FOUND or planner.kind == "command"):
        try:
            steps = plan_steps(puzzle, plan_text)
        except VerificationError as error:
            raise PlannerPlanError(
                f"planner:{planner.spec}: its plan is rejected: {error}"
            ) from None
        exact = code == 0 or planner.kind == "command"
        verdict: Verdict = "OPTIMUM FOUND" if planner.optimal and exact else "SATISFIABLE"
        return answer(verdict, plan_steps_=steps)
    if code in OUT_OF_MEMORY and planner.kind != "command":
        return answer("UNKNOWN", stopped="memory")
    if code in OUT_OF_TIME and planner.kind != "command":
        return answer("UNKNOWN", stopped="timeout")
    if code in UNSOLVABLE and planner.kind != "command":
        return answer("UNSATISFIABLE", unreachable=True)
    if code in UNSOLVED and planner.kind != "command":
        return answer("UNKNOWN")
    why = "no plan file" if code == 0 else f"exit code {code}"
    raise PlannerError(f"planner:{planner.spec} failed ({why}): {last_line(done.log)}")


def _replayed(puzzle: Puzzle, planner: Planner, steps: list[tuple[int, str]]) -> tuple[Move, ...]:
    try:
        return replay(puzzle, steps)
    except VerificationError as error:
        raise PlannerPlanError(f"planner:{planner.spec}: its plan is rejected: {error}") from None
