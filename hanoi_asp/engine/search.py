"""The upward search: the first satisfiable horizon from a sound lower bound is minimal.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> r = search(p, SolveOptions())
>>> r.result, r.length
('OPTIMUM FOUND', 3)

Why the first satisfiable horizon is minimal: no plan is shorter than the lower
bound L (see :mod:`hanoi_asp.engine.bounds`), and every horizon from L up to it was
proven unsatisfiable.  Pruning constraints keep every minimal plan, so a horizon
refuted with them has no minimal plan, and the first one with a plan is the optimum.
Every plan is replayed by :func:`hanoi_asp.model.plan.replay` before it is returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from hanoi_asp.engine.bounds import lower_bound
from hanoi_asp.engine.distance3 import distance3_facts
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.engine.mirror import half_plan, unfold
from hanoi_asp.engine.policy import MIRROR_THREADS, EnginePlan, plan_engine
from hanoi_asp.engine.solver import HorizonSolver, IncrementalSolver, OneShotSolver, Steps
from hanoi_asp.model.errors import EncodingPlanError, HanoiError, VerificationError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import HorizonRun, LowerBound, Result, Verdict


def make_solver(
    puzzle: Puzzle, plan: EnginePlan, *, minimal: bool, warnings: bool = False
) -> HorizonSolver:
    """The driver the plan asks for; ``minimal`` adds the pruning that keeps only
    minimal plans (never for a fixed-horizon question)."""
    encoding = plan.encoding
    if plan.mode == "oneshot":
        return OneShotSolver(
            puzzle,
            encoding.text,
            encoding_path=encoding.name,
            options=plan.clingo_options,
            threads=plan.threads,
            warnings=warnings,
        )
    extra = ""
    if plan.distance3:
        extra = read_encoding("distance3") + "\n" + distance3_facts(puzzle)
    return IncrementalSolver(
        puzzle,
        encoding.text,
        prune=minimal,
        encoding_path=encoding.name,
        options=plan.clingo_options,
        extra=extra,
        threads=plan.threads,
        warnings=warnings,
    )


def answer(
    plan: EnginePlan, horizon: int, call: Callable[[], tuple[HorizonRun, Steps | None]]
) -> tuple[HorizonRun, Steps | None]:
    """A solver's answer; a malformed one (no move at a step, two at one) is blamed as
    :func:`verified` blames a rejected plan."""
    try:
        return call()
    except VerificationError as error:
        raise _blame(plan, horizon, error) from None


def verified(
    puzzle: Puzzle, plan: EnginePlan, horizon: int, steps: Steps | None
) -> tuple[Move, ...] | None:
    """The simulator's replay of a solver's steps (None if it has none)."""
    if steps is None:
        return None
    try:
        return replay(puzzle, steps)
    except VerificationError as error:
        raise _blame(plan, horizon, error) from None


def _blame(plan: EnginePlan, horizon: int, error: VerificationError) -> HanoiError:
    """A plan the simulator rejects from a user's encoding is the user's error (exit 2,
    naming the first bad step); from the shipped encodings it is ours (exit 4)."""
    if not plan.user_encoding:
        return error
    return EncodingPlanError(
        f"the encoding's plan of {horizon} moves is illegal or incomplete: {error.message}",
        path=plan.encoding.name,
    )


@dataclass
class _Run:
    """One search in progress: what is known so far, turned into a :class:`Result`."""

    puzzle: Puzzle
    options: SolveOptions
    plan: EnginePlan
    bound: LowerBound
    limit: int
    started: float = field(default_factory=time.monotonic)
    runs: list[HorizonRun] = field(default_factory=list)

    def result(
        self,
        verdict: Verdict,
        proof: str,
        moves: tuple[Move, ...] | None = None,
        *,
        stopped: str | None = None,
        unreachable: bool = False,
        threads: int | None = None,
        exact_moves: int | None = None,
    ) -> Result:
        return Result(
            puzzle=self.puzzle,
            result=verdict,
            plan=moves,
            lower_bound=self.bound,
            max_moves=self.limit,
            proof=proof,
            time_s=time.monotonic() - self.started,
            mode=self.plan.mode,
            exact_moves=exact_moves,
            stopped=stopped,
            horizons=tuple(self.runs),
            unreachable=unreachable,
            threads=self.plan.threads if threads is None else threads,
            programs=self.plan.programs,
            source=self.options.source,
        )


def search(puzzle: Puzzle, options: SolveOptions) -> Result:
    """Find a proven-minimal plan with clingo, or decide whether a plan of exactly
    ``options.exact_moves`` moves exists."""
    pegs, disks, where = len(puzzle.pegs), puzzle.disks, options.source
    options.limits.check_size(pegs=pegs, disks=disks, where=where)
    started = time.monotonic()
    deadline = None if options.timeout is None else started + options.timeout
    bound = lower_bound(puzzle, options.bound)
    if options.exact_moves is not None:
        plan = plan_engine(puzzle, options, None)
        run = _Run(puzzle, options, plan, bound, options.exact_moves, started)
        return _decide_exact(run, options.exact_moves, deadline)
    plan = plan_engine(puzzle, options, bound)
    limit = options.move_limit(puzzle)
    run = _Run(puzzle, options, plan, bound, limit, started)
    if bound.unreachable:
        return run.result(
            "UNSATISFIABLE", f"no plan exists at all: {bound.argument}", unreachable=True
        )
    if bound.value > limit:
        return run.result(
            "UNSATISFIABLE", f"no plan of at most {limit} moves: the lower bound is {bound.value}"
        )
    if plan.mirror:
        horizon = bound.value
        options.limits.check_horizon(horizon=horizon, pegs=pegs, disks=disks, where=where)
        try:
            half_run, half = half_plan(
                puzzle, horizon, deadline, options.clingo_options, MIRROR_THREADS
            )
        except KeyboardInterrupt:
            return run.result("UNKNOWN", _refuted(bound, horizon), stopped="interrupt")
        run.runs.append(half_run)
        if half is not None:
            mirrored = replay(puzzle, unfold(puzzle, half))
            how = (
                f"; found as {half_run.horizon} moves by clingo, the largest disk's move, and "
                "those moves backwards with start and goal pegs swapped (mirror phase)"
            )
            return run.result(
                "OPTIMUM FOUND", _minimal(bound, horizon) + how, mirrored, threads=MIRROR_THREADS
            )
        if half_run.status == "UNKNOWN":
            return run.result("UNKNOWN", _refuted(bound, horizon), stopped="timeout")
    solver = make_solver(puzzle, plan, minimal=True)
    for horizon in range(bound.value, limit + 1):
        options.limits.check_horizon(horizon=horizon, pegs=pegs, disks=disks, where=where)
        if deadline is not None and time.monotonic() >= deadline:
            return run.result("UNKNOWN", _refuted(bound, horizon), stopped="timeout")
        try:
            horizon_run, steps = answer(plan, horizon, partial(solver.run, horizon, deadline))
        except KeyboardInterrupt:
            return run.result("UNKNOWN", _refuted(bound, horizon), stopped="interrupt")
        run.runs.append(horizon_run)
        if horizon_run.status == "UNKNOWN":
            return run.result("UNKNOWN", _refuted(bound, horizon), stopped="timeout")
        moves = verified(puzzle, plan, horizon, steps)
        if moves is not None:
            return run.result("OPTIMUM FOUND", _minimal(bound, horizon), moves)
    return run.result(
        "UNSATISFIABLE", f"no plan of at most {limit} moves: {_refuted(bound, limit + 1)}"
    )


def _refuted(bound: LowerBound, horizon: int) -> str:
    """What is proven once every horizon below ``horizon`` has been refuted."""
    if horizon <= bound.value:
        if bound.value == 0:
            return "no horizon was refuted yet (no lower bound was used)"
        return f"no plan has fewer than {bound.value} moves (lower bound: {bound.name})"
    if bound.value == 0:
        return f"no plan has fewer than {horizon} moves: 0..{horizon - 1} proven unsatisfiable"
    return (
        f"no plan has fewer than {horizon} moves: fewer than {bound.value} by the "
        f"lower bound ({bound.name}), {bound.value}..{horizon - 1} proven unsatisfiable"
    )


def _minimal(bound: LowerBound, horizon: int) -> str:
    if horizon == bound.value:
        return (
            f"minimal: the plan meets the lower bound {bound.value} "
            f"({bound.name}: {bound.argument})"
        )
    if bound.value == 0:
        return f"minimal: horizons 0..{horizon - 1} proven unsatisfiable by clingo"
    return (
        f"minimal: horizons {bound.value}..{horizon - 1} proven unsatisfiable by "
        f"clingo, and no plan is shorter than {bound.value} ({bound.name})"
    )


def _decide_exact(run: _Run, moves: int, deadline: float | None) -> Result:
    """The quickstart's question: is there a plan of exactly ``moves`` moves?"""
    puzzle = run.puzzle
    run.options.limits.check_horizon(
        horizon=moves, pegs=len(puzzle.pegs), disks=puzzle.disks, where=run.options.source
    )
    solver = make_solver(puzzle, run.plan, minimal=False)
    found: tuple[Move, ...] | None = None
    stopped: str | None = None
    try:
        horizon_run, steps = answer(run.plan, moves, partial(solver.run, moves, deadline))
        run.runs.append(horizon_run)
    except KeyboardInterrupt:
        verdict: Verdict = "UNKNOWN"
        stopped = "interrupt"
    else:
        found = verified(puzzle, run.plan, moves, steps)
        if found is not None:
            verdict = "SATISFIABLE"
        elif horizon_run.status == "UNSAT":
            verdict = "UNSATISFIABLE"
        else:
            verdict, stopped = "UNKNOWN", "timeout"
    proof = {
        "SATISFIABLE": f"a plan of exactly {moves} moves (not claimed minimal)",
        "UNSATISFIABLE": f"clingo proved that no plan has exactly {moves} moves",
        "UNKNOWN": f"stopped before deciding whether a plan of exactly {moves} moves exists",
    }[verdict]
    return run.result(verdict, proof, found, stopped=stopped, exact_moves=moves)
