"""Whole states as numpy integers, a batch at a time: their moves, their tables'
estimates and the goal test.  The beam (:mod:`hanoi_asp.methods.beam`) and the batched
A* (:mod:`hanoi_asp.methods.astar`) work on arrays of states with these, a few array
operations per batch where plain Python takes microseconds a state.

A state is an integer (:mod:`hanoi_asp.methods.states`; ``digits`` below holds its place
values), so a run's pattern is ``state // pegs**first % pegs**size``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.methods.states import weights
from hanoi_asp.model.puzzle import Puzzle

Ints = npt.NDArray[np.int64]
AnyInts = npt.NDArray[np.signedinteger[Any]]
"""States in 64 bits or 32 (the batched A* holds its states in 32:
:mod:`~hanoi_asp.methods.astar_batched`)."""
Estimate = Callable[[AnyInts], npt.NDArray[np.int32]]

MIX = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing's multiplier (2**64 over the golden ratio, odd): its top bits of a
product spread states that differ in any digit over the whole bit array."""


def digits(puzzle: Puzzle) -> Ints:
    """Each disk's place value in a state, the largest disk first."""
    pegs = len(puzzle.pegs)
    return np.array(weights(pegs, puzzle.disks), dtype=np.int64)


def estimator(tables: Partitioned, digit: Ints, pegs: int) -> Estimate:
    """The tables' estimate of a whole array of states at once: per partition the sum
    of its runs' table values, the largest over partitions.  Runs sharing one table's
    distances (:func:`~hanoi_asp.methods.patterns.goal_database`) share its array."""
    arrays: dict[int, npt.NDArray[np.uint16]] = {}
    for part in tables:
        for t in part:
            if id(t.distances) not in arrays:
                arrays[id(t.distances)] = _as_array(t.distances)
    looks = [
        [(digit[t.run.first], pegs**t.run.size, arrays[id(t.distances)]) for t in part]
        for part in tables
    ]

    def estimate(states: AnyInts) -> npt.NDArray[np.int32]:
        best = np.zeros(len(states), dtype=np.int32)
        for part in looks:
            total = np.zeros(len(states), dtype=np.int32)
            for scale, span, distances in part:
                total += distances[states // scale % span]
            np.maximum(best, total, out=best)
        return best

    return estimate


def _as_array(distances: Sequence[int]) -> npt.NDArray[np.uint16]:
    """A table's distances as a numpy array: two bytes a pattern as they are, one byte
    widened to two (a copy; :class:`~hanoi_asp.methods.patterns.PatternTable`)."""
    view = memoryview(distances)  # type: ignore[arg-type]
    if view.itemsize == 1:
        return np.frombuffer(view, dtype=np.uint8).astype(np.uint16)
    return np.frombuffer(view, dtype=np.uint16)


def successors(
    layer: AnyInts, digit: Ints, pegs: int, moves: list[tuple[int, int]]
) -> tuple[Ints, Ints]:
    """Every state one legal move (``moves``: pairs of pegs) from a state of ``layer``,
    once each, with the smallest index of a state of ``layer`` it comes from.  A peg's top disk
    is its smallest, the one with the highest index; it may move onto an empty peg or
    a larger top disk."""
    disks = len(digit)
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
    return once_each(np.concatenate(states), np.concatenate(parents), pegs**disks)


def once_each(states: Ints, parents: Ints, space: int) -> tuple[Ints, Ints]:
    """Each state once, sorted, with its parent of the smallest index (A* orders a
    batch by ``g``, so that is the shortest way): by sorting states and parents packed
    into one integer where they fit (twice as fast as sorting the pairs)."""
    bits = int(parents.max(initial=0)).bit_length()
    if space << bits > np.iinfo(np.int64).max:
        order = np.lexsort((parents, states))
        states, parents = states[order], parents[order]
    else:
        packed = np.sort(states << bits | parents)
        states, parents = packed >> bits, packed & ((1 << bits) - 1)
    first = np.empty(len(states), dtype=bool)
    first[:1] = True
    np.not_equal(states[1:], states[:-1], out=first[1:])
    return states[first], parents[first]


def goal_test(puzzle: Puzzle, digit: Ints) -> Callable[[AnyInts], npt.NDArray[np.bool_]]:
    """Which states of an array put every goal disk on its goal peg."""
    pegs, goal = len(puzzle.pegs), puzzle.goal_pegs()
    disks = np.array([d - 1 for d in goal], dtype=np.int64)
    places = np.array(list(goal.values()), dtype=np.int64)

    def at_goal(states: AnyInts) -> npt.NDArray[np.bool_]:
        placed: npt.NDArray[np.bool_] = (
            states[:, None] // digit[None, disks] % pegs == places
        ).all(axis=1)
        return placed

    return at_goal


class StateBits:
    """A set of states, one bit each: the state itself indexes the bits where the
    puzzle has at most ``most`` states (exact: A* needs it so), else its hash
    (:data:`MIX`).  A hash may collide, and a state never added is then taken for an
    added one (the beam leaves such a state out, harmless: at most one in
    ``SEEN_BITS / MOST_KEPT`` = 134 there); an added state is never taken for a fresh
    one."""

    def __init__(self, states: int, most: int) -> None:
        """For a puzzle of ``states`` states, in at most ``most`` bits (a power of 2)."""
        self.exact = states <= most
        self.bits = np.zeros((min(states, most) + 7) // 8, dtype=np.uint8)
        self.shift = np.uint64(64 - (most.bit_length() - 1))  # the top log2(most) bits
        self.count = 0

    def _slots(self, states: AnyInts) -> AnyInts:
        if self.exact:
            return states
        mixed = states.astype(np.uint64) * MIX  # wraps around: the low 64 bits
        return (mixed >> self.shift).astype(np.int64)

    def fresh(self, states: AnyInts) -> npt.NDArray[np.bool_]:
        slots = self._slots(states)
        marked = self.bits[slots >> 3] >> (slots & 7).astype(np.uint8) & 1
        fresh: npt.NDArray[np.bool_] = marked == 0
        return fresh

    def add(self, states: AnyInts) -> None:
        slots = self._slots(states)
        np.bitwise_or.at(self.bits, slots >> 3, np.left_shift(1, slots & 7).astype(np.uint8))
        self.count += len(states)
