"""A plain forked child (``hanoi_asp/processes/fork.py``): a duplex pipe, Ctrl-C left to
the parent, silent ends, and death with its parent however the parent ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from multiprocessing.connection import Connection

import pytest
from support.files import ROOT

from hanoi_asp.processes import fork_child

DEADLINE_S = 60
"""How long a test waits for what must happen (never how fast it must happen)."""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_until(condition: object, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def echo(conn: Connection) -> None:
    while True:
        conn.send(("echo", conn.recv()))


def test_the_pipe_goes_both_ways_and_close_ends_the_child() -> None:
    child = fork_child(echo)
    pid = child.pid
    assert pid is not None
    for value in (1, "two", [3]):
        child.conn.send(value)
        assert child.conn.recv() == ("echo", value)
    child.close()
    assert child.pid is None and child.conn.closed
    assert not alive(pid)
    child.close()  # again: nothing to do


def sleeps(conn: Connection) -> None:
    conn.send("ready")
    time.sleep(600)


def ignored(pid: int) -> set[signal.Signals]:
    """The signals ``pid`` ignores, as the kernel has them (no waiting to see)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("SigIgn:"))
    mask = int(line.split()[1], 16)
    return {number for number in signal.Signals if mask >> (number - 1) & 1}


def test_ctrl_c_and_a_hangup_are_left_to_the_parent_and_sigterm_ends_the_child() -> None:
    child = fork_child(sleeps)
    assert child.pid is not None and child.conn.recv() == "ready"
    assert {signal.SIGINT, signal.SIGHUP} <= ignored(child.pid)
    assert signal.SIGTERM not in ignored(child.pid)
    os.kill(child.pid, signal.SIGHUP)  # a closed terminal: ignored, so SIGTERM ends it
    os.kill(child.pid, signal.SIGTERM)
    _, status = os.waitpid(child.pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
    child.close()


def test_a_child_that_takes_interrupts_still_leaves_a_hangup_to_the_parent() -> None:
    child = fork_child(sleeps, interrupts=True)
    assert child.pid is not None and child.conn.recv() == "ready"
    assert signal.SIGHUP in ignored(child.pid)
    assert signal.SIGINT not in ignored(child.pid)
    child.close()


def fails(conn: Connection) -> None:
    raise RuntimeError("the target failed")


def returns(conn: Connection) -> None:
    conn.send("done")


@pytest.mark.parametrize(("target", "code"), [(returns, 0), (fails, 1)])
def test_the_child_ends_with_exit_0_or_1_silently(
    target: object, code: int, capfd: pytest.CaptureFixture[str]
) -> None:
    child = fork_child(target)  # type: ignore[arg-type]
    assert child.pid is not None
    _, status = os.waitpid(child.pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == code
    if code == 0:
        assert child.conn.recv() == "done"
    else:
        with pytest.raises(EOFError):
            child.conn.recv()
    child.close()
    assert capfd.readouterr() == ("", "")  # no traceback, and not the parent's output


PARENT = """
import sys, time
from hanoi_asp.processes import fork_child
def sleeps(conn):
    time.sleep(600)
child = fork_child(sleeps)
print(child.pid, flush=True)
time.sleep(600)
"""


def test_a_child_dies_when_its_parent_is_killed() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    with subprocess.Popen(
        [sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, env=env
    ) as parent:
        try:
            assert parent.stdout is not None
            pid = int(parent.stdout.readline())
            assert alive(pid)
        finally:
            parent.kill()  # SIGKILL: the parent runs no code of its own
    wait_until(lambda: not alive(pid), "the child outlived its killed parent")


def in_a_daemon(answers: Connection) -> None:
    assert multiprocessing.current_process().daemon
    child = fork_child(lambda conn: conn.send(os.getppid()))
    answers.send((child.conn.recv(), os.getpid()))
    child.close()


def test_a_daemonic_process_may_fork_a_child() -> None:
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)
    daemon = multiprocessing.get_context("fork").Process(target=in_a_daemon, args=(send,))
    daemon.daemon = True
    daemon.start()
    send.close()
    assert receive.poll(DEADLINE_S), "the daemon's child did not answer"
    childs_parent, daemon_pid = receive.recv()
    assert childs_parent == daemon_pid
    daemon.join()
    assert daemon.exitcode == 0
