"""PDDL problems in a batch: the domain shipped with the problem's text to a worker that
shares no file system with the client (Dask), or given once with ``--domain``."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT

from hanoi_asp.batch.worker import content_hash, solve_file
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


def _resumed(run_cli: RunCli, *argv: str) -> str:
    code, _, err = run_cli("batch", *argv, "--resume")
    assert code == 0, err
    return err


def test_resume_runs_a_problem_again_when_its_domain_changed(
    run_cli: RunCli, tmp_path: Path
) -> None:
    """The digest ``--resume`` compares covers the domain the problem is solved with
    (beside it, or ``--domain``): a changed domain runs the problem again."""
    domain, problem = hanoi_pddl(load_puzzle(QUICKSTART))
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "domain.pddl").write_text(domain)
    (folder / "p.pddl").write_text(problem)
    out = tmp_path / "r.jsonl"
    code, _, err = run_cli("batch", str(folder), "--out", str(out))
    assert code == 0, err
    assert "changed instance" not in _resumed(run_cli, str(folder), "--out", str(out))
    (folder / "domain.pddl").write_text("; edited\n" + domain)
    assert "1 changed instance(s)" in _resumed(run_cli, str(folder), "--out", str(out))
    assert "changed instance" not in _resumed(run_cli, str(folder), "--out", str(out))
    given = tmp_path / "given.pddl"
    given.write_text(domain)
    with_given = (str(folder), "--domain", str(given), "--out", str(out))
    assert "1 changed instance(s)" in _resumed(run_cli, *with_given)
    assert "changed instance" not in _resumed(run_cli, *with_given)
    given.write_text("; edited again\n" + domain)
    assert "1 changed instance(s)" in _resumed(run_cli, *with_given)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["result"], r["length"]) for r in rows] == [("OPTIMUM FOUND", 15)]


def test_an_lp_instance_keeps_the_digest_of_its_bytes(tmp_path: Path) -> None:
    """Rows written before the domain counted stay valid for every other format."""
    path = tmp_path / "a.lp"
    path.write_bytes(Path(QUICKSTART).read_bytes())
    given = DomainFile("d.pddl", "(define (domain hanoi))")
    expected = hashlib.sha256(path.read_bytes()).hexdigest()
    assert content_hash(path) == content_hash(path, given) == expected
