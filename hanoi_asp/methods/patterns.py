"""Pattern databases: exact distances for a run of disks alone, as admissible estimates.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)}, goal={"d": (1, 2, 3)})
>>> table = toward_goal(p, Run(0, 3))
>>> table.lookup(p.initial_state())
5

A *run* is a set of consecutive disks (largest first).  Its table gives, for every way
of placing the run's disks alone on the pegs (a *pattern*), the fewest moves that take
it to the goal's pattern (:func:`toward_goal`, breadth-first search backwards from
every pattern the goal allows).

Why a table value bounds a real plan (Korf and Felner, "Recent progress in heuristic
search: a case study of the four-peg Towers of Hanoi problem", IJCAI 2007):

* **Projection.** Delete from a legal plan every move of the disks outside the run:
  what remains is legal for the run alone (a disk on top stays on top when others
  vanish, it never lands on a smaller disk of the run, and the move graph is the same),
  and it reaches the goal's pattern.  So the rest of any plan moves the run's disks at
  least ``lookup(state)`` times.
* **Additivity.** Every move moves one disk, of exactly one run: for disjoint runs the
  values add up (:func:`estimate`).  The largest of several such sums is a bound too.

The tables are built with numpy, a whole breadth-first layer at a time: 4 pegs and 10
disks (about a million patterns) in well under a second, where plain Python takes tens.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, product
from time import monotonic
from typing import TYPE_CHECKING

# no linear algebra here: one OpenBLAS thread, not one per core, each reserving tens of
# MiB of address space at import (a batch's --memory-limit counts it: 150 MiB failed)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from hanoi_asp.model.puzzle import Puzzle, State

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

UNSEEN = 65535
"""A pattern the search never reached: the goal cannot be reached from it at all.  No
plan passes through it, so it bounds everything."""

TABLE_PATTERNS = 1 << 20
"""Most patterns one table may hold (4 pegs: 10 disks; 5 pegs: 8): about 2 MiB each and
a fraction of a second to build."""

CHUNK = 1 << 15
"""Frontier patterns expanded at once by :func:`breadth_first`."""

Moves = Sequence[Sequence[int]]
"""For each peg, the pegs a disk on top of it may go to."""


@dataclass(frozen=True)
class Run:
    """The disks ``first + 1 .. first + size`` (disk 1 is the largest)."""

    first: int
    size: int

    @property
    def disks(self) -> range:
        return range(self.first + 1, self.first + self.size + 1)


@dataclass(frozen=True)
class PatternTable:
    """Distances for one run; ``distances[code]`` for the pattern numbered ``code``
    (``sum(peg of the run's j-th disk * pegs**j)``), :data:`UNSEEN` if the goal cannot
    be reached from it."""

    pegs: int
    run: Run
    distances: list[int]

    def code(self, state: State) -> int:
        """The pattern of ``state`` (a peg index per disk, disk 1 first)."""
        first, total = self.run.first, 0
        for j in reversed(range(self.run.size)):
            total = total * self.pegs + state[first + j]
        return total

    def lookup(self, state: State) -> int:
        return self.distances[self.code(state)]


Edges = frozenset[tuple[int, int]] | None
"""The allowed moves (source, target) by peg index; None: every move."""


def move_lists(pegs: int, edges: Edges, *, backwards: bool) -> list[list[int]]:
    """Where a top disk may go, by peg: the move graph, reversed for a backward search."""
    if backwards:
        return [
            [a for a in range(pegs) if a != b and (edges is None or (a, b) in edges)]
            for b in range(pegs)
        ]
    return [
        [b for b in range(pegs) if a != b and (edges is None or (a, b) in edges)]
        for a in range(pegs)
    ]


def breadth_first(
    pegs: int, size: int, sources: Iterable[int], moves: Moves, deadline: float | None = None
) -> npt.NDArray[np.uint16]:
    """Distance of every pattern of ``size`` disks from the nearest of ``sources``,
    moving along ``moves``.  One numpy pass per layer: each frontier pattern's digits,
    the top disk of each peg (the smallest, i.e. the highest position), every legal
    move at once, then the patterns not seen before form the next layer.  Raises
    ``TimeoutError`` between layers once ``deadline`` (``time.monotonic()``) passes.
    numpy is imported here, not with the module: a solve that builds no table (3 pegs,
    whole 4-peg towers) starts 60 ms sooner."""
    import numpy as np

    distances = np.full(pegs**size, UNSEEN, dtype=np.uint16)
    power = pegs ** np.arange(size, dtype=np.int64)
    every_top = top_disks(pegs, size)
    frontier = np.unique(np.fromiter(sources, dtype=np.int64))
    distances[frontier] = 0
    layer = 0
    while frontier.size:
        if deadline is not None and monotonic() > deadline:
            raise TimeoutError
        layer += 1
        fresh = np.zeros(distances.size, dtype=bool)
        # a chunk at a time: the temporaries stay a few MiB (a batch memory cap counts them)
        for low in range(0, frontier.size, CHUNK):
            chunk = frontier[low : low + CHUNK]
            tops = every_top[chunk].astype(np.int64)
            for source in range(pegs):
                top = tops[:, source]
                for target in moves[source]:
                    legal = (top >= 0) & (tops[:, target] < top)
                    reached = chunk[legal] + (target - source) * power[top[legal]]
                    fresh[reached[distances[reached] == UNSEEN]] = True
        frontier = np.flatnonzero(fresh)
        distances[frontier] = layer
    return distances


@lru_cache(maxsize=16)
def top_disks(pegs: int, size: int) -> npt.NDArray[np.int8]:
    """For every pattern of ``size`` disks, the top disk's position on each peg (-1:
    empty).  Computed once per shape and shared by every table of it (ten tables of 4
    pegs and 10 disks: 1.3 s with it, 4.5 s computing tops layer by layer).  Every
    size up to a table's is kept (4 pegs, 1-10 disks: under 6 MiB), as the pile-split
    bound asks for tables of many sizes in turn (competition 0047: 145 recomputations,
    0.13 s, when only two were kept)."""
    import numpy as np

    codes = np.arange(pegs**size, dtype=np.int64)
    tops = np.full((codes.size, pegs), -1, dtype=np.int8)
    rest = codes.copy()
    for position in range(size):  # largest first: a smaller disk overwrites
        tops[codes, rest % pegs] = position
        rest //= pegs
    return tops


def _codes(pegs: int, choices: Sequence[Sequence[int]]) -> Iterable[int]:
    """Every pattern code whose j-th disk lies on one of ``choices[j]``."""
    for pattern in product(*choices):
        total = 0
        for peg in reversed(pattern):
            total = total * pegs + peg
        yield total


def distances_to(
    pegs: int, size: int, goal: Mapping[int, int], edges: Edges, deadline: float | None = None
) -> npt.NDArray[np.uint16]:
    """Fewest moves from each pattern of ``size`` disks to one that has the disk at
    position j on peg ``goal[j]`` (a position missing from ``goal`` may end anywhere),
    searched backwards from all of those along ``edges``."""
    choices = [[goal[j]] if j in goal else list(range(pegs)) for j in range(size)]
    return distances_among(pegs, choices, edges, deadline)


def distances_among(
    pegs: int, choices: Sequence[Sequence[int]], edges: Edges, deadline: float | None = None
) -> npt.NDArray[np.uint16]:
    """Fewest moves from each pattern of ``len(choices)`` disks to one that has the
    disk at position j on one of the pegs ``choices[j]``, along ``edges``."""
    moves = move_lists(pegs, edges, backwards=True)
    return breadth_first(pegs, len(choices), _codes(pegs, choices), moves, deadline)


Allowed = tuple[tuple[int, ...], ...]
"""Per disk (disk 1 first), the peg indexes where a goal lets it end."""


def goal_allowed(puzzle: Puzzle) -> Allowed:
    """The puzzle's goal as :data:`Allowed`: a named disk's peg, any peg for the rest."""
    goal, every = puzzle.goal_pegs(), tuple(range(len(puzzle.pegs)))
    return tuple((goal[d],) if d in goal else every for d in range(1, puzzle.disks + 1))


def toward_goal(
    puzzle: Puzzle, run: Run, deadline: float | None = None, allowed: Allowed | None = None
) -> PatternTable:
    """The run's :func:`distances_among` its disks' places in the goal (the puzzle's,
    or ``allowed``), on the puzzle's move graph."""
    ends = goal_allowed(puzzle) if allowed is None else allowed
    choices = [ends[d - 1] for d in run.disks]
    distances = distances_among(len(puzzle.pegs), choices, puzzle.edges(), deadline)
    return PatternTable(len(puzzle.pegs), run, distances.tolist())  # a list: fast to index


def largest_run(pegs: int, disks: int, budget: int | None = None) -> int:
    """The most disks one table may cover within ``budget`` patterns (default
    :data:`TABLE_PATTERNS`, read when called, so tests can shrink it)."""
    budget = TABLE_PATTERNS if budget is None else budget
    size = 1
    while size < disks and pegs ** (size + 1) <= budget:
        size += 1
    return size


def partitions(pegs: int, disks: int, budget: int | None = None) -> list[tuple[Run, ...]]:
    """Ways to cut the disks into runs of at most :func:`largest_run` disks: full runs
    from every offset, the largest disks' run first (they move least and matter most).
    Which disks share a run decides how much a sum sees, and no offset wins everywhere.
    Measured on the 20 competition files (4 pegs, runs of 10): the best offset's sum
    was up to 7 above the largest-first cut's (0056: 38 against 31, the optimum), and 8
    files reached their optimum, against 5 with two cuts.  Each partition covers every
    disk exactly once."""
    size = largest_run(pegs, disks, budget)
    if size >= disks:
        return [(Run(0, disks),)]
    cuts = [[0, *range(first, disks, size), disks] for first in range(size, 0, -1)]
    return [tuple(Run(low, high - low) for low, high in pairwise(c)) for c in cuts]


def strongest_partitions(tables: Partitioned, state: State, count: int) -> Partitioned:
    """The ``count`` partitions with the largest sums at ``state`` (ties: the earlier),
    in their order: the bound names the best cut."""
    ranked = sorted(range(len(tables)), key=lambda i: (-sum(t.lookup(state) for t in tables[i]), i))
    return tuple(tables[i] for i in sorted(ranked[:count]))


def estimate(tables: Sequence[Sequence[PatternTable]], state: State) -> int:
    """The largest, over partitions, of the sum of their runs' table values: a lower
    bound on the moves between ``state`` and the tables' end (projection, additivity).
    :data:`UNSEEN` or more means no plan passes through ``state``."""
    return max(sum(t.lookup(state) for t in partition) for partition in tables)


Partitioned = tuple[tuple[PatternTable, ...], ...]
"""One table per run, per partition."""

_CACHE: dict[tuple[object, ...], tuple[dict[Run, PatternTable], dict[int | None, Partitioned]]] = {}
"""Per puzzle (one at a time): every run's table built, and the partitions asked for."""


def _key(puzzle: Puzzle, budget: int, allowed: Allowed) -> tuple[object, ...]:
    edges = puzzle.edges()
    return (
        budget,
        len(puzzle.pegs),
        puzzle.initial_state(),
        allowed,
        None if edges is None else tuple(sorted(edges)),
    )


CUTS_BUILT = 3
"""Partitions whose full-size tables are built for the lower bound (of ten on 4 pegs);
the search asks for every cut once it must refute a horizon (see
:func:`hanoi_asp.engine.search.pattern_tables`)."""


def ranked_partitions(
    puzzle: Puzzle,
    parts: Sequence[tuple[Run, ...]],
    table: Callable[[Run], PatternTable],
    cuts: int,
) -> list[tuple[Run, ...]]:
    """The ``cuts`` partitions most promising at the start, in their order.

    Each is scored by its *proxy*: the same cut with every run split into pieces two
    disks shorter, whose tables are 16 times smaller on 4 pegs (all pieces of ten cuts
    in about 0.15 s, against 1.5 s for the full tables).  A proxy's sum is at most its
    cut's (a split run is a projection of the whole), so this only chooses which sound
    bounds to compute.  Measured on the 20 competition files (17-18 disks): the best
    of the ten cuts is among the three best proxies on all 20, and the tables take
    0.4-1.0 s instead of 1.4-2.3 s.  On random puzzles it is not always (4 pegs, 12
    disks: 27 instead of 29, the whole solve 3.0 s instead of 2.5 s; 5 pegs, 10 disks:
    15 instead of 17, 2.2 s instead of 2.6 s).  ``table`` builds a run's table, or gives
    the one built already: a run no longer than a piece is scored with the table the
    chosen cuts then use."""
    size = max(run.size for part in parts for run in part)
    if len(parts) <= cuts or size <= 2:
        return list(parts)
    piece = size - 2
    start = puzzle.initial_state()

    def proxy(part: tuple[Run, ...]) -> int:
        return sum(
            table(Run(low, min(piece, run.first + run.size - low))).lookup(start)
            for run in part
            for low in range(run.first, run.first + run.size, piece)
        )

    scores = [proxy(part) for part in parts]
    best = sorted(range(len(parts)), key=lambda i: (-scores[i], i))[:cuts]
    return [parts[i] for i in sorted(best)]


def goal_database(
    puzzle: Puzzle,
    budget: int | None = None,
    deadline: float | None = None,
    every_cut: bool = False,
    allowed: Allowed | None = None,
) -> Partitioned:
    """Tables toward the goal (the puzzle's, or ``allowed``) for the :data:`CUTS_BUILT`
    :func:`ranked_partitions` of :func:`partitions` (or every one), built once per
    puzzle: the lower bound, the search's pruning and A* share them, and asking for
    every cut later builds only the tables not built yet.  Raises ``TimeoutError`` if
    ``deadline`` passes first."""
    budget = TABLE_PATTERNS if budget is None else budget
    cuts = None if every_cut else CUTS_BUILT
    allowed = goal_allowed(puzzle) if allowed is None else allowed
    key = _key(puzzle, budget, allowed)
    if key not in _CACHE:
        _CACHE.clear()  # one puzzle at a time: tables can be megabytes
        _CACHE[key] = ({}, {})
    built, chosen = _CACHE[key]
    if cuts not in chosen:

        def table(run: Run) -> PatternTable:
            if run not in built:
                built[run] = toward_goal(puzzle, run, deadline, allowed)
            return built[run]

        parts = partitions(len(puzzle.pegs), puzzle.disks, budget)
        ranked = parts if cuts is None else ranked_partitions(puzzle, parts, table, cuts)
        chosen[cuts] = tuple(tuple(table(run) for run in part) for part in ranked)
    return chosen[cuts]
