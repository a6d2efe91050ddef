"""A* over whole states with pattern-database estimates: optimal for any pegs, start,
goal and move graph, and a peer for the ASP engine built on the same tables.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=4, init={"a": (1, 2, 3, 4)},
...            goal={"d": (1, 2, 3, 4)})
>>> from hanoi_asp.methods.patterns import goal_database
>>> len(search(p, goal_database(p)).steps)
9

Why the first goal popped is optimal: the estimate (the largest, over partitions, of
the runs' summed table values, :func:`hanoi_asp.methods.patterns.estimate`) never
exceeds the true distance (projection and additivity), and it is *consistent*: a move
changes one disk, so one run's value, by at most one (a table is a breadth-first
distance), and the max of consistent estimates is consistent.  With a consistent
estimate A* pops every state at its true distance from the start, so the smallest
``f = g + h`` still open is a lower bound on every plan, and the first goal popped has
the shortest plan.  Stopped early, that smallest ``f`` is what it proves.

States are integers as in :mod:`hanoi_asp.methods.bfs` (disk ``d`` contributes
``peg * pegs**(d-1)``), so a run's pattern is ``state // pegs**first % pegs**size``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hanoi_asp.methods.bfs import steps_back
from hanoi_asp.methods.patterns import (
    UNSEEN,
    Partitioned,
    goal_database,
    move_lists,
    strong_exact,
    strong_price,
)
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import Puzzle

CHECK_EVERY = 4096
"""Expansions between two looks at the deadline and the budget of stored states."""


@dataclass(frozen=True)
class AstarOutcome:
    steps: list[tuple[int, str]] | None
    """(disk, target peg) moves of a shortest plan, or None."""
    expanded: int
    stored: int
    lower: int
    """Proven: no plan has fewer moves (the plan's length when there is one)."""
    exhausted: bool = False
    """Every reachable state was expanded without a goal: no plan exists."""
    stopped: str | None = None
    """``timeout`` or ``states`` (the budget of stored states): ``lower`` is still proven."""


def search(
    puzzle: Puzzle,
    tables: Partitioned,
    *,
    max_states: int = Limits.states,
    deadline: float | None = None,
) -> AstarOutcome:
    """A shortest plan by A* with the tables' estimate (see the module docstring).
    Past ``deadline`` or ``max_states`` stored states it stops with what it proved: the
    smallest ``f`` still open."""
    pegs, disks = len(puzzle.pegs), puzzle.disks
    weight_of: list[int] = [pegs**d for d in range(disks)]  # a disk's digit in a state
    looks: list[list[tuple[int, int, Sequence[int]]]] = [
        [(weight_of[t.run.first], pegs**t.run.size, t.distances) for t in part] for part in tables
    ]

    def estimate(state: int) -> int:
        return max(sum(dist[state // scale % span] for scale, span, dist in part) for part in looks)

    start = sum(peg * weight_of[i] for i, peg in enumerate(puzzle.initial_state()))
    goal = [(disk - 1, peg) for disk, peg in puzzle.goal_pegs().items()]
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    h0 = estimate(start)
    if h0 >= UNSEEN:
        return AstarOutcome(None, 0, 1, 0, exhausted=True)
    best = {start: 0}
    parent = {start: -1}
    heap: list[tuple[int, int, int, int]] = [(h0, h0, 0, start)]  # f, h, g
    expanded = 0
    while heap:
        _, h, g, state = heapq.heappop(heap)
        if best[state] < g:
            continue  # a shorter way here was expanded already
        if h == 0 and all(state // weight_of[i] % pegs == peg for i, peg in goal):
            found = steps_back(puzzle, parent, state, weight_of)
            return AstarOutcome(found, expanded, len(best), g)
        expanded += 1
        if expanded % CHECK_EVERY == 0:
            proven = g + h  # f, the smallest still open
            if deadline is not None and time.monotonic() > deadline:
                return AstarOutcome(None, expanded, len(best), proven, stopped="timeout")
            if len(best) > max_states:
                return AstarOutcome(None, expanded, len(best), proven, stopped="states")
        top = [-1] * pegs  # the smallest disk (highest index) on each peg
        rest = state
        for i in range(disks):
            rest, peg = divmod(rest, pegs)
            top[peg] = i
        for peg, i in enumerate(top):
            if i < 0:
                continue
            for target in targets[peg]:
                if top[target] > i:
                    continue
                nxt = state + (target - peg) * weight_of[i]
                if best.get(nxt, UNSEEN) <= g + 1:
                    continue
                h_next = estimate(nxt)
                if h_next >= UNSEEN:
                    continue
                best[nxt] = g + 1
                parent[nxt] = state
                heapq.heappush(heap, (g + 1 + h_next, h_next, g + 1, nxt))
    return AstarOutcome(None, expanded, len(best), 0, exhausted=True)


def search_buying_tables(
    puzzle: Puzzle,
    tables: Partitioned | None,
    *,
    max_states: int = Limits.states,
    deadline: float | None = None,
) -> tuple[AstarOutcome, Partitioned | None]:
    """A* that buys the strong tables when its search proves costly (a ski-rental rule,
    as :func:`hanoi_asp.engine.tables.check_every_cut` for clingo): the strong ones at
    once if they are free (cached), else ``tables`` (the bound's, built here if None),
    until A* has run as long as the strong ones should take to build
    (:func:`~hanoi_asp.methods.patterns.strong_price`); then the strong ones, and A*
    afresh.  Where the strong tables are one table of every disk (the exact distance:
    A* on it walks straight to the goal), they are bought at once.  Stopped meanwhile,
    the larger of the two searches' proven bounds is what it proved.  Also the tables it
    ended with (None: it never had any, out of time)."""
    price = strong_price(puzzle)
    first: AstarOutcome | None = None
    if price > 0 and not strong_exact(puzzle):
        if tables is None:
            try:
                tables = goal_database(puzzle, deadline=deadline)
            except TimeoutError:
                return AstarOutcome(None, 0, 0, 0, stopped="timeout"), None
        began = time.monotonic()
        stop = began + price if deadline is None else min(deadline, began + price)
        first = search(puzzle, tables, max_states=max_states, deadline=stop)
        if not first.stopped or (deadline is not None and time.monotonic() >= deadline):
            return first, tables
    try:
        strong = goal_database(puzzle, deadline=deadline, strong=True)
    except TimeoutError:
        if first is None:
            return AstarOutcome(None, 0, 0, 0, stopped="timeout"), tables
        return first, tables
    found = search(puzzle, strong, max_states=max_states, deadline=deadline)
    if found.stopped and first is not None and first.lower > found.lower:
        return replace(found, lower=first.lower), strong
    return found, strong
