"""The command line's planners and PDDL: a batch with planner configurations and its
report, ``export --pddl`` and the same batch from the PDDL files, and the one-line
refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART

from hanoi_asp.cli.batch_command import batch_configs
from hanoi_asp.cli.solve_options import config_options
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.planner import Planner

CLASSIC = str(INSTANCES / "classic")
CONFIGS = (
    "--config",
    "ours=",
    "--config",
    "fd=planner:fast-downward:astar(lmcut())",
    "--config",
    "symk=planner:symk",
)


def rows(path: Path) -> dict[tuple[str, str], dict[str, object]]:
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found[(Path(row["instance"]).stem, row["config"])] = row
    return found


def test_planners_beside_ours_then_again_from_the_exported_pddl(
    run_cli: RunCli, tmp_path: Path
) -> None:
    folder = tmp_path / "small"
    folder.mkdir()
    for name in ("3pegs-3disks.lp", "4pegs-5disks.lp"):
        shutil.copy(INSTANCES / "classic" / name, folder / name)
    shutil.copy(INSTANCES / "partial-goal.toml", folder / "partial-goal.toml")
    shutil.copy(INSTANCES / "variants" / "linear-3pegs-4disks.lp", folder / "linear.lp")
    first = tmp_path / "first.jsonl"
    code, _, err = run_cli(
        "batch", str(folder), "--out", str(first), "--workers", "2", "--timeout", "60", *CONFIGS
    )
    assert code == 0, err
    code, out, _ = run_cli("report", str(first), "--plots", str(tmp_path / "plots"))
    assert code == 0 and "DISAGREE" not in out
    assert (tmp_path / "plots" / "scatter-ours-vs-symk.png").is_file()
    code, out, err = run_cli("export", str(folder), "--pddl", str(tmp_path / "pddl"))
    assert code == 0, err
    assert (tmp_path / "pddl" / "small" / "linear.plan").is_file()
    second = tmp_path / "second.jsonl"
    code, _, err = run_cli(
        "batch",
        str(tmp_path / "pddl"),
        "--out",
        str(second),
        "--workers",
        "2",
        "--timeout",
        "60",
        *CONFIGS,
    )
    assert code == 0, err
    before, after = rows(first), rows(second)
    assert set(before) == set(after) and len(before) == 12
    for key, row in before.items():
        again = after[key]
        assert (row["result"], row["length"]) == (again["result"], again["length"]), key
        assert row["result"] == "OPTIMUM FOUND"
        if key[1] != "ours":
            assert row["method"] == "planner"
            assert row["proof_data"]["planner"]["optimal"] is True  # type: ignore[index]


def test_a_planner_that_is_not_there_is_one_line_before_anything_runs(
    run_cli: RunCli, tmp_path: Path
) -> None:
    out = tmp_path / "r.jsonl"
    code, _, err = run_cli(
        "batch",
        CLASSIC,
        "--out",
        str(out),
        "--config",
        "x=planner:command:no-such-planner-here",
    )
    assert code == 2 and not out.exists()
    assert err.strip().count("\n") == 0 and "no program 'no-such-planner-here'" in err
    code, _, err = run_cli("batch", CLASSIC, "--out", str(out), "--config", "x=planner:lama")
    assert code == 2 and "unknown planner 'lama'" in err


def test_solve_reads_a_pddl_problem_with_its_domain(run_cli: RunCli, tmp_path: Path) -> None:
    code, _, err = run_cli("export", QUICKSTART, "--pddl", str(tmp_path))
    assert code == 0, err
    moved = tmp_path / "elsewhere.txt"
    (tmp_path / "quickstart.pddl").rename(moved)
    code, out, err = run_cli("solve", str(moved), "--format", "pddl", "--json")
    assert code == 2 and "no PDDL domain" in json.loads(out)["error"]
    code, out, err = run_cli(
        "solve", str(moved), "--domain", str(tmp_path / "quickstart-domain.pddl"), "--json"
    )
    assert code == 0, err
    assert json.loads(out)["length"] == 15


def test_a_planner_configuration_is_its_declared_option() -> None:
    """``NAME=planner:SPEC`` is ``NAME=--planner SPEC`` (the option declared with its
    field); a planner takes no option of hanoi-asp's search but the bound."""
    spec = "fast-downward:astar(lmcut())"
    planner = Planner.parse(spec)
    assert config_options(f"fd=planner:{spec}") == ("fd", {"planner": planner})
    assert config_options(f"fd='--planner={spec}'")[1] == {"planner": planner}
    bounded = config_options("sk=--planner symk --max-moves 9")[1]
    assert bounded == {"planner": Planner.parse("symk"), "max_moves": 9}
    with pytest.raises(InputError, match="--config x: a planner runs its own search: --method"):
        config_options("x=--planner symk --method bfs")
    with pytest.raises(InputError, match="argument --planner: unknown planner 'lama'"):
        config_options("x=planner:lama")
    base = SolveOptions(max_moves=20)
    configs = dict(batch_configs(base, [], ["sk=planner:symk"]))
    assert configs["sk"] == SolveOptions(max_moves=20, planner=Planner.parse("symk"))


def test_export_skips_a_bad_instance_in_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(QUICKSTART, folder / "a.lp")
    (folder / "b.lp").write_text("peg(a). disk(1). init_on(1,z).\n")
    code, out, err = run_cli("export", str(folder), "--pddl", str(tmp_path / "out"), "--no-plan")
    assert code == 2
    assert err.count("\n") == 1 and "b.lp" in err and "(skipped)" in err
    assert "wrote 1 instance(s) as PDDL" in out and "1 skipped" in out
    written = sorted(p.name for p in (tmp_path / "out" / "in").iterdir())
    assert written == ["a-domain.pddl", "a.pddl"]


def test_batch_reads_pddl_problems_with_the_domain_given(run_cli: RunCli, tmp_path: Path) -> None:
    """``batch --domain FILE``: problems with no domain beside them; a folder walk takes
    the problems and leaves out the domain files."""
    exported = tmp_path / "pddl"
    code, _, err = run_cli(
        "export", str(INSTANCES / "classic"), "--pddl", str(exported), "--no-plan"
    )
    assert code == 0, err
    problems = tmp_path / "problems"
    problems.mkdir()
    domain = tmp_path / "hanoi-domain.pddl"
    shutil.copy(exported / "classic" / "3pegs-3disks-domain.pddl", domain)
    for name in ("3pegs-3disks", "3pegs-4disks"):
        shutil.copy(exported / "classic" / f"{name}.pddl", problems / f"{name}.pddl")
    out = tmp_path / "r.jsonl"
    code, _, err = run_cli("batch", str(problems), "--out", str(out), "--workers", "1")
    assert code == 2 and "no PDDL domain" in out.read_text()
    code, _, err = run_cli(
        "batch", str(problems), "--out", str(out), "--force", "--domain", str(domain)
    )
    assert code == 0, err
    lengths = {stem: row["length"] for (stem, _), row in rows(out).items()}
    assert lengths == {"3pegs-3disks": 7, "3pegs-4disks": 15}
    code, _, err = run_cli("batch", str(exported), "--out", str(tmp_path / "all.jsonl"))
    assert code == 0, err
    assert len(rows(tmp_path / "all.jsonl")) == len(list((INSTANCES / "classic").glob("*.lp")))
