"""Running work where it cannot hurt: a child process with a hard time limit, a memory
cap and, if asked, a heartbeat.

>>> run_capped(sum, ([1, 2, 3],), seconds=10, memory=None)
6

clingo cannot interrupt grounding (potassco/clingo #570), and an encoding such as
``p(0). p(X+1) :- p(X).`` grounds for ever, taking memory as it goes: ``--timeout``
alone never ends it.  So what runs a user's encoding runs in a forked child
(:func:`~hanoi_asp.processes.fork.fork_child`, in a process group of its own): the
parent waits at most ``seconds``, then kills the group (:class:`Stopped` ``timeout``);
the child's address space is capped at ``memory`` bytes, and running out there is
:class:`Stopped` ``memory``, never a traceback.  The child dies with its parent, so a
killed command leaves nothing running.

The engine's own encodings need none of this: their grounding is bounded before it
starts (``--limit cells``), and a solve stops itself at its deadline.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from hanoi_asp.model.errors import HanoiError
from hanoi_asp.processes.fork import fork_child
from hanoi_asp.processes.memory import OverMemory, memory_cap
from hanoi_asp.processes.stopped import Stopped, died

T = TypeVar("T")

INTERRUPT_GRACE_S = 2.0
"""How long a child may take to answer a Ctrl-C (its best plan) before it is killed."""

_beats: Connection | None = None
"""In a child run with a ``heartbeat``: the pipe its beats go to."""


def beat(what: str, value: Any) -> None:
    """Say what this process starts now (``beat("horizon", 7)``), in a child that
    :func:`run_capped` watches with a ``heartbeat``: the parent kills it if the next
    beat or its answer takes longer than that, and tells the last value of each
    ``what`` (:attr:`Stopped.doing`).  Elsewhere nothing happens."""
    if _beats is not None:
        _beats.send(("beat", (what, value)))


def run_capped(
    work: Callable[..., T],
    args: tuple[Any, ...],
    *,
    seconds: float | None,
    memory: int | None,
    heartbeat: float | None = None,
    grounding: float | None = None,
) -> T:
    """``work(*args)`` in a forked child capped at ``memory`` bytes, killed after
    ``seconds`` (None: no time limit), or when ``heartbeat`` seconds pass without a
    :func:`beat` from it (``grounding`` seconds after a ``grounding`` beat: a grounding
    cannot stop itself, so it gets no grace for answering late).  Its value, or the
    :class:`HanoiError` it raised, comes back as if it ran here; otherwise
    :class:`Stopped`.  A Ctrl-C (or SIGTERM, which the command line turns into one) is
    passed on to the child, whose answer to it (a solve's best plan) is returned if it
    comes within :data:`INTERRUPT_GRACE_S`."""
    child = fork_child(
        _in_child(work, args, memory, heartbeat is not None), own_group=True, interrupts=True
    )
    doing: dict[str, Any] = {}
    windows = {
        "horizon": heartbeat,
        "solving": heartbeat,
        "grounding": heartbeat if grounding is None else grounding,
    }
    try:
        end = None if seconds is None else time.monotonic() + seconds
        try:
            message = _next_answer(child.conn, end, windows, doing, seconds)
        except KeyboardInterrupt:
            if child.pid is not None:
                os.kill(child.pid, signal.SIGINT)
            try:
                grace = time.monotonic() + INTERRUPT_GRACE_S
                message = _next_answer(child.conn, grace, {}, {}, INTERRUPT_GRACE_S)
            except Stopped:
                raise KeyboardInterrupt from None
        if message is None:  # the child died before it could answer
            stop = died(child.wait(), memory)
            if stop.why == "crash":
                stop = Stopped("crash", f"the solving process died (exit code {stop.code})")
            raise stop
        value: T = _value(message)
        return value
    finally:
        child.close()


def _next_answer(
    conn: Connection,
    end: float | None,
    windows: dict[str, float | None],
    doing: dict[str, Any],
    seconds: float | None,
) -> Any:
    """The child's next message that is not a beat (each beat noted in ``doing``), or
    None when the child died without one; :class:`Stopped` ``timeout`` once ``end``
    passes (``seconds`` after the start) or, after a beat ``windows`` names (``horizon``,
    ``solving``, ``grounding``), its window passes without another (other work, such as
    the reference's own solve, is not the user's encoding)."""
    armed: float | None = None
    while True:
        left = None if end is None else max(0.0, end - time.monotonic())
        waits = [w for w in (left, armed) if w is not None]
        if not conn.poll(min(waits) if waits else None):
            if end is not None and time.monotonic() >= end:
                message = f"killed at the hard time limit of {seconds:g} s"
                raise Stopped("timeout", message, doing)
            raise Stopped("timeout", f"killed after {armed:g} s without an answer", doing)
        try:
            message = conn.recv()
        except EOFError:
            return None
        if message[0] != "beat":
            return message
        what, value = message[1]
        doing[what] = value
        armed = windows.get(what)


def _value(message: Any) -> Any:
    """The child's answer as if the work ran here."""
    kind, value = message
    if kind == "ok":
        return value
    if kind == "memory":
        raise Stopped("memory", value)
    if kind == "crash":
        raise Stopped("crash", f"the solving process failed ({value})")
    if kind == "interrupt":
        raise KeyboardInterrupt
    error_type, text, path, line = value
    error: HanoiError = error_type.__new__(error_type)
    HanoiError.__init__(error, text, path=path, line=line)
    raise error


def _in_child(
    work: Callable[..., Any], args: tuple[Any, ...], memory: int | None, beating: bool
) -> Callable[[Connection], None]:
    """What the capped child runs: ``work`` under the cap, every ending sent back."""

    def run(conn: Connection) -> None:
        global _beats
        _beats = conn if beating else None
        try:
            with memory_cap(memory):
                value = work(*args)
            conn.send(("ok", value))
        except OverMemory as error:
            conn.send(("memory", str(error)))
        except HanoiError as error:
            conn.send(("error", (type(error), error.message, error.path, error.line)))
        except KeyboardInterrupt:
            conn.send(("interrupt", None))
        except Exception as error:  # a bug, said in one line (no traceback)
            conn.send(("crash", f"{type(error).__name__}: {error}"))

    return run
