"""``--work N`` on the command line: the machine-independent twin of ``--timeout``,
declared once with its field (``SolveOptions.work``), so that ``solve``, ``render``,
``batch`` and ``--config`` take it with no code of their own (not ``explain``, whose
search runs without the pattern tables); what it stops
and what it refuses, in the documented words and exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.answers import timeless
from support.cli import RunCli
from support.files import QUICKSTART, ROOT

from hanoi_asp.cli.batch_command import batch_configs
from hanoi_asp.cli.solve_options import config_options
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.options import SolveOptions

TOWER = str(ROOT / "instances" / "classic" / "4pegs-8disks.lp")
HARD = str(ROOT / "instances" / "hard" / "4pegs-12disks-arbitrary.lp")


def _timeless(text: str) -> dict[str, Any]:
    return timeless(json.loads(text))


def test_solve_stops_at_its_work_budget_with_the_best_plan(run_cli: RunCli) -> None:
    """A budget below what the proof takes: the best plan and its gap (exit 0), stopped
    ``work``, the same object on a second run (times aside)."""
    code, out, _ = run_cli("solve", HARD, "--work", "400000", "--json", "--no-cache")
    assert code == 0
    answer = json.loads(out)
    assert answer["result"] == "SATISFIABLE" and answer["stopped"] == "work"
    assert answer["proof_data"]["work_limit"] == 400000
    assert answer["proof"].startswith("stopped at its work budget (400000 units of work)")
    assert answer["lower_bound"] < answer["length"]
    _, again, _ = run_cli("solve", HARD, "--work", "400000", "--json", "--no-cache")
    assert _timeless(again) == _timeless(out)


def test_a_budget_the_proof_fits_in_changes_nothing(run_cli: RunCli) -> None:
    """A budget past the proof's work: the beam, A* and clingo's horizons as without it."""
    _, plain, _ = run_cli("solve", HARD, "--json", "--no-cache")
    _, budgeted, _ = run_cli("solve", HARD, "--json", "--no-cache", "--work", "1000000000")
    assert json.loads(plain)["result"] == "OPTIMUM FOUND"
    assert _timeless(budgeted) == _timeless(plain)


@pytest.mark.parametrize(
    ("words", "named"),
    [
        (["--method", "astar"], "--method astar"),
        (["--moves", "15"], "--moves"),
        (["--mode", "oneshot"], "--mode oneshot"),
        (["--no-patterns"], "--no-patterns"),
        (["--threads", "2"], "--threads 2"),
        (["--encoding", str(ROOT / "encodings" / "incremental.lp")], "--encoding"),
    ],
)
def test_a_budget_where_no_search_on_tables_runs_is_one_line_and_exit_2(
    run_cli: RunCli, words: list[str], named: str
) -> None:
    code, out, err = run_cli("solve", QUICKSTART, "--work", "1000", *words)
    assert code == 2 and out == ""
    assert err.strip().endswith(f"which {named} does not run: give --timeout instead")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_three_peg_search_refuses_the_budget_naming_the_file(run_cli: RunCli) -> None:
    code, _, err = run_cli("solve", QUICKSTART, "--work", "1000", "--no-first-plan")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"hanoi-asp: error: {QUICKSTART}: --work counts")
    assert "3-peg puzzle's search does not run (distance3.lp)" in err


@pytest.mark.parametrize("value", ["0", "-3", "2.5", "many"])
def test_the_budget_is_a_positive_whole_number(run_cli: RunCli, value: str) -> None:
    code, _, err = run_cli("solve", QUICKSTART, "--work", value)
    assert code == 2 and "argument --work:" in err and err.count("\n") == 1


def test_the_help_says_it_is_the_twin_of_timeout(run_cli: RunCli) -> None:
    code, out, _ = run_cli("solve", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "--work N" in flat and "machine-independent twin" in flat


def test_config_and_batch_take_the_budget() -> None:
    """``--config NAME=--work N`` sets it; a batch's ``--work`` is every configuration's,
    and one that runs no search on tables is refused before anything runs."""
    assert config_options("w=--work 5000")[1] == {"work": 5000}
    base = SolveOptions(work=5000)
    configs = dict(batch_configs(base, [], ["plain=--no-mirror"]))
    assert configs["plain"] == SolveOptions(work=5000, mirror=False)
    with pytest.raises(InputError, match=r"^--config b: --work counts .* --method bfs does not"):
        batch_configs(base, [], ["b=--method bfs"])
    with pytest.raises(InputError, match="a planner does not run"):
        batch_configs(base, [], ["sk=planner:symk"])


def test_a_batch_budget_stops_every_row_at_the_same_point(run_cli: RunCli, tmp_path: Path) -> None:
    """``batch --work N`` (every configuration's) and ``--config NAME=--work N``: rows
    stopped ``work``, the same answer under both spellings (times aside)."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "hard.lp").write_text(Path(HARD).read_text())
    out = tmp_path / "r.jsonl"
    argv = ["batch", str(folder), "--out", str(out), "--no-cache", "--workers", "1"]
    argv += ["--config", "w=--work 400000", "--config", "base="]
    code, _, err = run_cli(*argv, "--work", "400000")
    assert code == 0, err
    rows = {row["config"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert set(rows) == {"base", "w"}
    for row in rows.values():
        assert row["stopped"] == "work" and row["result"] == "SATISFIABLE"
        assert row["proof_data"]["work_limit"] == 400000
    same = [
        {
            k: v
            for k, v in row.items()
            if k not in ("time_s", "timings", "first_plan", "config", "peak_mib")
        }
        for row in rows.values()
    ]
    assert same[0] == same[1]


def test_render_draws_the_best_plan_at_the_budget(run_cli: RunCli, tmp_path: Path) -> None:
    """The plan drawn is the budget's best plan (103 moves: 104 frames), the same as
    ``solve --work`` gives."""
    _, answer, _ = run_cli("solve", HARD, "--work", "400000", "--json")
    svg = str(tmp_path / "plan.svg")
    code, out, _ = run_cli("render", HARD, "--work", "400000", "--svg", svg)
    length = json.loads(answer)["length"]
    assert code == 0 and f"({length + 1} frames)" in out


def test_a_whole_tower_mirror_phase_refuses_the_budget_unless_turned_off(
    run_cli: RunCli,
) -> None:
    """Without the first plan, a 4-peg tower's search starts with the mirror phase, one
    solve call the budget does not count: refused; with ``--no-mirror`` the upward
    search stops at the budget."""
    words = ["solve", TOWER, "--work", "1000", "--no-first-plan"]
    code, _, err = run_cli(*words)
    assert code == 2 and "a whole tower's mirror phase does not count" in err
    code, out, _ = run_cli(*words, "--no-mirror", "--json")
    assert code == 3 and json.loads(out)["stopped"] == "work"
