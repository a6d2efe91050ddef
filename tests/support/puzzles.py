"""Puzzles the tests share: whole towers, and the breadth-first optimum of any puzzle."""

from __future__ import annotations

from hanoi_asp import Puzzle
from support.reference import bfs_distance


def tower(pegs: int, disks: int, target: int = -1, graph: object = None) -> Puzzle:
    """``disks`` disks on the first of ``pegs`` pegs (named a, b, ...), all to peg
    ``target`` (the last by default), on the move graph ``graph`` (every move: None)."""
    names = tuple("abcdefgh"[:pegs])
    return Puzzle.model_validate(
        {
            "pegs": names,
            "disks": disks,
            "init": {"a": list(range(1, disks + 1))},
            "goal": {names[target]: list(range(1, disks + 1))},
            "moves_allowed": graph,
        }
    )


EIGHT_DISKS = Puzzle(
    pegs=("a", "b", "c", "d"),
    disks=8,
    init={"a": (1, 4, 7), "b": (2, 5, 8), "c": (3, 6)},
    goal={"d": (1, 2, 3, 4, 5, 6, 7, 8)},
)
"""4 pegs, 8 disks dealt round three pegs, to a tower on the fourth: the plan built
first has 31 moves, the optimum 24; A* needs a moment on it, and a beam of 64 finds
the optimum."""


def bfs_optimum(puzzle: Puzzle) -> int | None:
    """The fewest moves from the puzzle's start to its goal by the tests' own
    breadth-first search (:mod:`support.reference`), None if the goal is unreachable."""
    return bfs_distance(
        len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs(), puzzle.edges()
    )
