"""The ASP Competition's HanoiTower format, read directly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES

from hanoi_asp import load_puzzle

COMPETITION = sorted((INSTANCES / "aspcomp").glob("*.asp"))


def test_all_twenty_are_shipped() -> None:
    assert len(COMPETITION) == 20


@pytest.mark.parametrize("path", COMPETITION, ids=[p.name[:4] for p in COMPETITION])
def test_reads_four_pegs_and_renumbers(path: Path) -> None:
    puzzle = load_puzzle(str(path))
    assert puzzle.pegs == ("1", "2", "3", "4")
    assert puzzle.disks in (17, 18)
    assert puzzle.is_full_goal()
    assert 23 <= (puzzle.max_moves or 0) <= 58


def test_mapping_follows_stacks_down_to_pegs() -> None:
    puzzle = load_puzzle(str(INSTANCES / "aspcomp" / "0036-hanoi_tower-80-0.asp"))
    # on0(5,1). on0(6,5).  -> disks 1 and 2 on peg 1;  on0(7,4) ... on0(10,9) -> 3..6 on 4
    assert puzzle.init["1"] == (1, 2)
    assert puzzle.init["4"] == (3, 4, 5, 6)
    assert puzzle.init["2"] == tuple(range(7, 18))
    assert puzzle.goal["4"] == (1, 6)
    assert puzzle.max_moves == 30


def test_small_competition_style_instance_solves(run_cli: RunCli, tmp_path: Path) -> None:
    # three movable disks 5,6,7 on peg 1; goal: the same tower on peg 4 (5 moves on 4 pegs)
    text = "steps(6). time(0..6). disk(1..7).\n"
    text += "on0(5,1). on0(6,5). on0(7,6).\nongoal(5,4). ongoal(6,5). ongoal(7,6).\n"
    path = tmp_path / "tiny.asp"
    path.write_text(text)
    code, out, err = run_cli("solve", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["length"] == 5 and data["result"] == "OPTIMUM FOUND"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("steps(3). disk(1..5). on0(5,1). ongoal(5,9).", "no such disk or peg"),
        (
            "steps(3). disk(1..6). on0(5,6). on0(6,1). ongoal(5,1). ongoal(6,5).",
            "cannot lie on a smaller",
        ),
        (
            "steps(3). disk(1..6). on0(5,1). on0(6,1). ongoal(5,1). ongoal(6,5).",
            "two disks lie directly",
        ),
        ("disk(1..5). on0(5,1). ongoal(5,2).", "steps/1"),
        ("steps(3). disk(1..6). on0(5,1). ongoal(5,2). ongoal(6,5).", "lies on nothing"),
    ],
)
def test_bad_competition_files(run_cli: RunCli, tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.asp"
    path.write_text(text)
    code, _, err = run_cli("solve", str(path))
    assert code == 2
    assert problem in err and len(err.strip().splitlines()) == 1
