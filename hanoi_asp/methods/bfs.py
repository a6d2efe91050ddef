"""Breadth-first search over states: optimal for any pegs, start, goal and move graph.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> search(p, max_moves=10).steps
[(2, 'b'), (1, 'c'), (2, 'c')]

A state is one integer (:mod:`hanoi_asp.methods.states`).  Breadth-first
order means the first goal state reached is reached by a shortest plan; a search
that exhausts every reachable state without a goal proves no plan exists at all.
This module shares no code with the ASP encodings, so the two check each other.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hanoi_asp.methods.patterns.tables import move_lists
from hanoi_asp.methods.states import encode, steps_back, successors, tops, weights
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
    weight = weights(pegs, disks)
    start = encode(puzzle)
    goal = [(disk - 1, peg) for disk, peg in puzzle.goal_pegs().items()]
    targets = move_lists(pegs, puzzle.edges(), backwards=False)

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
            for _, _, nxt in successors(state, tops(pegs, disks, state), targets, weight):
                if nxt in parent:
                    continue
                parent[nxt] = state
                if is_goal(nxt):
                    return BfsOutcome(steps_back(puzzle, parent, nxt), len(parent), False, depth)
                following.append(nxt)
            if len(parent) > max_states:
                raise LimitError(
                    f"breadth-first search stored over {max_states} states "
                    f"({pegs} pegs, {disks} disks: up to {pegs}^{disks} states)",
                    limit="states",
                    path=source,
                )
        frontier = following
    return BfsOutcome(None, len(parent), not frontier, depth)
