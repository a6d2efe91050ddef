"""Results for people: lines with their styles, and rich renderables made of them, that
the command line prints.

Nothing here prints: each function returns lines or something ``rich`` can render, so
the command line (or a notebook, or a test) decides where it goes.  rich is imported
only to make a renderable: output that is not for a terminal needs no styles
(:func:`hanoi_asp.cli.console.print_lines`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hanoi_asp.model.plan import Move, states
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result, Verdict
from hanoi_asp.outputs.board import draw_board

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

StyledLine = tuple[str, str]
"""A line of output and its rich style ("" for none)."""

VERDICT_STYLES: dict[Verdict, str] = {
    "OPTIMUM FOUND": "bold green",
    "SATISFIABLE": "green",
    "UNSATISFIABLE": "bold red",
    "UNKNOWN": "bold yellow",
}


def plan_lines(
    puzzle: Puzzle, plan: tuple[Move, ...], *, boards: bool, move_style: str = ""
) -> list[Text]:
    """The moves one per line; with ``boards``, the pegs drawn before the first move
    and after every move."""
    from rich.text import Text

    lines = styled_plan(puzzle, plan, boards, move_style)
    return [Text(line, style=style) for line, style in lines]


def styled_plan(
    puzzle: Puzzle, plan: tuple[Move, ...], boards: bool, move_style: str = ""
) -> list[StyledLine]:
    """:func:`plan_lines` as lines and styles."""
    if not boards:
        return [(str(move), move_style) for move in plan]
    pictures = states(puzzle, plan)
    lines = [(draw_board(puzzle, pictures[0]), "")]
    for move in plan:
        lines += [(str(move), move_style), (draw_board(puzzle, pictures[move.step]), "")]
    return lines


def result_lines(result: Result, instance: str, *, boards: bool = False) -> list[StyledLine]:
    """What ``hanoi-asp solve`` shows: the instance, the verdict, the proof, the plan,
    and how long it took with which engine."""
    puzzle = result.puzzle
    graph = puzzle.graph_name()
    variant = "" if graph == "complete" else f", {graph} move graph"
    length = "" if result.length is None else f", {result.length} moves"
    lines: list[StyledLine] = [
        (f"instance: {instance} ({len(puzzle.pegs)} pegs, {puzzle.disks} disks{variant})", ""),
        (f"result:   {result.result}{length}", VERDICT_STYLES[result.result]),
        (f"proof:    {result.proof}", ""),
    ]
    if result.plan is not None:
        lines += styled_plan(puzzle, result.plan, boards)
    lines.append((f"time:     {result.time_s:.3f} s ({engine_summary(result)})", "dim"))
    return lines


def result_view(result: Result, instance: str, *, boards: bool = False) -> RenderableType:
    """:func:`result_lines` as one rich renderable."""
    return styled_view(result_lines(result, instance, boards=boards))


def styled_view(lines: list[StyledLine]) -> RenderableType:
    """Lines and their styles as one rich renderable."""
    from rich.console import Group
    from rich.text import Text

    return Group(*(Text(line, style=style) for line, style in lines))


def engine_summary(result: Result) -> str:
    """``incremental, 2 threads, 3 horizon(s) solved``, ``method bfs``, or that clingo
    was not needed (the plan built first met the lower bound, or the bound decided)."""
    if result.method != "asp":
        return f"method {result.method}"
    if not result.horizons:
        return "stopped before clingo ran" if result.stopped else "no clingo call needed"
    threads = f"{result.threads} thread{'s' if result.threads != 1 else ''}"
    return f"{result.mode}, {threads}, {len(result.horizons)} horizon(s) solved"
