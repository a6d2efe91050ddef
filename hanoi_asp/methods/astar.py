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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from hanoi_asp.methods import state_arrays
from hanoi_asp.methods.patterns import (
    UNSEEN,
    Partitioned,
    goal_database,
    move_lists,
    strong_price,
    tables_price,
)
from hanoi_asp.methods.state_arrays import Ints
from hanoi_asp.methods.states import encode, moves_along, steps_back, successors, tops, weights
from hanoi_asp.methods.work import ESTIMATE, ESTIMATE_ONE_BY_ONE
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import Puzzle

CHECK_EVERY = 4096
"""Expansions between two looks at the deadline, the budget of stored states and the
work done, one state at a time."""


class Progress(NamedTuple):
    """Where a search stands: the work done so far (:mod:`hanoi_asp.methods.work`), the
    smallest ``f`` still open (a proven lower bound), and whether it runs on the strong
    tables."""

    work: int
    lower: int
    strong: bool = False


Report = Callable[[Progress], None]
"""Told where the search stands after each batch (each :data:`CHECK_EVERY` expansions one
state at a time): the racing A* sends it to the engine (:mod:`hanoi_asp.engine.rival`)."""


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
    """``timeout``, ``states`` (the budget of stored states) or ``rent`` (the work
    allowed it, :func:`search`'s ``rent``): ``lower`` is still proven."""
    work: int = 0
    """The work done (:mod:`hanoi_asp.methods.work`): states estimated, tables built."""


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
    (:func:`_search_batched`) where the puzzle's states fit :data:`BATCHED_STATES`, else
    one state at a time."""
    if batched(puzzle):
        return _search_batched(puzzle, tables, max_states, deadline, rent, report)
    return search_one_by_one(
        puzzle, tables, max_states=max_states, deadline=deadline, rent=rent, report=report
    )


BATCHED_STATES = 2**31
"""Most states a puzzle may have for the batched A*, whose closed set is one bit a
state (256 MiB at most, allocated by the system as it is touched): 4 pegs 15 disks, 5
pegs 13, 6 pegs 11 fit."""
BATCH = 1 << 16
"""Most states the batched A* expands at once: a batch's arrays take some MiB, and the
deadline and the budget are looked at between two."""


BATCHED_STATE_BYTES = 32
"""Memory the batched A* takes per state it holds: 20 bytes open (state, parent,
``g``) or 16 expanded (state, parent), and a batch's arrays beside them; 31 measured
on random4-n15-full-3 (10.4M states, 574 MiB with the tables and the closed set)."""
STATE_BYTES = 250
"""Memory A* one state at a time takes per stored state (two dict entries and a heap
tuple): 145-245 bytes measured by ``python -m benchmarks.astar_memory`` on random
4-peg puzzles."""


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


def _search_batched(
    puzzle: Puzzle,
    tables: Partitioned,
    max_states: int,
    deadline: float | None,
    rent: int | None = None,
    report: Report | None = None,
) -> AstarOutcome:
    """A* a batch of states at a time, each batch a few numpy operations (moves,
    estimates, the closed set's bits) where one state at a time costs tens of
    microseconds in Python.

    The open states are kept in buckets by ``f`` (each a list of arrays of states,
    their parents and ``g``); a batch is up to :data:`BATCH` states of the smallest
    ``f``, the last opened first (the deepest, as the heap's ties break in
    :func:`search_one_by_one`; batches of one ``g`` each were thousands of tiny ones).
    With a consistent estimate every state is expanded first at its true distance from
    the start, whatever order states of the same ``f`` are taken in: a state ``s`` taken
    at ``g`` above its distance would have a state of a shortest way to it still open,
    with ``f`` below ``s``'s, so ``f`` was not the smallest.  So a state taken again
    later (a duplicate, or on a longer way) is dropped by the closed set, the smallest
    ``f`` still open is the proven bound, and the first goal taken has the shortest plan.
    One care: a state reached from two states of one batch keeps the one of smaller
    ``g`` (the batch is ordered by ``g``, :func:`~.state_arrays.once_each` keeps the
    first); else it would be opened too far from the start, and proven unreachable in
    fewer moves than it is (one move too many on random4-n15-full-1, on the strong
    tables).  The plan is traced back through the parents recorded for the expanded
    states.  ``stored`` is the most states held at once, open or expanded."""
    pegs = len(puzzle.pegs)
    digit = state_arrays.digits(puzzle)
    estimate = state_arrays.estimator(tables, digit, pegs)
    at_goal = state_arrays.goal_test(puzzle, digit)
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    moves = [(a, b) for a in range(pegs) for b in targets[a]]
    start = np.array([encode(puzzle)], dtype=np.int64)
    h0 = int(estimate(start)[0])
    if h0 >= UNSEEN:
        return AstarOutcome(None, 0, 1, 0, exhausted=True)
    closed = state_arrays.StateBits(pegs**puzzle.disks, BATCHED_STATES)
    first = (start, np.full(1, -1), np.zeros(1, dtype=np.int32))
    buckets: dict[int, list[Open]] = {h0: [first]}
    done: list[tuple[Ints, Ints]] = []  # the expanded states and their parents
    expanded, stored, held = 0, 1, 1  # held: open or expanded, now
    work = ESTIMATE
    while buckets:
        f = min(buckets)
        if report is not None:
            report(Progress(work, f))
        if deadline is not None and time.monotonic() > deadline:
            return AstarOutcome(None, expanded, stored, f, stopped="timeout", work=work)
        if rent is not None and work >= rent:
            return AstarOutcome(None, expanded, stored, f, stopped="rent", work=work)
        if stored > max_states:
            return AstarOutcome(None, expanded, stored, f, stopped="states", work=work)
        states, parents, g = _take(buckets, f)
        held -= len(states)
        states, once = np.unique(states, return_index=True)  # a state's g is its f less h
        parents, g = parents[once], g[once]
        fresh = closed.fresh(states)
        states, parents, g = states[fresh], parents[fresh], g[fresh]
        if not len(states):
            continue
        closed.add(states)
        done.append((states, parents))  # in the order of states, for _trail
        by_g = np.argsort(g, kind="stable")  # a state's parent: its first
        states, g = states[by_g], g[by_g]
        expanded += len(states)
        held += len(states)
        goals = np.flatnonzero(g == f)  # h = 0, as a goal state's estimate is
        goals = goals[at_goal(states[goals])]
        if len(goals):
            trail = _trail(done, int(states[goals[0]]))
            return AstarOutcome(moves_along(puzzle, trail), expanded, stored, f, work=work)
        after, parent = state_arrays.successors(states, digit, pegs, moves)
        keep = closed.fresh(after)
        after, parent = after[keep], parent[keep]
        h = estimate(after)
        work += ESTIMATE * len(after)
        keep = h < UNSEEN
        after, parent, h = after[keep], parent[keep], h[keep]
        g_after = g[parent] + 1
        f_after = g_after + h
        held += len(after)
        stored = max(stored, held)
        for f_next in np.unique(f_after).tolist():
            chosen = f_after == f_next
            opened = (after[chosen], states[parent[chosen]], g_after[chosen])
            buckets.setdefault(f_next, []).append(opened)
    return AstarOutcome(None, expanded, stored, 0, exhausted=True, work=work)


Open = tuple[Ints, Ints, "npt.NDArray[np.int32]"]
"""Open states, their parents and their ``g`` (32 bits: on 3 pegs in a line a plan of
10 disks has 59,048 moves)."""


def _take(buckets: dict[int, list[Open]], f: int) -> Open:
    """Up to :data:`BATCH` open states of bucket ``f`` (all of it, at most), the last
    opened first, taken out of it (an emptied bucket is dropped)."""
    level, taken, count = buckets[f], [], 0
    while level and count < BATCH:
        taken.append(level.pop())
        count += len(taken[-1][0])
    if count > BATCH:
        states, parents, g = taken.pop()
        cut = len(states) - (count - BATCH)
        level.append((states[cut:], parents[cut:], g[cut:]))
        taken.append((states[:cut], parents[:cut], g[:cut]))
    if not level:
        del buckets[f]
    if len(taken) == 1:
        return taken[0]
    states, parents, g = (np.concatenate(part) for part in zip(*taken, strict=True))
    return states, parents, g


def _trail(done: list[tuple[Ints, Ints]], end: int) -> list[int]:
    """The states from the start to ``end``, by the parents recorded as states were
    expanded (each batch's in the order of its states; the start's parent is -1),
    looked up batch by batch: a few thousand binary searches a step, where one sorted
    copy of them all would double the memory at the end."""
    trail = [end]
    while trail[-1] >= 0:
        state = trail[-1]
        for states, parents in done:
            at = int(np.searchsorted(states, state))
            if at < len(states) and states[at] == state:
                trail.append(int(parents[at]))
                break
        else:
            raise AssertionError(f"state {state} on the way was never expanded")
    trail.pop()  # the start's -1
    trail.reverse()
    return trail


def search_one_by_one(
    puzzle: Puzzle,
    tables: Partitioned,
    *,
    max_states: int = Limits.states,
    deadline: float | None = None,
    rent: int | None = None,
    report: Report | None = None,
) -> AstarOutcome:
    """A* one state at a time, a dict of the best ``g`` per state and a heap: for
    puzzles whose states are too many for :func:`_search_batched`'s bits."""
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
    time, alone (``--method astar``) or racing clingo."""
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
    try:
        tables = goal_database(puzzle, deadline=deadline, strong=True)
    except TimeoutError:
        stop = "timeout" if first.stopped == "rent" else first.stopped
        return replace(first, stopped=stop, work=spent)
    shifted(Progress(0, floor))
    found = search(puzzle, tables, max_states=max_states, deadline=deadline, report=shifted)
    lower = max(found.lower, floor) if found.stopped else found.lower
    return replace(found, lower=lower, work=spent + found.work)
