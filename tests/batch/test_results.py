"""A batch's results file survives anything: torn lines, two writers, a replaced file,
Ctrl-C; and it says what it holds (issue 15, results part)."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, ROOT, STUCK, wait_for_rows

from hanoi_asp.batch.results import ResultsFile
from hanoi_asp.batch.summary import BatchSummary

SMALL = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"


def folder_of(tmp_path: Path, count: int = 3) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for index in range(count):
        (folder / f"a{index}.lp").write_text(SMALL)
    return folder


def lines_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]  # every line JSON


def test_a_torn_last_line_is_cut_before_resuming(run_cli: RunCli, tmp_path: Path) -> None:
    folder, out = folder_of(tmp_path), tmp_path / "r.jsonl"
    assert run_cli("batch", str(folder), "--out", str(out))[0] == 0
    whole = out.read_text().splitlines()
    torn = "\n".join(whole[:2]) + "\n" + whole[2][: len(whole[2]) // 2]  # killed mid-row
    out.write_text(torn)
    code, _, err = run_cli("batch", str(folder), "--out", str(out), "--resume")
    assert code == 0 and "torn last line" in err
    rows = lines_of(out)
    assert sorted(Path(str(r["instance"])).name for r in rows) == ["a0.lp", "a1.lp", "a2.lp"]


def test_an_existing_results_file_needs_resume_or_force(run_cli: RunCli, tmp_path: Path) -> None:
    folder, out = folder_of(tmp_path), tmp_path / "r.jsonl"
    assert run_cli("batch", str(folder), "--out", str(out))[0] == 0
    before = out.read_text()
    code, _, err = run_cli("batch", str(folder / "a0.lp"), "--out", str(out))
    assert code == 2 and "--resume" in err and "--force" in err
    assert out.read_text() == before  # nothing discarded
    code, _, _ = run_cli("batch", str(folder / "a0.lp"), "--out", str(out), "--force")
    assert code == 0 and len(lines_of(out)) == 1


def test_a_second_batch_on_the_same_file_refuses(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with ResultsFile.open(out, resume=False, force=False):  # a batch holding the file
        code, _, err = run_cli("batch", str(folder_of(tmp_path)), "--out", str(out), "--force")
    assert code == 2 and "another batch" in err


def test_retry_unknown_runs_those_again_and_keeps_one_row_each(
    run_cli: RunCli, tmp_path: Path
) -> None:
    folder, out = folder_of(tmp_path, 2), tmp_path / "r.jsonl"
    (folder / "z-stuck.lp").write_text(STUCK)
    code, _, _ = run_cli("batch", str(folder), "--out", str(out), "--timeout", "1")
    assert code == 1
    assert {r["result"] for r in lines_of(out)} == {"OPTIMUM FOUND", "UNKNOWN"}
    code, _, _ = run_cli("batch", str(folder), "--out", str(out), "--resume", "--timeout", "1")
    assert code == 1 and len(lines_of(out)) == 3  # resumed: nothing ran again
    code, _, err = run_cli(
        "batch", str(folder), "--out", str(out), "--resume", "--retry", "unknown", "--timeout", "1"
    )
    assert "running 1 instance(s) again" in err
    rows = lines_of(out)
    assert len(rows) == 3 and len({r["instance"] for r in rows}) == 3
    assert run_cli("batch", str(folder), "--out", str(out), "--retry", "unknown")[0] == 2


def test_an_empty_input_is_an_error(run_cli: RunCli, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run_cli("batch", str(empty), "--out", str(tmp_path / "r.jsonl"))
    assert code == 2 and "no instance files" in err


def test_resumed_rows_count_in_the_summary(run_cli: RunCli, tmp_path: Path) -> None:
    folder, out = folder_of(tmp_path), tmp_path / "r.jsonl"
    assert run_cli("batch", str(folder / "a0.lp"), "--out", str(out))[0] == 0
    code, stdout, err = run_cli("batch", str(folder), "--out", str(out), "--resume")
    assert code == 0 and "resumed: 1 instance(s)" in err
    assert "optimal / feasible, not proven / no plan, proven / unsolved" in stdout
    assert "3 / 0 / 0 / 0" in stdout
    assert f"results: {out}" in stdout


def test_the_csv_says_what_each_row_is(run_cli: RunCli, tmp_path: Path) -> None:
    folder, out, table = folder_of(tmp_path, 1), tmp_path / "r.jsonl", tmp_path / "r.csv"
    (folder / "b-hard.lp").write_text((INSTANCES / "hard" / "5pegs-14disks.lp").read_text())
    code, _, _ = run_cli(
        "batch", str(folder), "--out", str(out), "--csv", str(table), "--timeout", "1"
    )
    assert code == 0
    with table.open() as handle:
        rows = {Path(r["instance"]).name: r for r in csv.DictReader(handle)}
    easy, hard = rows["a0.lp"], rows["b-hard.lp"]
    assert easy["status"] == "ok" and easy["proven_minimal"] == "True"
    assert (easy["pegs"], easy["disks"], easy["lower_bound"], easy["upper_bound"]) == (
        "3",
        "3",
        "7",
        "7",
    )
    assert hard["status"] == "timeout" and hard["result"] == "SATISFIABLE"
    assert hard["bound_name"] and float(hard["peak_mib"]) > 0 and hard["host"]


def test_ctrl_c_still_writes_the_csv_and_the_summary(tmp_path: Path) -> None:
    folder, out, table = folder_of(tmp_path), tmp_path / "r.jsonl", tmp_path / "r.csv"
    (folder / "z-hard.lp").write_text((INSTANCES / "hard" / "5pegs-14disks.lp").read_text())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    command = [sys.executable, "-m", "hanoi_asp", "batch", str(folder), "--workers", "1"]
    proc = subprocess.Popen(
        [*command, "--out", str(out), "--csv", str(table)],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    wait_for_rows(out, 3)
    time.sleep(1)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err
    assert "Traceback" not in err and "interrupted" in err
    assert "optimal / feasible, not proven / no plan, proven / unsolved" in stdout
    assert len(table.read_text().splitlines()) == 1 + len(lines_of(out))


def test_an_instance_over_the_memory_limit_is_unknown_and_the_batch_goes_on(
    run_cli: RunCli, tmp_path: Path
) -> None:
    folder, out = folder_of(tmp_path, 1), tmp_path / "r.jsonl"
    # clingo alone (no plan built first) grounds 8191 steps of 13 disks: far over 250 MiB
    (folder / "b-hungry.lp").write_text(
        "peg(a;b;c). disk(1..13). init_on(1..13,a). goal_on(1..13,c).\n"
    )
    code, _, _ = run_cli(
        "batch", str(folder), "--out", str(out), "--memory-limit", "250MiB", "--no-first-plan"
    )
    rows = {Path(str(r["instance"])).name: r for r in lines_of(out)}
    assert rows["a0.lp"]["result"] == "OPTIMUM FOUND"
    hungry = rows["b-hungry.lp"]
    assert hungry["result"] == "UNKNOWN" and hungry["stopped"] == "memory"
    assert code == 1  # an instance without an answer


def test_memory_sizes_are_checked(run_cli: RunCli, tmp_path: Path) -> None:
    code, _, err = run_cli("batch", str(tmp_path), "--memory-limit", "lots")
    assert code == 2 and "not a size" in err


def test_the_progress_hears_which_instances_are_running(tmp_path: Path) -> None:
    from hanoi_asp.batch.run import BatchOptions, run_batch

    folder = folder_of(tmp_path)
    (folder / "b-hard.lp").write_text((INSTANCES / "hard" / "5pegs-14disks.lp").read_text())
    heard: list[list[str]] = []
    options = BatchOptions(workers=2, timeout=1, out=tmp_path / "r.jsonl")
    run = run_batch(sorted(folder.glob("*.lp")), options, lambda _: None, on_running=heard.append)
    assert len(run.rows) == 4
    named = {Path(name).name for names in heard for name in names}
    assert "b-hard.lp" in named and named <= {"a0.lp", "a1.lp", "a2.lp", "b-hard.lp"}


def test_a_row_is_solves_json_and_what_the_batch_adds(run_cli: RunCli, tmp_path: Path) -> None:
    """Researchers' scripts read the rows: their keys and order stay solve's JSON object
    followed by the batch's own (the typed row changes no byte of them)."""
    instance = tmp_path / "a.lp"
    instance.write_text(SMALL)
    code, stdout, _ = run_cli("solve", str(instance), "--json")
    assert code == 0
    solved = json.loads(stdout)
    out = tmp_path / "r.jsonl"
    assert run_cli("batch", str(instance), "--out", str(out), "--workers", "1")[0] == 0
    (row,) = lines_of(out)
    added = ["pegs", "disks", "status", "peak_mib", "host", "sha256", "config", "timeout"]
    assert list(row) == [*solved, *added]
    for key in ("instance", "result", "length", "plan", "proof", "bound", "method"):
        assert row[key] == solved[key], key
    assert (row["pegs"], row["disks"], row["status"], row["config"]) == (3, 3, "ok", "default")


