"""Running a user's encoding where it cannot hurt: a child process with a hard time
limit and a memory cap.

>>> run_capped(sum, ([1, 2, 3],), seconds=10, memory=None)
6

clingo cannot interrupt grounding (potassco/clingo #570), and an encoding such as
``p(0). p(X+1) :- p(X).`` grounds for ever, taking memory as it goes: ``--timeout``
alone never ends it.  So what runs a user's encoding runs in a forked child: the
parent waits at most ``seconds``, then kills it (:class:`Stopped` ``timeout``); the
child's address space is capped at ``memory`` bytes, and running out there is
:class:`Stopped` ``memory``, never a traceback.  A child also dies with its parent
(``PR_SET_PDEATHSIG``), so a killed command leaves nothing running.

The engine's own encodings need none of this: their grounding is bounded before it
starts (``--limit cells``), and a solve stops itself at its deadline.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Literal, TypeVar

from hanoi_asp.model.errors import HanoiError

T = TypeVar("T")

PR_SET_PDEATHSIG = 1
INTERRUPT_GRACE_S = 2.0
"""How long a child may take to answer a Ctrl-C (its best plan) before it is killed."""
OUT_OF_MEMORY_EXITS = (127, -6, -9, -11)
"""How a child over its memory cap may die when it cannot raise MemoryError: exit 127
(glibc cannot allocate a clingo thread's local data), SIGABRT (``std::bad_alloc`` in a
clingo thread), SIGKILL, SIGSEGV."""

Why = Literal["timeout", "memory", "crash"]


class Stopped(Exception):
    """The child did not answer: ``why`` is ``timeout`` (killed at its limit),
    ``memory`` (over its cap) or ``crash`` (it died otherwise); ``doing`` is what it
    last said it was doing (:func:`beat`), if anything."""

    def __init__(self, why: Why, message: str, doing: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.why = why
        self.doing = doing or {}


_beats: Any = None
"""In a child run with a ``heartbeat``: the pipe its beats go to."""


def beat(what: str, value: Any) -> None:
    """Say what this process starts now (``beat("horizon", 7)``), in a child that
    :func:`run_capped` watches with a ``heartbeat``: the parent kills it if the next
    beat or its answer takes longer than that, and tells the last value of each
    ``what`` (:attr:`Stopped.doing`).  Elsewhere nothing happens."""
    if _beats is not None:
        _beats.send(("beat", (what, value)))


class OverMemory(Exception):
    """A job ran out of the address space :func:`memory_cap` gave it."""


@contextmanager
def memory_cap(limit: int | None) -> Iterator[None]:
    """Cap this process's address space at ``limit`` bytes (clingo has no limit of its
    own) for the block; running out there is :class:`OverMemory` (Python's MemoryError,
    or clingo's ``std::bad_alloc`` as a RuntimeError).  Only the soft limit is set, never
    above a hard limit the user set (``prlimit --as``), and it is lifted again after
    the block, so the answer can still be sent back."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if limit is not None:
        capped = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (capped, hard))
    try:
        yield
    except (MemoryError, RuntimeError) as error:
        if not isinstance(error, MemoryError) and not _out_of_memory(str(error)):
            raise
        raise OverMemory(f"over the memory limit of {limit} bytes") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


CLINGO_OUT_OF_MEMORY = ("bad_alloc", "Resource temporarily unavailable")
"""What clingo's RuntimeError says when the address space runs out: an allocation
failed, or a thread's stack could not be mapped (EAGAIN from starting its solve thread:
seen on 4 pegs with 20 disks under a 32 MiB cap)."""


def _out_of_memory(message: str) -> bool:
    return any(sign in message for sign in CLINGO_OUT_OF_MEMORY)


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies: a killed command, batch or
    server leaves no solve running on."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the hard time limit still holds
        return
    if os.getppid() == 1:  # the parent was already gone
        os._exit(1)


def quick_kill() -> None:
    """Have pebble kill a stopped job's process at once: it sends SIGTERM and waits 3 s
    (``CONSTS.term_timeout``) before SIGKILL, but its workers handle SIGTERM in Python,
    which cannot run while clingo grounds: every killed job ran 3 s late.  Our jobs hold
    nothing to clean up."""
    from pebble.common.types import CONSTS

    CONSTS.term_timeout = 0.1


def forkserver(preload: str) -> Any:
    """Processes forked from a server that imported ``preload`` (and so the engine)
    once: a new process per instance costs a fork, not a Python start-up.  (Each child
    still runs the parent's main script again: nothing for ``python -m hanoi_asp``, about
    0.1 s per instance under the ``dask worker`` console script.)"""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([preload])
    return context


