"""The pattern tables around clingo's search: the tables the propagator checks, when it
checks every cut, and weighted A* on them to bring the best plan down first.

>>> from hanoi_asp.engine.policy import choose_strategy
>>> from hanoi_asp.model.options import SolveOptions
>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> pattern_tables(p, choose_strategy(p, SolveOptions(), None), None) is None  # distance3.lp
True
"""

from __future__ import annotations

import time

from hanoi_asp.engine.policy import Strategy
from hanoi_asp.engine.pruning import PatternPruning
from hanoi_asp.engine.solver import HorizonSolver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import Partitioned, goal_database
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.puzzle import Puzzle


def pattern_tables(
    puzzle: Puzzle, plan: Strategy, deadline: float | None, every_cut: bool = False
) -> Partitioned | None:
    """The tables the pattern propagator checks, if the strategy uses it: the lower
    bound's cuts, built already unless it ran out of time, or every cut; None if
    ``deadline`` passes first: the search then goes on without the propagator."""
    if not plan.patterns:
        return None
    try:
        return goal_database(puzzle, deadline=deadline, every_cut=every_cut)
    except TimeoutError:
        return None


def check_every_cut(run: SearchState, plan: Strategy, solver: HorizonSolver) -> bool:
    """Have the propagator check every cut, not only the
    :data:`~hanoi_asp.methods.patterns.CUTS_BUILT` the bound chose, once clingo has
    spent refuting horizons as long as the bounds took (a ski-rental rule: the rest of
    the tables cost about that again, or more).  The larger estimate prunes more where
    horizons must be refuted; where the first horizons hold a plan the tables are not
    worth building (``benchmarks/hard.py`` times the solves this serves).  True once
    done (or if there is nothing to do)."""
    propagator = getattr(solver, "propagator", None)
    if not isinstance(propagator, PatternPruning):
        return True
    if solver.calls.solving < run.timings.get("bounds", 0.0):
        return False
    began = time.monotonic()
    tables = pattern_tables(run.puzzle, plan, run.deadline, every_cut=True)
    run.timed("bounds", began)
    if tables is not None and len(tables) > len(propagator.tables):
        propagator.retable(tables)
    return True


SHORTEN_SECONDS = 0.5
"""Most time :func:`shorten_best` takes (less when the user's time limit is near)."""
SHORTEN_WEIGHTS = (2.0, 1.5)
"""Weighted A*'s weights, tried in turn while time is left: 2 reaches a goal soonest,
1.5 often gives a shorter plan."""


def shorten_best(run: SearchState, tables: Partitioned) -> None:
    """Bring the best plan down before clingo raises the lower bound: weighted A* on the
    pattern tables (:func:`hanoi_asp.methods.astar.search`) gives a plan at most w times
    the optimum's length, in practice near it; it is replayed and offered like every
    plan.  It proves nothing, so no proof changes; but a stopped search answers with a
    far better plan, and a plan that meets the rising lower bound ends the search one
    horizon sooner (clingo need not solve the optimum's horizon).  Skipped where the
    plan in hand is within 10% of the lower bound.  Measured by
    ``python -m benchmarks.anytime``."""
    began = time.monotonic()
    stop = began + SHORTEN_SECONDS
    deadline = stop if run.deadline is None else min(stop, run.deadline)
    for weight in SHORTEN_WEIGHTS:
        if run.best is None or len(run.best) * 10 <= run.lower * 11:
            break
        found = astar.search(run.puzzle, tables, deadline=deadline, weight=weight)
        if found.steps is None:
            break  # out of time: a smaller weight would take longer still
        if len(found.steps) < len(run.best):
            moves = replay(run.puzzle, found.steps)
            run.offer(moves, PlanOrigin("weighted-astar", len(moves), weight=weight))
    run.timed("first_plan", began)