def test_the_summary_gives_the_overhead_per_instance(run_cli: RunCli, tmp_path: Path) -> None:
    folder, out = folder_of(tmp_path), tmp_path / "r.jsonl"
    code, stdout, _ = run_cli("batch", str(folder), "--out", str(out), "--workers", "2")
    assert code == 0
    (line,) = [line for line in stdout.splitlines() if "overhead per instance" in line]
    assert float(line.split("│")[2].split()[0]) >= 0  # milliseconds
    code, stdout, _ = run_cli("batch", str(folder), "--out", str(out), "--resume")
    assert code == 0 and "overhead per instance" not in stdout  # nothing ran


def test_worker_time_counts_each_slot_while_it_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_asp.batch import summary
    from hanoi_asp.batch.row import as_row

    now = iter([10.0, 12.0, 15.0])  # 2 slots for 2 s, then 3 slots for 3 s
    monkeypatch.setattr("hanoi_asp.batch.summary.time.monotonic", lambda: next(now))
    clock = summary.WorkerClock()
    clock.slots(2)
    clock.slots(3)
    clock.slots(0)
    assert clock.worker_s == 13.0
    rows = [as_row({"instance": f"{i}.lp", "result": "OPTIMUM FOUND", "time_s": 1.0}) for i in "ab"]
    resumed = as_row({"instance": "c.lp", "result": "UNKNOWN", "time_s": 5.0, "resumed": True})
    figures = summary.summarize([*rows, resumed], clock.worker_s)
    assert figures.overhead_ms == (13.0 - 2.0) / 2 * 1000  # resumed rows did not run
    assert (figures.total_s, figures.resumed, figures.exit_code) == (7.0, 1, 1)


