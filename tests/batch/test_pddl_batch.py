"""PDDL problems in a batch: the domain shipped with the problem's text to a worker that
shares no file system with the client (Dask), or given once with ``--domain``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT

from hanoi_asp.batch.worker import solve_file
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.inputs.pddl import DomainFile, domain_for
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.outputs.pddl import hanoi_pddl

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}


def test_a_worker_needs_no_file_of_a_pddl_problem(tmp_path: Path) -> None:
    """The problem's text and its domain, read by the client: nothing is read on the
    worker's side (the path names a file that does not exist)."""
    domain, problem = hanoi_pddl(load_puzzle(QUICKSTART))
    nowhere = str(tmp_path / "gone" / "p.pddl")
    row = solve_file(nowhere, SolveOptions(), text=problem, domain=DomainFile("d.pddl", domain))
    assert (row["result"], row["length"]) == ("OPTIMUM FOUND", 15)
    alone = solve_file(nowhere, SolveOptions(), text=problem)
    assert alone["result"] == "ERROR" and "no PDDL domain" in str(alone["error"])


def test_the_client_ships_the_domain_a_problem_has(tmp_path: Path) -> None:
    domain, problem = hanoi_pddl(load_puzzle(QUICKSTART))
    (tmp_path / "domain.pddl").write_text(domain)
    (tmp_path / "p.pddl").write_text(problem)
    beside = domain_for(str(tmp_path / "p.pddl"), problem)
    assert beside == DomainFile(str(tmp_path / "domain.pddl"), domain)
    given = DomainFile("given.pddl", domain)
    assert domain_for(str(tmp_path / "p.pddl"), problem, given) is given
    assert domain_for(QUICKSTART, Path(QUICKSTART).read_text(), given) is None
    (tmp_path / "domain.pddl").unlink()
    with pytest.raises(InputError, match=r"p\.pddl: no PDDL domain"):  # an error row, then
        domain_for(str(tmp_path / "p.pddl"), problem)


def test_pddl_problems_on_dask_give_the_local_rows(run_cli: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("3pegs-4disks.lp", "4pegs-5disks.lp"):
        shutil.copy(INSTANCES / "classic" / name, folder / name)
    shutil.copy(INSTANCES / "partial-goal.toml", folder / "partial-goal.toml")
    code, _, err = run_cli("export", str(folder), "--pddl", str(tmp_path / "pddl"), "--no-plan")
    assert code == 0, err
    local = tmp_path / "local.jsonl"
    code, _, err = run_cli("batch", str(tmp_path / "pddl"), "--out", str(local))
    assert code == 0, err
    on_dask = tmp_path / "dask.jsonl"
    command = ["batch", str(tmp_path / "pddl"), "--dask", "local:1", "--out", str(on_dask)]
    done = subprocess.run(
        [sys.executable, "-m", "hanoi_asp", *command],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr

    def answers(path: Path) -> dict[str, tuple[object, object]]:
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return {Path(r["instance"]).name: (r["result"], r["length"]) for r in rows}

    assert answers(on_dask) == answers(local)
    assert sorted(answers(local)) == ["3pegs-4disks.pddl", "4pegs-5disks.pddl", "partial-goal.pddl"]
    assert all(result == "OPTIMUM FOUND" for result, _ in answers(local).values())
