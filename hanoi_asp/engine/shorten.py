"""The best plan comes down while the proof climbs: beam searches of growing width on
the pattern tables (:mod:`hanoi_asp.methods.beam`), each plan replayed and reported to
the scheduler (the beam holds no search state: :class:`~hanoi_asp.engine.reports.Desk`).
A plan near the optimum is the answer of a search stopped at its time limit, and a plan
that meets the rising bound ends the search a horizon sooner; it proves nothing.

Each width is :data:`GROWTH` times the last and does about that many times the work,
so its work is predicted from the last one's.  Every figure is work
(:mod:`hanoi_asp.engine.ledger`): the widths up front, within :data:`UPFRONT_WORK`, until
one brings no shorter plan after another did; then the beam's turn whenever its work,
the next width's included, stays within 1/:data:`SHARE` of the search's (the
scheduler asks, between horizons or inside one, and clingo goes on where it was).  The
beam's own cut (one cut whose first run is the largest disks) is bought once the widths
have cost its price, as if built; the strong tables' longest largest-first cut is taken
when they are bought (:meth:`Shortener.retable`).  Under ``--timeout`` the plan at the
limit is the answer, so two rules there read the clock, as stopping does: the widths up
front take at most :data:`UPFRONT_SHARE` of the time left, and one last width runs when
waiting longer would leave no time for it; a short limit (:data:`SHORT_LIMIT`) buys
the beam's cut after the first width (not under ``--work``).  ``docs/decisions/beam.md``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from hanoi_asp.engine.ledger import Ledger
from hanoi_asp.engine.reports import Desk, Offer, Spent, Standing
from hanoi_asp.methods.patterns import (
    Partitioned,
    PatternTable,
    beam_cut,
    beam_database,
    beam_price,
)
from hanoi_asp.model.lazy import lazy_module
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.puzzle import Puzzle

if TYPE_CHECKING:
    from hanoi_asp.methods import beam
else:  # loaded when used: it imports numpy
    beam = lazy_module("hanoi_asp.methods.beam")

FIRST_WIDTH = 1024
"""The narrowest beam: a layer's array operations cost about as much however narrow it
is, and narrower beams found far longer plans."""
GROWTH = 4
LAST_WIDTH = 16384
"""The widest beam: about 1.5 million states remembered on a plan of 90 moves (some
60 MiB)."""
FIRST_GUESS = 100_000
"""The work predicted for the first width, before any was done (a width of 1024 on 14
disks estimates 80,000-125,000 states)."""
UPFRONT_WORK = 1_200_000
"""The most work the widths before clingo's first horizon take (about half a second)."""
SHARE = 3
"""The beam's work, the next width's included, stays within 1/SHARE of the search's."""
UPFRONT_SHARE = 1 / 2
"""Under a time limit, the part of the time left the widths up front may take."""
SHORT_LIMIT = 10.0
"""A ``--timeout`` of at most this many seconds buys the beam's cut after the first width:
the plan at the limit is the answer there, a hard puzzle's proof takes longer."""


