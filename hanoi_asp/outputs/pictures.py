"""Pictures of a plan: SVG sheets (by hand), PNG sheets and GIFs (Pillow).

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
>>> svg = plan_svg(p, [])
>>> svg.count('class="frame"'), svg.count('class="goal"')
(1, 1)

Every back end draws the tiles of :mod:`hanoi_asp.outputs.drawing` (the goal, one frame
per state, a gap mark where a long plan is shortened), so they all show the same thing.
``scale`` enlarges a picture (a projector wants 2 or 3); raster pictures stay within a
pixel budget, far below Pillow's decompression-bomb limit, by leaving out the middle of
a long plan behind a visible gap mark.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from hanoi_asp.model.errors import InputError
from hanoi_asp.model.plan import Move
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.outputs.drawing import (
    BORDER,
    MOVED_COLOUR,
    Shape,
    Tile,
    board,
    edge,
    goal_tile,
    layout,
    no_plan_tile,
    plan_tiles,
)
from hanoi_asp.outputs.safe_text import xml_text

if TYPE_CHECKING:
    from PIL import Image, ImageFont

__all__ = ["MOVED_COLOUR", "no_plan_svg", "plan_svg", "puzzle_svg", "write_gif", "write_png"]

COLUMNS = 6  # tiles per row of a sheet
NOTEBOOK_FRAMES = 64
"""Frames a notebook shows for a long plan: the first ones and the last."""
MIN_SCALE, MAX_SCALE = 0.5, 8.0
SHEET_PIXELS = 16_000_000
"""A PNG sheet's most pixels: Pillow warns of a decompression bomb from 89 million."""
GIF_PIXELS = 150_000_000
"""A GIF's most pixels, all frames together: Pillow holds every frame while writing."""
GIF_WIDTH = 640
"""A GIF's width when no scale is given: a drawing at scale 1 is 276 px wide for 3 disks,
too small to read in a slide or a mail; larger puzzles are wider already and keep
scale 1."""


def check_scale(scale: float) -> float:
    """``scale`` if it is a sensible factor (NaN and infinities are not)."""
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise InputError(f"scale must be from {MIN_SCALE:g} to {MAX_SCALE:g}, not {scale:g}")
    return scale


# -- SVG -------------------------------------------------------------------------------------


def plan_svg(
    puzzle: Puzzle,
    plan: Sequence[Move],
    columns: int = COLUMNS,
    limit: int | None = None,
    scale: float = 1.0,
) -> str:
    """The goal (``<g class="goal">``), then one ``<g class="frame">`` per state, ``columns``
    tiles per row.  With ``limit``, a longer plan shows its first ``limit - 1`` states and
    the last, with a ``<g class="gap">`` saying how many steps are left out."""
    return _svg_sheet(puzzle, plan_tiles(puzzle, plan, limit), columns, scale)


def puzzle_svg(puzzle: Puzzle, scale: float = 1.0) -> str:
    """Start and goal side by side, two frames; the goal greys the disks it leaves free."""
    return _svg_sheet(puzzle, _ends(puzzle, as_frames=True), 2, scale)


def no_plan_svg(puzzle: Puzzle, verdict: str, detail: str, scale: float = 1.0) -> str:
    """Start, goal and an explicit "no plan" tile with the verdict and why."""
    tiles = [*_ends(puzzle), no_plan_tile(puzzle, verdict, detail)]
    return _svg_sheet(puzzle, tiles, 3, scale)


def _ends(puzzle: Puzzle, as_frames: bool = False) -> list[Tile]:
    start = puzzle.initial_state()
    goal = goal_tile(puzzle, start)
    if as_frames:
        goal = Tile("frame", goal.shapes)
    return [Tile("frame", [edge(puzzle, BORDER), *board(puzzle, start, "start")]), goal]


