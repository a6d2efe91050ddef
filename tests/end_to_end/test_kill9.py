"""``kill -9`` of each command that starts processes leaves none behind: ``solve`` (a
user's encoding, the racing A*), ``batch`` (this machine's pool, Dask), ``grade`` and
``serve``; after a killed batch, ``--resume`` starts at once (no lock outlives it).

Each test starts its command in a session of its own, marks its environment (every
process it starts inherits the mark), waits until the processes of interest run and are
at their work (they have used some CPU), SIGKILLs the command's own process, and waits
for every marked process to end: the verdict depends on what is left, never on how fast
the machine is.  Anything left is killed by pid (it carries this test's mark) before
the test fails.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psutil
import pytest
from support.files import INSTANCES, ROOT, SLOW, STUCK

MARK = "HANOI_ASP_KILL_TEST"
WAIT_S = 120
"""How long a test waits for what must happen (never how fast it must happen)."""
BUSY_CPU_S = 0.3
"""CPU time after which a process is taken to be at its work (grounding, solving)."""
QUICKSTART_ENCODING = ROOT / "encodings" / "quickstart.lp"
HANOI = [sys.executable, "-m", "hanoi_asp"]


class Command:
    """A command of the CLI running in a session of its own, its processes marked."""

    def __init__(self, log: Path, *argv: str) -> None:
        self.mark = uuid.uuid4().hex
        self.log = log
        """Its stderr: a file, as a pipe would stay open while anything it left runs."""
        env = {
            **os.environ,
            MARK: self.mark,
            "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path]),
        }
        with log.open("w") as stderr:
            self.process = subprocess.Popen(
                [*HANOI, *argv],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def tree(self) -> list[psutil.Process]:
        """Every live process carrying this command's mark (zombies are dead)."""
        found = []
        for process in psutil.process_iter():
            try:
                if process.status() == psutil.STATUS_ZOMBIE:
                    continue
                if process.environ().get(MARK) == self.mark:
                    found.append(process)
            except psutil.Error:
                continue
        return found

    def wait_for(self, what: str, ready: Callable[[list[psutil.Process]], bool]) -> None:
        """Wait until the marked processes are as ``ready`` says (the command still
        running); fail if the command ends first."""
        deadline = time.monotonic() + WAIT_S
        while not ready(self.tree()):
            if self.process.poll() is not None:
                err = self.log.read_text()[-2000:]
                raise AssertionError(f"the command ended before {what}: {err}")
            assert time.monotonic() < deadline, f"no {what} within {WAIT_S} s"
            time.sleep(0.1)

    def kill_and_check(self) -> None:
        """``kill -9`` of the command's own process, then every marked process must end."""
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait()
        deadline = time.monotonic() + WAIT_S
        left = self.tree()
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = self.tree()
        described = [(p.pid, p.ppid(), " ".join(p.cmdline())[-80:]) for p in left]
        for process in left:  # this test's own processes only (they carry its mark)
            with_suppressed(process.kill)
        assert not left, f"left running after kill -9: {described}"

    def children_of(self, tree: list[psutil.Process], pid: int) -> list[psutil.Process]:
        return [p for p in tree if safe_ppid(p) == pid]


def working(tree: list[psutil.Process], count: int = 1) -> bool:
    """Whether at least ``count`` processes at the ends of the tree (with no child of
    their own: the ones doing the work) have used :data:`BUSY_CPU_S` of CPU."""
    parents = {safe_ppid(process) for process in tree}
    return sum(cpu(p) >= BUSY_CPU_S for p in tree if p.pid not in parents) >= count


