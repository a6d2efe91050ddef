"""Jupyter shows a :class:`Puzzle` as its start and goal and a :class:`Result` as its
plan, frame by frame: their ``_repr_svg_`` display hook.

The model holds no drawing code and imports nothing above it, so the hook is given to
its classes here, where the pictures are; the package root imports this module.
"""

from __future__ import annotations

from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result
from hanoi_asp.outputs.pictures import NOTEBOOK_FRAMES, plan_svg, puzzle_svg


def puzzle_repr_svg(puzzle: Puzzle) -> str:
    """Start and goal side by side."""
    return puzzle_svg(puzzle)


def result_repr_svg(result: Result) -> str:
    """The plan's states (long plans show the first ones and the last), or the puzzle."""
    if result.plan is None:
        return puzzle_svg(result.puzzle)
    return plan_svg(result.puzzle, result.plan, limit=NOTEBOOK_FRAMES)


setattr(Puzzle, "_repr_svg_", puzzle_repr_svg)  # noqa: B010 - a method added from outside
setattr(Result, "_repr_svg_", result_repr_svg)  # noqa: B010
