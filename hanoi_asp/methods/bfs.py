"""Breadth-first search over states: optimal for any pegs, start, goal and move graph.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> search(p, max_moves=10).steps
[(2, 'b'), (1, 'c'), (2, 'c')]

A state is one integer: disk ``d`` contributes ``peg * pegs**(d-1)``.  Breadth-first
order means the first goal state reached is reached by a shortest plan; a search
that exhausts every reachable state without a goal proves no plan exists at all.
This module shares no code with the ASP encodings, so the two check each other.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from hanoi_asp.model.errors import LimitError
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import Puzzle


@dataclass(frozen=True)
class BfsOutcome:
    steps: list[tuple[int, str]] | None
    """(disk, target peg) moves of a shortest plan, or None."""
    visited: int
    exhausted: bool
    """Every reachable state was visited (no plan exists when ``steps`` is None)."""
    depth: int
    """Levels searched: no plan has this many moves or fewer, unless ``steps`` is set."""
    stopped: str | None = None


def search(
    puzzle: Puzzle,
    *,
    max_moves: int | None,
    max_states: int = Limits.states,
    deadline: float | None = None,
    source: str = "<puzzle>",
) -> BfsOutcome:
    """Shortest plan of at most ``max_moves`` moves (None: any length), level by level."""
    pegs, disks = len(puzzle.pegs), puzzle.disks
    weight = [pegs**d for d in range(disks)]  # weight[i] belongs to disk i + 1
    start = encode(puzzle)
    goal = [(disk - 1, peg) for disk, peg in puzzle.goal_pegs().items()]
    edges = puzzle.edges()
    targets = [
        [t for t in range(pegs) if t != s and (edges is None or (s, t) in edges)]
        for s in range(pegs)
    ]

    def is_goal(state: int) -> bool:
        return all(state // weight[i] % pegs == peg for i, peg in goal)

    parent: dict[int, int] = {start: -1}
    if is_goal(start):
        return BfsOutcome([], 1, False, 0)
    frontier = [start]
    depth = 0
    while frontier and (max_moves is None or depth < max_moves):
        depth += 1
        following: list[int] = []
        for count, state in enumerate(frontier):
            if deadline is not None and count % 4096 == 0 and time.monotonic() > deadline:
                return BfsOutcome(None, len(parent), False, depth, "timeout")
            top = [-1] * pegs  # the smallest disk (highest index) on each peg
            rest = state
            for i in range(disks):
                peg = rest % pegs
                rest //= pegs
                top[peg] = i
            for source_peg in range(pegs):
                i = top[source_peg]
                if i < 0:
                    continue
                for target in targets[source_peg]:
                    if top[target] > i:
                        continue
                    nxt = state + (target - source_peg) * weight[i]
                    if nxt in parent:
                        continue
                    parent[nxt] = state
                    if is_goal(nxt):
                        return BfsOutcome(
                            steps_back(puzzle, parent, nxt), len(parent), False, depth
                        )
                    following.append(nxt)
            if len(parent) > max_states:
                raise LimitError(
                    f"breadth-first search stored over {max_states} states "
                    f"({pegs} pegs, {disks} disks: up to {pegs}^{disks} states) "
                    f"(raise it with --limit states=N)",
                    path=source,
                )
        frontier = following
    return BfsOutcome(None, len(parent), not frontier, depth)


def steps_back(puzzle: Puzzle, parent: dict[int, int], end: int) -> list[tuple[int, str]]:
    """The moves to ``end``, walking the parent links back (the start's is -1)."""
    trail = [end]
    while parent[trail[-1]] != -1:
        trail.append(parent[trail[-1]])
    trail.reverse()
    return moves_along(puzzle, trail)


def encode(puzzle: Puzzle) -> int:
    """The puzzle's initial state as an integer (disk ``d`` contributes
    ``peg * pegs**(d-1)``)."""
    pegs = len(puzzle.pegs)
    return sum(peg * pegs**i for i, peg in enumerate(puzzle.initial_state()))


def moves_along(puzzle: Puzzle, trail: Sequence[int]) -> list[tuple[int, str]]:
    """The (disk, peg) moves from each state of ``trail`` to the next (each pair one
    move apart: they differ in the moved disk's digit alone)."""
    pegs, steps = len(puzzle.pegs), []
    weight = [pegs**d for d in range(puzzle.disks)]
    for before, after in pairwise(trail):
        changed = next(
            d
            for d in range(puzzle.disks)
            if before // weight[d] % pegs != after // weight[d] % pegs
        )
        steps.append((changed + 1, puzzle.pegs[after // weight[changed] % pegs]))
    return steps
