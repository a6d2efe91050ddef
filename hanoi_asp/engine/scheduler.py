"""The one owner of a search's effort: who gets the next unit of work, counted in work,
never read off a clock.

The workers of the upward search (:mod:`hanoi_asp.engine.strategies.upward`) are clingo
with its propagator, the beam (:mod:`hanoi_asp.engine.shorten`), the table purchases
(:mod:`hanoi_asp.engine.tables`) and A* on the other core
(:mod:`hanoi_asp.engine.astar_race`).  Each reports what it did to one ledger
(:mod:`hanoi_asp.engine.ledger`) and asks the scheduler at its checkpoints, which come
at the same points of the work on every run:

* clingo's propagator every :data:`CLINGO_CHECK` of its calls, inside a horizon's
  search (a false answer stops the search there, by ``Control.interrupt``: the rest of
  that solve call is the same on every run too);
* the beam after each layer;
* the horizon loop after each refuted horizon, and before the first.

At each, A* is met at the same work (its bound and answer taken in as far as it got),
the beam's turn is given if due, and A* is started once due; after a horizon, a table
is bought once its rent is paid.  The workers hold no search state: they read where
the search stands and report what they found (:mod:`hanoi_asp.engine.reports`), and
the scheduler applies their reports to the state through its methods
(:func:`take_in`), so the state alone decides what a bound or a plan changes.  Every
decision reads the ledger and the search's state, so one puzzle takes one way on every
machine, loaded or not, cold or warm; the user's ``--timeout`` and Ctrl-C only decide
when it stops (and under ``--timeout`` the beam's last width before it:
:mod:`hanoi_asp.engine.shorten`).  A work budget (``--work``) stops it at the first
checkpoint where the ledger's total has reached it: the same point on every run.
"""

from __future__ import annotations

import threading
from types import TracebackType

from hanoi_asp.engine.astar_race import Rival
from hanoi_asp.engine.ledger import Ledger
from hanoi_asp.engine.reports import Desk, Offer, Report, Standing
from hanoi_asp.engine.shorten import Shortener
from hanoi_asp.engine.solver import HorizonSolver
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.tables import Purchases
from hanoi_asp.methods.patterns import Partitioned, tables_price
from hanoi_asp.model.result import LowerBound

CLINGO_CHECK = 20
"""Propagator calls between two checkpoints inside clingo's search (about 6 ms)."""


