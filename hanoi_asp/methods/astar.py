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
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from hanoi_asp.methods import state_arrays
from hanoi_asp.methods.patterns import (
    UNSEEN,
    Partitioned,
    goal_database,
    move_lists,
    strong_price,
)
from hanoi_asp.methods.state_arrays import Ints
from hanoi_asp.methods.states import encode, moves_along, steps_back, successors, tops, weights
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import Puzzle

CHECK_EVERY = 4096
"""Expansions between two looks at the deadline and the budget of stored states."""
SECONDS_PER_ESTIMATE = 0.43e-6
"""Seconds of work the batched A* is charged per state it estimates, toward a ``rent``
(:func:`search_buying_tables`): the median of 17 searches of a million estimated
states or more on 4 and 5 pegs, on the bound's and on every cut's tables (0.31-0.50
microseconds; the tables' count hardly matters, the moves and the closed set do)."""
SECONDS_PER_ESTIMATE_ONE_BY_ONE = 6e-6
"""The same for A* one state at a time (:func:`search_one_by_one`): 5.2-7.1
microseconds measured on 4 pegs with 13 disks and 5 pegs with 12, rising as its dicts
grow."""


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


def search(
    puzzle: Puzzle,
    tables: Partitioned,
    *,
    max_states: int = Limits.states,
    deadline: float | None = None,
    rent: float | None = None,
) -> AstarOutcome:
    """A shortest plan by A* with the tables' estimate (see the module docstring).
    Past ``deadline``, ``max_states`` stored states or ``rent`` seconds of work (counted
    in states estimated, :data:`SECONDS_PER_ESTIMATE`, not on the clock: the same
    search stops at the same point however busy the machine) it stops with what it
    proved: the smallest ``f`` still open.  Batched (:func:`_search_batched`) where the
    puzzle's states fit :data:`BATCHED_STATES`, else one state at a time."""
    if batched(puzzle):
        return _search_batched(puzzle, tables, max_states, deadline, rent)
    return search_one_by_one(puzzle, tables, max_states=max_states, deadline=deadline, rent=rent)


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
    rent: float | None = None,
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
    most = None if rent is None else rent / SECONDS_PER_ESTIMATE
    estimated = 1
    while buckets:
        f = min(buckets)
        if deadline is not None and time.monotonic() > deadline:
            return AstarOutcome(None, expanded, stored, f, stopped="timeout")
        if most is not None and estimated >= most:
            return AstarOutcome(None, expanded, stored, f, stopped="rent")
        if stored > max_states:
            return AstarOutcome(None, expanded, stored, f, stopped="states")
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
            return AstarOutcome(moves_along(puzzle, trail), expanded, stored, f)
        after, parent = state_arrays.successors(states, digit, pegs, moves)
        keep = closed.fresh(after)
        after, parent = after[keep], parent[keep]
        h = estimate(after)
        estimated += len(after)
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
    return AstarOutcome(None, expanded, stored, 0, exhausted=True)


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
    rent: float | None = None,
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
    most = None if rent is None else rent / SECONDS_PER_ESTIMATE_ONE_BY_ONE
    estimated = 1
    while heap:
        _, h, g, state = heapq.heappop(heap)
        if best[state] < g:
            continue  # a shorter way here was expanded already
        if h == 0 and all(state // weight_of[i] % pegs == peg for i, peg in goal):
            found = steps_back(puzzle, parent, state)
            return AstarOutcome(found, expanded, len(best), g)
        expanded += 1
        if expanded % CHECK_EVERY == 0:
            proven = g + h  # f, the smallest still open
            if deadline is not None and time.monotonic() > deadline:
                return AstarOutcome(None, expanded, len(best), proven, stopped="timeout")
            if len(best) > max_states:
                return AstarOutcome(None, expanded, len(best), proven, stopped="states")
            if most is not None and estimated >= most:
                return AstarOutcome(None, expanded, len(best), proven, stopped="rent")
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
    until A* has done as much work as the strong ones should take to build
    (:func:`~hanoi_asp.methods.patterns.strong_price`); then the strong ones, and A*
    afresh.  Also where the strong tables are one table of every disk (the exact
    distance, on which A* walks straight to the goal): the batched A* on the bound's
    tables proved the random 4-peg 12-disk puzzles in 0.02-0.79 s, where the exact
    table takes about 2.8 s to build (one state at a time it took seconds, and the
    exact table was bought at once).  Stopped meanwhile, the larger of the two
    searches' proven bounds is what it proved.  Also the tables it ended with (None:
    it never had any, out of time).

    The work is counted in states estimated (``rent``), not on the clock, so that a
    puzzle takes the same way every time, alone (``--method astar``) or racing clingo
    (:mod:`hanoi_asp.engine.astar_race`, where the same search runs a few percent
    slower beside it): on the clock, random4-n15-full-7 (27.6M states estimated in
    12.9-13.5 s, against a price of 13.4 s) bought the strong tables in some runs and
    not in others, and took 13 s or 26 s."""
    price = strong_price(puzzle)
    first: AstarOutcome | None = None
    if price > 0:
        if tables is None:
            try:
                tables = goal_database(puzzle, deadline=deadline)
            except TimeoutError:
                return AstarOutcome(None, 0, 0, 0, stopped="timeout"), None
        first = search(puzzle, tables, max_states=max_states, deadline=deadline, rent=price)
        if first.stopped not in ("rent", "states"):
            return first, tables
    try:
        strong = goal_database(puzzle, deadline=deadline, strong=True)
    except TimeoutError:
        if first is None:
            return AstarOutcome(None, 0, 0, 0, stopped="timeout"), tables
        return (replace(first, stopped="timeout") if first.stopped == "rent" else first), tables
    found = search(puzzle, strong, max_states=max_states, deadline=deadline)
    if found.stopped and first is not None and first.lower > found.lower:
        return replace(found, lower=first.lower), strong
    return found, strong
