"""The pattern tables around clingo's search: the tables the propagator checks, and when
it checks every cut.

>>> from hanoi_asp.engine.policy import choose_strategy
>>> from hanoi_asp.model.options import SolveOptions
>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> pattern_tables(p, choose_strategy(p, SolveOptions(), None), None) is None  # distance3.lp
True
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

from hanoi_asp.engine.policy import Strategy
from hanoi_asp.engine.pruning import PatternPruning
from hanoi_asp.engine.solver import HorizonSolver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods.patterns import (
    Partitioned,
    goal_database,
    saved_seconds,
    strong_exact,
    strong_price,
)
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


@contextlib.contextmanager
def bounds_phase(run: SearchState) -> Iterator[None]:
    """Time the block as the bounds', and add to ``run.cache_saved`` the build time the
    on-disk cache saved in it (tables read rather than built): :func:`bounds_price`."""
    began, saved = time.monotonic(), saved_seconds(run.puzzle)
    try:
        yield
    finally:
        run.timed("bounds", began)
        run.cache_saved += max(saved_seconds(run.puzzle) - saved, 0.0)


def timed_tables(
    run: SearchState, plan: Strategy, every_cut: bool = False, strong: bool = False
) -> Partitioned | None:
    """:func:`pattern_tables` for the run, in :func:`bounds_phase` (the rent rules weigh
    what the tables cost by it)."""
    with bounds_phase(run):
        return pattern_tables(run.puzzle, plan, run.deadline, every_cut=every_cut, strong=strong)


def own_searches(run: SearchState, tables: Partitioned | None) -> bool:
    """Whether the engine's own searches on the tables (A* racing clingo, the beam) may
    run beside clingo: the tables are built, and clingo solves a shipped encoding (a
    user's encoding finds its plans itself, and proves them)."""
    strategy = run.strategy
    return tables is not None and strategy is not None and not strategy.user_encoding


def check_every_cut(
    run: SearchState,
    plan: Strategy,
    solver: HorizonSolver,
    buy_strong: bool = True,
    on_tables: Callable[[Partitioned], None] | None = None,
    beam_time: float = 0.0,
) -> bool:
    """Hand the propagator stronger tables as refuting horizons proves costly: a
    ski-rental rule, each purchase once the rent paid reaches its price, the rent being
    the time searches spent on the weaker tables (clingo's, and ``beam_time``, the
    beam's: it gains from stronger tables too).  First every cut of the bound's tables,
    not only the :data:`~hanoi_asp.methods.patterns.database.CUTS_BUILT` it chose, once
    the rent is as long as the bounds took, or would have without the on-disk cache
    (:func:`bounds_price`; the rest cost about that again); then the strong tables
    (:func:`~hanoi_asp.methods.patterns.strong_price`, 0 when cached), once it has
    spent their price too; or at once, instead of the first purchase, when they are
    one table of every disk (:func:`~hanoi_asp.methods.patterns.strong_exact`): the
    exact distance, after which no horizon is left to refute.  Where the first
    horizons hold a plan neither is worth building (``python -m benchmarks.hard`` times the
    solves this serves).  Not ``buy_strong`` (A* racing clingo builds them already, and
    keeps them in the on-disk cache), the strong tables wait until they are free, and
    clingo stays free to take A*'s answer as soon as it comes.  ``on_tables`` is handed
    each purchase (the beam brings the best plan down further on stronger tables:
    :meth:`hanoi_asp.engine.shorten.Shortener.retable`).  True once done (or if there is
    nothing to do)."""
    propagator = getattr(solver, "propagator", None)
    if not isinstance(propagator, PatternPruning):
        return True
    spent = solver.calls.solving + beam_time
    if spent < bounds_price(run):
        return False
    price, exact = strong_price(run.puzzle), strong_exact(run.puzzle)
    strong = propagator.widened or price == 0 or exact
    if strong and price > 0 and not buy_strong:
        if propagator.widened:
            return False  # until the strong tables are free (built by A*, in the cache)
        strong = False  # every cut meanwhile
    if strong and spent < price and not exact:
        return False
    tables = timed_tables(run, plan, every_cut=True, strong=strong)
    if tables is not None and tables is not propagator.tables:
        propagator.retable(tables)
        if on_tables is not None:
            on_tables(tables)
    propagator.widened = True
    return strong


def bounds_price(run: SearchState) -> float:
    """What the bounds cost: their time, plus the build time the on-disk cache saved
    in them (:func:`bounds_phase`).  A warm solve reads the bound's tables in
    milliseconds; priced by that alone it bought every cut at once and built tables its
    cold solve never needed (``python -m benchmarks.warm_tables``: random5-n12-full-0,
    0.27 s of tables warm against 0.15 s cold).  Priced so, it waits about as long as
    the cold one did."""
    return run.timings.get("bounds", 0.0) + run.cache_saved
