"""Results for people: rich renderables the command line prints.

Nothing here prints: each function returns something ``rich`` can render, so the
command line (or a notebook, or a test) decides where it goes.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from hanoi_asp.model.plan import Move, states
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result, Verdict
from hanoi_asp.outputs.board import draw_board

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
    if not boards:
        return [Text(str(move), style=move_style) for move in plan]
    pictures = states(puzzle, plan)
    lines = [Text(draw_board(puzzle, pictures[0]))]
    for move in plan:
        lines += [Text(str(move), style=move_style), Text(draw_board(puzzle, pictures[move.step]))]
    return lines


def result_view(result: Result, instance: str, *, boards: bool = False) -> RenderableType:
    """What ``hanoi-asp solve`` shows: the instance, the verdict, the proof, the plan,
    and how long it took with which engine."""
    puzzle = result.puzzle
    graph = puzzle.graph_name()
    variant = "" if graph == "complete" else f", {graph} move graph"
    length = "" if result.length is None else f", {result.length} moves"
    lines: list[RenderableType] = [
        Text(f"instance: {instance} ({len(puzzle.pegs)} pegs, {puzzle.disks} disks{variant})"),
        Text(f"result:   {result.result}{length}", style=VERDICT_STYLES[result.result]),
        Text(f"proof:    {result.proof}"),
    ]
    if result.plan is not None:
        lines += plan_lines(puzzle, result.plan, boards=boards)
    lines.append(Text(f"time:     {result.time_s:.3f} s ({engine_summary(result)})", style="dim"))
    return Group(*lines)


def engine_summary(result: Result) -> str:
    """``incremental, 2 threads, 3 horizon(s) solved``, ``method bfs``, or that clingo
    was not needed (the plan built first met the lower bound, or the bound decided)."""
    if result.method != "asp":
        return f"method {result.method}"
    if not result.horizons:
        return "stopped before clingo ran" if result.stopped else "no clingo call needed"
    threads = f"{result.threads} thread{'s' if result.threads != 1 else ''}"
    return f"{result.mode}, {threads}, {len(result.horizons)} horizon(s) solved"
