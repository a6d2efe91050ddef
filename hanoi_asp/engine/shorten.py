"""The best plan comes down while the proof climbs: beam searches of growing width on
the pattern tables (:mod:`hanoi_asp.methods.beam`), each plan replayed and offered.

The lower bound rises with every horizon clingo refutes; this brings the upper bound
down from the other side, so a search stopped at its time limit answers with a plan
near the optimum, and a plan that meets the rising bound ends the search a horizon
sooner (clingo need not solve the optimum's horizon).  It proves nothing: the proof is
still clingo's refutations and the sound bounds.

Each width is :data:`GROWTH` times the last, from :data:`FIRST_WIDTH` to
:data:`LAST_WIDTH`, and takes about :data:`TIME_GROWTH` times as long (measured on the
hard families), so its time is predicted from the last.  When they run:

* before clingo's first horizon, as many as fit in :data:`UPFRONT_SECONDS` (under a
  time limit, in :data:`UPFRONT_SHARE` of the time left, up to :data:`UPFRONT_MOST`:
  the plan at the limit is the answer the user reads), until one brings no shorter
  plan after another did (the beam has converged: on a puzzle clingo proves in a
  second the beam must not hold it up);
* then whenever due: once the beam's time, the next width's included, stays within
  :data:`SHARE` of the search's time so far (a rent rule: the beam never takes more than
  a third of the main process, clingo keeps the rest), or, under a time limit, when
  waiting longer would leave no time for it (the plan at the limit is the answer).
  Clingo's running horizon is cancelled for it, as for A*'s answer, and asked again;
* afresh on the beam's own cut (:func:`~hanoi_asp.methods.patterns.beam_database`):
  one cut, its first run the largest disks, as many as 4^11 patterns hold on 4 pegs
  (15 disks: 11+4), about 0.4 s to build.  Where the sum of several cuts ranks states
  by whichever cut is largest, a table exact for the largest disks, which move least
  and shape the whole plan, keeps the beam on near-optimal plans: on the ten random
  4-peg 15-disk puzzles (optima 73-107) a width of 4096 on it came within 10% of the
  optimum on all ten in 0.2-0.4 s (on the bound's tables 1024 and 4096 found 2 of 10),
  and on the random 13- and 14-disk ones it found the optimum on 19 of 20 (the
  20th: 86 against 85).  Other cuts guide it worse: on 15 disks, the 11-disk cuts
  whose first run is short gave plans of up to 1837 moves at 1024, or none, and the
  most any of the eleven cuts gives (as the bound uses them) 73-229 moves at 4096.
  The strong tables handed over later (:meth:`Shortener.retable`) hold a longer
  largest-first cut (15 disks: 12+3, the optimum on six of six at 4096), which the
  beam then takes.  The widths go on from the widest run on the old tables, and the
  first wider one that brings nothing shorter than the plan in hand ends them.

The widths buy the beam's cut once they have cost its price (a rent rule, as
:func:`~hanoi_asp.engine.tables.check_every_cut`'s), up front or before any later
width, at once if it costs nothing (built or in the on-disk cache), or after the first
width under a short time limit (:data:`SHORT_LIMIT`) that leaves the beam that much (a
third of the time left: the rent would be paid before the limit anyway, unless the
proof comes first).  Else they would wait for clingo's first horizon, and spend the
time up front on the weaker tables.  The first width runs on the bound's tables all
the same: on a puzzle clingo proves in a second, its plan may end the search before
the beam's cut is worth building.

They stop once the best plan meets the lower bound.  Measured by
``python -m benchmarks.anytime`` (the plan at 1, 5 and 60 s).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.tables import own_searches
from hanoi_asp.methods import beam
from hanoi_asp.methods.patterns import (
    Partitioned,
    PatternTable,
    beam_cut,
    beam_database,
    beam_price,
)
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin

FIRST_WIDTH = 1024
"""The narrowest beam: a layer's array operations cost about a millisecond however
narrow it is, so 64 or 256 took about as long on 14 disks (0.1-0.2 s) and found far
longer plans."""
GROWTH = 4
LAST_WIDTH = 16384
"""The widest beam: about 1.5 million states remembered on a plan of 90 moves (some
60 MiB), 1-2 seconds on 14 disks."""
TIME_GROWTH = 3.0
"""How many times longer a width takes than the last (2-3.5 measured from 1024 on)."""
UPFRONT_SECONDS = 0.5
"""Most time the widths before clingo's first horizon take (less near the time limit)."""
UPFRONT_MOST = 1.5
"""Most time they take under a time limit."""
UPFRONT_SHARE = 1 / 2
"""The part of the time left they may take under a time limit (up to
:data:`UPFRONT_MOST`): on random4-n14-full-6 under ``--timeout 5``, a third ended them
before the width of 4096 (78 moves), which then came too late for 16384 (70, optimum
69) to fit before the limit."""
SHORT_LIMIT = 10.0
"""Seconds left under a time limit that make it a short one, where the beam's cut is
bought after the first width (see the module docstring): the plan at the limit is the
answer there, as a hard puzzle's proof takes longer (20-40 s on 4 pegs and 14 disks).  Under
``--timeout 120`` buying it so early (and the widths on it) made the random 6-peg
11-disk puzzles, proven in about a second, 0.25 s slower (median)."""
SHARE = 1 / 3
"""Most of the search's time the beam takes, by the rent rule."""
FIRST_GUESS = 0.05
"""Seconds predicted for the first width, before any was measured."""


