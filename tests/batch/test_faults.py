"""Batch faults (issue 29, item 9; issue 30, item 5): every memory cap gives an answer
or UNKNOWN, never ERROR; a changed instance replaces its row; a corrupt line is said
by its number; --retry satisfiable/timeout; what a folder walk skips is listed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.files import INSTANCES, ROOT, SLOW

SMALL = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"
FOUR = "peg(a;b;c). disk(1..4). init_on(1..4,a). goal_on(1..4,c).\n"


def batch(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hanoi_asp", "batch", *argv],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


def rows_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("cap", ["32MiB", "64MiB", "100MiB", "150MiB", "1GiB"])
def test_every_memory_cap_gives_answers_or_unknown(tmp_path: Path, cap: str) -> None:
    """64, 100 and 150 MiB gave ERROR rows (numpy's import failing under the cap:
    ImportError, OpenBLAS's "Memory allocation still failed") and exit 2."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("quickstart.lp", "classic/4pegs-8disks.lp", "hard/4pegs-20disks-arbitrary.lp"):
        (folder / Path(name).name).write_text((INSTANCES / name).read_text())
    out = tmp_path / "r.jsonl"
    done = batch(str(folder), "--memory-limit", cap, "--timeout", "3", "--out", str(out))
    rows = rows_of(out)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    assert len(rows) == 3 and {r["result"] for r in rows} <= {
        "OPTIMUM FOUND",
        "SATISFIABLE",
        "UNKNOWN",
    }
    for row in rows:
        if row["result"] == "UNKNOWN":
            assert row["stopped"] in ("memory", "timeout", "killed"), row
    if cap == "1GiB":
        assert [r["result"] for r in rows].count("OPTIMUM FOUND") == 2


def test_a_changed_instance_replaces_its_row(tmp_path: Path) -> None:
    """--resume after an instance file changed kept the stale row beside the new one."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    (folder / "b.lp").write_text(SMALL)
    out = tmp_path / "r.jsonl"
    assert batch(str(folder), "--out", str(out)).returncode == 0
    (folder / "a.lp").write_text(FOUR)
    done = batch(str(folder), "--out", str(out), "--resume")
    assert done.returncode == 0 and "1 changed instance(s)" in done.stderr, done.stderr
    rows = rows_of(out)
    assert sorted((Path(str(r["instance"])).name, r["length"]) for r in rows) == [
        ("a.lp", 15),
        ("b.lp", 7),
    ]


def test_a_corrupt_line_is_reported_by_number_and_run_again(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a.lp", "b.lp", "c.lp"):
        (folder / name).write_text(SMALL)
    out = tmp_path / "r.jsonl"
    assert batch(str(folder), "--out", str(out)).returncode == 0
    lines = out.read_text().splitlines()
    lines[1] = '{"instance": "x", "resu'  # a corrupt line in the middle
    out.write_text("\n".join(lines) + "\n")
    done = batch(str(folder), "--out", str(out), "--resume")
    assert done.returncode == 0, done.stderr
    assert "line 2: not JSON: dropped" in done.stderr
    assert sorted(Path(str(r["instance"])).name for r in rows_of(out)) == ["a.lp", "b.lp", "c.lp"]


def test_retry_satisfiable_and_timeout(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    (folder / "hard.lp").write_text(SLOW)
    out = tmp_path / "r.jsonl"
    batch(str(folder), "--out", str(out), "--timeout", "1")
    before = {Path(str(r["instance"])).name: r for r in rows_of(out)}
    assert before["hard.lp"]["result"] == "SATISFIABLE"
    for kind in ("satisfiable", "timeout"):
        done = batch(str(folder), "--out", str(out), "--resume", "--retry", kind, "--timeout", "1")
        assert "running 1 instance(s) again" in done.stderr, done.stderr
        rows = rows_of(out)
        assert len(rows) == 2 and sum(r.get("resumed") is None for r in rows) == 2
    done = batch(str(folder), "--out", str(out), "--resume", "--timeout", "1")
    assert "running" not in done.stderr  # nothing retried without --retry


def test_a_folder_walk_lists_what_it_skips(tmp_path: Path) -> None:
    """A FIFO named like an instance hung a worker, a link to /dev/zero read for ever;
    they were skipped without a word."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    os.mkfifo(folder / "fifo.lp")
    (folder / "zero.lp").symlink_to("/dev/zero")
    (folder / "gone.lp").symlink_to(folder / "nowhere.lp")
    out = tmp_path / "r.jsonl"
    done = batch(str(folder), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"{folder / 'fifo.lp'}: skipped, not a regular file" in done.stderr
    assert f"{folder / 'zero.lp'}: skipped, not a regular file" in done.stderr
    assert f"{folder / 'gone.lp'}: skipped, a broken link" in done.stderr
    assert [Path(str(r["instance"])).name for r in rows_of(out)] == ["a.lp"]


def test_an_error_row_shows_its_message_and_resumed_times_count(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    (folder / "bad.lp").write_text("peg(a). disk(1..2). init_on(1,a).\n")
    out = tmp_path / "r.jsonl"
    done = batch(str(folder), "--out", str(out), "--workers", "1")
    assert done.returncode == 2
    assert "bad.lp: ERROR: " in done.stdout and "disk 2" in done.stdout, done.stdout
    first = [line for line in done.stdout.splitlines() if "total solve time" in line]
    done = batch(str(folder), "--out", str(out), "--resume", "--workers", "1")
    again = [line for line in done.stdout.splitlines() if "total solve time" in line]
    assert first and again and first[0].split()[-2] == again[0].split()[-2]  # the same total


def test_encodings_and_configurations_each_name_their_rows(tmp_path: Path) -> None:
    """The same folder under several encodings and engine settings, as papers compare
    them: one row per instance and configuration, resumed by both."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    (folder / "b.lp").write_text(FOUR)
    out = tmp_path / "r.jsonl"
    quickstart = str(ROOT / "encodings" / "quickstart.lp")
    argv = [str(folder), "--out", str(out), "--encoding", quickstart]
    argv += ["--config", "astar=--method astar", "--config", "plain="]
    done = batch(*argv)
    assert done.returncode == 0, done.stderr
    rows = rows_of(out)
    got = sorted((Path(str(r["instance"])).name, r["config"], r["length"]) for r in rows)
    assert got == [
        ("a.lp", "astar", 7),
        ("a.lp", "plain", 7),
        ("a.lp", "quickstart", 7),
        ("b.lp", "astar", 15),
        ("b.lp", "plain", 15),
        ("b.lp", "quickstart", 15),
    ]
    assert {r["method"] for r in rows if r["config"] == "astar"} == {"astar"}
    assert {r["mode"] for r in rows if r["config"] == "quickstart"} == {"oneshot"}
    assert "6 instance(s)" in done.stdout
    done = batch(*argv, "--resume", "--config", "more=--bound none")  # only the new one runs
    assert done.returncode == 0 and len(rows_of(out)) == 8, done.stderr
    for bad, says in [
        ("x", "NAME=OPTIONS"),
        ("y=--frob", "unrecognized arguments: --frob"),
        ("astar=", "named 'astar'"),
    ]:
        done = batch(
            str(folder),
            "--out",
            str(tmp_path / "x.jsonl"),
            "--force",
            "--config",
            "astar=--method astar",
            "--config",
            bad,
        )
        assert done.returncode == 2 and says in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_a_scripted_encoding_is_refused_in_a_batch(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    evil = tmp_path / "evil.lp"
    marker = tmp_path / "ran"
    evil.write_text(
        (ROOT / "encodings" / "quickstart.lp").read_text()
        + f'\n#script (python)\nopen("{marker}", "w")\n#end.\n'
    )
    out = tmp_path / "r.jsonl"
    done = batch(str(folder), "--out", str(out), "--encoding", str(evil))
    assert done.returncode == 2 and not marker.exists()
    (row,) = rows_of(out)
    assert row["result"] == "ERROR" and "#script" in str(row["error"])
