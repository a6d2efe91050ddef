"""Every process we start dies with the process that started it, however that one ends
(``kill -9`` included): the one rule that makes a killed command, batch or server leave
nothing running, since a child of a child then dies in turn.

Linux sends a child a signal of its choice when its parent ends
(``PR_SET_PDEATHSIG``); asked for after the fork, the parent may already be gone, so
the child compares its parent with the one it was forked from and ends at once if they
differ.
"""

from __future__ import annotations

import os
import signal

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Ask Linux to SIGKILL this process when its parent ends.  ``parent``: the pid of
    the process that forked this one, known before the fork (this process ends at once
    if that one is already gone); None: only an orphan (adopted by init) ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the hard time limits still hold
        return
    now = os.getppid()
    if now == 1 or (parent is not None and now != parent):  # the parent was already gone
        os._exit(1)
