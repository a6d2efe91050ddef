"""``grade`` (``hanoi_asp/teaching/grade.py``): the exercises are caught, the reference
encodings pass, clingo's warnings and the first illegal move are shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT

from hanoi_asp import (
    Encoding,
)
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.teaching.grade import grade
from hanoi_asp.teaching.teaching_set import teaching_set

EXERCISES = sorted((ROOT / "encodings" / "exercises").glob("*.lp"))


def expected_kind(path: Path) -> str:
    found = re.search(r"^% Expect: (\S+)", path.read_text(), re.MULTILINE)
    assert found, f"{path.name} must say what grade should find"
    return found.group(1)


@pytest.mark.parametrize("exercise", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_grade_catches_every_exercise(run_cli: RunCli, exercise: Path) -> None:
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
def test_grade_passes_the_reference_encodings(run_cli: RunCli, reference: str) -> None:
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


def test_grade_terminal_output_and_bad_encoding(run_cli: RunCli, tmp_path: Path) -> None:
    code, out, _ = run_cli("grade", "--encoding", str(ROOT / "encodings" / "quickstart.lp"))
    assert code == 0 and f"{len(teaching_set())}/{len(teaching_set())} instances pass" in out
    broken = tmp_path / "broken.lp"
    broken.write_text("move(D,P,T :- disk(D).\n")
    code, out, err = run_cli("grade", "--encoding", str(broken))
    assert code == 2 and err.count("\n") == 1 and str(broken) in err


def test_teaching_set_ships_in_the_package_layout() -> None:
    names = [Path(p).name for p in teaching_set()]
    assert names == sorted(names) and len(names) == 7 and names[0] == "01-one-disk.lp"


EXERCISE_FOLDER = ROOT / "encodings" / "exercises"


def test_grade_shows_clingos_warnings_about_the_students_encoding(
    run_cli: RunCli, tmp_path: Path
) -> None:
    typo = tmp_path / "typo.lp"
    typo.write_text(
        read_encoding("quickstart").replace(
            ":- goal_on(D,P), not on(D,P,M)", ":- goal(D,P), not on(D,P,M)"
        )
    )
    code, out, _ = run_cli(
        "grade", "--encoding", str(typo), str(INSTANCES / "teaching" / "02-three-disks.lp")
    )
    assert code == 1
    assert "atom does not occur in any rule head" in out and "goal(D,P)" in out
    assert f"{typo}:" in out
    code, out, _ = run_cli("grade", "--encoding", str(typo), "--json", QUICKSTART)
    assert any("goal(D,P)" in w for w in json.loads(out)["warnings"])
    # the shipped reference encodings draw no warning at all
    code, out, _ = run_cli(
        "grade", "--encoding", str(ROOT / "encodings" / "quickstart.lp"), "--json"
    )
    assert code == 0 and json.loads(out)["warnings"] == []


@pytest.mark.parametrize("addon", ["distance3.lp", "mirror.lp"])
def test_grade_refuses_an_add_on_that_is_not_a_whole_encoding(run_cli: RunCli, addon: str) -> None:
    code, out, err = run_cli("grade", "--encoding", str(ROOT / "encodings" / addon))
    assert code == 2 and out == ""
    assert "not a whole encoding: no rule derives move/3" in err


def test_grade_details_show_teaching_instances_by_short_name(run_cli: RunCli) -> None:
    code, out, _ = run_cli("grade", "--encoding", str(EXERCISE_FOLDER / "no-goal-test.lp"))
    assert code == 1
    assert "teaching/01-one-disk.lp: goal-not-reached" in out
    assert str(ROOT / "instances" / "teaching") not in out


def test_two_moves_at_one_step_show_disks_pegs_and_board() -> None:
    """As every other finding: which disks went where, and the board they left."""
    exercise = ROOT / "encodings" / "exercises" / "no-one-move-rule.lp"
    instance = str(INSTANCES / "teaching" / "02-three-disks.lp")
    report = grade(Encoding.from_file(exercise), [instance])
    finding = next(f for f in report.grades[0].findings if f.kind == "illegal-plan")
    assert re.search(r"moves twice at step (\d+): disk \d to \w and disk \d to \w", finding.message)
    step = re.search(r"step (\d+)", finding.message)
    assert step is not None and finding.board is not None
    assert f"(before step {step.group(1)}: disk " in finding.board and " and disk " in finding.board
    assert "===1===" in finding.board  # disk 1 on its peg, drawn
