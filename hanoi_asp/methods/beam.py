"""Beam search on the pattern tables: a short plan, fast, proving nothing.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> from hanoi_asp.methods.patterns import goal_database
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=5, init={"a": (1, 2, 3, 4, 5)},
...            goal={"d": (1, 2, 3, 4, 5)})
>>> len(search(p, goal_database(p), width=64))
13

Breadth-first, one layer of states per move, but each layer keeps only the ``width``
states whose tables' estimate (:func:`hanoi_asp.methods.patterns.estimate`) is
smallest; the first layer holding a goal state gives the plan.  Every state in a layer
is reached by as many moves as its depth, so ranking a layer by the estimate ranks it
by ``g + h`` too.  A state kept once is never kept again, so the beam cannot cycle.

Why it serves the engine: where the tables guide well, a beam of a few thousand
states follows near-optimal plans through a state space far too large to search; on
the hard random families (``python -m benchmarks.anytime``) a width of 4096 came within
a few moves of the optimum in about a second, where weighted A* on the same tables
found nothing in half a second.  Wider is better but not always, and costs
proportionally more: the engine widens it by steps (:mod:`hanoi_asp.engine.shorten`).
It is not complete (it may miss every goal) and proves nothing: its plan is an upper
bound, replayed by the simulator like every plan.

A layer is a numpy array of states (integers as in :mod:`hanoi_asp.methods.bfs`: disk
``d`` contributes ``peg * pegs**(d-1)``), so the moves, estimates and ranking of a whole
layer are a few array operations; the states kept are marked in a bit array
(:class:`_Seen`), so telling a layer's fresh states is one array lookup too.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from hanoi_asp.methods.patterns import UNSEEN, Partitioned, move_lists
from hanoi_asp.model.puzzle import Puzzle

Steps = list[tuple[int, str]]
Ints = npt.NDArray[np.int64]

MOST_KEPT = 2_000_000
"""Most states a beam remembers (their layers take 16 bytes a state, 32 MiB): past that
it gives up, as a deep plan (hundreds of moves) times a wide beam would take far more
memory than the proof."""
SEEN_BITS = 2**28
"""Most bits marking the states kept (32 MiB, allocated lazily by the system: a page
costs memory once a state on it is marked)."""
MIX = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing's multiplier (2**64 over the golden ratio, odd): its top bits of a
product spread states that differ in any digit over the whole bit array."""
LARGEST_STATE = 2**62
"""States are int64: past this many states (4 pegs and 31 disks) the beam is not run."""


def fits(puzzle: Puzzle) -> bool:
    """Whether the puzzle's states fit the beam's integers."""
    return bool(len(puzzle.pegs) ** puzzle.disks <= LARGEST_STATE)


def search(
    puzzle: Puzzle,
    tables: Partitioned,
    width: int,
    *,
    shorter_than: int | None = None,
    deadline: float | None = None,
    interrupt: Callable[[], bool] | None = None,
) -> Steps | None:
    """A plan found by a beam of ``width`` states (see the module docstring), as
    (disk, peg) moves; None if the beam empties, reaches ``shorter_than`` moves without
    a goal, passes ``deadline`` (a ``time.monotonic()`` value), is interrupted
    (``interrupt()`` true, asked after every layer), would remember more than
    :data:`MOST_KEPT` states, or the states do not fit (:func:`fits`)."""
    if not fits(puzzle):
        return None
    pegs, disks = len(puzzle.pegs), puzzle.disks
    digit: Ints = np.array([pegs**d for d in range(disks)], dtype=np.int64)
    estimate = _estimator(tables, digit, pegs)
    goal = puzzle.goal_pegs()
    goal_disks = np.array([d - 1 for d in goal], dtype=np.int64)
    goal_pegs = np.array(list(goal.values()), dtype=np.int64)
    start = int(sum(peg * pegs**i for i, peg in enumerate(puzzle.initial_state())))
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    moves = [(a, b) for a in range(pegs) for b in targets[a]]
    layer: Ints = np.array([start], dtype=np.int64)
    layers, parents = [layer], []  # parents[k][i]: index in layers[k] of layers[k+1][i]
    kept = _Seen(pegs**disks)
    kept.add(layer)
    if _at_goal(layer, digit, goal_disks, goal_pegs, pegs).any():
        return []
    depth = 0
    while shorter_than is None or depth + 1 < shorter_than:
        depth += 1
        states, parent = _successors(layer, digit, pegs, disks, moves)
        fresh = kept.fresh(states)
        h = estimate(states[fresh])
        alive = h < UNSEEN
        states, parent, h = states[fresh][alive], parent[fresh][alive], h[alive]
        if len(states) == 0:
            return None
        zero = np.flatnonzero(h == 0)  # a goal state's estimate is 0
        done = zero[_at_goal(states[zero], digit, goal_disks, goal_pegs, pegs)]
        if len(done):
            layers.append(states)
            parents.append(parent)
            return _steps(puzzle, layers, parents, int(done[0]), digit)
        if len(states) > width:
            best = np.argpartition(h, width)[:width]
            states, parent = states[best], parent[best]
        kept.add(states)
        layers.append(states)
        parents.append(parent)
        layer = states
        if deadline is not None and time.monotonic() > deadline:
            return None
        if (interrupt is not None and interrupt()) or kept.count > MOST_KEPT:
            return None
    return None


