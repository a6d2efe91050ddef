"""The plan the search starts with: its length is the first upper bound.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)}, goal={"d": (1, 2, 3)})
>>> moves, first = build_first_plan(p, SolveOptions(), None)
>>> first.length, first.method
(5, 'constructive')

On the complete move graph the constructions of :mod:`hanoi_asp.methods.constructive`
give a plan for any reachable goal in milliseconds.  A restricted move graph (a
variant) breaks their assumption that every move is allowed, so there a breadth-first
search with a small budget looks for one.  Either way the simulator replays the plan
before it is used.
"""

from __future__ import annotations

import time

from hanoi_asp.methods import bfs
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.model.errors import LimitError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import FirstPlan

SEARCH_STATES = 200_000
"""Most states the breadth-first search for a first plan stores (well under a second)."""
SEARCH_SECONDS = 2.0
"""Most seconds it may take (less if the user's timeout comes first)."""


def build_first_plan(
    puzzle: Puzzle, options: SolveOptions, deadline: float | None
) -> tuple[tuple[Move, ...], FirstPlan] | None:
    """A verified plan and how it was made, or None (a restricted move graph where the
    budgeted search found none, or a plan over ``options.limits.moves``)."""
    started = time.monotonic()
    if puzzle.edges() is None:
        steps = first_plan(puzzle, options.limits.moves)
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
            return None
        steps, method = found.steps, "breadth-first"
    if steps is None:
        return None
    moves = replay(puzzle, steps)
    return moves, FirstPlan(len(moves), method, time.monotonic() - started)
