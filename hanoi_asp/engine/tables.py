"""The pattern tables around clingo's search: the tables the propagator checks, and the
stronger ones bought as refuting horizons proves costly.

>>> from hanoi_asp.engine.policy import choose_strategy
>>> from hanoi_asp.model.options import SolveOptions
>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> pattern_tables(p, choose_strategy(p, SolveOptions(), None), None) is None  # distance3.lp
True

Each purchase is a ski-rental rule in work (:mod:`hanoi_asp.engine.ledger`): it is made
once the rent paid searching on the weaker tables (clingo's work and the beam's) reaches
its price, the work of building it, as if built (a table read from the on-disk cache is
priced the same: the cache saves the time, never changes a decision).  First every cut
of the bound's tables, not only the :data:`~hanoi_asp.methods.patterns.database.CUTS_BUILT`
it chose, once the rent reaches what the bound's tables cost; then the strong tables
(:func:`~hanoi_asp.methods.patterns.strong_price`) once it reaches their price too; or at
once, instead of the first purchase, where they are one table of every disk (the exact
distance, after which no horizon is left to refute).  Where the first horizons hold a
plan neither is worth building.  While A* races clingo it builds the strong tables
itself: clingo takes them only once A* has (their price paid too), so the two never
build them at once.  ``docs/decisions/tables.md`` has the measurements.
"""

from __future__ import annotations

from hanoi_asp.engine.policy import Strategy
from hanoi_asp.methods.patterns import (
    Partitioned,
    goal_database,
    strong_exact,
    strong_price,
    tables_price,
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
    bound's cuts (built already unless it ran out of time), or every cut, or the strong
    tables; None if ``deadline`` passes first: the search then goes on without the
    propagator."""
    if not plan.patterns:
        return None
    try:
        return goal_database(puzzle, deadline=deadline, every_cut=every_cut, strong=strong)
    except TimeoutError:
        return None


class Purchases:
    """The stronger tables one search (on ``puzzle`` with ``plan``, until ``deadline``)
    may buy, in order: every cut, then the strong ones (see the module docstring)."""

    def __init__(
        self, puzzle: Puzzle, plan: Strategy, deadline: float | None, bound_tables: Partitioned
    ) -> None:
        self.puzzle, self.plan, self.deadline = puzzle, plan, deadline
        self.first_price = tables_price(puzzle, bound_tables)
        """What the bound's tables cost: the rent before any purchase."""
        self.strong_price = strong_price(puzzle)
        self.exact = strong_exact(puzzle)
        self.widened = False
        """Every cut bought (the strong tables come next)."""
        self.done = False

    def due(self, rent: int, rival_has_strong: bool | None) -> bool | None:
        """What to buy now for ``rent`` paid: True the strong tables, False every cut,
        None nothing.  ``rival_has_strong``: None if no A* races clingo, else whether
        it has bought the strong tables (clingo waits for that)."""
        if self.done or rent < self.first_price:
            return None
        if self.exact:
            return True
        if not self.widened:
            return False
        if rent < self.strong_price or rival_has_strong is False:
            return None
        return True

    def buy(self, strong: bool) -> tuple[Partitioned | None, int]:
        """The tables of the purchase and their price (as if built)."""
        tables = pattern_tables(
            self.puzzle, self.plan, self.deadline, every_cut=True, strong=strong
        )
        self.widened = True
        self.done = strong
        price = self.strong_price if strong else self.first_price
        return tables, price
