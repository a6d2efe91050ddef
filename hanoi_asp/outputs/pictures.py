"""Pictures of a plan: one frame per state, as SVG (by hand), PNG sheets and GIFs (Pillow).

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
>>> svg = plan_svg(p, [])
>>> svg.count('class="frame"')
1

Both back ends draw the same :class:`Shape` list from :func:`frame_shapes`, so the
SVG, the PNG sheet and every GIF frame show the same thing: peg names, disks sized
by number (disk 1 the widest, labelled), a step label, and the moved disk in orange.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from xml.sax.saxutils import escape

from hanoi_asp.model.plan import Move, states
from hanoi_asp.model.puzzle import Puzzle, State, stacks

DISK_HEIGHT = 14
UNIT = 8  # width per disk size step
MARGIN = 12
LABEL = 18  # room for the step label above and the peg names below
COLUMNS = 6  # frames per row in SVG and PNG sheets
NOTEBOOK_FRAMES = 64
"""Frames a notebook shows for a long plan: the first ones and the last."""

DISK_COLOUR = "#4a7ebb"
MOVED_COLOUR = "#f28e2b"
PEG_COLOUR = "#555555"
TEXT_COLOUR = "#222222"


@dataclass(frozen=True)
class Shape:
    kind: Literal["rect", "text"]
    x: float
    y: float
    width: float = 0
    height: float = 0
    fill: str = TEXT_COLOUR
    text: str = ""


def frame_size(puzzle: Puzzle) -> tuple[int, int]:
    column = (puzzle.disks + 1) * 2 * UNIT
    width = len(puzzle.pegs) * column + 2 * MARGIN
    height = (puzzle.disks + 2) * DISK_HEIGHT + 2 * LABEL + MARGIN
    return width, height


def frame_shapes(puzzle: Puzzle, state: State, caption: str, moved: int | None) -> list[Shape]:
    """One state drawn from (0, 0): base line, pegs, disks, peg names, caption."""
    width, height = frame_size(puzzle)
    column = (puzzle.disks + 1) * 2 * UNIT
    ground = height - LABEL - 4
    shapes = [Shape("text", MARGIN, LABEL - 4, text=caption)]
    shapes.append(Shape("rect", MARGIN / 2, ground, width - MARGIN, 3, PEG_COLOUR))
    for index, tower in enumerate(stacks(puzzle, state)):
        centre = MARGIN + column * index + column / 2
        top = ground - (puzzle.disks + 1) * DISK_HEIGHT
        shapes.append(Shape("rect", centre - 2, top, 4, ground - top, PEG_COLOUR))
        for level, disk in enumerate(tower):
            size = (puzzle.disks - disk + 1) * 2 * UNIT - UNIT
            y = ground - (level + 1) * DISK_HEIGHT
            colour = MOVED_COLOUR if disk == moved else DISK_COLOUR
            shapes.append(Shape("rect", centre - size / 2, y + 1, size, DISK_HEIGHT - 2, colour))
            shapes.append(
                Shape("text", centre - 3, y + DISK_HEIGHT - 3, fill="white", text=str(disk))
            )
        shapes.append(Shape("text", centre - 3, height - 6, text=puzzle.pegs[index]))
    return shapes


Frame = tuple[State, str, int | None]
"""A state, its caption, and the disk that just moved (None for the start)."""


def plan_frames(puzzle: Puzzle, plan: Sequence[Move]) -> list[Frame]:
    """One frame per state of a verified plan, the start first."""
    labels: list[tuple[str, int | None]] = [("start", None)]
    labels += [(f"{m.step}: disk {m.disk} {m.source}->{m.target}", m.disk) for m in plan]
    return [
        (state, label, moved)
        for state, (label, moved) in zip(states(puzzle, plan), labels, strict=True)
    ]


def grid(count: int, columns: int) -> tuple[int, int]:
    """Columns and rows of a sheet of ``count`` frames, at most ``columns`` wide."""
    columns = max(1, min(columns, count))
    return columns, (count + columns - 1) // columns


# -- SVG -------------------------------------------------------------------------------------


def plan_svg(
    puzzle: Puzzle, plan: Sequence[Move], columns: int = COLUMNS, limit: int | None = None
) -> str:
    """A strip of frames, ``columns`` per row; each frame is a ``<g class="frame">``.
    With ``limit``, a longer plan shows its first ``limit - 1`` states and the last."""
    frames = plan_frames(puzzle, plan)
    if limit is not None and len(frames) > limit:
        frames = [*frames[: limit - 1], frames[-1]]
    return _svg_sheet(puzzle, frames, columns)


def puzzle_svg(puzzle: Puzzle) -> str:
    """Start and goal side by side (disks the goal leaves free are not drawn in it)."""
    start = puzzle.initial_state()
    goal = puzzle.goal_pegs()
    goal_state = tuple(goal.get(d, -1) for d in range(1, puzzle.disks + 1))
    return _svg_sheet(puzzle, [(start, "start", None), (goal_state, "goal", None)], 2)


def _svg_sheet(puzzle: Puzzle, frames: list[Frame], columns: int) -> str:
    width, height = frame_size(puzzle)
    columns, rows = grid(len(frames), columns)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * columns}" '
        f'height="{height * rows}" viewBox="0 0 {width * columns} {height * rows}" '
        'font-family="sans-serif" font-size="11">'
    ]
    for number, (state, caption, moved) in enumerate(frames):
        x, y = (number % columns) * width, (number // columns) * height
        parts.append(f'<g class="frame" id="frame-{number}" transform="translate({x},{y})">')
        parts.append(
            f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" fill="white" '
            'stroke="#dddddd"/>'
        )
        for shape in frame_shapes(puzzle, state, caption, moved):
            parts.append(_svg_shape(shape))
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _svg_shape(shape: Shape) -> str:
    if shape.kind == "rect":
        return (
            f'<rect x="{shape.x:g}" y="{shape.y:g}" width="{shape.width:g}" '
            f'height="{shape.height:g}" fill="{shape.fill}" rx="2"/>'
        )
    return f'<text x="{shape.x:g}" y="{shape.y:g}" fill="{shape.fill}">{escape(shape.text)}</text>'


# -- raster (Pillow) -------------------------------------------------------------------------


def _raster_frame(puzzle: Puzzle, state: State, caption: str, moved: int | None):  # type: ignore[no-untyped-def]
    from PIL import Image, ImageDraw

    width, height = frame_size(puzzle)
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for shape in frame_shapes(puzzle, state, caption, moved):
        if shape.kind == "rect":
            box = (shape.x, shape.y, shape.x + shape.width, shape.y + shape.height)
            draw.rectangle(box, fill=shape.fill)
        else:
            draw.text((shape.x, shape.y - 10), shape.text, fill=shape.fill)
    return image


def write_gif(puzzle: Puzzle, plan: Sequence[Move], path: Path, frame_ms: int = 500) -> int:
    """An animation with one frame per state; returns the number of frames."""
    frames = [_raster_frame(puzzle, *frame) for frame in plan_frames(puzzle, plan)]
    frames[0].save(
        path, save_all=True, append_images=frames[1:], duration=frame_ms, loop=0, optimize=False
    )
    return len(frames)


def write_png(puzzle: Puzzle, plan: Sequence[Move], path: Path, columns: int = COLUMNS) -> int:
    """All frames on one sheet, ``columns`` per row; returns the number of frames."""
    from PIL import Image

    frames = [_raster_frame(puzzle, *frame) for frame in plan_frames(puzzle, plan)]
    width, height = frame_size(puzzle)
    columns, rows = grid(len(frames), columns)
    sheet = Image.new("RGB", (width * columns, height * rows), "white")
    for number, frame in enumerate(frames):
        sheet.paste(frame, ((number % columns) * width, (number // columns) * height))
    sheet.save(path)
    return len(frames)
