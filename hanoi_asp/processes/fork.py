"""A plain forked child on a duplex pipe: the racing A*, and under
:func:`~hanoi_asp.processes.capped.run_capped` a user's encoding.

>>> child = fork_child(lambda conn: conn.send(conn.recv() * 2))
>>> child.conn.send(21)
>>> child.conn.recv()
42
>>> child.close()

A plain ``os.fork``, not :mod:`multiprocessing`: the caller may itself run in a daemonic
process (a batch worker, a web job, a capped child), which multiprocessing forbids to
have children.  The child leaves Ctrl-C and a closed terminal's SIGHUP to its parent
(which decides what a stop means, and passes it on as a SIGINT if it wants one), keeps
SIGTERM's default, dies with its parent
(:func:`~hanoi_asp.processes.parent.die_with_parent`), and ends with ``os._exit``: never
the parent's code after the fork, nor its exit handlers, and silently (exit 1) on any
exception: the parent sees the pipe close.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from contextlib import suppress
from multiprocessing.connection import Connection

from hanoi_asp.processes.parent import die_with_parent


class Child:
    """A child made by :func:`fork_child`: ``conn`` is the parent's end of the pipe,
    ``pid`` the child's (None once reaped)."""

    def __init__(self, pid: int, conn: Connection, group: bool = False) -> None:
        self.pid: int | None = pid
        self.conn = conn
        self.group = group
        """Whether the child leads a process group of its own (killed whole)."""

    def close(self) -> None:
        """SIGKILL the child if it runs (its whole process group, if it leads one),
        reap it, close the pipe; again is a no-op."""
        pid, self.pid = self.pid, None
        if pid is not None:
            with suppress(ProcessLookupError):
                (os.killpg if self.group else os.kill)(pid, signal.SIGKILL)
            with suppress(ChildProcessError):
                os.waitpid(pid, 0)
        self.conn.close()  # closing a closed Connection does nothing

    def wait(self) -> int:
        """Wait for the child to end and reap it: its exit code, or minus the signal
        that ended it.  The pipe stays open (close it with :meth:`close`)."""
        assert self.pid is not None, "the child was reaped already"
        pid, self.pid = self.pid, None
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)


def fork_child(
    target: Callable[[Connection], None], *, own_group: bool = False, interrupts: bool = False
) -> Child:
    """Fork a child that calls ``target`` with its end of a duplex pipe, then ends.
    ``own_group``: the child leads a process group of its own (a terminal's Ctrl-C
    reaches the parent alone, and :meth:`Child.close` kills the group: the child and
    what it started); ``interrupts``: SIGINT stays Python's KeyboardInterrupt in the
    child, for a parent that passes a stop on (SIGHUP is ignored either way)."""
    parent = os.getpid()
    ours, theirs = multiprocessing.Pipe(duplex=True)
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it ends here
        code = 1
        try:
            ours.close()
            if own_group:
                os.setpgid(0, 0)
            handler = signal.default_int_handler if interrupts else signal.SIG_IGN
            signal.signal(signal.SIGINT, handler)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            die_with_parent(parent)
            target(theirs)
            code = 0
        except BaseException:  # a child's failure is the pipe closing, nothing printed
            code = 1
        finally:
            os._exit(code)
    if own_group:  # here too: a close() before the child's own call still kills the group
        with suppress(OSError):
            os.setpgid(pid, pid)
    theirs.close()
    return Child(pid, ours, group=own_group)
