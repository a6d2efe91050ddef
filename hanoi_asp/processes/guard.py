"""What ends a pool's forkserver with the process that owns the pool, and what that end
leaves unsaid.

Imported by each forkserver a :class:`~hanoi_asp.processes.pool.WarmPool` starts (its
first preload) and armed only there.  Why it is needed: :mod:`multiprocessing`'s
forkserver ends when every holder of its "alive" pipe has ended, and it hands that pipe
to every worker it forks, while each worker dies with its parent, the forkserver.  So
once the owner was killed (``kill -9``, the OOM killer, Slurm's walltime) the forkserver
and its workers kept each other alive, solving on for up to their time limit.  Armed,
the forkserver asks to die with its owner (the parent-death signal), and the chain ends:
owner, forkserver, workers, their children.  (No thread watches the owner here: a
thread's malloc arena, inherited by every worker, is address space a capped worker
could fill unseen by its cap.)  The signal comes when the *thread* that started the
forkserver ends, so :mod:`~hanoi_asp.processes.pool` starts it from a thread that lasts
as long as the owner.

A worker the forkserver forks while its pool closes (a server stopped with jobs queued,
a batch ending) finds the pool's semaphore already unlinked as it unpickles its process
object, and multiprocessing printed that ``FileNotFoundError``'s traceback on the
owner's stderr (seen under load on a stopping server): such a worker could never have
run, so its traceback is dropped (:func:`quiet_when_the_pool_is_gone`); every other
error is printed as before.
"""

from __future__ import annotations

import os
import sys
from multiprocessing import forkserver
from types import TracebackType

from hanoi_asp.processes.parent import die_with_parent

SERVER: int | None = None
"""In a forkserver armed here (and the workers it forks): the forkserver's pid."""


def imported_by_a_forkserver() -> bool:
    """Whether this import runs in :func:`multiprocessing.forkserver.main` (its
    preloads): anywhere else, importing this module does nothing."""
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code is forkserver.main.__code__:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def quiet_when_the_pool_is_gone(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    """``sys.excepthook`` of an armed forkserver's workers: silent for a semaphore that
    no longer exists (its pool closed before this worker could start), Python's own
    hook otherwise."""
    last = trace
    while last is not None and last.tb_next is not None:
        last = last.tb_next
    frame = None if last is None else last.tb_frame.f_code
    if (
        isinstance(error, FileNotFoundError)
        and frame is not None
        and frame.co_name == "__setstate__"
        and frame.co_filename.endswith(os.path.join("multiprocessing", "synchronize.py"))
    ):
        return
    sys.__excepthook__(kind, error, trace)


if imported_by_a_forkserver():
    # an owner already gone ended before any worker held the "alive" pipe: the
    # forkserver then ends by itself at its first look
    die_with_parent()
    SERVER = os.getpid()
    sys.excepthook = quiet_when_the_pool_is_gone
