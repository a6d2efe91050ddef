"""Runs of disks, their tables and the sum over a partition: the values every pattern
bound is made of (why they bound a plan: :mod:`hanoi_asp.methods.patterns`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hanoi_asp.model.puzzle import Puzzle, State

UNSEEN = 65535
"""A pattern the search never reached: the goal cannot be reached from it at all.  No
plan passes through it, so it bounds everything."""


@dataclass(frozen=True)
class DiskRun:
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
    be reached from it.  One byte a pattern (``bytes``, or a ``memoryview`` of a file
    in the on-disk cache) where every distance fits, else two (``array('H')``, or a
    view cast to ``'H'``): all index as fast as a list, at an eighth or a quarter of
    its memory (4 pegs, 12 disks: 16 MiB, where a list took 128)."""

    pegs: int
    run: DiskRun
    distances: Sequence[int]

    def code(self, state: State) -> int:
        """The pattern of ``state`` (a peg index per disk, disk 1 first)."""
        first, total = self.run.first, 0
        for j in reversed(range(self.run.size)):
            total = total * self.pegs + state[first + j]
        return total

    def lookup(self, state: State) -> int:
        return self.distances[self.code(state)]


Partitioned = tuple[tuple[PatternTable, ...], ...]
"""One table per run, per partition."""


def estimate(tables: Sequence[Sequence[PatternTable]], state: State) -> int:
    """The largest, over partitions, of the sum of their runs' table values: a lower
    bound on the moves between ``state`` and the tables' end (projection, additivity).
    :data:`UNSEEN` or more means no plan passes through ``state``."""
    return max(sum(t.lookup(state) for t in partition) for partition in tables)


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


Allowed = tuple[tuple[int, ...], ...]
"""Per disk (disk 1 first), the peg indexes where a goal lets it end."""


def goal_allowed(puzzle: Puzzle) -> Allowed:
    """The puzzle's goal as :data:`Allowed`: a named disk's peg, any peg for the rest."""
    goal, every = puzzle.goal_pegs(), tuple(range(len(puzzle.pegs)))
    return tuple((goal[d],) if d in goal else every for d in range(1, puzzle.disks + 1))
