"""``hanoi-asp check`` (``hanoi_asp/cli/check_command.py``, ``hanoi_asp/teaching/check.py``,
``hanoi_asp/inputs/plan_text.py``): a plan in each format, every verdict and exit code,
and the optimum against the tests' own breadth-first search."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART
from support.puzzles import bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, load_puzzle, plan_facts, solve
from hanoi_asp.teaching.check import check_plan

FOUR_PEGS = str(INSTANCES / "classic" / "4pegs-6disks.lp")
"""A whole tower, optimum 17."""


def _plan(path: str) -> list[dict[str, object]]:
    result = solve(load_puzzle(path))
    assert result.plan is not None
    return [move.as_dict() for move in result.plan]


def _detour(puzzle: Puzzle, plan: list[dict[str, object]]) -> list[dict[str, object]]:
    """The plan with the smallest disk moved away and back first: legal on a complete
    move graph (the smallest disk is always on top and fits anywhere), 2 moves longer."""
    disk = puzzle.disks
    home = puzzle.pegs[puzzle.initial_state()[disk - 1]]
    away = next(p for p in puzzle.pegs if p != home)
    detour = [{"disk": disk, "from": home, "to": away}, {"disk": disk, "from": away, "to": home}]
    return detour + [{"disk": m["disk"], "to": m["to"]} for m in plan]


@pytest.mark.parametrize("fmt", ["facts", "json", "lines", "printed"])
def test_an_optimal_plan_in_every_format(run_cli: RunCli, tmp_path: Path, fmt: str) -> None:
    result = solve(load_puzzle(QUICKSTART))
    assert result.plan is not None
    texts = {
        "facts": plan_facts(result.plan),
        "json": json.dumps(result.to_dict(QUICKSTART)),
        "lines": "% disk from to\n"
        + "\n".join(f"{m.disk} {m.source} {m.target}" for m in result.plan),
        "printed": "\n".join(str(m) for m in result.plan),
    }
    path = tmp_path / "plan.txt"
    path.write_text(texts[fmt])
    code, out, err = run_cli("check", QUICKSTART, str(path))
    assert code == 0, err
    assert "verdict:  legal, reaches the goal, optimal (15 moves)" in out


def test_a_plan_two_moves_longer_says_the_gap(run_cli: RunCli, tmp_path: Path) -> None:
    puzzle = load_puzzle(FOUR_PEGS)
    path = tmp_path / "longer.json"
    path.write_text(json.dumps(_detour(puzzle, _plan(FOUR_PEGS))))
    code, out, _ = run_cli("check", FOUR_PEGS, str(path))
    assert code == 1
    assert "2 moves over the optimum (17 moves)" in out
    code, out, _ = run_cli("check", FOUR_PEGS, str(path), "--json")
    data = json.loads(out)
    assert code == 1 and data["exit_code"] == 1
    assert (data["verdict"], data["optimum"], data["gap"], data["length"]) == (
        "not-optimal",
        17,
        2,
        19,
    )


def test_an_illegal_move_names_step_line_disk_rule_and_board(
    run_cli: RunCli, tmp_path: Path
) -> None:
    path = tmp_path / "plan.lp"
    path.write_text("% a student's plan\nmove(4,b,1).\nmove(3,c,2).\nmove(3,b,3).\n")
    code, out, _ = run_cli("check", QUICKSTART, str(path))
    assert code == 1
    assert "illegal at step 3 (line 4): disk 3 from c to b" in out
    assert "rule:     larger-on-smaller: no disk lies on a smaller one" in out
    assert "before step 3:" in out and "=4=" in out  # the board, disk 4 on b
    code, out, _ = run_cli("check", QUICKSTART, str(path), "--json")
    illegal = json.loads(out)["illegal"]
    assert {k: illegal[k] for k in ("step", "line", "disk", "from", "to", "rule")} == {
        "step": 3,
        "line": 4,
        "disk": 3,
        "from": "c",
        "to": "b",
        "rule": "larger-on-smaller",
    }


def test_a_plan_short_of_the_goal(run_cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "plan.txt"
    path.write_text("4 a b\n3 a c\n")
    code, out, _ = run_cli("check", QUICKSTART, str(path), "--json")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "goal-not-reached" and data["legal"] is True
    assert data["goal_missed"] == "disk 1 ends on a, the goal wants it on c"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("move(4,b,1).\nmove(3,c,1).\n", "plan.txt:2: two moves at step 1 (lines 1 and 2)"),
        ("move(4,b,1).\nmove(3,c,3).\n", "plan.txt: no move at step 2"),
        ("move(4,b).\n", "plan.txt:1: a move is move(D,P,T)"),
        ("4 a b\nfour a c\n", "plan.txt:2: not a move: 'four a c'"),
        ('{"result": "UNSATISFIABLE", "plan": []}', "the JSON holds no plan"),
        ('[{"disk": 4}]', 'move 1: a move is {"disk": D, "to": P}'),
    ],
)
def test_a_plan_that_cannot_be_read_is_one_line(
    run_cli: RunCli, tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "plan.txt"
    path.write_text(text)
    code, out, err = run_cli("check", QUICKSTART, str(path))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert words in err, err
    code, out, _ = run_cli("check", QUICKSTART, str(path), "--json")
    assert code == 2 and json.loads(out)["result"] == "ERROR"


def test_optimality_not_decided_in_time_is_unknown(run_cli: RunCli, tmp_path: Path) -> None:
    """5 pegs, 14 disks: no engine proves its optimum in a second (nor in minutes)."""
    hard = str(INSTANCES / "hard" / "5pegs-14disks.lp")
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(solve(load_puzzle(hard), SolveOptions(timeout=1)).to_dict(hard)))
    code, out, _ = run_cli("check", hard, str(path), "--timeout", "1", "--json")
    data = json.loads(out)
    assert code == 3 and data["verdict"] == "unknown" and data["optimum"] is None
    assert data["lower_bound"] is not None and data["lower_bound"] < data["length"]


def test_stdin(run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("4 a b\n"))
    code, out, _ = run_cli("check", QUICKSTART, "-")
    assert code == 1 and "plan:     <stdin> (1 moves)" in out


@settings(max_examples=40, deadline=None)
@given(puzzles(pegs=(3, 4), disks=(1, 4)), st.sampled_from(["asp", "astar", "bfs"]))
def test_the_verdict_agrees_with_breadth_first_search(puzzle: Puzzle, method: str) -> None:
    """An optimal plan is optimal; the same with a detour is exactly 2 moves over the
    optimum the tests' own breadth-first search gives."""
    optimum = bfs_optimum(puzzle)
    result = solve(puzzle)
    if optimum is None:
        assert result.plan is None
        return
    assert result.plan is not None
    plan = [move.as_dict() for move in result.plan]
    options = SolveOptions(method=method)  # type: ignore[arg-type]
    assert check_plan(puzzle, plan, options).verdict == "optimal"
    longer = check_plan(puzzle, _detour(puzzle, plan), options)
    assert (longer.verdict, longer.optimum, longer.gap) == ("not-optimal", optimum, 2)


