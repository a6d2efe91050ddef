"""The warm pool (``hanoi_asp/processes/pool.py``): jobs in warm workers, how a job's end
is said (:func:`outcome`), and a pool whose owner is killed leaves nothing running."""

from __future__ import annotations

import gc
import importlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from multiprocessing.connection import Connection

import psutil
import pytest
from support.files import ROOT

from hanoi_asp.processes import Stopped, WarmPool, outcome, worker_died

PRELOAD = "hanoi_asp.processes"


def pid_and(value: int) -> tuple[int, int]:
    return os.getpid(), value


def hang() -> None:
    time.sleep(600)


def die() -> None:
    os._exit(3)


def fail() -> None:
    raise ValueError("the job's own error")


def test_jobs_run_in_warm_workers_and_say_how_they_ended() -> None:
    with WarmPool(1, PRELOAD, tasks=100) as pool:
        first, second = (pool.submit(pid_and, n, timeout=60) for n in (1, 2))
        (pid, one), (again, two) = outcome(first), outcome(second)
        assert (one, two) == (1, 2) and pid == again != os.getpid()  # warm: one worker
        late = pool.submit(hang, timeout=0.5)
        with pytest.raises(Stopped) as raised:
            outcome(late)
        assert raised.value.why == "timeout" and not worker_died(late)
        dead = pool.submit(die, timeout=60)
        with pytest.raises(Stopped) as raised:
            outcome(dead)
        assert (raised.value.why, raised.value.code) == ("crash", 3) and worker_died(dead)
        with pytest.raises(ValueError, match="the job's own error"):
            outcome(pool.submit(fail, timeout=60))
        assert outcome(pool.submit(pid_and, 3, timeout=60))[1] == 3  # workers replaced


def a_pool_in_a_daemon(answers: Connection) -> None:
    assert multiprocessing.current_process().daemon
    with WarmPool(1, PRELOAD, tasks=10) as pool:
        answers.send(outcome(pool.submit(pid_and, 5, timeout=60))[1])


def test_a_daemonic_process_may_own_a_pool() -> None:
    """Dask's nanny starts its workers as daemonic processes."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    daemon = context.Process(target=a_pool_in_a_daemon, args=(send,), daemon=True)
    daemon.start()
    send.close()
    assert receive.poll(120), "the daemon's pool did not answer"
    assert receive.recv() == 5
    daemon.join(timeout=60)
    assert daemon.exitcode == 0


OWNER = """
import time
from hanoi_asp.processes import WarmPool
pool = WarmPool(2, "hanoi_asp.processes", tasks=10)
jobs = [pool.submit(time.sleep, 600, timeout=None) for _ in range(2)]  # (a job's function
print("ready", flush=True)  # must be importable in the workers: not this script's own)
time.sleep(600)
"""


def test_a_killed_owner_leaves_no_worker_and_no_server() -> None:
    """The forkserver hands every worker its "alive" pipe: killed, the owner left the
    forkserver and its workers keeping each other alive."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    with subprocess.Popen(
        [sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True, env=env
    ) as owner:
        try:
            assert owner.stdout is not None and owner.stdout.readline() == "ready\n"
            tree = psutil.Process(owner.pid)
            deadline = time.monotonic() + 120
            while len(tree.children(recursive=True)) < 4:  # tracker, server, 2 workers
                assert time.monotonic() < deadline, "the workers did not start"
                time.sleep(0.05)
            started = tree.children(recursive=True)
        finally:
            owner.kill()
    _, alive = psutil.wait_procs(started, timeout=120)
    for process in alive:  # this test's own (a failed test leaves nothing running)
        process.kill()
    assert not alive, [(p.pid, p.cmdline()[-1][:60]) for p in alive]


def environment(name: str) -> str | None:
    return os.environ.get(name)


def test_workers_have_the_environment_their_pool_was_made_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The forkserver runs on with the environment of its start: a worker of a pool made
    later must still see the owner's environment of then (a test's own table cache)."""
    with WarmPool(1, PRELOAD, tasks=10) as first:  # the server runs from here on
        assert outcome(first.submit(environment, "HANOI_ASP_POOL_TEST", timeout=60)) is None
    monkeypatch.setenv("HANOI_ASP_POOL_TEST", "set after the server started")
    with WarmPool(1, PRELOAD, tasks=10) as pool:
        seen = outcome(pool.submit(environment, "HANOI_ASP_POOL_TEST", timeout=60))
    assert seen == "set after the server started"


def dispositions() -> tuple[object, object]:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGHUP)


def test_workers_leave_ctrl_c_and_a_hangup_to_their_owner() -> None:
    with WarmPool(1, PRELOAD, tasks=10) as pool:
        seen = outcome(pool.submit(dispositions, timeout=60))
    assert seen == (signal.SIG_IGN, signal.SIG_IGN)


def test_a_workers_inherited_objects_stay_out_of_its_collections() -> None:
    """The forkserver froze what it imported (``gc.freeze``): a worker's collections
    leave those objects, and so their pages shared with the server, untouched.  The
    same module imported anywhere else freezes nothing."""
    from hanoi_asp.processes import frozen

    before = gc.get_freeze_count()
    importlib.reload(frozen)
    assert gc.get_freeze_count() == before
    with WarmPool(1, PRELOAD, tasks=10) as pool:
        assert outcome(pool.submit(gc.get_freeze_count, timeout=60)) > 1000
