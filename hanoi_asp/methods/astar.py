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

States are integers (:mod:`hanoi_asp.methods.states`), so a run's pattern is
``state // pegs**first % pegs**size``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import replace

from hanoi_asp.methods.astar_batched import BATCHED_STATES, search_batched
from hanoi_asp.methods.astar_outcome import AstarOutcome, Progress, Report
from hanoi_asp.methods.patterns import (
    UNSEEN,
    Partitioned,
    goal_database,
    move_lists,
    strong_price,
    tables_price,
)
from hanoi_asp.methods.states import encode, steps_back, successors, tops, weights
from hanoi_asp.methods.work import ESTIMATE_ONE_BY_ONE
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import Puzzle

CHECK_EVERY = 4096
"""Expansions between two looks at the deadline, the budget of stored states and the
work done, one state at a time."""


def search(
    puzzle: Puzzle,
    tables: Partitioned,
    *,
    max_states: int = Limits.states,
    deadline: float | None = None,
    rent: int | None = None,
    report: Report | None = None,
) -> AstarOutcome:
    """A shortest plan by A* with the tables' estimate (see the module docstring).
    Past ``deadline``, ``max_states`` stored states or ``rent`` units of work (states
    estimated, :mod:`hanoi_asp.methods.work`, not the clock: the same search stops at the
    same point however busy the machine) it stops with what it proved: the smallest
    ``f`` still open.  ``report`` hears where it stands as it goes.  Batched
    (:func:`~hanoi_asp.methods.astar_batched.search_batched`) where the puzzle's states
    fit :data:`BATCHED_STATES`, else one state at a time."""
    how = search_batched if batched(puzzle) else search_one_by_one
    return how(puzzle, tables, max_states, deadline, rent, report)


BATCHED_STATE_BYTES = 32
"""Memory the batched A* takes per state it holds, as measured when it held states in 64
bits (``docs/decisions/astar.md``): now 12 bytes open (state, parent, ``g``) or 8
expanded (state, parent), and a batch's arrays beside them.  Kept: the budget, and so
what A* proves within it, stays as it was."""
STATE_BYTES = 250
"""Memory A* one state at a time takes per stored state (two dict entries and a heap
tuple; ``python -m benchmarks.astar_memory``)."""


def batched(puzzle: Puzzle) -> bool:
    """Whether :func:`search` runs batched on this puzzle."""
    return bool(len(puzzle.pegs) ** puzzle.disks <= BATCHED_STATES)


def state_bytes(puzzle: Puzzle) -> int:
    """Memory per state :func:`search` holds on this puzzle."""
    return BATCHED_STATE_BYTES if batched(puzzle) else STATE_BYTES


def states_within(puzzle: Puzzle, memory: int) -> int:
    """How many states :func:`search` may hold on this puzzle in ``memory`` bytes: the
    batched A*'s closed set (a bit a state of the puzzle) counted first."""
    fixed = len(puzzle.pegs) ** puzzle.disks // 8 if batched(puzzle) else 0
    return max(0, memory - fixed) // state_bytes(puzzle)