def start_forkserver(preload: str) -> None:
    """Start the server :func:`forkserver` forks from, in the background: it imports
    ``preload`` (most of a second) while this process goes on, e.g. reading the files.
    The server, the resource tracker it starts and every worker forked from it keep a
    closed terminal's SIGHUP blocked: this process handles it (as SIGTERM) and stops
    them in order, where the hangup killed them mid-instance."""
    forkserver(preload)
    from multiprocessing import forkserver as server

    def deaf_to_hangups() -> None:  # a thread's signal mask is what the processes it
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})  # starts inherit
        server.ensure_running()

    threading.Thread(target=deaf_to_hangups, daemon=True).start()


def kill_descendants() -> int:
    """SIGKILL every process this one started, at any depth (Linux's ``/proc``); the
    number killed.  A server that stops must leave none: a cancelled job's process is
    killed by a pebble thread that may never run once the server exits, and the
    forkserver and resource tracker of :mod:`multiprocessing` keep each other alive
    (each holds the other's pipe) under init."""
    parents: dict[int, list[int]] = {}
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        parents.setdefault(int(fields[1]), []).append(int(stat_file.parent.name))
    found, todo = [], list(parents.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    for pid in found:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(found)


def default_memory_limit(share: int = 1) -> int:
    """A safe share of the machine: 80% of its memory, split ``share`` ways."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(total * 0.8) // max(1, share)


def run_capped(
    work: Callable[..., T],
    args: tuple[Any, ...],
    *,
    seconds: float | None,
    memory: int | None,
    heartbeat: float | None = None,
) -> T:
    """``work(*args)`` in a forked child capped at ``memory`` bytes, killed after
    ``seconds`` (None: no time limit), or when ``heartbeat`` seconds pass without a
    :func:`beat` from it.  Its value, or the :class:`HanoiError` it raised, comes back as
    if it ran here; otherwise :class:`Stopped`.  A Ctrl-C (or SIGTERM, which the command
    line turns into one) is passed on to the child, whose answer to it (a solve's best
    plan) is returned if it comes within a grace period."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_child, args=(send, work, args, memory, heartbeat is not None), daemon=True
    )
    child.start()
    send.close()
    try:
        try:
            message = _wait(receive, seconds, heartbeat)
        except KeyboardInterrupt:
            if child.pid is not None:
                os.kill(child.pid, signal.SIGINT)
            if not receive.poll(INTERRUPT_GRACE_S):
                raise
            message = _next_answer(receive)
        value: T = _answer(message, child, memory)
        return value
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _wait(receive: Any, seconds: float | None, heartbeat: float | None) -> Any:
    """The child's answer (its beats taken as they come), or :class:`Stopped`; None
    when the child died without one.  Only a ``horizon`` beat arms the heartbeat: other
    work (the reference's own solve) is not the user's encoding."""
    end = None if seconds is None else time.monotonic() + seconds
    doing: dict[str, Any] = {}
    armed = False
    while True:
        left = None if end is None else max(0.0, end - time.monotonic())
        beat_left = heartbeat if armed else None
        waits = [w for w in (left, beat_left) if w is not None]
        if not receive.poll(min(waits) if waits else None):
            if end is not None and time.monotonic() >= end:
                raise Stopped("timeout", f"killed at the hard time limit of {seconds:g} s", doing)
            raise Stopped("timeout", f"killed after {heartbeat:g} s without an answer", doing)
        try:
            message = receive.recv()
        except EOFError:
            return None
        if message[0] != "beat":
            return message
        what, value = message[1]
        doing[what] = value
        armed = what == "horizon"


def _next_answer(receive: Any) -> Any:
    """The child's answer, past any beats still in the pipe; None if it died first."""
    while True:
        try:
            message = receive.recv()
        except EOFError:
            return None
        if message[0] != "beat":
            return message


def _answer(message: Any, child: Any, memory: int | None) -> Any:
    if message is None:  # the child died before it could answer
        child.join()
        code = child.exitcode
        if memory is not None and code in OUT_OF_MEMORY_EXITS:
            raise Stopped("memory", f"over the memory limit of {memory} bytes")
        raise Stopped("crash", f"the solving process died (exit code {code})")
    kind, value = message
    if kind == "ok":
        return value
    if kind == "memory":
        raise Stopped("memory", value)
    if kind == "interrupt":
        raise KeyboardInterrupt
    error_type, text, path, line = value
    error: HanoiError = error_type.__new__(error_type)
    HanoiError.__init__(error, text, path=path, line=line)
    raise error


def _child(
    send: Any,
    work: Callable[..., Any],
    args: tuple[Any, ...],
    memory: int | None,
    beating: bool,
) -> None:
    global _beats
    os.setpgid(0, 0)  # a terminal's Ctrl-C reaches the parent alone, which passes it on once
    die_with_parent()
    _beats = send if beating else None
    try:
        with memory_cap(memory):
            value = work(*args)
        send.send(("ok", value))
    except OverMemory as error:
        send.send(("memory", str(error)))
    except HanoiError as error:
        send.send(("error", (type(error), error.message, error.path, error.line)))
    except KeyboardInterrupt:
        send.send(("interrupt", None))
    finally:
        send.close()
