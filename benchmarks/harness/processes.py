"""Fresh processes with hard limits: a whole command's run (:func:`run_tree`), or one
function's in a spawned interpreter (:func:`in_fresh_process`).

Every benchmarked command, ours or a peer's, goes through :func:`run_tree` so that all
are timed and measured alike: wall time from start to the leader's exit (caught by a waiting
thread, not by polling), peak resident memory of the whole process tree (sampled, and
at least the largest single process's ``ru_maxrss`` from ``wait4``), and a ``SIGKILL``
to the whole process group when the time or memory limit is passed, so no stray child
(Fast Downward's translator or search, a clingo thread) outlives its run.

:func:`in_fresh_process` is for what is timed inside the process (the call alone,
without the interpreter's start and imports): a ``spawn`` child, so no state of this
process (imports, caches, tables) leaks into the measurement.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by run_tree: a spawned worker stays lean
    import psutil


@dataclass(frozen=True)
class TreeRun:
    """A finished (or killed) process tree."""

    returncode: int | None
    """The leader's exit code; negative: killed by that signal."""
    seconds: float
    peak_mib: float | None
    stopped: str | None
    """``timeout`` or ``memory`` when :func:`run_tree` killed the group, else None."""
    stdout: str
    stderr: str


def _tree_rss(leader: psutil.Process) -> int:
    """Resident bytes of ``leader`` and all its descendants (0 for any that vanished)."""
    import psutil

    total = 0
    try:
        members = [leader, *leader.children(recursive=True)]
    except psutil.Error:
        return 0
    for member in members:
        with contextlib.suppress(psutil.Error):
            total += member.memory_info().rss
    return total


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_tree(
    command: Sequence[str],
    *,
    timeout_s: float,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    memory_limit_mib: float | None = None,
) -> TreeRun:
    """Run ``command`` in a new session (its own process group); kill the whole group
    at ``timeout_s`` wall seconds or when the tree's resident memory passes
    ``memory_limit_mib``.  Output goes to files, not pipes: a large answer (a 4,095-move
    JSON plan) must not block the child while we sample it."""
    import psutil

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        pid = process.pid
        ended: list[float] = []
        exited = threading.Event()

        def wait_for_exit() -> None:
            # WNOWAIT: the leader stays a zombie, so its pid (= the group id) cannot be
            # reused before we have killed the rest of the group and reaped it
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
            ended.append(time.perf_counter())
            exited.set()

        waiter = threading.Thread(target=wait_for_exit, daemon=True)
        waiter.start()
        try:
            leader: psutil.Process | None = psutil.Process(pid)
        except psutil.Error:
            leader = None
        peak = 0
        stopped: str | None = None
        while not exited.is_set():
            elapsed = time.perf_counter() - started
            if leader is not None:
                peak = max(peak, _tree_rss(leader))
            if elapsed >= timeout_s:
                stopped = "timeout"
            elif memory_limit_mib is not None and peak > memory_limit_mib * 2**20:
                stopped = "memory"
            if stopped:
                _kill_group(pid)
                break
            # fine sampling while short runs are likely, then cheaper
            exited.wait(min(0.02 if elapsed < 1 else 0.1, max(timeout_s - elapsed, 0.001)))
        waiter.join()
        seconds = ended[0] - started
        _kill_group(pid)  # stragglers the leader left behind
        _, status, usage = os.wait4(pid, 0)
        returncode = os.waitstatus_to_exitcode(status)
        process.returncode = returncode  # reaped by hand (for ru_maxrss): tell Popen
        peak_mib = max(peak / 2**20, usage.ru_maxrss / 1024) or None
        out.seek(0)
        err.seek(0)
        return TreeRun(
            returncode=returncode,
            seconds=seconds,
            peak_mib=peak_mib,
            stopped=stopped,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )


def last_line(text: str, limit: int = 300) -> str:
    """The last non-empty line of ``text``, shortened: an error's gist for a CSV cell."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:limit] if lines else ""


def in_fresh_process(
    target: Callable[..., None], args: tuple[Any, ...], limit_s: float
) -> dict[str, Any] | str:
    """``target(*args, answers)`` in a new ``spawn`` interpreter, where ``target`` puts
    one dict on the queue ``answers``: that dict, or why there is none (``TIMEOUT`` when
    the child had not answered within ``limit_s`` and was killed, ``CRASH(exit code)``).
    The queue is read while the child runs: a large answer would otherwise block the
    child's exit."""
    context = multiprocessing.get_context("spawn")
    answers: multiprocessing.Queue[dict[str, Any]] = context.Queue()
    process = context.Process(target=target, args=(*args, answers))
    process.start()
    deadline = time.monotonic() + limit_s
    answer: dict[str, Any] | None = None
    while answer is None and (left := deadline - time.monotonic()) > 0:
        try:
            answer = answers.get(timeout=min(0.2, left))
        except queue.Empty:
            if not process.is_alive():  # gone: its answer, if any, is in the pipe
                with contextlib.suppress(queue.Empty):
                    answer = answers.get(timeout=1.0)
                break
    if answer is None and process.is_alive():
        process.kill()
        process.join()
        return "TIMEOUT"
    process.join(5)
    if process.is_alive():  # answered, then stuck on its way out
        process.kill()
        process.join()
    return answer if answer is not None else f"CRASH({process.exitcode})"
