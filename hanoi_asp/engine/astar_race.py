"""A* on the same pattern tables races clingo on a second core, in step with it: who
answers first is decided by the work each has done, never by the clock.

Clingo and its propagator refute horizons in little memory and are fastest on most
puzzles; A* on the same tables is several times faster on some and runs out of memory
on others.  Which one a puzzle favours is not known in advance, so the engine runs
both: once the search has done :data:`RACE_AFTER` units of work
(:mod:`hanoi_asp.engine.ledger`), between two horizons or before the first, a forked
process runs A* (:func:`~hanoi_asp.engine.astar_driver.run_astar`) on the search's tables
with A*'s memory budget less what clingo keeps.

**In step** (:meth:`Rival.meet`).  A* tells the engine where it stands as it goes: the
work it has done, the smallest ``f`` it has left open (a proven lower bound), whether it
has bought the strong tables, and at last its answer.  Nothing goes the other way, so
A*'s course is the same on every run.  At every checkpoint of its own
(:mod:`hanoi_asp.engine.scheduler`), the engine meets A* at the same amount of work: it
waits, if it must, until A* has said it got that far, and takes in everything A* said
up to there and nothing after (:class:`Rival` keeps it as reports, a bound with its
argument and a plan with its origin, that the scheduler applies to the search's
state).  So what the engine knows of A* at each point of its own
work is the same on every run: A*'s bound raises the lower bound there, its plan is
taken there, and a clingo whose horizon A* has passed (or whose search is over) is
stopped there; on a machine twice as slow, or with A* slowed by a neighbour, the same
things happen at the same points, later.  The waiting is the cost
(``docs/decisions/race.md`` measures it); the child never waits.

The race takes a second core: it runs unless the user or a batch has said how many
threads clingo has (``--threads``), or ``--no-astar``.  The fork
(:func:`hanoi_asp.processes.fork_child`) happens outside clingo's search: a fork copies
one thread.  Why A*'s number is a sound
bound: :mod:`hanoi_asp.engine.astar_driver`.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection

from hanoi_asp.engine.astar_driver import astar_bound, race_budget, run_astar
from hanoi_asp.engine.reports import Offer, Report
from hanoi_asp.engine.state import past
from hanoi_asp.methods.astar_outcome import AstarOutcome, Progress
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.processes import Child, fork_child

RACE_AFTER = 100_000
"""The work (some 0.05 s; the bound's tables counted) the search does before A* may
start.  A puzzle settled sooner stays clingo's alone (no fork); on a hard one the
bound's tables alone cost about this much or more, so A* starts as soon as they are
built, before the beam's widths and any purchase, as ``--method astar`` would: every
unit of work the engine does before the fork is one A*'s answer waits for, since it is
taken only once the engine has done as much again."""
REPORT_EVERY = 100_000
"""A* says where it stands at most this often, in work (every batch of states it
expands, one state at a time every 4,096): the engine meets it no finer."""
WAIT_SECONDS = 0.1
"""How often the engine, waiting for A*, looks at its deadline (stopping only)."""


class Rival:
    """The A* process racing clingo for one search on ``puzzle``: started once due
    (:meth:`start_if_due`), met at each checkpoint (:meth:`meet`, what it said kept for
    :meth:`hand_over`), ended with the search (:meth:`close`).  ``limits`` and ``deadline``
    are the search's."""

    def __init__(
        self,
        puzzle: Puzzle,
        limits: Limits,
        deadline: float | None,
        tables: Partitioned | None,
        allowed: bool,
        halt: threading.Event | None = None,
    ) -> None:
        self.puzzle, self.limits, self.deadline = puzzle, limits, deadline
        self.tables, self.halt = tables, halt
        self.allowed = allowed and tables is not None
        self.child: Child | None = None
        """The A* process while it runs."""
        self.origin = 0
        """The engine's work when A* started: A*'s work counts from there."""
        self.at: float = 0
        """A*'s work as far as the engine has taken in what it said."""
        self.ended = False
        self.strong = False
        """A* has said it bought the strong tables."""
        self.said: list[Report] = []
        """What A* said that raises the search's bound or brings a plan, in order, not
        yet handed over."""

    def start_if_due(self, work: int) -> None:
        """Start A* once the engine's work reaches :data:`RACE_AFTER` (never when clingo
        is searching: the fork copies one thread)."""
        if not self.allowed or self.child is not None or self.ended or work < RACE_AFTER:
            return
        if past(self.deadline):
            return
        assert self.tables is not None
        budget = race_budget(self.limits, self.puzzle)
        self.child = fork_child(partial(_race, self.puzzle, self.tables, budget))
        self.origin = work

    def racing(self) -> bool:
        """Whether A* runs and has not answered yet (as far as the engine has met it)."""
        return self.child is not None and not self.ended

    def has_strong(self) -> bool | None:
        """None if A* is not racing; else whether it has bought the strong tables."""
        return self.strong if self.racing() else None

    def meet(self, work: int, lower: int) -> None:
        """Meet A* at the engine's ``work``: wait until A* has said it got that far (or
        ended), keeping what it says on the way that matters to a search whose lower
        bound is ``lower`` (see the module docstring).  Past the deadline the engine
        stops waiting: it is about to stop."""
        target = work - self.origin
        while self.racing() and self.at < target:
            message = self._receive()
            if message is None:
                return
            lower = self._take(message, lower)

    def hand_over(self, apply: Callable[[Report], None]) -> None:
        """What A* said, to ``apply`` in the order said, each dropped once applied: an
        interrupt mid-way (Ctrl-C) leaves the rest for the next call (applying one again
        changes nothing: a bound or plan no better than the state's is ignored)."""
        while self.said:
            apply(self.said[0])
            del self.said[0]

    def _receive(self) -> Progress | AstarOutcome | None:
        """A*'s next message; None past the deadline or once the search is cancelled
        (``halt``: Ctrl-C); A*, ended without one, is taken to have ended."""
        assert self.child is not None
        answers = self.child.conn
        while not answers.poll(WAIT_SECONDS):
            if past(self.deadline) or (self.halt is not None and self.halt.is_set()):
                return None
        try:
            message: Progress | AstarOutcome = answers.recv()
        except (EOFError, OSError):  # A* ended without an answer: clingo goes on alone
            self.ended, self.at = True, math.inf
            self.close()
            return None
        return message

    def _take(self, message: Progress | AstarOutcome, lower: int) -> int:
        """What A* said, kept: its bound where it raises ``lower``; its answer's plan,
        replayed, and the race ends.  The lower bound once the bound is proven."""
        if isinstance(message, Progress):
            self.at, self.strong = message.work, self.strong or message.strong
            if message.lower > lower:
                return self._proved(message, lower)
            return lower
        self.ended = True
        self.close()
        if message.steps is not None:
            moves = replay(self.puzzle, message.steps)
            self.said.append(Offer(moves, PlanOrigin("astar", len(moves))))
        if message.lower > lower or message.steps is not None:
            return self._proved(message, lower)
        return lower

    def _proved(self, message: Progress | AstarOutcome, lower: int) -> int:
        """A*'s bound kept (the state takes it where it is higher)."""
        self.said.append(astar_bound(message))
        return max(lower, message.lower)

    def close(self) -> None:
        """End the A* process, if it runs, and reap it."""
        child, self.child = self.child, None
        if child is not None:
            child.close()
            self.ended = True


def _race(puzzle: Puzzle, tables: Partitioned, budget: int, answers: Connection) -> None:
    """The A* process (:func:`~hanoi_asp.processes.fork_child`: it dies with its parent,
    leaves Ctrl-C to it, and ends silently on any failure: the parent sees the pipe
    close and clingo goes on): searches, says where it stands every
    :data:`REPORT_EVERY` units of work, sends its answer."""
    said = -REPORT_EVERY

    def report(progress: Progress) -> None:
        nonlocal said
        if progress.work >= said + REPORT_EVERY:
            answers.send(progress)
            said = progress.work

    answers.send(run_astar(puzzle, tables, budget, None, report))
