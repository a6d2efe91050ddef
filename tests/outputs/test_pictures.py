"""Pictures fit for class (issue 16, item 7): each test fails on the pictures before it.

Labels that fit their disks, ``--scale``, long plans cut with a visible gap (a PNG far
below Pillow's decompression-bomb limit: tests turn its warning into an error), a goal
tile with a partial goal's free disks greyed, and an explicit "no plan" picture.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import operator
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from PIL import Image, ImageOps
from PIL.GifImagePlugin import GifImageFile
from support.cli import RunCli
from support.files import INSTANCES

from hanoi_asp import InputError, Puzzle, SolveOptions, load_puzzle, solve
from hanoi_asp.model.plan import Move
from hanoi_asp.outputs import pictures
from hanoi_asp.outputs.drawing import (
    DISK_COLOUR,
    FREE_COLOUR,
    GAP_FILL,
    MARGIN,
    Shape,
    board,
    layout,
    no_plan_tile,
    text_width,
)
from hanoi_asp.outputs.pictures import check_scale, font, plan_svg, puzzle_svg, write_gif, write_png

repr_svg = operator.methodcaller("_repr_svg_")
"""What Jupyter calls to show a puzzle or a result: the hook
:mod:`hanoi_asp.outputs.notebook` adds to them (unknown to the type checker)."""
SVG = "{http://www.w3.org/2000/svg}"


def tower(disks: int) -> tuple[Puzzle, tuple[Move, ...]]:
    everything = tuple(range(1, disks + 1))
    puzzle = Puzzle(
        pegs=("a", "b", "c"), disks=disks, init={"a": everything}, goal={"c": everything}
    )
    plan = solve(puzzle, SolveOptions(method="recursive")).plan
    assert plan is not None and len(plan) == 2**disks - 1
    return puzzle, plan


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def tiles(svg: str) -> list[ElementTree.Element]:
    """The sheet's tiles (goal, frames, gap, no-plan), in order."""
    return [g for g in ElementTree.fromstring(svg).iter(f"{SVG}g") if g.get("class")]


def texts(tile: ElementTree.Element) -> list[str]:
    return [t.text or "" for t in tile.iter(f"{SVG}text")]


def disks_and_labels(shapes: list[Shape]) -> list[tuple[Shape, Shape]]:
    """Each disk's rectangle and the label drawn right after it."""
    pairs = itertools.pairwise(shapes)
    return [(box, label) for box, label in pairs if box.kind == "rect" and label.text.isdigit()]


# -- labels ------------------------------------------------------------------------------------


@pytest.mark.parametrize("disks", [10, 64])
def test_every_disk_label_fits_on_its_disk(disks: int) -> None:
    """A 10-disk tower showed disk 10 as "1": the "0" fell off the disk, white on white."""
    puzzle = Puzzle(
        pegs=("a", "b", "c"), disks=disks, init={"a": tuple(range(1, disks + 1))}, goal={}
    )
    pairs = disks_and_labels(board(puzzle, puzzle.initial_state(), "start"))
    assert [label.text for _, label in pairs] == [str(d) for d in range(1, disks + 1)]
    for box, label in pairs:
        assert label.anchor == "middle" and label.x == pytest.approx(box.x + box.width / 2)
        assert text_width(label.text, label.size) <= box.width - 4  # SVG: the estimate fits
        for scale in (1, 3):  # the PNG and GIF font, measured where it is drawn
            left, top, right, bottom = font(label.size * scale).getbbox(label.text, anchor="ms")
            x, y = label.x * scale, label.y * scale
            assert box.x * scale <= x + left and x + right <= (box.x + box.width) * scale
            assert box.y * scale <= y + top and y + bottom <= (box.y + box.height) * scale


def test_captions_and_peg_names_fit_their_frame() -> None:
    puzzle = Puzzle(
        pegs=("left", "a-very-long-peg-name"), disks=1, init={"left": (1,)}, goal={"left": (1,)}
    )
    lay = layout(puzzle)
    caption = "99999: disk 1 a-very-long-peg-name->a-very-long-peg-name"
    assert text_width(caption, 13) <= lay.width and text_width(puzzle.pegs[1], 13) <= lay.column


# -- scale -------------------------------------------------------------------------------------


