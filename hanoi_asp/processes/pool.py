"""A warm pool: worker processes that take job after job, each job with a hard time
limit, forked from a forkserver that has imported the work's module once (a new
worker costs a fork, not a Python start-up).

The workers are pebble's: a job past its time limit, or cancelled, has its worker
killed and replaced (only that job is lost); a worker is replaced after ``tasks`` jobs
(clingo never frees the symbols a process made).  Every worker dies with the
forkserver (its parent-death signal) and the forkserver with the pool's owner
(:mod:`~hanoi_asp.processes.guard`), so a pool leaves nothing running however its owner
ends.  What a job's end means comes back one way (:func:`outcome`): its value, or
:class:`~hanoi_asp.processes.stopped.Stopped`.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from multiprocessing.context import ForkServerContext
from typing import Any

from pebble import ProcessExpired, ProcessPool

from hanoi_asp.processes.parent import die_with_parent
from hanoi_asp.processes.stopped import Stopped, died

GUARD = "hanoi_asp.processes.guard"
"""The forkserver's first preload: it ends the forkserver with the pool's owner."""
FROZEN = "hanoi_asp.processes.frozen"
"""The forkserver's last preload: what it imported stays shared with its workers."""


def forkserver(preload: str) -> ForkServerContext:
    """Processes forked from a server that imported ``preload`` (and so the engine)
    once, started by :func:`_start_server`.  (Each child still runs the parent's main
    script again: nothing for ``python -m hanoi_asp``, about 0.1 s per instance under
    the ``dask worker`` console script.)"""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([GUARD, preload, FROZEN])
    return context


def warm_up(preload: str) -> None:
    """Start the server :func:`forkserver` forks from, without waiting: it imports
    ``preload`` (most of a second) while this process goes on, e.g. reading the files."""
    forkserver(preload)
    _start_server(wait=False)


_starts: queue.SimpleQueue[threading.Event] | None = None
_starts_lock = threading.Lock()


def _start_server(*, wait: bool = True) -> None:
    """(Re)start this process's forkserver, if it does not run, from a thread that
    lasts as long as this process: the forkserver dies with the thread that started it
    (:mod:`~hanoi_asp.processes.guard`), and a Dask worker's task thread, or a test
    client's, may end long before the pool."""
    global _starts
    with _starts_lock:
        if _starts is None:
            _starts = queue.SimpleQueue()
            threading.Thread(target=_starter, args=(_starts,), daemon=True).start()
    started = threading.Event()
    _starts.put(started)
    if wait:
        started.wait()


def _forget_starter() -> None:  # a forked child has no such thread: it would start its own
    global _starts
    _starts = None


os.register_at_fork(after_in_child=_forget_starter)


def _starter(starts: queue.SimpleQueue[threading.Event]) -> None:
    """Start the forkserver when asked.  A closed terminal's SIGHUP stays blocked in
    this thread, and so in the forkserver and every worker (a signal mask is what a
    process started from a thread inherits): the owner handles it and stops them."""
    from multiprocessing import forkserver as server

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    while True:
        started = starts.get()
        try:
            server.ensure_running()
        finally:
            started.set()


class WarmPool:
    """``workers`` warm processes forked from a forkserver that imported ``preload``,
    each replaced after ``tasks`` jobs."""

    def __init__(self, workers: int, preload: str, tasks: int) -> None:
        _quick_kill()
        _allow_children()
        context = forkserver(preload)
        _start_server()
        self._pool = ProcessPool(
            max_workers=workers,
            max_tasks=tasks,
            context=context,
            initializer=_worker_starts,
            initargs=(dict(os.environ),),
        )

    def submit(self, work: Callable[..., Any], *args: Any, timeout: float | None) -> Future[Any]:
        """Run ``work(*args)`` in a worker, killed ``timeout`` seconds after it starts
        there (None: never); cancelling the future kills a running job's worker."""
        future: Future[Any] = self._pool.schedule(work, args=args, timeout=timeout)
        return future

    @property
    def active(self) -> bool:
        """Whether the pool still takes jobs."""
        return bool(self._pool.active)

    def stop(self) -> None:
        """Kill the workers now (pending jobs are cancelled) and join the pool's threads
        (pebble joins a stopped pool's without a time limit, whatever timeout it is
        given)."""
        self._pool.stop()  # type: ignore[no-untyped-call]
        self._pool.join()

    def __enter__(self) -> WarmPool:
        return self

    def __exit__(self, *_: object) -> None:
        """The jobs given finish, then the workers end (at once if stopped)."""
        if self._pool.active:
            self._pool.close()  # type: ignore[no-untyped-call]
        self._pool.join()


def outcome(future: Future[Any], memory: int | None = None) -> Any:
    """A finished job's value (or the exception it raised), or :class:`Stopped`: the
    job ran past its time limit, or its worker died (over ``memory``, the cap it ran
    under, if it died as a process over its cap dies)."""
    try:
        return future.result()
    except FutureTimeout:
        raise Stopped("timeout", "killed at its hard time limit") from None
    except ProcessExpired as error:
        raise died(error.exitcode, memory) from None


def worker_died(future: Future[Any]) -> bool:
    """Whether a finished job's worker died before it could answer (killed from
    outside, a crash; not its time limit, not a cancel)."""
    return not future.cancelled() and isinstance(future.exception(), ProcessExpired)


def _worker_starts(environ: dict[str, str]) -> None:
    """Each worker, as it starts: dies with the forkserver it was forked from, ignores a
    closed terminal's SIGHUP as pebble has it ignore Ctrl-C (its owner decides what a
    stop means; the blocked signal of :func:`_starter` is not enough for a worker that
    unblocks it), and has the environment its pool's owner had when it made the pool
    (the forkserver's is the owner's when the server started: a later
    ``HANOI_ASP_CACHE_DIR``, say, was lost)."""
    from hanoi_asp.processes import guard

    die_with_parent(guard.SERVER)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    os.environ.clear()
    os.environ.update(environ)


def _quick_kill() -> None:
    """Have pebble kill a stopped job's process at once: it sends SIGTERM and waits 3 s
    (``CONSTS.term_timeout``) before SIGKILL, but its workers handle SIGTERM in Python,
    which cannot run while clingo grounds: every killed job ran 3 s late.  Our jobs hold
    nothing to clean up."""
    from pebble.common.types import CONSTS

    CONSTS.term_timeout = 0.1


def _allow_children() -> None:
    """Lift a daemonic process's ban on children (Dask's nanny starts its workers as
    daemonic processes, and :mod:`multiprocessing` forbids those to have children, lest
    they be orphaned): a pool's workers die with its owner however it ends."""
    process = multiprocessing.current_process()
    if process.daemon:
        process.daemon = False