@pytest.mark.parametrize(
    ("answer", "verdict", "optimum", "words"),
    [
        (("UNSATISFIABLE", None, 15), "optimal", 15, "optimal (15 moves)"),
        (("UNKNOWN", None, 15), "optimal", 15, "optimal (15 moves)"),  # a bound met in time
        (("UNKNOWN", None, 12), "unknown", None, "the optimum is 12-15 moves"),
        (("SATISFIABLE", 14, 12), "not-optimal", None, "a plan of 14 moves exists"),
        (("SATISFIABLE", 14, 14), "not-optimal", 14, "1 move over the optimum (14 moves)"),
        (("OPTIMUM FOUND", 15, 15), "optimal", 15, "optimal (15 moves)"),
        (("OPTIMUM FOUND", 13, 13), "not-optimal", 13, "2 moves over the optimum (13 moves)"),
    ],
)
def test_every_answer_of_the_engine_is_judged(
    answer: tuple[Any, int | None, int], verdict: str, optimum: int | None, words: str
) -> None:
    """A 15-move plan against each answer the engine may give for at most 14 moves (a
    search stopped in time whose bound reaches the plan's length proves it optimal)."""
    from dataclasses import replace

    from hanoi_asp.teaching.check import judged

    puzzle = load_puzzle(QUICKSTART)
    result, length, lower = answer
    solved = solve(puzzle)
    assert solved.plan is not None
    plan = None if length is None else solved.plan[:length]
    given = replace(solved, result=result, plan=plan, lower_bound=lower)
    judgement = judged(puzzle, 15, given)
    assert (judgement.verdict, judgement.optimum) == (verdict, optimum)
    assert words in judgement.words


def test_an_optimum_longer_than_a_valid_plan_is_our_bug() -> None:
    from dataclasses import replace

    from hanoi_asp import InternalError
    from hanoi_asp.teaching.check import judged

    puzzle = load_puzzle(QUICKSTART)
    solved = solve(puzzle)
    assert solved.plan is not None
    longer = solved.plan + solved.plan[:1]
    with pytest.raises(InternalError):
        judged(puzzle, 15, replace(solved, plan=longer, lower_bound=16))