class _Seen:
    """The states a beam has kept, one bit each: the state itself indexes the bits
    where the puzzle has at most :data:`SEEN_BITS` states (exact), else its hash
    (:data:`MIX`).  A hash may collide, and a fresh state taken for a kept one is then
    left out of the beam (at most one in ``SEEN_BITS / MOST_KEPT`` = 134): harmless, as
    the beam leaves out states anyway and its plan is replayed; a kept state is never
    taken for a fresh one, so the beam still cannot cycle."""

    def __init__(self, states: int, most: int | None = None) -> None:
        """For a puzzle of ``states`` states, in at most ``most`` bits (a power of 2,
        :data:`SEEN_BITS` unless given)."""
        most = SEEN_BITS if most is None else most
        self.exact = states <= most
        self.bits = np.zeros((min(states, most) + 7) // 8, dtype=np.uint8)
        self.shift = np.uint64(64 - (most.bit_length() - 1))  # the top log2(most) bits
        self.count = 0

    def _slots(self, states: Ints) -> Ints:
        if self.exact:
            return states
        mixed = states.astype(np.uint64) * MIX  # wraps around: the low 64 bits
        return (mixed >> self.shift).astype(np.int64)

    def fresh(self, states: Ints) -> npt.NDArray[np.bool_]:
        slots = self._slots(states)
        marked = self.bits[slots >> 3] >> (slots & 7).astype(np.uint8) & 1
        fresh: npt.NDArray[np.bool_] = marked == 0
        return fresh

    def add(self, states: Ints) -> None:
        slots = self._slots(states)
        np.bitwise_or.at(self.bits, slots >> 3, np.left_shift(1, slots & 7).astype(np.uint8))
        self.count += len(states)


Estimate = Callable[[Ints], npt.NDArray[np.int32]]


def _estimator(tables: Partitioned, digit: Ints, pegs: int) -> Estimate:
    """The tables' estimate of a whole array of states at once."""
    looks = [
        [(digit[t.run.first], pegs**t.run.size, _as_array(t.distances)) for t in part]
        for part in tables
    ]

    def estimate(states: Ints) -> npt.NDArray[np.int32]:
        best = np.zeros(len(states), dtype=np.int32)
        for part in looks:
            total = np.zeros(len(states), dtype=np.int32)
            for scale, span, distances in part:
                total += distances[states // scale % span]
            np.maximum(best, total, out=best)
        return best

    return estimate


def _as_array(distances: Sequence[int]) -> npt.NDArray[np.uint16]:
    """A table's distances as a numpy array, without a copy: one byte or two a
    pattern (:class:`~hanoi_asp.methods.patterns.PatternTable`)."""
    if isinstance(distances, bytes | bytearray):
        return np.frombuffer(distances, dtype=np.uint8).astype(np.uint16, copy=False)
    return np.frombuffer(memoryview(distances), dtype=np.uint16)  # type: ignore[arg-type]


def _successors(
    layer: Ints, digit: Ints, pegs: int, disks: int, moves: list[tuple[int, int]]
) -> tuple[Ints, Ints]:
    """Every state one legal move from a state of ``layer``, once each, with the index
    of a state of ``layer`` it comes from.  A peg's top disk is its smallest, the one
    with the highest index; it may move onto an empty peg or a larger top disk."""
    on = layer[:, None] // digit[None, :] % pegs
    rows = np.arange(len(layer))
    top = np.full((len(layer), pegs), -1, dtype=np.int64)  # -1: an empty peg
    for disk in range(disks):  # largest first: each smaller disk overwrites
        top[rows, on[:, disk]] = disk
    states, parents = [], []
    for source, target in moves:
        legal = (top[:, source] >= 0) & (top[:, source] > top[:, target])
        moved = top[legal, source]
        states.append(layer[legal] + (target - source) * digit[moved])
        parents.append(rows[legal])
    return _once_each(np.concatenate(states), np.concatenate(parents), pegs**disks)


def _once_each(states: Ints, parents: Ints, space: int) -> tuple[Ints, Ints]:
    """Each state once, sorted, with one of its parents: by sorting states and parents
    packed into one integer where they fit (twice as fast as ``np.unique``'s stable
    sort of the states for their parents' positions)."""
    bits = int(parents.max(initial=0)).bit_length()
    if space << bits > np.iinfo(np.int64).max:
        unique, first = np.unique(states, return_index=True)
        return unique, parents[first]
    packed = np.sort(states << bits | parents)
    ordered = packed >> bits
    first = np.empty(len(packed), dtype=bool)
    first[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first], packed[first] & ((1 << bits) - 1)


def _at_goal(
    states: Ints, digit: Ints, disks: Ints, goal: Ints, pegs: int
) -> npt.NDArray[np.bool_]:
    """Which states put every goal disk on its goal peg."""
    placed: npt.NDArray[np.bool_] = (states[:, None] // digit[None, disks] % pegs == goal).all(
        axis=1
    )
    return placed


def _steps(
    puzzle: Puzzle, layers: list[Ints], parents: list[Ints], index: int, digit: Ints
) -> Steps:
    """The moves from the start to ``layers[-1][index]``, following the parents back."""
    trail = []
    for depth in range(len(layers) - 1, -1, -1):
        trail.append(int(layers[depth][index]))
        if depth:
            index = int(parents[depth - 1][index])
    trail.reverse()
    pegs, steps = len(puzzle.pegs), []
    for before, after in itertools.pairwise(trail):
        changed = next(
            d
            for d in range(puzzle.disks)
            if before // int(digit[d]) % pegs != after // int(digit[d]) % pegs
        )
        steps.append((changed + 1, puzzle.pegs[after // int(digit[changed]) % pegs]))
    return steps
