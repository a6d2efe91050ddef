"""Jupyter shows a :class:`Puzzle` as its start and goal and a :class:`Result` as its
plan, frame by frame: their ``_repr_svg_`` display hook.

The model holds no drawing code and imports nothing above it, so the hook is given to
its classes here, where the pictures are; the package root imports this module.
"""

from __future__ import annotations

from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result
from hanoi_asp.outputs.pictures import NOTEBOOK_FRAMES, no_plan_svg, plan_svg, puzzle_svg


def puzzle_repr_svg(puzzle: Puzzle) -> str:
    """Start and goal side by side."""
    return puzzle_svg(puzzle)


def result_repr_svg(result: Result) -> str:
    """The goal and the plan's states (long plans: the first ones, a gap mark, the last),
    or, with no plan, start, goal and a "no plan" tile saying why."""
    if result.plan is None:
        return no_plan_svg(result.puzzle, result.result, no_plan_reason(result))
    return plan_svg(result.puzzle, result.plan, limit=NOTEBOOK_FRAMES)


def no_plan_reason(result: Result) -> str:
    """A few words on why there is no plan (the proof is often a paragraph)."""
    if result.unreachable:
        return "the goal cannot be reached"
    if result.stopped is not None:
        return f"stopped ({result.stopped}) before a plan"
    if result.exact_moves is not None:
        return f"none of exactly {result.exact_moves} moves"
    if result.max_moves is not None:
        return f"none within {result.max_moves} moves"
    return "none found"


setattr(Puzzle, "_repr_svg_", puzzle_repr_svg)  # noqa: B010 - a method added from outside
setattr(Result, "_repr_svg_", result_repr_svg)  # noqa: B010
