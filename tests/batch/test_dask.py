"""``batch --dask``: the same batch on a Dask cluster (here a LocalCluster of 2 worker
processes), with every result once, a killed worker or client losing nothing."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psutil
import pytest
from support.cli import RunCli
from support.files import INSTANCES, ROOT, STUCK, mixed_folder, wait_for_rows

from hanoi_asp.batch.row import BatchRow

HUNGRY = "peg(a;b;c). disk(1..13). init_on(1..13,a). goal_on(1..13,c).\n"
"""clingo alone (no plan built first) grounds 8191 steps of 13 disks: far over 250 MiB."""
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}


def hanoi(*argv: str) -> list[str]:
    return [sys.executable, "-m", "hanoi_asp", *argv]


def rows_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def by_name(path: Path) -> dict[str, dict[str, object]]:
    rows = rows_of(path)
    names = [Path(str(r["instance"])).name for r in rows]
    assert len(names) == len(set(names)), f"an instance recorded twice: {sorted(names)}"
    return dict(zip(names, rows, strict=True))


def run(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        hanoi(*argv), env=ENV, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_dask_gives_the_local_batchs_answers_once_each(tmp_path: Path) -> None:
    base = mixed_folder(tmp_path / "in")
    (base / "g-hungry.lp").write_text(HUNGRY)
    shutil.copy(INSTANCES / "classic" / "4pegs-6disks.lp", base / "h-4pegs.lp")
    # a time limit far past when the hungry ones reach the memory cap (a few seconds):
    # which comes first must not depend on how fast the machine is
    common = ("--timeout", "30", "--memory-limit", "32MiB", "--no-first-plan")
    local = run("batch", str(base), "--workers", "2", "--out", str(tmp_path / "l.jsonl"), *common)
    on_dask = run(
        "batch", str(base), "--dask", "local:2", "--out", str(tmp_path / "d.jsonl"), *common
    )
    assert on_dask.returncode == local.returncode == 2, on_dask.stderr  # the bad file
    assert "Traceback" not in on_dask.stderr + on_dask.stdout
    mine, theirs = by_name(tmp_path / "d.jsonl"), by_name(tmp_path / "l.jsonl")
    assert sorted(mine) == sorted(theirs) and len(mine) == 8
    for name, row in mine.items():
        assert (row["result"], row.get("stopped")) == (
            theirs[name]["result"],
            theirs[name].get("stopped"),
        ), name
        if row["result"] == "OPTIMUM FOUND":
            assert row["length"] == theirs[name]["length"], name
    assert mine["a-quickstart.lp"]["result"] == "OPTIMUM FOUND"
    assert mine["a-quickstart.lp"]["threads"] == 1  # one clingo thread per Dask thread
    assert mine["c-unsolvable.lp"]["result"] == "UNSATISFIABLE"
    assert "d-bad.lp:1:" in str(mine["d-bad.lp"]["error"])
    assert mine["g-hungry.lp"]["stopped"] == "memory"
    assert mine["f-stuck.lp"]["result"] == "UNKNOWN"
    assert all(r["host"] and r["sha256"] for r in mine.values())
    assert f"results: {tmp_path / 'd.jsonl'}" in on_dask.stdout


def slow_folder(tmp_path: Path) -> Path:
    """Ten instances of which six take the full 2 s timeout: time to kill something."""
    base = tmp_path / "in"
    base.mkdir()
    for index in range(4):
        text = f"peg(a;b;c). disk(1..{index + 3}). init_on(1..{index + 3},a). goal_on(1,c).\n"
        (base / f"q{index}.lp").write_text(text)
    for index in range(6):
        (base / f"s{index}.lp").write_text(STUCK + f"% copy {index}\n")
    return base


def dask_workers(client: psutil.Process) -> list[psutil.Process]:
    """The LocalCluster's worker processes: the client's children that multiprocessing
    spawned (the nannies run inside the client)."""
    return [
        child
        for child in client.children()
        if any("spawn_main" in part for part in child.cmdline())
    ]


def busy_worker(workers: list[psutil.Process]) -> tuple[psutil.Process, list[psutil.Process]]:
    """A worker solving an instance now, and its processes (the forkserver and the
    instance's own process)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for worker in workers:
            family = worker.children(recursive=True)
            if len(family) >= 2:
                return worker, family
        time.sleep(0.05)
    raise AssertionError("no worker was solving an instance")


def mid_solve(client: psutil.Process) -> psutil.Process:
    """An instance's process (in a worker's warm pool) that is solving now: the one whose
    CPU time grew most over 0.2 s, if it grew.  Any pool process, as before, failed
    under load (no row retried): an idle one, killed between two instances, is replaced
    without losing anything.  The workers are listed anew each time (one may be replaced
    meanwhile); a process gone meanwhile is skipped."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        used: dict[psutil.Process, float] = {}
        with contextlib.suppress(psutil.NoSuchProcess):
            workers = dask_workers(client)
            for worker in workers:
                for process in worker.children(recursive=True):
                    with contextlib.suppress(psutil.NoSuchProcess):
                        if process.ppid() not in {w.pid for w in workers}:
                            used[process] = sum(process.cpu_times()[:2])
        time.sleep(0.2)
        grown: dict[psutil.Process, float] = {}
        for process, before in used.items():
            with contextlib.suppress(psutil.NoSuchProcess):
                grown[process] = sum(process.cpu_times()[:2]) - before
        if grown and max(grown.values()) >= 0.02:
            return max(grown, key=lambda process: grown[process])
    raise AssertionError("no instance's process was solving")


def start_batch(base: Path, out: Path) -> subprocess.Popen[str]:
    """A ``--dask local:2`` batch of ``base`` with a 2 s timeout, in a session of its own."""
    return subprocess.Popen(
        hanoi("batch", str(base), "--dask", "local:2", "--timeout", "2", "--out", str(out)),
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def test_a_killed_worker_loses_nothing(tmp_path: Path) -> None:
    base, out = slow_folder(tmp_path), tmp_path / "r.jsonl"
    batch = start_batch(base, out)
    try:
        wait_for_rows(out, 1)
        client = psutil.Process(batch.pid)
        workers = dask_workers(client)
        assert len(workers) == 2, [w.cmdline() for w in client.children()]
        victim, solving = busy_worker(workers)
        victim.send_signal(signal.SIGKILL)
        _, stderr = batch.communicate(timeout=240)
    finally:
        if batch.poll() is None:
            os.killpg(batch.pid, signal.SIGKILL)
    rows = by_name(out)  # each once
    said = {name: (r["result"], r.get("status"), r.get("error")) for name, r in rows.items()}
    assert batch.returncode == 1, (said, stderr)  # the stuck ones are UNKNOWN
    assert "Traceback" not in stderr, stderr
    assert sorted(rows) == sorted(p.name for p in base.iterdir())
    assert all(rows[f"q{i}.lp"]["result"] == "OPTIMUM FOUND" for i in range(4)), said
    assert all(rows[f"s{i}.lp"]["result"] == "UNKNOWN" for i in range(6)), said
    gone = psutil.wait_procs(solving, timeout=10)[1]
    assert not gone, "a killed worker's solve kept running"


@contextlib.contextmanager
def quick_then_stuck(tmp_path: Path) -> Iterator[tuple[Any, Iterator[BatchRow], Path, Path]]:
    """A batch of a quick instance and a stuck one on a LocalCluster of two workers whose
    pools are made beforehand: the quick row comes in milliseconds, the stuck one after
    its 8 s, on a loaded machine too.  Yields the cluster, the batch's rows (closed at
    the end, and its client with it), the quick file and the stuck one."""
    import dask
    from distributed import Client, LocalCluster
    from distributed.deploy.cluster import Cluster

    from hanoi_asp.batch.dask import DASHBOARD, settings_for, solve_on_dask
    from hanoi_asp.batch.dask_worker import stop_pools
    from hanoi_asp.batch.worker import content_hash
    from hanoi_asp.model.options import SolveOptions

    warm, quick, stuck = tmp_path / "warm.lp", tmp_path / "quick.lp", tmp_path / "stuck.lp"
    warm.write_text("peg(a;b;c). disk(1..4). init_on(1..4,a). goal_on(1..4,c).\n")
    quick.write_text("peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n")
    stuck.write_text(STUCK)
    options = SolveOptions(timeout=3, threads=1)
    todo = [(path, content_hash(path), "default", options) for path in (warm, warm, quick)]
    todo.append((stuck, content_hash(stuck), "default", SolveOptions(timeout=8, threads=1)))
    with (
        dask.config.set(settings_for("local:2")),  # one instance per worker at a time
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, dashboard_address=DASHBOARD
        ) as cluster,
    ):
        assert isinstance(cluster, Cluster)
        cluster.wait_for_workers(2)
        address = cluster.scheduler_address
        assert len(list(solve_on_dask(todo[:2], address, None))) == 2  # pools made
        batch = solve_on_dask(todo[2:], address, None)
        assert isinstance(batch, Generator)  # closed however the test ends: its client too
        with contextlib.closing(batch) as rows:
            yield cluster, rows, quick, stuck
        with Client(cluster) as client:  # type: ignore[no-untyped-call]
            client.run(stop_pools)  # else each worker takes 4 s to close


def test_a_finished_row_lost_before_it_was_fetched_is_solved_again(tmp_path: Path) -> None:
    """An instance that finished on a worker killed before the client fetched its row:
    Dask computes it again (its future is "lost" meanwhile) and the row is that answer.
    It was an ERROR row (``worker failed: RuntimeError: None``): the exit 2 that
    test_a_killed_worker_loses_nothing met under load when both workers finished at once
    and it killed the one whose row the client had not fetched yet.  Here that moment is
    held: the batch's rows are pulled one at a time, the quick one first."""
    from distributed import default_client

    from hanoi_asp.batch.worker import content_hash

    with quick_then_stuck(tmp_path) as (cluster, rows, quick, stuck):
        first = next(rows)  # the batch waits here, its other row not fetched
        futures = default_client().futures  # type: ignore[no-untyped-call]
        key = next(k for k in list(futures) if content_hash(stuck)[:12] in str(k))
        assert (Path(first["instance"]), futures[key].status) == (quick, "pending"), first
        deadline = time.monotonic() + 60
        while futures[key].status == "pending" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert futures[key].status == "finished", futures[key].status
        holder = next(iter(cluster.scheduler.tasks[key].who_has))
        os.kill(holder.pid, signal.SIGKILL)
        while futures[key].status == "finished" and time.monotonic() < deadline + 60:
            time.sleep(0.01)
        assert futures[key].status != "finished", "the client never heard the row was lost"
        rest = list(rows)
    said = [(row["instance"], row["result"], row.get("error")) for row in rest]
    assert [(Path(row["instance"]), row["result"]) for row in rest] == [(stuck, "UNKNOWN")], said


