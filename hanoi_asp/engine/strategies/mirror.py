"""A whole tower with an exact bound: half a plan, mirrored (:mod:`hanoi_asp.engine.mirror`).

The bound is the optimum and odd, 2h + 1: clingo searches the first h moves of a
mirrored plan, one half horizon, and the plan's length meets the bound's own proof.  If
clingo finds no such half, the upward search runs as for any puzzle.
"""

from __future__ import annotations

from functools import partial

from hanoi_asp.engine.loop import ask
from hanoi_asp.engine.mirror import mirrored_length, unfold
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.strategies.upward import upward
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.result import Result


def mirror(run: SearchState) -> Result:
    """The mirrored plan, minimal by the bound; else the upward search's answer."""
    assert run.strategy is not None and run.bound is not None
    puzzle, options, horizon = run.puzzle, run.options, run.bound.value
    pegs, disks = len(puzzle.pegs), puzzle.disks
    options.limits.check_horizon(horizon=horizon, pegs=pegs, disks=disks, where=options.source)
    solver = make_solver(puzzle, run.strategy, minimal=True, phase="mirror-half")
    run.solvers.append(solver)
    run.report(horizon)
    half = (horizon - 1) // 2
    record, moves = ask(run, solver, half, "mirror-half", mirrored_length, partial(unfold, puzzle))
    if moves is not None:
        origin = PlanOrigin("mirror", len(moves), half=record.horizon)
        return run.optimum(run.minimal(origin), moves, threads=run.strategy.half_threads)
    if record.status == "UNKNOWN":
        return run.stop("timeout")
    return upward(run)