def test_results_and_report_read_rows_alike(tmp_path: Path) -> None:
    """One reader of rows (``batch.row.as_row``): a line without a result is no row for
    ``--resume`` (dropped, said) nor for ``report`` (refused, named)."""
    from hanoi_asp.batch.report import read_results
    from hanoi_asp.batch.results import read_lines
    from hanoi_asp.model.errors import InputError

    path = tmp_path / "r.jsonl"
    path.write_text('{"instance": "a.lp", "result": "UNKNOWN"}\n{"instance": "b.lp"}\n')
    rows, bad = read_lines(path)
    assert [r["instance"] for r in rows] == ["a.lp"] and bad == [(2, "not a result row")]
    with pytest.raises(InputError, match='not a result row \\(no "result"\\)'):
        read_results(str(path))


def test_an_interrupted_batch_counts_what_it_did_not_run() -> None:
    """The table's title is the batch's size, its lines add up to it: the rows by result
    (UNSATISFIABLE among the answers), and a "not run" line for the rest."""
    from hanoi_asp.batch.row import as_row
    from hanoi_asp.batch.summary import summarize

    results = ("OPTIMUM FOUND", "OPTIMUM FOUND", "UNSATISFIABLE")
    rows = [
        as_row({"instance": f"{n}.lp", "result": r, "time_s": 0.1}) for n, r in enumerate(results)
    ]
    figures = summarize(rows, total=196)
    assert (figures.optimal, figures.no_plan, figures.not_run) == (2, 1, 193)
    text = _table(figures, 196)
    assert "196 instance(s)" in text and "2 / 0 / 1 / 0" in text
    assert re.search(r"not run \(interrupted\)\s*.\s*193", text), text
    assert "not run" not in _table(summarize(rows, total=3), 3)


def _table(figures: BatchSummary, total: int) -> str:
    from rich.console import Console

    from hanoi_asp.cli.batch_progress import summary_table

    console = Console(record=True, width=120)
    console.print(summary_table(figures, total))
    return console.export_text()
