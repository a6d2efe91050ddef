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
from hanoi_asp.methods.patterns import Partitioned, goal_database, strong_exact, strong_price
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.puzzle import Puzzle


def pattern_tables(
    puzzle: Puzzle,
    plan: Strategy,
    deadline: float | None,
    every_cut: bool = False,
    strong: bool = False,
) -> Partitioned | None:
    """The tables the pattern propagator checks, if the strategy uses it: the lower
    bound's cuts, built already unless it ran out of time, or every cut; the strong
    tables if asked for or free (in the on-disk cache); None if ``deadline`` passes
    first: the search then goes on without the propagator."""
    if not plan.patterns:
        return None
    try:
        strong = strong or strong_price(puzzle) == 0
        return goal_database(puzzle, deadline=deadline, every_cut=every_cut, strong=strong)
    except TimeoutError:
        return None


def check_every_cut(
    run: SearchState, plan: Strategy, solver: HorizonSolver, buy_strong: bool = True
) -> bool:
    """Hand the propagator stronger tables as refuting horizons proves costly: a
    ski-rental rule, each purchase once the rent paid (clingo's search time) reaches
    its price.  First every cut of the bound's tables, not only the
    :data:`~hanoi_asp.methods.patterns.database.CUTS_BUILT` it chose, once clingo has
    spent as long as the bounds took (the rest cost about that again); then the strong tables
    (:func:`~hanoi_asp.methods.patterns.strong_price`, 0 when cached), once it has
    spent their price too; or at once, instead of the first purchase, when they are
    one table of every disk (:func:`~hanoi_asp.methods.patterns.strong_exact`): the
    exact distance, after which no horizon is left to refute.  Where the first
    horizons hold a plan neither is worth building (``python -m benchmarks.hard`` times the
    solves this serves).  Not ``buy_strong`` (A* racing clingo builds them already, and
    keeps them in the on-disk cache), the strong tables wait until they are free, and
    clingo stays free to take A*'s answer as soon as it comes.  True once done (or if
    there is nothing to do)."""
    propagator = getattr(solver, "propagator", None)
    if not isinstance(propagator, PatternPruning):
        return True
    spent = solver.calls.solving
    if spent < run.timings.get("bounds", 0.0):
        return False
    price, exact = strong_price(run.puzzle), strong_exact(run.puzzle)
    strong = propagator.widened or price == 0 or exact
    if strong and price > 0 and not buy_strong:
        if propagator.widened:
            return False  # until the strong tables are free (built by A*, in the cache)
        strong = False  # every cut meanwhile
    if strong and spent < price and not exact:
        return False
    began = time.monotonic()
    tables = pattern_tables(run.puzzle, plan, run.deadline, every_cut=True, strong=strong)
    run.timed("bounds", began)
    if tables is not None and tables is not propagator.tables:
        propagator.retable(tables)
        if strong and not plan.user_encoding:
            # the strong tables bring the best plan down further, often to the optimum,
            # which then ends the search as soon as the lower bound meets it
            shorten_best(run, tables, close=1.0)
    propagator.widened = True
    return strong


SHORTEN_SECONDS = 0.5
"""Most time :func:`shorten_best` takes (less when the user's time limit is near)."""
SHORTEN_WEIGHTS = (1.5, 2.0, 5.0)
"""Weighted A*'s weights, tried in turn, each with an equal share of the time left,
until one gives a plan: 1.5 gives the optimum or near it in a fraction of a second
where the tables are strong (the competition's instances: 0.11-0.35 s, where 5 found
nothing in 5 s: greedier is not sooner there), 5 still reaches a goal where the smaller
weights run out of time."""


def shorten_best(run: SearchState, tables: Partitioned, close: float = 1.1) -> None:
    """Bring the best plan down before clingo raises the lower bound: weighted A* on the
    pattern tables (:func:`hanoi_asp.methods.astar.search`) gives a plan at most w times
    the optimum's length, in practice near it; it is replayed and offered like every
    plan.  It proves nothing, so no proof changes; but a stopped search answers with a
    far better plan, and a plan that meets the rising lower bound ends the search one
    horizon sooner (clingo need not solve the optimum's horizon).  Skipped where the
    plan in hand is within ``close`` times the lower bound.  Measured by
    ``python -m benchmarks.anytime``."""
    began = time.monotonic()
    stop = began + SHORTEN_SECONDS
    deadline = stop if run.deadline is None else min(stop, run.deadline)
    for index, weight in enumerate(SHORTEN_WEIGHTS):
        left = deadline - time.monotonic()
        if run.best is None or len(run.best) <= run.lower * close or left <= 0:
            break
        share = time.monotonic() + left / (len(SHORTEN_WEIGHTS) - index)
        found = astar.search(run.puzzle, tables, deadline=share, weight=weight)
        if found.steps is None:
            continue  # out of its share: a greedier weight may still reach a goal
        if len(found.steps) < len(run.best):
            moves = replay(run.puzzle, found.steps)
            run.offer(moves, PlanOrigin("weighted-astar", len(moves), weight=weight))
        break  # a greedier weight would give a longer plan
    run.timed("first_plan", began)