def _svg_sheet(puzzle: Puzzle, tiles: list[Tile], columns: int, scale: float) -> str:
    lay = layout(puzzle)
    columns, rows = grid(len(tiles), columns)
    width, height = lay.width * columns, lay.height * rows
    check_scale(scale)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * scale:g}" '
        f'height="{height * scale:g}" viewBox="0 0 {width:g} {height:g}" '
        'font-family="sans-serif">'
    ]
    for number, tile in enumerate(tiles):
        x, y = (number % columns) * lay.width, (number // columns) * lay.height
        parts.append(f'<g class="{tile.kind}" transform="translate({x:g},{y:g})">')
        parts.extend(_svg_shape(shape) for shape in tile.shapes)
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _svg_shape(shape: Shape) -> str:
    if shape.kind == "rect":
        line = (
            ""
            if shape.stroke is None
            else f' stroke="{shape.stroke}" stroke-width="{shape.line:g}"'
        )
        dash = ' stroke-dasharray="3 2"' if shape.dashed else ""
        return (
            f'<rect x="{shape.x:g}" y="{shape.y:g}" width="{shape.width:g}" '
            f'height="{shape.height:g}" fill="{shape.fill}"{line}{dash} rx="2"/>'
        )
    return (
        f'<text x="{shape.x:g}" y="{shape.y:g}" fill="{shape.fill}" font-size="{shape.size:g}" '
        f'text-anchor="{shape.anchor}">{escape(xml_text(shape.text))}</text>'
    )


def grid(count: int, columns: int) -> tuple[int, int]:
    """Columns and rows of a sheet of ``count`` tiles, at most ``columns`` wide."""
    columns = max(1, min(columns, count))
    return columns, (count + columns - 1) // columns


# -- raster (Pillow) -------------------------------------------------------------------------


def write_gif(
    puzzle: Puzzle,
    plan: Sequence[Move],
    path: Path,
    frame_ms: int = 500,
    scale: float | None = None,
) -> int:
    """An animation with one frame per state; returns the number of states shown (fewer
    than the plan's when it is over :data:`GIF_PIXELS`: a gap frame marks the cut).
    Without a ``scale``, the frames are at least :data:`GIF_WIDTH` pixels wide."""
    if scale is None:
        scale = readable_scale(puzzle)
    keep = GIF_PIXELS // _tile_pixels(puzzle, scale)
    tiles = plan_tiles(puzzle, plan, limit=keep - 1 if len(plan) + 1 > keep else None)[1:]
    if len(tiles) > keep:
        raise InputError(f"a GIF at scale {scale:g} would be too large: use a smaller scale")
    images: Iterator[Image.Image] = (_raster(puzzle, tile, scale) for tile in tiles)
    # the gap's words need time to be read
    times = [frame_ms if tile.kind == "frame" else max(frame_ms, 2000) for tile in tiles]
    first = next(images)
    first.save(path, save_all=True, append_images=images, duration=times, loop=0, optimize=False)
    return sum(tile.kind == "frame" for tile in tiles)


def write_png(
    puzzle: Puzzle,
    plan: Sequence[Move],
    path: Path,
    columns: int = COLUMNS,
    scale: float = 1.0,
) -> int:
    """The goal and every state on one sheet, ``columns`` per row; returns the number of
    states shown (fewer when the sheet would be over :data:`SHEET_PIXELS`: the first
    ones and the last, with a gap mark between them)."""
    from PIL import Image

    cells = SHEET_PIXELS // _tile_pixels(puzzle, scale)
    fit = cells if cells < columns else cells // columns * columns
    if fit < 4:  # goal, start, gap, last
        raise InputError(f"a PNG at scale {scale:g} would be too large: use a smaller scale")
    tiles = plan_tiles(puzzle, plan, limit=fit - 2 if len(plan) + 2 > fit else None)
    width, height = _tile_size(puzzle, scale)
    columns, rows = grid(len(tiles), columns)
    sheet = Image.new("RGB", (width * columns, height * rows), "white")
    for number, tile in enumerate(tiles):
        at = ((number % columns) * width, (number // columns) * height)
        sheet.paste(_raster(puzzle, tile, scale), at)
    sheet.save(path)
    return sum(tile.kind == "frame" for tile in tiles)


def readable_scale(puzzle: Puzzle) -> float:
    """The scale at which the puzzle's frames are :data:`GIF_WIDTH` pixels wide, never
    below 1 (nor above :data:`MAX_SCALE`)."""
    return min(MAX_SCALE, max(1.0, GIF_WIDTH / layout(puzzle).width))


def _tile_size(puzzle: Puzzle, scale: float) -> tuple[int, int]:
    lay = layout(puzzle)
    return math.ceil(lay.width * check_scale(scale)), math.ceil(lay.height * scale)


def _tile_pixels(puzzle: Puzzle, scale: float) -> int:
    width, height = _tile_size(puzzle, scale)
    return width * height


def _raster(puzzle: Puzzle, tile: Tile, scale: float) -> Image.Image:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", _tile_size(puzzle, scale), "white")
    draw = ImageDraw.Draw(image)
    for shape in tile.shapes:
        x, y = shape.x * scale, shape.y * scale
        if shape.kind == "rect":
            box = (x, y, max(x, x + shape.width * scale - 1), max(y, y + shape.height * scale - 1))
            line = max(1, round(shape.line * scale)) if shape.stroke else 0
            draw.rectangle(box, fill=shape.fill, outline=shape.stroke, width=line)
        else:
            anchor = "ms" if shape.anchor == "middle" else "ls"  # baseline, as in SVG
            draw.text(
                (x, y), shape.text, fill=shape.fill, font=font(shape.size * scale), anchor=anchor
            )
    return image


@functools.cache
def font(size: float) -> ImageFont.FreeTypeFont:
    """Pillow's own scalable font (Pillow 10.1 or later), so no system font is needed."""
    from PIL import ImageFont

    loaded = ImageFont.load_default(size=max(1, round(size)))
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    return loaded
