"""``hanoi-asp render``: a minimal plan drawn as SVG, GIF, PNG or an HTML player."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Final

from hanoi_asp.cli.console import console
from hanoi_asp.cli.grammar import add_outputs, positive_int
from hanoi_asp.cli.solve_options import add_solve_arguments, puzzle_and_options
from hanoi_asp.model.errors import InputError

NAME: Final = "render"
HELP = "draw a minimal plan: SVG strip, GIF animation, PNG sheet, HTML player"
DESCRIPTION = (
    "Solve FILE and draw the goal and every state of the plan (the moved disk "
    "highlighted). Give at least one of --svg, --gif, --png, --html."
)
EPILOG = """exit codes:
  0  a plan was found and drawn
  1  UNSATISFIABLE: no plan to draw
  2  bad input or usage, or an output file that cannot be written
  3  UNKNOWN: stopped by --timeout or Ctrl-C before any plan was found
  4  internal error: the simulator rejected a plan of hanoi-asp's own engine (a bug)
"""


def add_arguments(command: argparse.ArgumentParser) -> None:
    add_solve_arguments(command, NAME)
    pictures = {
        "--svg": "write an SVG strip of frames",
        "--gif": "write a GIF animation",
        "--png": "write a PNG sheet of frames (a long plan: its first states, a gap mark, "
        "the last)",
        "--html": "write one self-contained HTML page (no network) that plays the plan: "
        "play, pause, step back and forward, speed",
    }
    add_outputs(command, "OUT", pictures)
    command.add_argument(
        "--frame-ms", type=positive_int, default=500, help="GIF time per frame (default 500)"
    )
    command.add_argument(
        "--scale",
        type=float,
        default=None,
        metavar="F",
        help="enlarge (or shrink) the SVG, GIF and PNG pictures, 0.5-8 (default 1, and for "
        "the GIF whatever makes it at least 640 px wide; 2 or 3 for a projector)",
    )


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.engine import solve
    from hanoi_asp.outputs.html import plan_html
    from hanoi_asp.outputs.pictures import check_scale, plan_svg, write_gif, write_png

    if not (args.svg or args.gif or args.png or args.html):
        raise InputError("give at least one of --svg, --gif, --png, --html")
    scale = 1.0 if args.scale is None else check_scale(args.scale)
    result = solve(*puzzle_and_options(args, NAME))
    out = console()
    if result.plan is None:
        out.print(f"{args.file}: {result.result}: no plan to draw ({result.proof})", markup=False)
        return result.exit_code
    puzzle, plan = result.puzzle, result.plan

    def wrote(path: str, shown: int) -> None:
        states = len(plan) + 1
        cut = "" if shown == states else f" of {states}: {states - shown} steps not shown"
        out.print(f"wrote {path} ({shown} frames{cut})", markup=False)

    if args.svg:
        Path(args.svg).write_text(plan_svg(puzzle, plan, scale=scale), encoding="utf-8")
        wrote(args.svg, len(plan) + 1)
    if args.gif:
        wrote(args.gif, write_gif(puzzle, plan, Path(args.gif), args.frame_ms, scale=args.scale))
    if args.png:
        wrote(args.png, write_png(puzzle, plan, Path(args.png), scale=scale))
    if args.html:
        note = f"{len(plan)} moves, {result.result.lower()}"
        page = plan_html(puzzle, plan, Path(args.file).name, note)
        Path(args.html).write_text(page, encoding="utf-8")
        out.print(f"wrote {args.html} (a player for {len(plan)} moves)", markup=False)
    return result.exit_code
