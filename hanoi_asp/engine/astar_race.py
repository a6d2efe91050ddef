"""A* on the same pattern tables races clingo on a spare core once the search has run
a moment; whichever proves first ends the search.

Clingo and its propagator refute horizons in little memory, and are fastest on most
puzzles; A* on the same tables is several times faster on some and runs out of
memory on others (``python -m benchmarks.hard`` times both).  Which one a puzzle
favours is not known in advance, so the engine asks both: once the search has run
:data:`RACE_AFTER` seconds (a classroom's puzzles are proven by clingo before then), as
soon as the tables are built or after the next horizon clingo refutes, a forked
process runs A* (:func:`hanoi_asp.methods.astar.search_buying_tables`) on those tables
with the run's deadline and A*'s memory budget less what clingo keeps
(:func:`race_budget`), and clingo goes on meanwhile.
A* ending first cancels clingo's current horizon: its plan is replayed and offered,
and what it proved raises the lower bound (a plan it found is then minimal; stopped by
its memory budget, clingo goes on from its bound).  Clingo ending first ends A*.  The
race costs a second core's time, so it runs only where the engine may use two cores
(:func:`spare_core`; not in a batch that shares the cores among its workers).

Why A*'s number is a sound lower bound (the argument of
:func:`hanoi_asp.methods.astar.search`): the tables' estimate is admissible and
consistent, so A* pops every state at its true distance from the start; while the
smallest ``f = g + h`` still open is F, every plan shorter than F would have a state
open with ``f`` < F, so none exists; a goal popped at ``f`` = L is a plan with none
shorter.  Tested against breadth-first search in ``tests/engine/test_astar_race.py``.
``--no-astar`` leaves the proof to clingo alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import NoReturn

from hanoi_asp.engine.isolation import die_with_parent
from hanoi_asp.engine.reference import astar_budget
from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.tables import own_searches
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import LowerBound

RACE_AFTER = 0.2
"""Seconds the search runs (first plan, tables, clingo) before A* may start: small
puzzles stay clingo's alone, and A* on a hard one starts about when ``--method astar``
would."""
ANSWER_MARGIN = 0.3
"""A* stops this many seconds before the run's deadline, so that its bound is in hand
when the search answers."""
CLINGO_MEMORY = 2**30
"""Memory the main process (clingo, its propagator, the beam, the tables) keeps beside
the racing A*: with A*'s default budget of
:data:`~hanoi_asp.engine.reference.ASTAR_MEMORY` that makes the 4 GiB the engine's
peak must stay under (A*'s states counted at the most bytes measured per state,
:func:`hanoi_asp.methods.astar.state_bytes`).  The
whole engine, A* included, peaked at 1683 MiB on 4 pegs with 15 disks
(``hard28-n15-budget``)."""
BOUND_NAME = "astar"
"""The name of the bound A* proves (``bound.name`` in the JSON)."""


def spare_core(run: SearchState) -> bool:
    """Whether the engine may take a second core: the policy chooses clingo's threads
    (a user's or a batch's ``--threads`` says how many cores the run has) and the
    process may run on two cores or more."""
    if run.options.threads is not None:
        return False
    return len(os.sched_getaffinity(0)) >= 2


def race_budget(limits: Limits, puzzle: Puzzle) -> int:
    """States the racing A* may store on the puzzle: A*'s budget less
    :data:`CLINGO_MEMORY`, never under half of it (a user's ``--limit states=N`` is
    halved, as clingo shares it).  Half of the default budget stopped A* (one state at a
    time) at f = 93 on random4-n15-full-3, where ``--method astar`` alone proved the
    optimum, 94, in 217 s: clingo was left to refute 93 alone until the time limit."""
    whole = astar_budget(limits, puzzle)
    if limits.states_given:
        return whole // 2
    return max(whole // 2, whole - CLINGO_MEMORY // astar.state_bytes(puzzle))


@dataclass(frozen=True)
class _Answer:
    """What the A* process sends back: small, so the pipe is quick."""

    steps: list[tuple[int, str]] | None
    lower: int
    expanded: int
    stopped: str | None


class AstarRival:
    """The A* process racing clingo for one search: started once due (:meth:`start_if_due`),
    its answer taken in (:meth:`take`), ended with the search (:meth:`close`)."""

    def __init__(self, run: SearchState, tables: Partitioned | None) -> None:
        self.run, self.tables = run, tables
        self.allowed = own_searches(run, tables) and run.options.astar and spare_core(run)
        self.pid: int | None = None
        """The A* process while it runs (or has ended unreaped)."""
        self.answers: Connection | None = None
        self.done = False

    def start_if_due(self) -> None:
        """Before clingo's first horizon or between two (no clingo thread running: the
        fork copies one thread): start A* once the search has run :data:`RACE_AFTER`
        seconds, or would have but for the on-disk cache (the build time it saved counts:
        a warm solve, its tables read in milliseconds, races when the cold one did, and
        no longer buys tables meanwhile that the cold one, proven by A*, never built)."""
        if not self.allowed or self.pid is not None or self.done:
            return
        ran = time.monotonic() - self.run.started + self.run.cache_saved
        if ran < RACE_AFTER or self.run.out_of_time():
            return
        assert self.tables is not None  # allowed: the search has tables
        deadline = self.run.deadline
        stop = None if deadline is None else deadline - ANSWER_MARGIN
        budget = race_budget(self.run.options.limits, self.run.puzzle)
        receive, send = multiprocessing.Pipe(duplex=False)
        # a plain fork: the engine may itself run in a daemonic process (a batch worker,
        # the grader's isolation), which multiprocessing forbids to have children
        pid = os.fork()
        if pid == 0:
            receive.close()
            _race(self.run.puzzle, self.tables, budget, stop, send)  # never returns
        send.close()
        self.pid, self.answers = pid, receive

    def racing(self) -> bool:
        """Whether A* is running and has not answered yet."""
        return self.pid is not None and not self.done

    def finished(self) -> bool:
        """Whether A* has answered and the answer waits to be taken (polled by clingo's
        solve every :data:`~hanoi_asp.engine.clingo_calls.POLL_SECONDS`)."""
        return self.answers is not None and not self.done and self.answers.poll()

    def take(self) -> bool:
        """Take A*'s answer in if it has come: its plan offered, its bound raised.
        Whether the race has ended so (an answer, or A* ended without one: over a
        memory cap, say, when clingo goes on alone and asks its horizon again)."""
        if not self.finished():
            return False
        assert self.answers is not None
        self.done = True
        try:
            answer: _Answer = self.answers.recv()
        except (EOFError, OSError):
            return True  # A* ended without an answer: nothing proven, clingo goes on
        finally:
            self.close()
        run = self.run
        if answer.steps is not None:
            moves = replay(run.puzzle, answer.steps)
            run.offer(moves, PlanOrigin("astar", len(moves)))
        if answer.lower > run.lower:
            exact = answer.steps is not None
            run.bound = LowerBound(answer.lower, BOUND_NAME, _argument(answer), exact=exact)
            run.lower = answer.lower
            run.report()
        return True

    def close(self) -> None:
        """End the A* process, if it runs, and reap it."""
        pid, self.pid = self.pid, None
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        if self.answers is not None and (self.done or pid is not None):
            self.answers.close()
            self.done = True


def _race(
    puzzle: Puzzle,
    tables: Partitioned,
    budget: int,
    deadline: float | None,
    answers: Connection,
) -> NoReturn:
    """The A* process: dies with its parent, leaves Ctrl-C to it, searches, sends a
    small answer and ends; on any failure it ends silently (the parent sees the pipe
    close and clingo goes on alone: nothing of it reaches the user)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        die_with_parent()  # a batch worker killed at its limit leaves no A* behind
        found, _ = astar.search_buying_tables(puzzle, tables, max_states=budget, deadline=deadline)
        answers.send(_Answer(found.steps, found.lower, found.expanded, found.stopped))
        answers.close()
    except BaseException:  # a racer's failure only ends the race
        code = 1
    os._exit(code)  # never the parent's code after the fork, nor its exit handlers


def _argument(answer: _Answer) -> str:
    """The bound's proof, in words, as every bound carries one."""
    if answer.steps is not None:
        return (
            f"A* on the pattern tables (a consistent estimate) reached the goal at "
            f"f = {answer.lower} after expanding {answer.expanded} states: every shorter "
            "plan would have been expanded first"
        )
    return (
        f"A* on the pattern tables (a consistent estimate) expanded every state with "
        f"f below {answer.lower} ({answer.expanded} states, stopped: {answer.stopped}): "
        "a shorter plan would have had one of them open"
    )