def cpu(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.Error:
        return 0.0
    return float(times.user + times.system)


def safe_ppid(process: psutil.Process) -> int | None:
    try:
        return process.ppid()
    except psutil.Error:
        return None


def with_suppressed(call: Callable[[], object]) -> None:
    with suppress(psutil.Error):
        call()


@contextmanager
def command(log: Path, *argv: str) -> Iterator[Command]:
    started = Command(log, *argv)
    try:
        yield started
    finally:
        if started.process.poll() is None:  # a failed test still leaves nothing running
            os.kill(started.pid, signal.SIGKILL)
            started.process.wait()
        for process in started.tree():
            with_suppressed(process.kill)


def test_kill_9_of_solve_with_a_users_encoding_ends_its_capped_child(tmp_path: Path) -> None:
    puzzle = str(INSTANCES / "hard" / "4pegs-12disks-arbitrary.lp")
    argv = ["solve", puzzle, "--encoding", str(QUICKSTART_ENCODING), "--timeout", "600"]
    with command(tmp_path / "err", *argv, "--memory-limit", "1GiB") as solve:
        solve.wait_for("capped child", lambda tree: bool(solve.children_of(tree, solve.pid)))
        solve.wait_for("the child at work", working)
        solve.kill_and_check()


def test_kill_9_of_solve_ends_the_racing_astar(tmp_path: Path) -> None:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("A* races clingo only where the process may use two cores")
    slow = tmp_path / "slow.lp"
    slow.write_text(SLOW)
    with command(tmp_path / "err", "solve", str(slow), "--timeout", "600") as solve:
        solve.wait_for("racing A*", lambda tree: bool(solve.children_of(tree, solve.pid)))
        solve.wait_for("A* at work", working)
        solve.kill_and_check()


def stuck_folder(base: Path, count: int) -> Path:
    base.mkdir()
    for index in range(count):
        (base / f"stuck-{index}.lp").write_text(f"{STUCK}% {index}\n")
    return base


def assert_unlocked(results: Path) -> None:
    """No process holds the results file's lock (a resume would start at once)."""
    fd = os.open(results, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError if held
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    ("backend", "processes"),
    [
        # the batch, the resource tracker, the workers' server and 2 workers
        (("--workers", "2"), 5),
        # and 2 Dask workers, each with its server and a worker
        (("--dask", "local:2"), 8),
    ],
    ids=["local", "dask"],
)
def test_kill_9_of_a_batch_leaves_no_worker_and_no_lock(
    tmp_path: Path, backend: tuple[str, ...], processes: int
) -> None:
    folder = stuck_folder(tmp_path / "in", 3)
    out = tmp_path / "r.jsonl"
    argv = ["batch", str(folder), *backend, "--timeout", "600", "--out", str(out)]
    with command(tmp_path / "err", *argv) as batch:
        batch.wait_for("the workers", lambda tree: len(tree) >= processes)
        batch.wait_for("2 workers at work", lambda tree: working(tree, 2))
        batch.kill_and_check()
    assert_unlocked(out)
    resumed = subprocess.run(
        [*HANOI, "batch", str(folder), "--timeout", "1", "--out", str(out), "--resume"],
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])},
    )
    assert "another batch" not in resumed.stderr, resumed.stderr
    assert len(out.read_text().splitlines()) == 3, resumed.stderr


def test_kill_9_of_grade_ends_its_capped_child(tmp_path: Path) -> None:
    puzzle = str(INSTANCES / "hard" / "4pegs-20disks-arbitrary.lp")
    argv = ["grade", "--encoding", str(QUICKSTART_ENCODING), puzzle, "--timeout", "600"]
    with command(tmp_path / "err", *argv, "--memory-limit", "1GiB") as grade:
        grade.wait_for("capped child", lambda tree: bool(grade.children_of(tree, grade.pid)))
        grade.wait_for("the child at work", working)
        grade.kill_and_check()


def test_kill_9_of_serve_ends_its_jobs(tmp_path: Path) -> None:
    body = json.dumps({"instance": SLOW, "timeout": 100}).encode()
    with command(tmp_path / "err", "serve", "--port", "0") as serve:
        serve.wait_for("listening server", lambda _: bool(listening(serve.pid)))
        conn = socket.create_connection(("127.0.0.1", listening(serve.pid)[0]))
        try:
            conn.sendall(
                b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            # the server's pool starts with its first job: a worker (a grandchild) runs it
            serve.wait_for("job", lambda tree: any(grandchild(p, serve.pid) for p in tree))
            serve.wait_for("the job at work", working)
            serve.kill_and_check()
        finally:
            conn.close()


def listening(pid: int) -> list[int]:
    """The ports ``pid`` listens on."""
    try:
        connections = psutil.Process(pid).net_connections(kind="tcp")
    except psutil.Error:
        return []
    return [c.laddr.port for c in connections if c.status == psutil.CONN_LISTEN]


def grandchild(process: psutil.Process, pid: int) -> bool:
    try:
        return psutil.Process(process.ppid()).ppid() == pid
    except psutil.Error:
        return False
