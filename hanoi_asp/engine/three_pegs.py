"""Three pegs: the exact distance between any two states (a formula, no search).

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> three_pegs(p).value
7

It is the lower bound of every 3-peg puzzle on the complete move graph, exact for a
full goal, and the source of ``distance3.lp``'s facts (:mod:`hanoi_asp.engine.distance3`).
"""

from __future__ import annotations

from collections.abc import Sequence

from hanoi_asp.model.puzzle import Puzzle, State
from hanoi_asp.model.result import LowerBound


def to_perfect(state: State, disks: Sequence[int], target: int) -> int:
    """Moves to gather ``disks`` (largest first) as a tower on ``target``, 3 pegs.

    Classic: the largest disk not on its target needs every smaller one on the third
    peg first (2^k - 1 moves for k smaller disks, plus its own move); the smaller
    disks then aim at that third peg.  This is exact (Hinz 1989).
    """
    total = 0
    for rank, disk in enumerate(disks):
        here = state[disk - 1]
        if here != target:
            total += 1 << (len(disks) - rank - 1)
            target = 3 - here - target
    return total


def three_peg_distance(start: State, goal: State, disks: Sequence[int]) -> int:
    """Fewest moves between two states of ``disks`` (largest first) on 3 pegs.

    The largest disk D that differs moves once or twice in an optimal plan (Hinz
    1989, "The Tower of Hanoi", L'Enseignement Math. 35): once from a to b with all
    smaller disks on the third peg c in between; or twice, a -> c -> b, with the
    smaller disks on b, then moved as a tower to a, then to their goal.  Take the
    better of the two; disks larger than D never move in an optimal plan.
    """
    for index, disk in enumerate(disks):
        a, b = start[disk - 1], goal[disk - 1]
        if a != b:
            rest = disks[index + 1 :]
            c = 3 - a - b
            once = to_perfect(start, rest, c) + 1 + to_perfect(goal, rest, c)
            twice = to_perfect(start, rest, b) + 1 + ((1 << len(rest)) - 1) + 1
            twice += to_perfect(goal, rest, a)
            return min(once, twice)
    return 0


def three_pegs(puzzle: Puzzle) -> LowerBound:
    """Exact 3-peg distance for the disks the goal names (all of them for a full goal).

    For a partial goal it is the optimum of the named disks alone, a bound by
    projection (:mod:`hanoi_asp.engine.bounds`); for a full goal it is the optimum itself.
    """
    goal = puzzle.goal_pegs()
    named = sorted(goal)
    start = puzzle.initial_state()
    target = tuple(goal.get(d, start[d - 1]) for d in range(1, puzzle.disks + 1))
    value = three_peg_distance(start, target, named)
    why = "the largest differing disk moves once or twice, Hinz 1989"
    if len(named) == puzzle.disks:
        argument = f"the exact 3-peg distance ({why})"
    else:
        argument = f"exact 3-peg distance of the disks the goal names ({why}), by projection"
    return LowerBound(value, "three-peg-distance", argument, exact=len(named) == puzzle.disks)
