"""The plan the search starts with: its length is the first upper bound.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)}, goal={"d": (1, 2, 3)})
>>> start = build_first_plan(p, SolveOptions(), None)
>>> start.first.length, start.first.method
(5, 'constructive')

On the complete move graph with 3 or more pegs the constructions of
:mod:`hanoi_asp.methods.constructive` give a plan for any goal in milliseconds (up to
the deadline).  A restricted move graph (a variant) or fewer pegs break their
assumption that every move is possible, so there a breadth-first search with a small
budget looks for one; if it exhausts every reachable state first, that proves no plan
exists.  Either way the simulator replays the plan before it is used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hanoi_asp.engine.small_space import space_plan, space_table, unreachable
from hanoi_asp.methods import bfs
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.model.errors import LimitError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import FirstPlan, FirstPlanMethod

SEARCH_STATES = 200_000
"""Most states the breadth-first search for a first plan stores (a second or so of
Python): its budget is work, so whether it finds a plan never depends on the machine."""


@dataclass(frozen=True)
class Start:
    """What is known before the proof search: a verified plan and how it was made, or
    none; or a proof that no plan exists at all."""

    moves: tuple[Move, ...] | None = None
    first: FirstPlan | None = None
    unreachable: str | None = None


def build_first_plan(puzzle: Puzzle, options: SolveOptions, deadline: float | None) -> Start:
    """A verified plan and how it was made; none where the budgeted search found none,
    past the deadline, or for a plan over ``options.limits.moves``.  On a restricted
    move graph whose whole state space is small (:mod:`hanoi_asp.engine.small_space`),
    the plan walked down its table, a shortest one, where a breadth-first search in
    Python would take longer."""
    started = time.monotonic()
    method: FirstPlanMethod
    if puzzle.edges() is None and len(puzzle.pegs) >= 3:
        steps = first_plan(puzzle, options.limits.moves, deadline)
        method = "constructive"
    else:
        method = "breadth-first"
        try:
            table = space_table(puzzle, deadline)
        except TimeoutError:
            return Start()
        if table is not None and (why := unreachable(table, puzzle)) is not None:
            return Start(unreachable=why)
        steps = None if table is None else space_plan(puzzle, deadline)
        if steps is None:
            try:
                found = bfs.search(
                    puzzle,
                    max_moves=options.limits.moves,
                    max_states=min(SEARCH_STATES, options.limits.states),
                    deadline=deadline,
                    source=options.source,
                )
            except LimitError:
                return Start()
            if found.exhausted and found.steps is None:
                return Start(
                    unreachable=f"breadth-first search visited all {found.visited} "
                    "reachable states and none meets the goal"
                )
            steps = found.steps
    if steps is None or len(steps) > options.limits.moves:
        return Start()
    moves = replay(puzzle, steps)
    return Start(moves, FirstPlan(len(moves), method, time.monotonic() - started))