def test_an_instance_whose_process_died_runs_once_more(tmp_path: Path) -> None:
    base, out = slow_folder(tmp_path), tmp_path / "r.jsonl"
    batch = start_batch(base, out)
    try:
        wait_for_rows(out, 1)
        mid_solve(psutil.Process(batch.pid)).send_signal(signal.SIGKILL)  # not the worker
        _, stderr = batch.communicate(timeout=240)
    finally:
        if batch.poll() is None:
            os.killpg(batch.pid, signal.SIGKILL)
    assert "Traceback" not in stderr, stderr
    rows = by_name(out)  # each once
    assert sorted(rows) == sorted(p.name for p in base.iterdir())
    retried = [name for name, row in rows.items() if row.get("attempts") == 2]
    assert len(retried) == 1, rows
    assert rows[retried[0]]["result"] in ("OPTIMUM FOUND", "UNKNOWN")
    assert rows[retried[0]]["status"] != "crash"


def test_resume_after_the_client_is_killed(tmp_path: Path) -> None:
    base, out = slow_folder(tmp_path), tmp_path / "r.jsonl"
    command = ("batch", str(base), "--dask", "local:2", "--timeout", "2", "--out", str(out))
    batch = subprocess.Popen(
        hanoi(*command),
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for_rows(out, 3)
    family = psutil.Process(batch.pid).children(recursive=True)
    batch.send_signal(signal.SIGKILL)  # the client only: its workers are left behind
    batch.wait()
    finished = rows_of(out)
    assert 3 <= len(finished) < 10
    left = psutil.wait_procs(family, timeout=15)[1]
    assert not left, f"still running after the client died: {[p.cmdline() for p in left]}"
    done = run(*command, "--resume")
    assert done.returncode == 1, done.stderr
    rows = rows_of(out)
    assert rows[: len(finished)] == finished  # nothing written before was lost
    assert sorted(by_name(out)) == sorted(p.name for p in base.iterdir())


def test_dask_addresses_are_checked(run_cli: RunCli, tmp_path: Path) -> None:
    shutil.copy(INSTANCES / "quickstart.lp", tmp_path / "a.lp")
    out = str(tmp_path / "r.jsonl")
    code, _, err = run_cli("batch", str(tmp_path / "a.lp"), "--dask", "local:0", "--out", out)
    assert code == 2 and "local:N needs N from 1 to 256" in err
    started = time.monotonic()
    code, _, err = run_cli(
        "batch", str(tmp_path / "a.lp"), "--dask", "tcp://127.0.0.1:9", "--out", out
    )
    assert code == 2 and "cannot reach a Dask scheduler" in err
    assert len(err.strip().splitlines()) == 1 and time.monotonic() - started < 30


def test_without_the_extra_dask_says_how_to_install(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    shutil.copy(INSTANCES / "quickstart.lp", tmp_path / "a.lp")
    out = str(tmp_path / "r.jsonl")
    code, _, err = run_cli("batch", str(tmp_path / "a.lp"), "--dask", "local:2", "--out", out)
    assert code == 2 and "pip install 'hanoi-asp[dask]'" in err


def scheduler_address(file: Path) -> str:
    """The address ``dask scheduler`` writes to ``file`` once it listens: the file may
    exist before it is written whole (an empty file was read once, under load)."""
    deadline = time.monotonic() + 120
    while True:
        with contextlib.suppress(OSError, ValueError, KeyError):
            return str(json.loads(file.read_text())["address"])
        assert time.monotonic() < deadline, "the scheduler wrote no address"
        time.sleep(0.1)


def test_a_real_scheduler_and_workers(tmp_path: Path) -> None:
    """The multi-machine shape on one machine: ``dask scheduler`` and ``dask worker``
    (with its nanny, as README shows) in their own processes, the batch a client."""
    dask = Path(sys.executable).parent / "dask"
    address_file = tmp_path / "scheduler.json"
    started = [
        subprocess.Popen(
            [
                str(dask),
                "scheduler",
                "--scheduler-file",
                str(address_file),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
            ],
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        address = scheduler_address(address_file)
        started.append(
            subprocess.Popen(
                [
                    str(dask),
                    "worker",
                    address,
                    "--nworkers",
                    "2",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                ],
                env=ENV,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        base, out = slow_folder(tmp_path), tmp_path / "r.jsonl"
        done = run("batch", str(base), "--dask", address, "--timeout", "2", "--out", str(out))
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert done.returncode == 1, done.stderr
    rows = by_name(out)
    assert sorted(rows) == sorted(p.name for p in base.iterdir())
    said = {name: (r["result"], r.get("status"), r.get("error")) for name, r in rows.items()}
    assert all(rows[f"q{i}.lp"]["result"] == "OPTIMUM FOUND" for i in range(4)), said
    assert all(rows[f"s{i}.lp"]["result"] == "UNKNOWN" for i in range(6)), said


def test_instances_in_chunks_give_every_row_once(tmp_path: Path) -> None:
    """Several instances per Dask task (what a large batch does): every instance's own
    row once, in its own process with its own limit, the same answers as alone."""
    from hanoi_asp.batch.dask import solve_on_dask
    from hanoi_asp.batch.worker import content_hash, solve_file
    from hanoi_asp.model.options import SolveOptions

    base = tmp_path / "in"
    base.mkdir()
    for index in range(5):
        disks = index % 3 + 2
        text = f"peg(a;b;c). disk(1..{disks}). init_on(1..{disks},a). goal_on(1..{disks},c).\n"
        (base / f"t{index}.lp").write_text(text)
    (base / "u.lp").write_text(STUCK)
    (base / "v-bad.lp").write_text("peg(a). disk(1..2). init_on(1,a).\n")
    files = sorted(base.iterdir())
    options = SolveOptions(timeout=1, threads=1)
    todo = [(path, content_hash(path), "default", options) for path in files]
    rows = list(solve_on_dask(todo, "local:1", None, chunk=3))
    names = [Path(str(row["instance"])).name for row in rows]
    assert sorted(names) == [path.name for path in files]  # each once
    for row in rows:
        alone = solve_file(str(row["instance"]), options)
        assert (row["result"], row.get("length")) == (alone["result"], alone.get("length"))
        assert row["config"] == "default" and row["sha256"]
    stuck = next(row for row in rows if str(row["instance"]).endswith("u.lp"))
    assert stuck["result"] == "UNKNOWN" and stuck["stopped"] in ("timeout", "killed")


def test_chunks_spread_over_the_cluster() -> None:
    from hanoi_asp.batch.dask import CHUNK_MAX, chunk_size

    assert chunk_size(10, 2) == 1  # a small batch: one instance per task, as before
    assert chunk_size(1001, 2) == CHUNK_MAX
    assert chunk_size(200, 2) == 12  # 17 chunks: about 8 for each worker thread
    assert chunk_size(50_000, 64) == CHUNK_MAX
    assert chunk_size(1000, 64) == 1  # 64 worker threads: 1,000 tasks spread over them


def test_the_short_lost_worker_timeout_is_for_slurm_only() -> None:
    """A nanny restarting a killed local worker takes more than Slurm's 2 s under load;
    closed at 2 s it killed the worker that had taken the dead one's instance
    (``KilledWorker``, an ERROR row for an instance that should have run again)."""
    from hanoi_asp.batch.dask import LOST_WORKER, SETTINGS, settings_for

    assert settings_for("slurm:2") == SETTINGS
    for address in ("local:2", "tcp://127.0.0.1:8786"):
        assert LOST_WORKER not in settings_for(address)
        assert settings_for(address) == {k: v for k, v in SETTINGS.items() if k != LOST_WORKER}


class _Chunk:
    """A finished Dask future as the batch sees it: its rows, or lost meanwhile and
    failed when computed again (``KilledWorker``)."""

    def __init__(self, rows: list[dict[str, object]], error: BaseException | None = None):
        self.status, self.rows, self.error = "finished", rows, error

    def result(self) -> list[dict[str, object]]:
        if self.error is not None:
            raise self.error
        return self.rows

    def exception(self) -> BaseException | None:
        return self.error


class _Client:
    def gather(self, futures: list[_Chunk]) -> list[list[dict[str, object]]]:
        return [future.result() for future in futures]  # raises as Dask's: the first failure


def test_a_chunk_that_fails_while_its_rows_are_fetched_gives_error_rows_not_a_traceback() -> None:
    """A finished chunk lost after its status was read is computed again by the fetch;
    a second worker death there raised ``KilledWorker`` out of the batch (a traceback,
    the other chunks' answers unread).  Now its instances get error rows, and the
    chunks fetched with it their answers."""
    from distributed.scheduler import KilledWorker

    from hanoi_asp.batch.dask import _checked_row, _rows_of

    good = _Chunk([{"instance": "a.lp", "result": "OPTIMUM FOUND"}])
    died = SimpleNamespace(address="tcp://127.0.0.1:1")  # all Dask reads of the worker
    killed = KilledWorker("hanoi-asp-1-abc-2", died, 1)  # type: ignore[arg-type]
    lost = _Chunk([], killed)
    also = _Chunk([{"instance": "d.lp", "result": "UNSATISFIABLE"}])
    fetched = _rows_of(_Client(), set(), [good, lost, also])  # none to put back
    assert [future for future, _ in fetched] == [good, lost, also]
    places = {id(good): ["a.lp"], id(lost): ["b.lp", "c.lp"], id(also): ["d.lp"]}
    rows = [
        _checked_row(outcome, path, "digest")
        for future, answer in fetched
        for path, outcome in zip(places[id(future)], answer, strict=False)
    ]
    assert [(row["instance"], row["result"]) for row in rows] == [
        ("a.lp", "OPTIMUM FOUND"),
        ("b.lp", "ERROR"),
        ("c.lp", "ERROR"),
        ("d.lp", "UNSATISFIABLE"),
    ]
    assert "KilledWorker" in str(rows[1]["error"]), rows[1]


def test_a_fetched_row_is_let_go_on_the_cluster(tmp_path: Path) -> None:
    """The batch holds a chunk's future (and with it the chunk's rows in its worker's
    memory) only until its rows are fetched: it held every one until the batch ended.
    When the stuck row comes, the quick one's future is gone."""
    from distributed import default_client

    from hanoi_asp.batch.worker import content_hash

    with quick_then_stuck(tmp_path) as (_, rows, quick, stuck):
        said: list[tuple[Path, list[object]]] = []
        for row in rows:
            held = default_client().futures  # type: ignore[no-untyped-call]
            deadline = time.monotonic() + 30  # Dask lets go on its own thread
            while len(said) == 1 and len(held) > 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            said.append((Path(row["instance"]), list(held)))
    (first, held_first), (second, held_second) = said
    assert (first, second) == (quick, stuck), said
    stuck_key = next(key for key in held_first if content_hash(stuck)[:12] in str(key))
    assert len(held_first) == 2 and held_second == [stuck_key], said
