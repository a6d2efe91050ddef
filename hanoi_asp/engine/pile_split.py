"""The pile-split bound: a disk that starts and ends on one peg, split on whether it ever
moves (its argument in :func:`pile_bound`; projection and additivity as in
:mod:`hanoi_asp.engine.bounds`).

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)},
...            goal={"a": (1,), "d": (2, 3)})
>>> pile_bound(p).value
3
"""

from __future__ import annotations

from hanoi_asp.engine.pattern_search import check_time, group_distance, runs_distance
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import LowerBound


def pile_bound(puzzle: Puzzle, deadline: float | None = None) -> LowerBound | None:
    """Case split on whether a disk x that starts and ends on peg q ever moves.

    Let S be the disks larger than x, T the smaller ones, A the disks above x at the
    start, B those above it in the goal, R = T minus A and B.
    * x never moves: no disk of S can ever be put on q, and those under x stay put;
      by projection the S-moves are at least the optimum of S on the other pegs.
    * x moves: the S-moves are at least the optimum of S on all pegs (projection), x
      moves at least once, and every disk of A moves before x's first move and every
      disk of B after its last, so T makes at least |A| + |B| moves, plus one per
      misplaced disk of R.
    In both cases T also makes at least the additive optimum of its runs
    (:func:`runs_distance`), so T counts the larger of the two.  S, {x} and T are
    disjoint, so the parts add up; the bound is the smaller case, and the best over
    all such x is taken.
    """
    start, goal = puzzle.initial_state(), puzzle.goal_pegs()
    pegs = list(range(len(puzzle.pegs)))
    misplaced = {d for d, p in goal.items() if start[d - 1] != p}
    best: tuple[int, str] | None = None
    for x in range(1, puzzle.disks + 1):
        q = start[x - 1]
        if goal.get(x) != q:
            continue
        check_time(deadline)
        smaller = range(x + 1, puzzle.disks + 1)
        above_start = [d for d in smaller if start[d - 1] == q]
        above_goal = [d for d in smaller if goal.get(d) == q]
        if not above_start and not above_goal:
            continue
        larger = list(range(1, x))
        fixed = [d for d in larger if start[d - 1] == q]
        free = [d for d in larger if d not in fixed]
        small = runs_distance(puzzle, list(smaller), deadline)[0]
        if any(goal.get(d, q) != q for d in fixed):
            stays = None  # a disk under x must leave q: x has to move
        else:
            others = [p for p in pegs if p != q]
            part = group_distance(puzzle, free, others, None, deadline) if free else (0, 0)
            stays = None if part is None else part[0] + small
        moved = group_distance(puzzle, larger, pegs, None, deadline) if larger else (0, 0)
        assert moved is not None
        big = max(moved[0], runs_distance(puzzle, larger, deadline)[0]) if larger else 0
        rest = set(smaller) - set(above_start) - set(above_goal)
        pile = len(above_start) + len(above_goal) + len(misplaced & rest)
        moves = big + 1 + max(pile, small)
        value = moves if stays is None else min(stays, moves)
        if best is None or value > best[0]:
            best = (value, f"disk {x} on {puzzle.pegs[q]}")
    if best is None:
        return None
    return LowerBound(
        best[0],
        "pile-split",
        f"{best[1]} starts and ends in place: if it never moves the larger disks avoid "
        "its peg; if it moves, the disks above it move before and after (see bounds.py)",
    )
