"""Teaching mode: explain, pictures, why-not-shorter, grading and the exercises."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from conftest import INSTANCES, ROOT
from PIL import Image

from hanoi_asp import Encoding, SolveOptions, load_puzzle, solve
from hanoi_asp.outputs.pictures import MOVED_COLOUR, plan_svg
from hanoi_asp.teaching.explain import _core, _goal_atoms, encoding_sections, why_not_shorter
from hanoi_asp.teaching.grade import grade, teaching_set

EXERCISES = sorted((ROOT / "encodings" / "exercises").glob("*.lp"))
SVG = "{http://www.w3.org/2000/svg}"


def frames(svg: str) -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "frame"]


# -- pictures --------------------------------------------------------------------------------


def test_render_writes_svg_gif_png_with_one_frame_per_state(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
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
        assert gif.n_frames == 16
    with Image.open(out["png"]) as png:
        assert png.width > png.height > 0


def test_render_needs_an_output_and_reports_no_plan(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli("render", str(INSTANCES / "quickstart.lp"))
    assert code == 2 and "--svg" in err
    code, out, _ = run_cli(
        "render", str(INSTANCES / "unsolvable-2pegs.lp"), "--svg", str(tmp_path / "x.svg")
    )
    assert code == 1 and "no plan to draw" in out and not (tmp_path / "x.svg").exists()


def test_notebook_svg_for_puzzle_and_result() -> None:
    puzzle = load_puzzle(str(INSTANCES / "partial-goal.toml"))
    assert len(frames(puzzle._repr_svg_())) == 2  # start and goal
    result = solve(puzzle)
    assert result.length is not None
    assert len(frames(result._repr_svg_())) == result.length + 1
    long = solve(load_puzzle(str(INSTANCES / "classic" / "3pegs-6disks.lp")))
    assert len(frames(long._repr_svg_())) == 64  # 63 moves: first 63 states and the last
    assert len(frames(plan_svg(long.puzzle, long.plan or ()))) == 64


# -- explain ---------------------------------------------------------------------------------


def test_explain_json_has_sections_statistics_and_why(run_cli) -> None:  # type: ignore[no-untyped-def]
    instance = str(INSTANCES / "teaching" / "02-three-disks.lp")
    code, out, _ = run_cli("explain", instance, "--bound", "none", "--json")
    data = json.loads(out)
    assert code == 0
    assert "goal_on(3,c)." in data["facts"]
    names = [s["name"] for s in data["sections"]]
    assert {"Generate", "Define", "Test", "Display"} <= set(names)
    rules = [r for s in data["sections"] for r in s["rules"]]
    assert any(r["text"].startswith("on(D,P,t) :- on(D,P,t-1)") for r in rules)
    assert all(r["program"] in {"base", "step(t)", "prune(t)", "check(t)"} for r in rules)
    horizons = data["horizons"]
    assert [h["horizon"] for h in horizons] == list(range(8))
    assert [h["status"] for h in horizons] == ["UNSAT"] * 7 + ["SAT"]
    for run in horizons:
        assert run["atoms"] > 0 and run["rules"] > 0 and run["time_s"] >= 0
        assert run["choices"] >= 0 and run["conflicts"] >= 0
    # the one-shot quickstart encoding has no distance constraints: clingo must search
    code, out, _ = run_cli("explain", instance, "--bound", "none", "--mode", "oneshot", "--json")
    oneshot = json.loads(out)
    assert oneshot["encoding"] == "quickstart.lp" and oneshot["extras"] == []
    assert sum(h["conflicts"] for h in oneshot["horizons"]) > 0
    sizes = [h["atoms"] for h in oneshot["horizons"]]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]  # the program grows with the horizon
    assert data["why_not_shorter"]["horizon"] == 6
    assert data["why_not_shorter"]["status"] == "UNSAT"
    assert data["result"]["length"] == 7


def test_explain_on_a_terminal(run_cli) -> None:  # type: ignore[no-untyped-def]
    instance = str(INSTANCES / "teaching" / "05-arbitrary.lp")
    code, out, _ = run_cli("explain", instance, "--mode", "oneshot")
    assert code == 0
    for heading in ("the instance as facts", "quickstart.lp", "Generate", "Define", "Test"):
        assert heading in out
    assert "why not 8 moves?" in out and "goal_on(" in out
    assert out.count("disk ") >= 9  # the plan
    # the legend says what the mode's counts are: one-shot grounds each horizon afresh
    flat = " ".join(out.split())
    assert "one-shot: this horizon's program, ground afresh" in flat
    assert "all steps ground so far" not in flat
    code, out, _ = run_cli("explain", instance, "--mode", "incremental", "--bound", "none")
    assert code == 0 and "incremental: all steps ground so far" in " ".join(out.split())


def test_explain_a_student_encoding_and_bad_input(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    exercise = str(EXERCISES[0])
    code, out, _ = run_cli(
        "explain", str(INSTANCES / "teaching" / "01-one-disk.lp"), "--encoding", exercise, "--json"
    )
    assert json.loads(out)["encoding"] == exercise and code in (0, 1, 4)
    code, out, err = run_cli("explain", str(tmp_path / "missing.lp"))
    assert code == 2 and out == "" and err.count("\n") == 1


def test_sections_keep_comments_and_multi_line_rules() -> None:
    text = "% Test\n% a comment\n:- a,\n   b. % trailing\n% Display\n#show a/0.\n"
    sections = encoding_sections(text)
    assert [s.name for s in sections] == ["Test", "Display"]
    assert sections[0].rules[0].text == ":- a, b."
    assert sections[0].rules[0].comment == "a comment"
    assert sections[0].rules[0].line == 3


@pytest.mark.parametrize(
    "name", ["quickstart.lp", "partial-goal.toml", "arbitrary.toml", "classic/4pegs-5disks.lp"]
)
def test_why_not_shorter_core_is_minimal(name: str) -> None:
    """Every fact of the reported core is needed: without any one, a plan exists."""
    result = solve(load_puzzle(str(INSTANCES / name)), SolveOptions(bound="misplaced"))
    why = why_not_shorter(result)
    assert why is not None and why.status == "UNSAT" and why.core
    assert result.length is not None and why.horizon == result.length - 1
    goals = {str(g): g for g in _goal_atoms(result.puzzle)}
    core = [goals[name] for name in why.core]
    assert _core(result.puzzle, why.horizon, core, float("inf")) is not None
    for dropped in core:
        rest = [g for g in core if g != dropped]
        assert _core(result.puzzle, why.horizon, rest, float("inf")) is None


# -- grading ---------------------------------------------------------------------------------


def expected_kind(path: Path) -> str:
    found = re.search(r"^% Expect: (\S+)", path.read_text(), re.MULTILINE)
    assert found, f"{path.name} must say what grade should find"
    return found.group(1)


@pytest.mark.parametrize("exercise", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_grade_catches_every_exercise(run_cli, exercise: Path) -> None:  # type: ignore[no-untyped-def]
    variants = INSTANCES / "variants"
    instances = (
        [str(variants / "linear-3pegs-4disks.lp"), str(variants / "cyclic-3pegs-4disks.toml")]
        if "graph" in exercise.stem
        else []
    )
    code, out, _ = run_cli("grade", "--encoding", str(exercise), *instances, "--json")
    report = json.loads(out)
    assert code == 1 and report["passed"] is False
    kinds = {f["kind"] for item in report["instances"] for f in item["findings"]}
    assert expected_kind(exercise) in kinds, kinds
    assert report["score"]["passed"] < report["score"]["total"]


@pytest.mark.parametrize("reference", ["quickstart.lp", "incremental.lp"])
def test_grade_passes_the_reference_encodings(run_cli, reference: str) -> None:  # type: ignore[no-untyped-def]
    instances = [*teaching_set(), str(INSTANCES / "variants" / "linear-3pegs-4disks.lp")]
    code, out, _ = run_cli(
        "grade", "--encoding", str(ROOT / "encodings" / reference), *instances, "--json"
    )
    report = json.loads(out)
    assert code == 0 and report["passed"]
    assert report["score"] == {"passed": len(instances), "total": len(instances)}


def test_grade_draws_the_first_illegal_move() -> None:
    exercise = ROOT / "encodings" / "exercises" / "no-top-disk-test.lp"
    instance = str(INSTANCES / "teaching" / "02-three-disks.lp")
    report = grade(Encoding.from_file(exercise), [instance])
    finding = next(f for f in report.grades[0].findings if f.kind == "illegal-plan")
    assert finding.board is not None and "before step" in finding.board
    assert "===1===" in finding.board  # the board as it was


def test_grade_terminal_output_and_bad_encoding(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli("grade", "--encoding", str(ROOT / "encodings" / "quickstart.lp"))
    assert code == 0 and f"{len(teaching_set())}/{len(teaching_set())} instances pass" in out
    broken = tmp_path / "broken.lp"
    broken.write_text("move(D,P,T :- disk(D).\n")
    code, out, err = run_cli("grade", "--encoding", str(broken))
    assert code == 2 and err.count("\n") == 1 and str(broken) in err


def test_teaching_set_ships_in_the_package_layout() -> None:
    names = [Path(p).name for p in teaching_set()]
    assert names == sorted(names) and len(names) == 7 and names[0] == "01-one-disk.lp"