class Shortener:
    """The beam's widths for one search: the next one, and the time spent so far."""

    def __init__(self, run: SearchState, tables: Partitioned | None) -> None:
        self.run, self.tables = run, tables
        self.allowed = own_searches(run, tables) and beam.fits(run.puzzle)
        self.width = FIRST_WIDTH
        self.spent = 0.0
        self.last: float | None = None
        """Seconds the last width took."""
        self.outgrown = 0
        """The widest width run on earlier tables: no narrower one is judged converged."""
        self.own_cut = False
        """The beam's own cut bought (or asked for and not worth it)."""
        self.interrupt: Callable[[], bool] | None = None
        """Asked after each layer of a beam: whether to give it up (A*'s answer, taken
        in as it comes, has ended the search)."""

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
        """The widths that fit in :data:`UPFRONT_SECONDS` from now, until one brings no
        shorter plan after one did (``improved``: the plan in hand counts as one, as it
        does on new tables); the beam's own cut bought once the widths have cost its
        price (see the module docstring), and the widths afresh on it."""
        stop = self._upfront_stop()
        while self.active():
            if self._own_cut_due() and self._buy_own_cut():
                improved, stop = True, self._upfront_stop()
            if time.monotonic() + self.predicted() > stop:
                break
            assert self.run.best is not None
            before, width = len(self.run.best), self.width
            if not self.step():
                break
            if len(self.run.best) < before:
                improved = True
            elif improved and width > self.outgrown:
                break  # converged

    def _upfront_stop(self) -> float:
        """When the widths up front from now end (see the module docstring)."""
        now, deadline = time.monotonic(), self.run.deadline
        if deadline is None:
            return now + UPFRONT_SECONDS
        budget = max(UPFRONT_SECONDS, min(UPFRONT_SHARE * (deadline - now), UPFRONT_MOST))
        return min(now + budget, deadline)

    def _own_cut_due(self) -> bool:
        """Whether to buy the beam's own cut now: at once if it costs nothing (built or
        cached); else once a width ran on the bound's tables, when the widths have cost
        its price, or will before a short time limit (a third of the time left is
        theirs)."""
        if self.own_cut:
            return False
        if beam_cut(self.run.puzzle)[0].size <= self.cut_size:
            self.own_cut = True  # a cut as long in hand (the strong tables', the exact distance)
            return False
        price = beam_price(self.run.puzzle)
        if price == 0.0:
            return True
        if self.last is None:
            return False
        deadline = self.run.deadline
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= SHORT_LIMIT and SHARE * left >= price:
                return True
        return self.spent >= price

    def _buy_own_cut(self) -> bool:
        """The beam's own cut (:func:`~hanoi_asp.methods.patterns.beam_database`), the
        widths afresh on it; whether it came (not past the deadline, nor the search
        over).  Its time is the beam's."""
        if self.interrupt is not None and self.interrupt():
            return False
        self.own_cut = True
        began = time.monotonic()
        try:
            tables: Partitioned | None = beam_database(self.run.puzzle, self.run.deadline)
        except TimeoutError:
            tables = None
        self.spent += time.monotonic() - began
        self.run.timed("first_plan", began)
        if tables is None:
            return False
        self._take(tables)
        return True

    def _take(self, tables: Partitioned) -> None:
        """New tables: the widths start again from the widest run on the old ones (a
        narrower one rarely beats its plan), predicted to take as long as it did."""
        widest = self.width // GROWTH
        self.outgrown = max(self.outgrown, widest)
        self.tables, self.width = tables, max(FIRST_WIDTH, widest)
        if self.last is not None and widest >= FIRST_WIDTH:
            self.last /= TIME_GROWTH

    def step_if_due(self) -> bool:
        """Run the next width if it is due (see the module docstring); whether it ran."""
        return self.due() and self.step()

    def due(self) -> bool:
        """Whether the next width is due: cheap, polled while clingo solves."""
        if not self.active():
            return False
        now, predicted = time.monotonic(), self.predicted()
        if self.spent + predicted <= SHARE * (now - self.run.started):
            return True
        deadline = self.run.deadline
        if deadline is None:
            return False
        left = deadline - now
        return predicted <= left < 2 * predicted  # the last call before the time limit

    def active(self) -> bool:
        run = self.run
        return (
            self.allowed
            and self.width <= LAST_WIDTH
            and run.best is not None
            and len(run.best) > run.lower
        )

    def predicted(self) -> float:
        return FIRST_GUESS if self.last is None else self.last * TIME_GROWTH

    def step(self) -> bool:
        """One beam search at the next width, its plan offered if shorter; not if the
        search is over (:attr:`interrupt`).  Whether it ran."""
        run, width = self.run, self.width
        assert self.tables is not None and run.best is not None
        if self.interrupt is not None and self.interrupt():
            return False
        if self._own_cut_due():
            self._buy_own_cut()
            width = self.width
        self.width *= GROWTH
        began = time.monotonic()
        try:
            steps = beam.search(
                run.puzzle,
                self.tables,
                width,
                shorter_than=len(run.best),
                deadline=run.deadline,
                interrupt=self.interrupt,
            )
        except MemoryError:  # under a memory cap: the proof needs the memory more
            steps, self.width = None, LAST_WIDTH * GROWTH
        self.last = time.monotonic() - began
        self.spent += self.last
        run.timed("first_plan", began)
        if steps is not None:
            moves = replay(run.puzzle, steps)
            run.offer(moves, PlanOrigin("beam", len(moves), width=width))
        return True


def _largest_first(tables: Partitioned) -> tuple[PatternTable, ...] | None:
    """The cut of ``tables`` whose first run (every cut starts at the largest disk) is
    the longest: the one that sees the most of the largest disks at once."""
    return max(tables, key=lambda cut: cut[0].run.size, default=None)
