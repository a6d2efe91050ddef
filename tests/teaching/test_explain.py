"""``explain`` and why-not-shorter (``hanoi_asp/teaching/explain.py``, ``views.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT

from hanoi_asp import (
    SolveOptions,
    load_puzzle,
    solve,
)
from hanoi_asp.teaching.explain import _core, _goal_atoms, encoding_sections, why_not_shorter

EXERCISES = sorted((ROOT / "encodings" / "exercises").glob("*.lp"))


def test_explain_json_has_sections_statistics_and_why(run_cli: RunCli) -> None:
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


def test_explain_on_a_terminal(run_cli: RunCli) -> None:
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


def test_explain_a_student_encoding_and_bad_input(run_cli: RunCli, tmp_path: Path) -> None:
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


def test_explain_statistics_mean_what_they_say(run_cli: RunCli) -> None:
    partial = str(INSTANCES / "teaching" / "06-partial-goal.lp")
    for mode in ("incremental", "oneshot"):
        _, out, _ = run_cli("explain", partial, "--mode", mode, "--json")
        runs = json.loads(out)["horizons"]
        assert runs and all(run["atoms"] > 0 and run["rules"] > 0 for run in runs)
    code, out, _ = run_cli("explain", QUICKSTART, "--bound", "none")
    assert code == 0
    assert "shorter than 0" not in out and "fewer than 0" not in out
    assert "starts at horizon 0: no lower bound used" in out
    assert "choices: decisions the solver made" in out
