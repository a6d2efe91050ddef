"""Beam search on the pattern tables: a short plan, fast, proving nothing.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> from hanoi_asp.methods.patterns import goal_database
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=5, init={"a": (1, 2, 3, 4, 5)},
...            goal={"d": (1, 2, 3, 4, 5)})
>>> len(search(p, goal_database(p), width=64).steps)
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

A layer is a numpy array of states (:mod:`hanoi_asp.methods.state_arrays`), so the
moves, estimates and ranking of a whole layer are a few array operations; the states
kept are marked in a bit array (:class:`~hanoi_asp.methods.state_arrays.StateBits`),
so telling a layer's fresh states is one array lookup too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hanoi_asp.methods.patterns import UNSEEN, Partitioned, move_lists
from hanoi_asp.methods.state_arrays import (
    AnyInts,
    Ints,
    StateBits,
    digits,
    estimator,
    goal_test,
    successors,
)
from hanoi_asp.methods.states import encode, moves_along
from hanoi_asp.methods.work import ESTIMATE
from hanoi_asp.model.puzzle import Puzzle

Steps = list[tuple[int, str]]

MOST_KEPT = 2_000_000
"""Most states a beam remembers (their layers take 8 bytes a state where the states fit
32 bits, else 12: at most 24 MiB): past that it gives up, as a deep plan
(hundreds of moves) times a wide beam would take far more memory than the proof."""
SEEN_BITS = 2**28
"""Most bits marking the states kept (32 MiB, allocated lazily by the system: a page
costs memory once a state on it is marked)."""
LARGEST_STATE = 2**62
"""States are int64: past this many states (4 pegs and 31 disks) the beam is not run."""


def fits(puzzle: Puzzle) -> bool:
    """Whether the puzzle's states fit the beam's integers."""
    return bool(len(puzzle.pegs) ** puzzle.disks <= LARGEST_STATE)


@dataclass(frozen=True)
class BeamOutcome:
    """A beam's plan (None: none found) and its work (:mod:`hanoi_asp.methods.work`)."""

    steps: Steps | None
    work: int


def search(
    puzzle: Puzzle,
    tables: Partitioned,
    width: int,
    *,
    shorter_than: int | None = None,
    deadline: float | None = None,
    checkpoint: Callable[[int], bool] | None = None,
) -> BeamOutcome:
    """A plan found by a beam of ``width`` states (see the module docstring), as
    (disk, peg) moves, and the work it took; no plan if the beam empties, reaches
    ``shorter_than`` moves without a goal, passes ``deadline`` (a ``time.monotonic()``
    value), is stopped (``checkpoint(work so far)`` false, asked after every layer), would
    remember more than :data:`MOST_KEPT` states, or the states do not fit
    (:func:`fits`)."""
    if not fits(puzzle):
        return BeamOutcome(None, 0)
    pegs, disks = len(puzzle.pegs), puzzle.disks
    digit = digits(puzzle)
    estimate, at_goal = estimator(tables, digit, pegs), goal_test(puzzle, digit)
    start = encode(puzzle)
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    moves = [(a, b) for a in range(pegs) for b in targets[a]]
    layer: Ints = np.array([start], dtype=np.int64)
    kept_state, kept_index = _smallest(pegs**disks - 1), _smallest(width)
    layers, parents = [layer], []  # parents[k][i]: index in layers[k] of layers[k+1][i]
    kept = StateBits(pegs**disks, SEEN_BITS)
    kept.add(layer)
    if at_goal(layer).any():
        return BeamOutcome([], 0)
    depth, work = 0, 0
    while shorter_than is None or depth + 1 < shorter_than:
        depth += 1
        states, parent = successors(layer, digit, pegs, moves)
        fresh = kept.fresh(states)
        h = estimate(states[fresh])
        work += ESTIMATE * len(h)
        alive = h < UNSEEN
        states, parent, h = states[fresh][alive], parent[fresh][alive], h[alive]
        if len(states) == 0:
            return BeamOutcome(None, work)
        zero = np.flatnonzero(h == 0)  # a goal state's estimate is 0
        done = zero[at_goal(states[zero])]
        if len(done):
            layers.append(states)
            parents.append(parent)
            steps = moves_along(puzzle, _trail(layers, parents, int(done[0])))
            return BeamOutcome(steps, work)
        if len(states) > width:
            best = np.argpartition(h, width)[:width]
            states, parent = states[best], parent[best]
        kept.add(states)
        layers.append(states.astype(kept_state))
        parents.append(parent.astype(kept_index))
        layer = states
        if deadline is not None and time.monotonic() > deadline:
            return BeamOutcome(None, work)
        if (checkpoint is not None and not checkpoint(work)) or kept.count > MOST_KEPT:
            return BeamOutcome(None, work)
    return BeamOutcome(None, work)


def _smallest(most: int) -> type[np.signedinteger[Any]]:
    """32 bits if they hold 0..``most``, else 64: the layers kept for the trail take half
    the memory where the states fit (4 pegs up to 15 disks); the widest beam runs beside
    the racing A*, so its layers add to the engine's peak."""
    return np.int32 if most <= np.iinfo(np.int32).max else np.int64


def _trail(layers: Sequence[AnyInts], parents: Sequence[AnyInts], index: int) -> list[int]:
    """The states from the start to ``layers[-1][index]``, following the parents back."""
    trail = []
    for depth in range(len(layers) - 1, -1, -1):
        trail.append(int(layers[depth][index]))
        if depth:
            index = int(parents[depth - 1][index])
    trail.reverse()
    return trail