class Scheduler:
    """The effort of one upward search on ``tables`` (None: clingo alone, no beam, no
    race, nothing to buy)."""

    def __init__(self, run: SearchState, tables: Partitioned | None) -> None:
        strategy = run.strategy
        assert strategy is not None
        self.run, self.tables = run, tables
        own = tables is not None and not strategy.user_encoding
        price = 0 if tables is None else tables_price(run.puzzle, tables)
        self.ledger = Ledger(tables=price, budget=run.options.work)
        racing = own and run.options.astar and run.options.threads is None
        self.halt = threading.Event()
        """Set when clingo's search is cancelled (the deadline, Ctrl-C): no more waiting."""
        puzzle, options, deadline = run.puzzle, run.options, run.deadline
        self.rival = Rival(puzzle, options.limits, deadline, tables, racing, self.halt)
        desk = Desk(self._in_beam, self._standing, self._report)
        timeout = None if options.work is not None else options.timeout  # no clock's choice
        self.beam = Shortener(puzzle, tables, self.ledger, desk, own, deadline, timeout)
        self.purchases = None if tables is None else Purchases(puzzle, strategy, deadline, tables)
        self.solver: HorizonSolver | None = None
        self.searching = False
        """clingo's search is under way (no fork then, no purchase)."""
        self.beaming = False
        """A width runs (nested checkpoints only meet A*)."""
        self.stopped = False
        """The last solve call was stopped at a checkpoint (not by the deadline)."""
        self.checked = -CLINGO_CHECK
        """The propagator's calls at the last checkpoint inside clingo."""

    def __enter__(self) -> Scheduler:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            self.rival.hand_over(self._report)  # what an interrupt left unapplied
        finally:
            self.rival.close()

    def clingo(self) -> HorizonSolver:
        """clingo's solver for the full horizons, its propagator checking in here."""
        strategy = self.run.strategy
        assert strategy is not None
        self.solver = make_solver(
            self.run.puzzle,
            strategy,
            minimal=True,
            tables=self.tables,
            checkpoint=self.in_clingo,
            halt=self.halt,
        )
        return self.solver

    def meet(self) -> bool:
        """A* met at the ledger's work; whether the search goes on (its best plan does
        not meet the lower bound, and the work budget is not spent: what A* said up to
        this work is taken in first, so a budget's answer holds it)."""
        if self.halt.is_set():
            return False
        try:
            self.rival.meet(self.ledger.total, self.run.lower)
        finally:
            self.rival.hand_over(self._report)
        return not self.run.meets() and not self.halt.is_set() and not self.ledger.spent()

    def _standing(self) -> Standing:
        return Standing(self.run.lower, self.run.upper)

    def _report(self, report: Report) -> None:
        take_in(self.run, report)

    def upfront(self) -> None:
        """Before clingo's first horizon: A* started if due, the beam's widths up front."""
        if self.meet():
            self.rival.start_if_due(self.ledger.total)
            self.beam.upfront()
            self.meet()

    def in_clingo(self, ticks: int, horizon: int) -> bool:
        """The propagator's checkpoint (``ticks``: its calls so far, ``horizon``: the one
        being solved): A* met, the beam's turn given if due; whether clingo goes on
        (not once the search is over or the lower bound has passed the horizon).  Only
        every :data:`CLINGO_CHECK` calls does it act; the calls between go on at once."""
        self.ledger.ticks = ticks
        if ticks - self.checked < CLINGO_CHECK:
            return True
        self.checked = ticks
        self.searching = True
        try:
            go = self.meet() and self._beam_turn() and self.run.lower <= horizon
        finally:
            self.searching = False
        self.stopped = not go
        return go

    def _in_beam(self) -> bool:
        """The beam's checkpoint, before each width and after each layer."""
        if not self.meet():
            return False
        if not self.searching:
            self.rival.start_if_due(self.ledger.total)
        return True

    def _beam_turn(self) -> bool:
        """The next width, if its turn has come (not within a width); whether the
        search goes on."""
        if not self.beaming and self.beam.due():
            self.beaming = True
            try:
                self.beam.step()
            finally:
                self.beaming = False
        return not self.run.meets()

    def paused(self) -> bool:
        """Whether clingo's last unfinished horizon was stopped here (not by the
        deadline); cleared by asking."""
        stopped, self.stopped = self.stopped, False
        return stopped

    def after_horizon(self, horizon: int) -> None:
        """After a refuted horizon: A* met and started if due, the beam's turn, and a
        table bought once its rent is paid."""
        if not self.meet():
            return
        self.rival.start_if_due(self.ledger.total)
        if not self._beam_turn() or self.ledger.spent():
            return
        if self.purchases is None or self.solver is None:
            return
        strong = self.purchases.due(self.ledger.rent, self.rival.has_strong())
        if strong is None:
            return
        with self.run.phase("bounds"):
            tables, price = self.purchases.buy(strong)
        self.ledger.tables += price
        if tables is not None and tables is not self.tables:
            self.tables = tables
            self.solver.retable(tables)
            self.beam.retable(tables)


def take_in(run: SearchState, report: Report) -> None:
    """A worker's report applied to the search's state through the state's own method
    (which keeps its invariants and records why)."""
    if isinstance(report, LowerBound):
        run.prove(report)
    elif isinstance(report, Offer):
        run.offer(report.moves, report.origin)
    else:
        run.spend(report.phase, report.seconds)
