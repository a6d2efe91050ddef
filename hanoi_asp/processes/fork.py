"""A plain forked child on a duplex pipe, for work the parent talks to while it runs
(the engine's racing A*).

>>> child = fork_child(lambda conn: conn.send(conn.recv() * 2))
>>> child.conn.send(21)
>>> child.conn.recv()
42
>>> child.close()

A plain ``os.fork``, not :mod:`multiprocessing`: the caller may itself run in a daemonic
process (a batch worker, a web job, a capped child), which multiprocessing forbids to
have children.  The child leaves Ctrl-C to its parent (which decides what a stop means),
keeps SIGTERM's default, dies with its parent (:func:`~hanoi_asp.processes.parent.die_with_parent`),
and ends with ``os._exit``: never the parent's code after the fork, nor its exit
handlers, and silently (exit 1) on any exception: the parent sees the pipe close.
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
    ``pid`` the child's (None once closed)."""

    def __init__(self, pid: int, conn: Connection) -> None:
        self.pid: int | None = pid
        self.conn = conn

    def close(self) -> None:
        """SIGKILL the child if it runs, reap it, close the pipe; again is a no-op."""
        pid, self.pid = self.pid, None
        if pid is not None:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with suppress(ChildProcessError):
                os.waitpid(pid, 0)
        self.conn.close()  # closing a closed Connection does nothing


def fork_child(target: Callable[[Connection], None]) -> Child:
    """Fork a child that calls ``target`` with its end of a duplex pipe, then ends."""
    parent = os.getpid()
    ours, theirs = multiprocessing.Pipe(duplex=True)
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it ends here
        code = 1
        try:
            ours.close()
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            die_with_parent(parent)
            target(theirs)
            code = 0
        except BaseException:  # a child's failure is the pipe closing, nothing printed
            code = 1
        finally:
            os._exit(code)
    theirs.close()
    return Child(pid, ours)
