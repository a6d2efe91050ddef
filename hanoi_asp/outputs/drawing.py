"""What a picture shows, as a list of :class:`Shape` per tile, for every back end to draw.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
>>> [tile.kind for tile in plan_tiles(p, [])]
['goal', 'frame']

A tile is one panel of a sheet, all tiles the size of :func:`layout`'s: a state of the
plan (``frame``), the goal (``goal``: disks it leaves free greyed, "anywhere"), the
steps a shortened strip leaves out (``gap``), or ``no-plan``.  Sizes are worked out
from the text they must hold (the widest disk label, peg names, captions), so a label
stays on its disk and a caption in its frame on any font close to the estimate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Literal

from hanoi_asp.model.plan import Move, states
from hanoi_asp.model.puzzle import Puzzle, State, stacks

DISK_HEIGHT = 18
STEP = 16  # how much wider each larger disk is
MARGIN = 12
CAPTION = 28  # room for the caption above the pegs
FOOT = 28  # room for the peg names below the ground line
FONT = 13  # captions and peg names
DISK_FONT = 12  # disk labels
BIG_FONT = 22  # "no plan"
EM = 0.64  # a glyph's width in em, at most, for the sans-serif digits and letters we use


def board_colours() -> dict[str, str]:
    """The boards' colours, defined once for every drawing in ``player/player.css``
    (``--hanoi-NAME: #rrggbb;``), which the page and the HTML player use as they are.

    >>> board_colours()["disk"]
    '#2f5f9e'
    """
    css = resources.files("hanoi_asp.outputs").joinpath("player", "player.css").read_text("utf-8")
    return dict(re.findall(r"--hanoi-([a-z-]+):\s*(#[0-9a-f]{6})\s*;", css))


_COLOURS = board_colours()
DISK_COLOUR = _COLOURS["disk"]
DISK_TEXT = _COLOURS["disk-text"]
MOVED_COLOUR = _COLOURS["moved"]
FREE_COLOUR = _COLOURS["free"]  # a disk the goal leaves free: "anywhere"
FREE_EDGE = _COLOURS["free-edge"]
PEG_COLOUR = _COLOURS["peg"]
TEXT_COLOUR = _COLOURS["text"]
GOAL_EDGE = _COLOURS["goal"]
NO_PLAN_COLOUR = _COLOURS["no-plan"]
BORDER = _COLOURS["border"]
GAP_FILL = _COLOURS["gap"]


@dataclass(frozen=True)
class Shape:
    """A rectangle, or a line of text whose ``y`` is its baseline."""

    kind: Literal["rect", "text"]
    x: float
    y: float
    width: float = 0
    height: float = 0
    fill: str = TEXT_COLOUR
    text: str = ""
    size: float = FONT
    anchor: Literal["start", "middle"] = "start"
    stroke: str | None = None
    line: float = 1
    dashed: bool = False


@dataclass(frozen=True)
class Tile:
    kind: Literal["frame", "goal", "gap", "no-plan"]
    shapes: list[Shape]


@dataclass(frozen=True)
class Layout:
    """The sizes every tile of one puzzle shares."""

    width: float
    height: float
    column: float
    smallest: float  # the smallest disk's width: its label, the widest, fits on it


def text_width(text: str, size: float) -> float:
    """A generous estimate of a line's width (no font metrics in the SVG back end)."""
    return len(text) * EM * size


def fitting(text: str, size: float, room: float) -> float:
    """``size``, or smaller so that ``text`` fits in ``room``."""
    return min(size, room / max(1, len(text)) / EM)


def layout(puzzle: Puzzle) -> Layout:
    n = puzzle.disks
    smallest = max(20.0, text_width(str(n), DISK_FONT) + 8)
    longest_peg = max(puzzle.pegs, key=len)
    column = max(smallest + (n - 1) * STEP, text_width(longest_peg, FONT)) + STEP
    widest_text = max(
        text_width(f"999999: disk {n} {longest_peg}->{longest_peg}", FONT),
        text_width("999999 steps not shown", FONT),
        text_width("goal (grey: anywhere)", FONT),
    )
    width = max(len(puzzle.pegs) * column, widest_text) + 2 * MARGIN
    height = CAPTION + (n + 1) * DISK_HEIGHT + FOOT
    return Layout(width, height, column, smallest)


def edge(puzzle: Puzzle, colour: str, fill: str = "white", line: float = 1) -> Shape:
    """A tile's background and border."""
    lay = layout(puzzle)
    inset = line / 2 + 0.5
    width, height = lay.width - 2 * inset, lay.height - 2 * inset
    return Shape("rect", inset, inset, width, height, fill, stroke=colour, line=line)


def board(
    puzzle: Puzzle, state: State, caption: str, moved: int | None = None, free: bool = False
) -> list[Shape]:
    """One state: caption, ground, pegs, labelled disks, peg names.  With ``free``, the
    disks the goal does not place are greyed (the goal tile)."""
    lay = layout(puzzle)
    ground = lay.height - FOOT
    left = (lay.width - len(puzzle.pegs) * lay.column) / 2
    goal = puzzle.goal_pegs()
    shapes = [Shape("text", MARGIN, CAPTION - 10, text=caption)]
    shapes.append(Shape("rect", MARGIN / 2, ground, lay.width - MARGIN, 3, PEG_COLOUR))
    for index, tower in enumerate(stacks(puzzle, state)):
        centre = left + lay.column * index + lay.column / 2
        top = ground - (puzzle.disks + 0.5) * DISK_HEIGHT
        shapes.append(Shape("rect", centre - 2, top, 4, ground - top, PEG_COLOUR))
        for level, disk in enumerate(tower):
            colours: tuple[str, str, str | None] = (DISK_COLOUR, DISK_TEXT, None)
            if disk == moved:
                colours = (MOVED_COLOUR, TEXT_COLOUR, None)
            elif free and disk not in goal:
                colours = (FREE_COLOUR, TEXT_COLOUR, FREE_EDGE)
            width = lay.smallest + (puzzle.disks - disk) * STEP
            shapes += _disk(disk, centre, ground - (level + 1) * DISK_HEIGHT, width, *colours)
        name_y = ground + 19
        shapes.append(Shape("text", centre, name_y, text=puzzle.pegs[index], anchor="middle"))
    return shapes


def _disk(
    disk: int, centre: float, y: float, width: float, fill: str, ink: str, line: str | None
) -> list[Shape]:
    """A disk whose top is at ``y``, its number centred on it."""
    box = Shape("rect", centre - width / 2, y + 1, width, DISK_HEIGHT - 2, fill, stroke=line)
    baseline = y + DISK_HEIGHT / 2 + DISK_FONT * 0.36  # the digits' middle on the disk's
    label = Shape("text", centre, baseline, fill=ink, text=str(disk), size=DISK_FONT)
    return [replace(box, dashed=line is not None), replace(label, anchor="middle")]


def goal_tile(puzzle: Puzzle, free_where: State) -> Tile:
    """The goal's disks on their pegs; the others greyed where ``free_where`` has them."""
    goal = puzzle.goal_pegs()
    state = tuple(goal.get(disk, peg) for disk, peg in enumerate(free_where, start=1))
    caption = "goal" if puzzle.is_full_goal() else "goal (grey: anywhere)"
    return Tile(
        "goal", [edge(puzzle, GOAL_EDGE, line=3), *board(puzzle, state, caption, free=True)]
    )


def gap_tile(puzzle: Puzzle, hidden: int) -> Tile:
    """The mark for the ``hidden`` steps a shortened strip leaves out."""
    lay = layout(puzzle)
    x, middle = lay.width / 2, lay.height / 2
    dots = Shape("text", x, middle - 16, text="…", size=BIG_FONT, anchor="middle")
    words = Shape("text", x, middle + 6, text=f"{hidden} steps not shown", anchor="middle")
    return Tile("gap", [edge(puzzle, BORDER, GAP_FILL), dots, words, replace(dots, y=middle + 30)])


def no_plan_tile(puzzle: Puzzle, verdict: str, detail: str) -> Tile:
    """An explicit "no plan", so a missing strip is never mistaken for an empty one."""
    lay = layout(puzzle)
    x, middle = lay.width / 2, lay.height / 2
    title = Shape("text", x, middle - 8, fill=NO_PLAN_COLOUR, text="no plan", size=BIG_FONT)
    room = lay.width - 2 * MARGIN
    lines = [
        Shape("text", x, middle + 14, text=verdict, size=fitting(verdict, FONT, room)),
        Shape("text", x, middle + 32, text=detail, size=fitting(detail, FONT, room)),
    ]
    shapes = [replace(shape, anchor="middle") for shape in (title, *lines)]
    return Tile("no-plan", [edge(puzzle, NO_PLAN_COLOUR, line=3), *shapes])


def plan_tiles(puzzle: Puzzle, plan: Sequence[Move], limit: int | None = None) -> list[Tile]:
    """The goal, then one frame per state; with ``limit``, a longer plan keeps its first
    ``limit - 1`` states and the last, with a gap mark between them."""
    every = states(puzzle, plan)
    captions = ["start", *(f"{m.step}: disk {m.disk} {m.source}->{m.target}" for m in plan)]
    moved = [None, *(m.disk for m in plan)]

    def frame(number: int) -> Tile:
        shapes = board(puzzle, every[number], captions[number], moved[number])
        return Tile("frame", [edge(puzzle, BORDER), *shapes])

    goal = goal_tile(puzzle, every[-1])
    keep = len(every) if limit is None else max(limit, 2)
    if len(every) <= keep:
        return [goal, *map(frame, range(len(every)))]
    head = map(frame, range(keep - 1))
    return [goal, *head, gap_tile(puzzle, len(every) - keep), frame(len(every) - 1)]
