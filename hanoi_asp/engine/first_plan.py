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

from hanoi_asp.methods import bfs
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.model.errors import LimitError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import FirstPlan, FirstPlanMethod

SEARCH_STATES = 200_000
"""Most states the breadth-first search for a first plan stores (well under a second)."""
SEARCH_SECONDS = 2.0
"""Most seconds it may take (less if the user's timeout comes first)."""


@dataclass(frozen=True)
class Start:
    """What is known before the proof search: a verified plan and how it was made, or
    none; or a proof that no plan exists at all."""

    moves: tuple[Move, ...] | None = None
    first: FirstPlan | None = None
    unreachable: str | None = None


def build_first_plan(puzzle: Puzzle, options: SolveOptions, deadline: float | None) -> Start:
    """A verified plan and how it was made; none where the budgeted search found none,
    past the deadline, or for a plan over ``options.limits.moves``."""
    started = time.monotonic()
    method: FirstPlanMethod
    if puzzle.edges() is None and len(puzzle.pegs) >= 3:
        steps = first_plan(puzzle, options.limits.moves, deadline)
        method = "constructive"
    else:
        budget = started + SEARCH_SECONDS
        try:
            found = bfs.search(
                puzzle,
                max_moves=options.limits.moves,
                max_states=min(SEARCH_STATES, options.limits.states),
                deadline=budget if deadline is None else min(deadline, budget),
                source=options.source,
            )
        except LimitError:
            return Start()
        if found.exhausted and found.steps is None:
            return Start(
                unreachable=f"breadth-first search visited all {found.visited} reachable "
                "states and none meets the goal"
            )
        steps, method = found.steps, "breadth-first"
    if steps is None:
        return Start()
    moves = replay(puzzle, steps)
    return Start(moves, FirstPlan(len(moves), method, time.monotonic() - started))
