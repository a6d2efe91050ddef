"""A* a batch of states at a time (numpy), where the puzzle's states fit one bit each:
the search :func:`hanoi_asp.methods.astar.search` runs there (why its answer is optimal:
that module's docstring)."""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

from hanoi_asp.methods import state_arrays
from hanoi_asp.methods.astar_outcome import AstarOutcome, Progress, Report
from hanoi_asp.methods.patterns import UNSEEN, Partitioned, move_lists
from hanoi_asp.methods.states import encode, moves_along
from hanoi_asp.methods.work import ESTIMATE
from hanoi_asp.model.puzzle import Puzzle

BATCHED_STATES = 2**31
"""Most states a puzzle may have for the batched A*, whose closed set is one bit a
state (256 MiB at most, allocated by the system as it is touched): 4 pegs 15 disks, 5
pegs 13, 6 pegs 11 fit.  Every state then fits 32 bits (:data:`Held`)."""
BATCH = 1 << 16
"""Most states the batched A* expands at once: a batch's arrays take some MiB, and the
deadline and the budget are looked at between two."""


def search_batched(
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
    fewer moves than it is (``docs/decisions/astar.md``).  The plan is traced back
    through the parents recorded for the expanded states.  ``stored`` is the most
    states held at once, open or expanded."""
    pegs = len(puzzle.pegs)
    digit = state_arrays.digits(puzzle)
    estimate = state_arrays.estimator(tables, digit, pegs)
    at_goal = state_arrays.goal_test(puzzle, digit)
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    moves = [(a, b) for a in range(pegs) for b in targets[a]]
    start = np.array([encode(puzzle)], dtype=np.int32)
    h0 = int(estimate(start)[0])
    if h0 >= UNSEEN:
        return AstarOutcome(None, 0, 1, 0, exhausted=True)
    closed = state_arrays.StateBits(pegs**puzzle.disks, BATCHED_STATES)
    first = (start, np.full(1, -1, dtype=np.int32), np.zeros(1, dtype=np.int32))
    buckets: dict[int, list[Open]] = {h0: [first]}
    done: list[tuple[Held, Held]] = []  # the expanded states and their parents
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
            opened = (after[chosen].astype(np.int32), states[parent[chosen]], g_after[chosen])
            buckets.setdefault(f_next, []).append(opened)
    return AstarOutcome(None, expanded, stored, 0, exhausted=True, work=work)


Held = npt.NDArray[np.int32]
"""States as the batched A* holds them, open or expanded: in 32 bits, half the memory
of 64 (they fit: :data:`BATCHED_STATES`)."""
Open = tuple[Held, Held, "npt.NDArray[np.int32]"]
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


def _trail(done: list[tuple[Held, Held]], end: int) -> list[int]:
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