def test_scale_enlarges_svg_gif_and_png(tmp_path: Path) -> None:
    """GIF frames were 264x132 px with no way to scale them."""
    puzzle, plan = tower(3)
    one, two = (
        ElementTree.fromstring(plan_svg(puzzle, plan)),
        ElementTree.fromstring(plan_svg(puzzle, plan, scale=2)),
    )
    assert float(two.get("width", 0)) == 2 * float(one.get("width", 0))
    assert float(two.get("height", 0)) == 2 * float(one.get("height", 0))
    assert two.get("viewBox") == one.get("viewBox")  # the same drawing, only larger
    sizes = {}
    for scale in (0.5, 1, 3):
        write_gif(puzzle, plan, tmp_path / f"{scale}.gif", scale=scale)
        write_png(puzzle, plan, tmp_path / f"{scale}.png", scale=scale)
        with (
            Image.open(tmp_path / f"{scale}.gif") as gif,
            Image.open(tmp_path / f"{scale}.png") as png,
        ):
            ink = ImageOps.invert(gif.convert("L")).getbbox()  # the start, inside its border
            assert isinstance(gif, GifImageFile) and ink is not None
            sizes[scale] = (gif.size, png.size, gif.n_frames, ink)
    lay = layout(puzzle)
    for scale, (gif_size, png_size, frames, ink) in sizes.items():
        assert gif_size == (math.ceil(lay.width * scale), math.ceil(lay.height * scale))
        assert png_size == (gif_size[0] * 6, gif_size[1] * 2)  # goal + 8 states, 6 a row
        assert frames == 8
        # the drawing grows with its canvas: caption, pegs and disks, not only the margins
        assert ink == pytest.approx([edge * scale for edge in sizes[1][3]], abs=2 * scale)


def test_a_gif_is_readable_by_default(tmp_path: Path) -> None:
    """A GIF with no scale was 276x146 px for three disks: now at least 640 px wide, the
    drawing scaled (not padded); an explicit scale is kept; a wide puzzle stays at 1."""
    from hanoi_asp.outputs.pictures import GIF_WIDTH, readable_scale

    puzzle, plan = tower(3)
    write_gif(puzzle, plan, tmp_path / "auto.gif")
    write_gif(puzzle, plan, tmp_path / "one.gif", scale=1)
    with Image.open(tmp_path / "auto.gif") as auto, Image.open(tmp_path / "one.gif") as one:
        assert auto.size[0] >= GIF_WIDTH and one.size[0] < GIF_WIDTH
        ratio = auto.size[0] / one.size[0]
        assert auto.size[1] == pytest.approx(one.size[1] * ratio, abs=2)
    wide = Puzzle(pegs=tuple("abcdefgh"), disks=20, init={"a": tuple(range(1, 21))}, goal={})
    assert layout(wide).width > GIF_WIDTH and readable_scale(wide) == 1


def test_render_gif_default_and_explicit_scale(run_cli: RunCli, tmp_path: Path) -> None:
    quickstart = str(INSTANCES / "quickstart.lp")
    assert run_cli("render", quickstart, "--gif", str(tmp_path / "a.gif"))[0] == 0
    assert run_cli("render", quickstart, "--gif", str(tmp_path / "b.gif"), "--scale", "1")[0] == 0
    with Image.open(tmp_path / "a.gif") as auto, Image.open(tmp_path / "b.gif") as one:
        assert auto.size[0] >= 640 > one.size[0]
    code, _, err = run_cli("render", quickstart, "--gif", str(tmp_path / "c.gif"), "--scale", "9")
    assert code == 2 and "scale must be from 0.5 to 8" in err


@pytest.mark.parametrize("bad", [0.49, 8.01, 0, -1, math.nan, math.inf])
def test_scale_is_checked(bad: float, tmp_path: Path) -> None:
    puzzle, plan = tower(2)
    with pytest.raises(InputError, match=r"scale must be from 0\.5 to 8"):
        check_scale(bad)
    with pytest.raises(InputError):
        write_png(puzzle, plan, tmp_path / "x.png", scale=bad)
    with pytest.raises(InputError):
        plan_svg(puzzle, plan, scale=bad)


def test_render_scale_option(run_cli: RunCli, tmp_path: Path) -> None:
    quickstart = str(INSTANCES / "quickstart.lp")
    out = tmp_path / "big.gif"
    code, text, _ = run_cli("render", quickstart, "--gif", str(out), "--scale", "2.5")
    assert code == 0 and "16 frames" in text
    with Image.open(out) as gif:
        lay = layout(load_puzzle(quickstart))
        assert gif.size == (math.ceil(lay.width * 2.5), math.ceil(lay.height * 2.5))
    for bad in ("9", "0.1", "nan", "two"):
        code, _, err = run_cli(
            "render", quickstart, "--gif", str(tmp_path / "x.gif"), "--scale", bad
        )
        assert code == 2 and "scale" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.gif").exists()


# -- long plans --------------------------------------------------------------------------------