class Shortener:
    """The beam's widths for one search: the next one, and the work done so far (the
    ledger's ``beam``).  ``desk``'s checkpoint is asked before each width and after each
    layer (false once the search is over); ``timeout`` is the option's value, None under a
    work budget (no choice reads the clock then; ``deadline`` only stops a width)."""

    def __init__(
        self,
        puzzle: Puzzle,
        tables: Partitioned | None,
        ledger: Ledger,
        desk: Desk,
        allowed: bool,
        deadline: float | None = None,
        timeout: float | None = None,
    ) -> None:
        self.puzzle, self.tables, self.ledger, self.desk = puzzle, tables, ledger, desk
        self.deadline, self.timeout = deadline, timeout
        self.allowed = allowed and tables is not None and beam.fits(puzzle)
        self.width = FIRST_WIDTH
        self.last: int | None = None
        """The work of the last width."""
        self.outgrown = 0
        """The widest width run on earlier tables: no narrower one is judged converged."""
        self.own_cut = False
        """The beam's own cut bought (or asked for and not worth it)."""
        self.pace: float | None = None
        """Seconds per unit of work of the last width: read under a time limit only."""

    @property
    def cut_size(self) -> int:
        """The first run of the one cut the beam runs on; 0 on several cuts (the
        bound's tables: the beam has no cut of its own yet)."""
        tables = self.tables
        return 0 if tables is None or len(tables) != 1 else tables[0][0].run.size

    def retable(self, tables: Partitioned) -> None:
        """Stronger tables handed over (the propagator's): the beam takes their
        largest-first cut if its first run is longer than the beam's own, and runs the
        widths afresh on it, as many as fit up front while they bring the plan down."""
        cut = _largest_first(tables)
        if cut is not None and cut[0].run.size > self.cut_size:
            self._take((cut,))
            self.upfront(improved=True)

    def upfront(self, improved: bool = False) -> None:
        """The widths :data:`UPFRONT_WORK` holds from now, until one brings no shorter
        plan after one did (``improved``: the plan in hand counts as one, as it does on
        new tables); the beam's own cut bought once the widths have cost its price, and
        the widths afresh on it."""
        stop, clock = self.ledger.beam + UPFRONT_WORK, self._upfront_clock()
        while self.active(self.desk.standing()):
            if self._own_cut_due() and self._buy_own_cut():
                improved = True
                stop, clock = self.ledger.beam + UPFRONT_WORK, self._upfront_clock()
            if self.ledger.beam + self.predicted() > stop or time.monotonic() > clock:
                break
            before, width = self._best(), self.width
            if not self.step():
                break
            if self._best() < before:
                improved = True
            elif improved and width > self.outgrown:
                break  # converged

    def _best(self) -> int:  # a plan is in hand while the beam runs
        best = self.desk.standing().best
        assert best is not None
        return best

    def _upfront_clock(self) -> float:
        """Under a time limit (no work budget), when the widths up front end; else never."""
        deadline = self.deadline
        if deadline is None or self.timeout is None:
            return float("inf")
        now = time.monotonic()
        return now + UPFRONT_SHARE * max(deadline - now, 0.0)

    def _own_cut_due(self) -> bool:
        """Whether to buy the beam's own cut now: once a width ran on the bound's tables,
        when the widths have cost its price (as if built: a cached cut costs the same),
        or at once under a short time limit."""
        if self.own_cut:
            return False
        if beam_cut(self.puzzle)[0].size <= self.cut_size:
            self.own_cut = True  # a cut as long in hand (the strong tables', the exact distance)
            return False
        if self.last is None:
            return False
        timeout = self.timeout
        if timeout is not None and timeout <= SHORT_LIMIT:
            return True
        return self.ledger.beam >= beam_price(self.puzzle)

    def _buy_own_cut(self) -> bool:
        """The beam's own cut (:func:`~hanoi_asp.methods.patterns.beam_database`), the
        widths afresh on it; whether it came (not past the deadline, nor the search
        over).  Its work is the beam's."""
        if not self.desk.checkpoint():
            return False
        self.own_cut = True
        began = time.monotonic()
        try:
            tables: Partitioned | None = beam_database(self.puzzle, self.deadline)
        except TimeoutError:
            tables = None
        self.desk.report(Spent("first_plan", time.monotonic() - began))
        if tables is None:
            return False
        self.ledger.beam += beam_price(self.puzzle)
        self._take(tables)
        return True

    def _take(self, tables: Partitioned) -> None:
        """New tables: the widths start again from the widest run on the old ones (a
        narrower one rarely beats its plan), predicted to take as much work as it did."""
        widest = self.width // GROWTH
        self.outgrown = max(self.outgrown, widest)
        self.tables, self.width = tables, max(FIRST_WIDTH, widest)
        if self.last is not None and widest >= FIRST_WIDTH:
            self.last //= GROWTH

    def due(self) -> bool:
        """Whether the next width's turn has come (see the module docstring)."""
        if not self.active(self.desk.standing()):
            return False
        predicted = self.predicted()
        if SHARE * (self.ledger.beam + predicted) <= self.ledger.total:
            return True
        deadline = self.deadline
        if deadline is None or self.timeout is None or self.pace is None:
            return False
        seconds, left = predicted * self.pace, deadline - time.monotonic()
        return seconds <= left < 2 * seconds  # the last call before the time limit

    def active(self, standing: Standing) -> bool:
        return self.allowed and self.width <= LAST_WIDTH and standing.open()

    def predicted(self) -> int:
        return FIRST_GUESS if self.last is None else self.last * GROWTH

    def step(self) -> bool:
        """One beam search at the next width, its plan offered if shorter; not if the
        search is over.  Whether it ran."""
        width = self.width
        assert self.tables is not None
        if not self.desk.checkpoint():
            return False
        if self._own_cut_due():
            self._buy_own_cut()
            width = self.width
        self.width *= GROWTH
        began, charged = time.monotonic(), self.ledger.beam

        def layer(work: int) -> bool:
            self.ledger.beam = charged + work
            return self.desk.checkpoint()

        try:
            found = beam.search(
                self.puzzle,
                self.tables,
                width,
                shorter_than=self._best(),
                deadline=self.deadline,
                checkpoint=layer,
            )
        except MemoryError:  # under a memory cap: the proof needs the memory more
            found, self.width = beam.BeamOutcome(None, 0), LAST_WIDTH * GROWTH
        self.ledger.beam = charged + found.work
        self.last = found.work
        seconds = time.monotonic() - began
        self.pace = seconds / found.work if found.work else self.pace
        self.desk.report(Spent("first_plan", seconds))
        if found.steps is not None:
            moves = replay(self.puzzle, found.steps)
            self.desk.report(Offer(moves, PlanOrigin("beam", len(moves), width=width)))
        return True


def _largest_first(tables: Partitioned) -> tuple[PatternTable, ...] | None:
    """The cut of ``tables`` whose first run (every cut starts at the largest disk) is
    the longest: the one that sees the most of the largest disks at once."""
    return max(tables, key=lambda cut: cut[0].run.size, default=None)
