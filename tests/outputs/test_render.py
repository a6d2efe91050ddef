"""Pictures of a plan as the user asks for them (``hanoi_asp/outputs/pictures.py``,
``notebook.py``): ``render`` writes one frame per state, and notebooks show SVG."""

from __future__ import annotations

import operator
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from PIL import Image
from PIL.GifImagePlugin import GifImageFile
from support.cli import RunCli
from support.files import INSTANCES

from hanoi_asp import load_puzzle, solve
from hanoi_asp.outputs.pictures import MOVED_COLOUR, plan_svg

SVG = "{http://www.w3.org/2000/svg}"

repr_svg = operator.methodcaller("_repr_svg_")
"""What Jupyter calls to show a puzzle or a result: the hook
:mod:`hanoi_asp.outputs.notebook` adds to them (unknown to the type checker)."""


def frames(svg: str) -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "frame"]


def test_render_writes_svg_gif_png_with_one_frame_per_state(
    run_cli: RunCli, tmp_path: Path
) -> None:
    out = {kind: tmp_path / f"plan.{kind}" for kind in ("svg", "gif", "png")}
    instance = str(INSTANCES / "quickstart.lp")
    code, text, _ = run_cli(
        "render",
        instance,
        "--svg",
        str(out["svg"]),
        "--gif",
        str(out["gif"]),
        "--png",
        str(out["png"]),
    )
    assert code == 0 and "16 frames" in text
    shown = frames(out["svg"].read_text())
    assert len(shown) == 16  # 15 moves: the start and one state after each move
    labels = ["".join(t.text or "" for t in g.iter(f"{SVG}text")) for g in shown]
    assert labels[0].startswith("start") and labels[1].startswith("1: disk 4 a->b")
    # the moved disk is highlighted in every frame but the start
    highlighted = [sum(r.get("fill") == MOVED_COLOUR for r in g.iter(f"{SVG}rect")) for g in shown]
    assert highlighted == [0] + [1] * 15
    with Image.open(out["gif"]) as gif:
        assert isinstance(gif, GifImageFile) and gif.n_frames == 16
    with Image.open(out["png"]) as png:
        assert png.width > png.height > 0


def test_render_needs_an_output_and_reports_no_plan(run_cli: RunCli, tmp_path: Path) -> None:
    code, _, err = run_cli("render", str(INSTANCES / "quickstart.lp"))
    assert code == 2 and "--svg" in err
    code, out, _ = run_cli(
        "render", str(INSTANCES / "unsolvable-2pegs.lp"), "--svg", str(tmp_path / "x.svg")
    )
    assert code == 1 and "no plan to draw" in out and not (tmp_path / "x.svg").exists()


def test_notebook_svg_for_puzzle_and_result() -> None:
    puzzle = load_puzzle(str(INSTANCES / "partial-goal.toml"))
    assert len(frames(repr_svg(puzzle))) == 2  # start and goal
    result = solve(puzzle)
    assert result.length is not None
    assert len(frames(repr_svg(result))) == result.length + 1
    long = solve(load_puzzle(str(INSTANCES / "classic" / "3pegs-6disks.lp")))
    assert len(frames(repr_svg(long))) == 64  # 63 moves: first 63 states and the last
    assert len(frames(plan_svg(long.puzzle, long.plan or ()))) == 64