def test_a_1023_move_png_stays_far_below_the_bomb_limit(run_cli: RunCli, tmp_path: Path) -> None:
    """It was 3312x36936 px: Pillow warned of a decompression bomb on opening it."""
    puzzle, plan = tower(10)
    path = tmp_path / "long.png"
    shown = write_png(puzzle, plan, path)
    assert 6 < shown < len(plan) + 1
    with Image.open(path) as png:  # a DecompressionBombWarning is an error in the tests
        png.load()
        assert Image.MAX_IMAGE_PIXELS is not None
        assert png.width * png.height <= pictures.SHEET_PIXELS < Image.MAX_IMAGE_PIXELS / 5
        # the gap tile sits just before the last frame, grey, and says what it leaves out
        width, height = pictures._tile_size(puzzle, 1)
        gap = shown  # tiles: the goal, shown - 1 states, the gap, the last state
        x, y = (gap % 6) * width, (gap // 6) * height
        assert png.getpixel((x + 8, y + 8)) == rgb(GAP_FILL)
    tower_file = tmp_path / "t10.lp"
    tower_file.write_text("peg(a;b;c). disk(1..10). init_on(1..10,a). goal_on(1..10,c).")
    code, text, _ = run_cli("render", str(tower_file), "--method", "recursive", "--png", str(path))
    assert code == 0 and f"{shown} frames of 1024: {1024 - shown} steps not shown" in text


def test_a_long_gif_keeps_its_budget_with_a_gap_frame(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    puzzle, plan = tower(5)
    frame = pictures._tile_pixels(puzzle, 1)
    monkeypatch.setattr(pictures, "GIF_PIXELS", frame * 10)
    shown = write_gif(puzzle, plan, tmp_path / "cut.gif", scale=1)
    assert shown == 9  # 8 states and the last, with the gap frame: 10 frames in all
    with Image.open(tmp_path / "cut.gif") as gif:
        assert isinstance(gif, GifImageFile) and gif.n_frames == 10
        gif.seek(8)
        middle, shown_for = gif.convert("RGB").getpixel((8, 8)), gif.info["duration"]
    assert middle == rgb(GAP_FILL) and shown_for == 2000  # long enough to read


def test_a_shortened_strip_marks_its_gap() -> None:
    """A notebook strip jumped from step 62 to 255 with no mark."""
    puzzle, plan = tower(8)
    shown = tiles(plan_svg(puzzle, plan, limit=pictures.NOTEBOOK_FRAMES))
    kinds = [tile.get("class") for tile in shown]
    assert kinds == ["goal", *["frame"] * 63, "gap", "frame"]
    assert texts(shown[-3])[0].startswith("62: ") and texts(shown[-1])[0].startswith("255: ")
    assert "192 steps not shown" in texts(shown[-2])


# -- the goal ----------------------------------------------------------------------------------


def fills(tile: ElementTree.Element) -> dict[str, str]:
    """Disk label -> the fill of the disk under it."""
    shapes = list(tile)
    return {
        b.text or "": a.get("fill", "")
        for a, b in itertools.pairwise(shapes)
        if a.tag == f"{SVG}rect" and b.tag == f"{SVG}text" and (b.text or "").isdigit()
    }


def test_the_goal_is_drawn_and_a_partial_goal_shows_its_free_disks(tmp_path: Path) -> None:
    """The goal was never drawn with the plan, and a partial goal left its free disks out."""
    puzzle = load_puzzle(str(INSTANCES / "partial-goal.toml"))  # disks 1 and 3 on c
    result = solve(puzzle)
    assert result.plan is not None
    goal = tiles(plan_svg(puzzle, result.plan))[0]
    assert goal.get("class") == "goal" and texts(goal)[0] == "goal (grey: anywhere)"
    assert fills(goal) == {"1": DISK_COLOUR, "2": FREE_COLOUR, "3": DISK_COLOUR, "4": FREE_COLOUR}
    assert goal.findall(f"{SVG}rect[@stroke-dasharray]")  # the free disks are dashed too
    start, goal_frame = tiles(puzzle_svg(puzzle))
    assert texts(start)[0] == "start" and texts(goal_frame)[0] == "goal (grey: anywhere)"
    assert set(fills(goal_frame)) == {"1", "2", "3", "4"}
    full = load_puzzle(str(INSTANCES / "quickstart.lp"))
    assert texts(tiles(puzzle_svg(full))[1])[0] == "goal"
    assert FREE_COLOUR not in fills(tiles(puzzle_svg(full))[1]).values()
    # the PNG sheet starts with the goal, its free disks grey
    write_png(puzzle, result.plan, tmp_path / "partial.png")
    with Image.open(tmp_path / "partial.png") as png:
        width, height = pictures._tile_size(puzzle, 1)
        colours = png.crop((0, 0, width, height)).convert("RGB").getcolors(width * height)
    assert colours is not None and rgb(FREE_COLOUR) in {colour for _, colour in colours}


# -- no plan -----------------------------------------------------------------------------------


def test_a_result_without_a_plan_says_so() -> None:
    """An unsolvable Result in Jupyter showed start and goal with no "no plan" label."""
    result = solve(load_puzzle(str(INSTANCES / "unsolvable-2pegs.lp")))
    assert result.plan is None
    shown = tiles(repr_svg(result))
    assert [tile.get("class") for tile in shown] == ["frame", "goal", "no-plan"]
    words = texts(shown[2])
    assert words[0] == "no plan" and "UNSATISFIABLE" in words
    stopped = dataclasses.replace(result, result="UNKNOWN", stopped="timeout", unreachable=False)
    assert "stopped (timeout) before a plan" in texts(tiles(repr_svg(stopped))[2])
    # the words fit the tile, even the smallest puzzle's
    one = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
    tile = no_plan_tile(one, "UNKNOWN", "stopped (interrupt) before a plan")
    for shape in tile.shapes[1:]:
        assert text_width(shape.text, shape.size) <= layout(one).width - 2 * MARGIN