def search_one_by_one(
    puzzle: Puzzle,
    tables: Partitioned,
    max_states: int,
    deadline: float | None,
    rent: int | None,
    report: Report | None,
) -> AstarOutcome:
    """:func:`search`'s A* one state at a time, a dict of the best ``g`` per state and a heap: for
    puzzles whose states are too many for :func:`~hanoi_asp.methods.astar_batched.search_batched`'s
    bits."""
    pegs, disks = len(puzzle.pegs), puzzle.disks
    weight_of = weights(pegs, disks)  # a disk's digit in a state
    looks: list[list[tuple[int, int, Sequence[int]]]] = [
        [(weight_of[t.run.first], pegs**t.run.size, t.distances) for t in part] for part in tables
    ]

    def estimate(state: int) -> int:
        return max(sum(dist[state // scale % span] for scale, span, dist in part) for part in looks)

    start = encode(puzzle)
    goal = [(disk - 1, peg) for disk, peg in puzzle.goal_pegs().items()]
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    h0 = estimate(start)
    if h0 >= UNSEEN:
        return AstarOutcome(None, 0, 1, 0, exhausted=True)
    best = {start: 0}
    parent = {start: -1}
    heap: list[tuple[int, int, int, int]] = [(h0, h0, 0, start)]  # f, h, g
    expanded = 0
    estimated = 1
    while heap:
        _, h, g, state = heapq.heappop(heap)
        if best[state] < g:
            continue  # a shorter way here was expanded already
        work = estimated * ESTIMATE_ONE_BY_ONE
        if h == 0 and all(state // weight_of[i] % pegs == peg for i, peg in goal):
            found = steps_back(puzzle, parent, state)
            return AstarOutcome(found, expanded, len(best), g, work=work)
        expanded += 1
        if expanded % CHECK_EVERY == 0:
            proven = g + h  # f, the smallest still open
            if report is not None:
                report(Progress(work, proven))
            stop = None
            if deadline is not None and time.monotonic() > deadline:
                stop = "timeout"
            elif len(best) > max_states:
                stop = "states"
            elif rent is not None and work >= rent:
                stop = "rent"
            if stop is not None:
                return AstarOutcome(None, expanded, len(best), proven, stopped=stop, work=work)
        for _, _, nxt in successors(state, tops(pegs, disks, state), targets, weight_of):
            if best.get(nxt, UNSEEN) <= g + 1:
                continue
            h_next = estimate(nxt)
            estimated += 1
            if h_next >= UNSEEN:
                continue
            best[nxt] = g + 1
            parent[nxt] = state
            heapq.heappush(heap, (g + 1 + h_next, h_next, g + 1, nxt))
    work = estimated * ESTIMATE_ONE_BY_ONE
    return AstarOutcome(None, expanded, len(best), 0, exhausted=True, work=work)


def search_buying_tables(
    puzzle: Puzzle,
    tables: Partitioned | None,
    *,
    max_states: int = Limits.states,
    deadline: float | None = None,
    report: Report | None = None,
) -> AstarOutcome:
    """A* that buys the strong tables when its search proves costly (a ski-rental rule,
    as :mod:`hanoi_asp.engine.tables` for clingo): ``tables`` (the bound's, built here
    if None) until A* has done as much work as the strong ones take to build
    (:func:`~hanoi_asp.methods.patterns.strong_price`, as if built: a table in the
    on-disk cache is read sooner, priced the same); then the strong ones, and A* afresh.
    Also where the strong tables are one table of every disk (the exact distance, on
    which A* walks straight to the goal): the batched A* on the bound's tables proves
    most random 4-peg 12-disk puzzles before the exact table would be built.  Stopped
    meanwhile, the larger of the two searches' proven bounds is what it proved.  The
    work counts both searches and every table built here (``work`` of the outcome, and
    of each :class:`Progress` ``report`` hears), so a puzzle takes the same way every
    time, alone (``--method astar``) or racing clingo.  The strong tables' price is
    reported before they are built, as nothing is said within it: the engine racing
    A* goes on with its own work meanwhile instead of waiting at the next meeting."""
    spent, floor, strong = 0, 0, False

    def shifted(progress: Progress) -> None:
        if report is not None:
            report(Progress(spent + progress.work, max(floor, progress.lower), strong))

    if tables is None:
        try:
            tables = goal_database(puzzle, deadline=deadline)
        except TimeoutError:
            return AstarOutcome(None, 0, 0, 0, stopped="timeout")
        spent = tables_price(puzzle, tables)
    price = strong_price(puzzle)
    first = search(
        puzzle, tables, max_states=max_states, deadline=deadline, rent=price, report=shifted
    )
    if first.stopped not in ("rent", "states"):
        return replace(first, work=spent + first.work)
    spent, floor, strong = spent + first.work + price, first.lower, True
    shifted(Progress(0, floor))  # said before the build: nothing is said within its price
    try:
        tables = goal_database(puzzle, deadline=deadline, strong=True)
    except TimeoutError:
        stop = "timeout" if first.stopped == "rent" else first.stopped
        return replace(first, stopped=stop, work=spent)
    found = search(puzzle, tables, max_states=max_states, deadline=deadline, report=shifted)
    lower = max(found.lower, floor) if found.stopped else found.lower
    return replace(found, lower=lower, work=spent + found.work)


__all__ = [
    "BATCHED_STATES",
    "CHECK_EVERY",
    "AstarOutcome",
    "Progress",
    "Report",
    "batched",
    "search",
    "search_buying_tables",
    "search_one_by_one",
    "state_bytes",
    "states_within",
]
