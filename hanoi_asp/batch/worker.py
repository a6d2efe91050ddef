"""One instance, one short-lived process: the part of a batch that runs where the
instance is solved, on this machine's pool or on a Dask worker.

Each instance gets a process of its own (clingo never frees symbols inside a process,
and a crash or a hang must not take the batch down), forked from a forkserver that has
already imported the engine, with a hard time limit that kills it and a memory limit
(clingo has none of its own).  Whatever happens becomes one result row: errors are
data here, never raised.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import resource
import signal
import socket
import time
from collections.abc import Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from pebble import ProcessExpired, ProcessPool

from hanoi_asp.engine.solve import solve
from hanoi_asp.inputs.instance import load_puzzle, parse_puzzle
from hanoi_asp.model.errors import EXIT_BAD_INPUT, EXIT_UNKNOWN, HanoiError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.outputs.json import error_json

Row = dict[str, Any]

PR_SET_PDEATHSIG = 1

KILL_GRACE_S = 3.0
"""A worker still running this long after its timeout is killed (e.g. stuck grounding)."""

OUT_OF_MEMORY_EXITS = (127, -6, -9, -11)
"""How a worker over its memory limit may die (when it cannot raise MemoryError):
exit 127 (glibc: "cannot allocate memory for thread-local data", a clingo thread
starting; seen in 2 of 3 runs of the test), SIGABRT (std::bad_alloc in a clingo
thread), SIGKILL, SIGSEGV."""


def forkserver(preload: str = "hanoi_asp.batch.worker") -> Any:
    """Processes forked from a server that imported ``preload`` (and so the engine)
    once: a new process per instance costs a fork, not a Python start-up.  (Each child
    still runs the parent's main script again: nothing for ``python -m hanoi_asp``, about
    0.1 s per instance under the ``dask worker`` console script.)"""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([preload])
    return context


def new_pool(workers: int) -> ProcessPool:
    """``workers`` processes at a time, a fresh one per instance (``max_tasks=1``)."""
    return ProcessPool(max_workers=workers, max_tasks=1, context=forkserver())


def default_memory_limit(workers: int) -> int:
    """A safe share of the machine: 80% of its memory, split among the workers."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(total * 0.8) // max(1, workers)


def hard_limit(timeout: float | None) -> float | None:
    return None if timeout is None else timeout + KILL_GRACE_S


def solve_file(
    path: str, options: SolveOptions, memory_limit: int | None = None, text: str | None = None
) -> Row:
    """One instance file to one result row.  ``text`` is the file's text when it was
    read elsewhere (by a Dask client: workers need no shared file system).  The row
    also says where it ran and the process's peak memory (one instance per process, so
    the process's peak is the instance's).  ``memory_limit`` (bytes) caps the address
    space: an instance over it ends as ``UNKNOWN`` with ``stopped: "memory"`` instead
    of taking the machine down."""
    started = time.monotonic()
    _die_with_parent()
    try:
        with memory_cap(memory_limit):
            puzzle = load_puzzle(path) if text is None else parse_puzzle(text, path)
            result = solve(puzzle, replace(options, source=path))
    except HanoiError as error:
        row = error_json(path, str(error), error.exit_code)
        row["time_s"] = round(time.monotonic() - started, 4)
    except OverMemory as error:
        row = error_json(path, str(error), EXIT_UNKNOWN)
        row.update(stopped="memory", status="memory", time_s=round(time.monotonic() - started, 4))
    else:
        row = result.to_dict(path)
        row.update(pegs=len(puzzle.pegs), disks=puzzle.disks)
        row["status"] = result.stopped or "ok"
    row["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    row["host"] = socket.gethostname()
    return row


class OverMemory(Exception):
    """A job ran out of the address space :func:`memory_cap` gave it."""


@contextmanager
def memory_cap(limit: int | None) -> Iterator[None]:
    """Cap this process's address space at ``limit`` bytes (clingo has no limit of its
    own) for the block; running out there is :class:`OverMemory` (Python's MemoryError,
    or clingo's ``std::bad_alloc`` as a RuntimeError).  Only the soft limit is set, and
    it is lifted again after the block, so the answer can still be sent back."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if limit is not None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    except (MemoryError, RuntimeError) as error:
        if not isinstance(error, MemoryError) and "bad_alloc" not in str(error):
            raise
        raise OverMemory(f"over the memory limit of {limit} bytes") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _die_with_parent() -> None:
    """Ask Linux to kill this process when its parent (the pool's forkserver, which
    ends with the batch or the Dask worker that started it) dies: a killed batch
    leaves no solve running on."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the hard time limit still holds
        return
    if os.getppid() == 1:  # the parent was already gone
        os._exit(1)


def row_of(
    path: str, digest: str, future: Any, timeout: float | None, memory_limit: int | None
) -> Row:
    """The row of a finished pool future: its own row, or why its process ended."""
    try:
        row: Row = future.result()
    except FutureTimeout:
        row = error_json(path, f"killed after {timeout} s", EXIT_UNKNOWN)
        row.update(result="UNKNOWN", stopped="killed", time_s=timeout)
        row["status"] = "timeout"
    except ProcessExpired as error:
        if memory_limit is not None and error.exitcode in OUT_OF_MEMORY_EXITS:
            # clingo's threads abort on a failed allocation: the limit, not a bug
            message = f"worker died (exit code {error.exitcode}) over the memory limit"
            row = error_json(path, f"{message} of {memory_limit} bytes", EXIT_UNKNOWN)
            row.update(stopped="memory", status="memory")
        else:
            row = error_json(path, f"worker died (exit code {error.exitcode})", EXIT_BAD_INPUT)
            row["status"] = "crash"
    except Exception as error:
        row = worker_failed(path, error)
    return finish_row(row, digest)


def worker_failed(path: str, error: BaseException) -> Row:
    row = error_json(path, f"worker failed: {type(error).__name__}: {error}", EXIT_BAD_INPUT)
    row["status"] = "crash"
    return row


def finish_row(row: Row, digest: str) -> Row:
    """Every row's status, content hash and host (where it was decided, when the
    instance's process could not say: killed, crashed)."""
    row.setdefault("status", "error" if row["result"] == "ERROR" else "ok")
    row.setdefault("host", socket.gethostname())
    row["sha256"] = digest
    return row


def content_hash(path: Path) -> str:
    """What ``--resume`` compares: an instance edited since its row was written runs again."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""
