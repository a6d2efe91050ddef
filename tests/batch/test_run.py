"""Batch runs (``hanoi_asp/batch/run.py``): parallel workers, hard time limits, results as
JSON lines, resume, methods, the summary's counts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT, SLOW, mixed_folder, wait_for_rows

from hanoi_asp import load_puzzle, solve


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return mixed_folder(tmp_path / "instances")


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_batch_mixed_folder(run_cli: RunCli, folder: Path, tmp_path: Path) -> None:
    out, table = tmp_path / "r.jsonl", tmp_path / "r.csv"
    code, stdout, _ = run_cli(
        "batch",
        str(folder),
        "--workers",
        "2",
        "--timeout",
        "1",
        "--out",
        str(out),
        "--csv",
        str(table),
    )
    assert code == 2  # an ERROR row decides the exit code
    rows = {Path(str(r["instance"])).name: r for r in rows_of(out)}
    assert sorted(rows) == [
        "a-quickstart.lp",
        "b-arbitrary.toml",
        "c-unsolvable.lp",
        "d-bad.lp",
        "e-slow.lp",
        "f-stuck.lp",
    ]
    assert rows["a-quickstart.lp"]["result"] == "OPTIMUM FOUND"
    assert rows["a-quickstart.lp"]["length"] == 15
    # two workers share the cores: clingo gets the rest, at least one thread each
    assert rows["a-quickstart.lp"]["threads"] == max(1, (os.cpu_count() or 1) // 2)
    assert rows["c-unsolvable.lp"]["result"] == "UNSATISFIABLE"
    assert rows["d-bad.lp"]["result"] == "ERROR"
    assert "d-bad.lp:1:" in str(rows["d-bad.lp"]["error"])
    slow = rows["e-slow.lp"]  # stopped at the timeout with its best plan and the gap
    assert slow["result"] == "SATISFIABLE" and slow["stopped"] == "timeout"
    assert slow["lower_bound"] < slow["upper_bound"] == slow["length"]
    assert rows["f-stuck.lp"]["result"] == "UNKNOWN" and rows["f-stuck.lp"]["plan"] == []
    assert all(r["sha256"] for r in rows.values())
    assert "ERROR" in stdout and "OPTIMUM FOUND" in stdout
    assert len(table.read_text().splitlines()) == 7


def test_slow_worker_is_killed_near_its_limit(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "slow.lp").write_text(SLOW)
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    code, _, _ = run_cli("batch", str(tmp_path / "slow.lp"), "--timeout", "1", "--out", str(out))
    assert time.monotonic() - started < 20  # solving it takes minutes, not 1 s
    assert code == 0  # a plan was found: the best one, with its gap
    (row,) = rows_of(out)
    assert row["result"] == "SATISFIABLE" and row["stopped"] == "timeout"


def test_all_answered_exit_0_and_agree_with_solve(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    files = [
        INSTANCES / "quickstart.lp",
        INSTANCES / "partial-goal.toml",
        INSTANCES / "classic" / "4pegs-6disks.lp",
    ]
    code, _, _ = run_cli("batch", *map(str, files), "--out", str(out))
    assert code == 0
    for row in rows_of(out):
        expected = solve(load_puzzle(str(row["instance"])))
        assert row["length"] == expected.length
        assert row["result"] == expected.result


def test_killed_batch_resumes_with_every_result_once(tmp_path: Path) -> None:
    src = tmp_path / "many"
    code = subprocess.run(
        [
            sys.executable,
            "-m",
            "hanoi_asp",
            "generate",
            str(src),
            "--pegs",
            "3",
            "--disks",
            "6",
            "--count",
            "80",
            "--seed",
            "7",
        ],
        check=False,
        timeout=120,
    ).returncode
    assert code == 0
    out = tmp_path / "r.jsonl"
    command = [
        sys.executable,
        "-m",
        "hanoi_asp",
        "batch",
        str(src),
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    first = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for_rows(out, 3)
    os.killpg(first.pid, signal.SIGKILL)  # the whole batch, workers included
    first.wait()
    finished = rows_of(out)
    assert 3 <= len(finished) < 80  # warm workers are quick: enough left to kill
    done = subprocess.run(
        [*command, "--resume"], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    rows = rows_of(out)
    names = sorted(str(r["instance"]) for r in rows)
    assert names == sorted(str(p) for p in src.glob("*.lp"))  # each exactly once
    assert rows[: len(finished)] == finished  # nothing written before was lost


def test_generate_is_deterministic(run_cli: RunCli, tmp_path: Path) -> None:
    for name in ("one", "two"):
        code, _, _ = run_cli(
            "generate",
            str(tmp_path / name),
            "--pegs",
            "4",
            "--disks",
            "5",
            "--count",
            "5",
            "--seed",
            "3",
            "--partial",
        )
        assert code == 0
    one = sorted((tmp_path / "one").iterdir())
    two = sorted((tmp_path / "two").iterdir())
    assert [p.read_text() for p in one] == [p.read_text() for p in two]
    for path in one:
        puzzle = load_puzzle(str(path))
        assert len(puzzle.pegs) == 4 and puzzle.disks == 5


def test_missing_path_is_one_line_exit_2(run_cli: RunCli, tmp_path: Path) -> None:
    code, _, err = run_cli("batch", str(tmp_path / "nowhere"), "--out", str(tmp_path / "r"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nowhere" in err


HARD = INSTANCES / "hard"


def test_batch_summary_counts_optimal_feasible_and_unsolved(
    run_cli: RunCli, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text("peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).")
    (folder / "b.lp").write_text((HARD / "5pegs-14disks.lp").read_text())
    out = tmp_path / "r.jsonl"
    code, stdout, _ = run_cli("batch", str(folder), "--timeout", "1", "--out", str(out))
    assert code == 0
    rows = {Path(r["instance"]).name: r for r in map(json.loads, out.read_text().splitlines())}
    assert rows["a.lp"]["upper_bound"] == rows["a.lp"]["lower_bound"] == 7
    assert rows["b.lp"]["result"] == "SATISFIABLE" and rows["b.lp"]["upper_bound"] > 0
    assert "optimal / feasible, not proven / no plan, proven / unsolved" in stdout
    assert "1 / 1 / 0 / 0" in stdout


VARIANTS = INSTANCES / "variants"


def test_batch_takes_a_method(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    code, _, _ = run_cli("batch", str(VARIANTS), "--method", "bfs", "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 1  # one instance is unreachable
    assert {row["method"] for row in rows} == {"bfs"}
    assert sorted(row["length"] or 0 for row in rows) == [0, 22, 43, 80]


REFUSING_SBATCH = "#!/bin/sh\necho 'sbatch: error: invalid partition specified' >&2\nexit 1\n"
"""An ``sbatch`` that refuses every job, as Slurm does a wrong partition or account."""


@pytest.mark.parametrize(
    ("address", "sbatch"),
    [
        ("slurm:1", None),
        ("slurm:1", REFUSING_SBATCH),
        ("tcp://127.0.0.1:9", None),
        ("local:0", None),
    ],
    ids=["no-sbatch", "sbatch-refuses", "no-scheduler", "no-workers"],
)
def test_a_batch_whose_workers_cannot_start_leaves_its_results_as_they_were(
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    address: str,
    sbatch: str | None,
) -> None:
    """``--force`` emptied the file, and ``--resume`` dropped the rows it would run
    again, before the backend failed to start (here: no ``sbatch``, Slurm refusing the
    worker job, no scheduler, no workers): a batch that cannot start changes nothing."""
    instance = tmp_path / "a.lp"
    instance.write_text(Path(QUICKSTART).read_text())
    out = tmp_path / "r.jsonl"
    assert run_cli("batch", str(instance), "--out", str(out))[0] == 0
    instance.write_text(f"{instance.read_text()}% changed: its row runs again\n")
    before = out.read_bytes()
    programs = tmp_path / "programs"
    programs.mkdir()
    if sbatch is not None:
        (programs / "sbatch").write_text(sbatch)
        (programs / "sbatch").chmod(0o755)
    monkeypatch.setenv("PATH", str(programs))  # no sbatch here, or one that refuses
    tries = [["--force"]] if address.startswith("tcp") else [["--force"], ["--resume"]]
    for given in tries:  # (an unreachable scheduler takes 10 s to give up: once)
        code, _, err = run_cli("batch", str(instance), "--dask", address, "--out", str(out), *given)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        if sbatch is not None:
            assert "invalid partition" in err, err
        assert out.read_bytes() == before
