"""The part of a batch that runs where the instance is solved, on this machine's pool
or on a Dask worker.

On this machine, warm worker processes (made from a server process that has already
imported the engine) solve instance after instance: a crash or a hang must not take the
batch down, so an instance past its hard time limit has its worker killed and replaced
(only that instance is lost), each instance has a memory cap of its own (clingo has
none), and a worker is replaced after :data:`WORKER_TASKS` instances (clingo never
frees the symbols a process made; a worker grew from 51 to 55 MiB over 10,000 small
instances: ``python -m benchmarks.worker_memory``).  Whatever happens becomes one result
row: errors are data here, never raised.
"""

from __future__ import annotations

import hashlib
import os
import resource
import socket
import time
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

from hanoi_asp.batch import WORKER
from hanoi_asp.batch.row import BatchRow, solved_row
from hanoi_asp.engine import solve
from hanoi_asp.inputs.instance import load_puzzle, parse_puzzle
from hanoi_asp.inputs.pddl_files import DomainFile, domain_beside, pddl_kind
from hanoi_asp.model.errors import EXIT_BAD_INPUT, EXIT_UNKNOWN, HanoiError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result
from hanoi_asp.outputs.json import error_json
from hanoi_asp.processes import OverMemory, Stopped, WarmPool, memory_cap, outcome

# A worker imports numpy (the pattern tables) before any memory cap, with one BLAS
# thread: imported under a small cap, OpenBLAS's thread buffers failed ("Memory
# allocation still failed", exit 1) or the import did (ImportError), an ERROR row where
# the cap should give UNKNOWN.  The workers' server preloads this module, so every worker
# starts with it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy  # noqa: F401

WORKER_TASKS = 500
"""Instances one warm worker solves before it is replaced (see the module docstring)."""
KILL_GRACE_S = 3.0
"""A worker still running this long after its timeout is killed (e.g. stuck grounding)."""


def new_pool(workers: int) -> WarmPool:
    """``workers`` warm processes, each solving instance after instance (a fresh
    process per instance cost 100-140 ms of upkeep, over 90% of a batch of small
    instances), replaced after :data:`WORKER_TASKS` instances, when an instance runs
    past its hard limit (only that instance is lost) or when one crashes.  Each
    instance still gets its own memory cap (:func:`solve_file`)."""
    return WarmPool(workers, WORKER, tasks=WORKER_TASKS)


def hard_limit(timeout: float | None) -> float | None:
    return None if timeout is None else timeout + KILL_GRACE_S


def solve_file(
    path: str,
    options: SolveOptions,
    memory_limit: int | None = None,
    text: str | None = None,
    domain: DomainFile | None = None,
) -> BatchRow:
    """One instance file to one result row.  ``text`` is the file's text when it was
    read elsewhere (by a Dask client: workers need no shared file system), ``domain``
    a PDDL problem's domain (None: the one beside it, or none for other formats).  The row
    also says where it ran and the process's peak memory (one instance per process, so
    the process's peak is the instance's).  ``memory_limit`` (bytes) caps the address
    space: an instance over it ends as ``UNKNOWN`` with ``stopped: "memory"`` instead
    of taking the machine down; it counts what the instance adds to the address space
    its worker holds when it starts."""
    started = time.monotonic()
    try:
        # a warm worker holds what earlier instances left mapped: the cap is what this
        # instance may add to it, the same for every instance whatever ran before
        with memory_cap(memory_limit, added=True):
            puzzle = (
                load_puzzle(path, domain=domain)
                if text is None
                else parse_puzzle(text, path, domain=domain)
            )
            result = _answer(puzzle, replace(options, source=path), memory_limit)
    except HanoiError as error:
        row = solved_row(error_json(path, str(error.for_command_line()), error.exit_code))
        row["time_s"] = round(time.monotonic() - started, 4)
    except OverMemory:
        message = f"over the memory limit of {memory_limit} bytes"
        row = solved_row(error_json(path, message, EXIT_UNKNOWN))
        spent = round(time.monotonic() - started, 4)
        row.update({"stopped": "memory", "status": "memory", "time_s": spent})
    else:
        row = solved_row(result.to_dict(path))
        row.update({"pegs": len(puzzle.pegs), "disks": puzzle.disks})
        row["status"] = result.stopped or "ok"
    row["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    row["host"] = socket.gethostname()
    return row


def _answer(puzzle: Puzzle, options: SolveOptions, memory_limit: int | None) -> Result:
    """hanoi-asp's solve, or a planner configuration's run (its processes capped at
    ``memory_limit`` each: :mod:`hanoi_asp.batch.planners`)."""
    if options.planner is None:
        return solve(puzzle, options)
    from hanoi_asp.batch.planners import run_planner

    return run_planner(puzzle, options.planner, options, memory_limit)


def row_of(
    path: str,
    digest: str,
    future: Future[BatchRow],
    timeout: float | None,
    memory_limit: int | None,
) -> BatchRow:
    """The row of a finished pool future: its own row, or why its process ended."""
    try:
        row: BatchRow = outcome(future, memory_limit)
    except Stopped as stop:
        row = stopped_row(path, stop, timeout, memory_limit)
    except Exception as error:
        row = worker_failed(path, error)
    return finish_row(row, digest)


def stopped_row(
    path: str, stop: Stopped, timeout: float | None, memory_limit: int | None
) -> BatchRow:
    """The row of an instance whose process was killed at its hard limit or died."""
    if stop.why == "timeout":
        row = solved_row(error_json(path, f"killed after {timeout} s", EXIT_UNKNOWN))
        row.update({"result": "UNKNOWN", "stopped": "killed", "time_s": timeout})
        row["status"] = "timeout"
    elif stop.why == "memory":  # clingo's threads abort on a failed allocation: the limit
        message = f"worker died (exit code {stop.code}) over the memory limit"
        row = solved_row(error_json(path, f"{message} of {memory_limit} bytes", EXIT_UNKNOWN))
        row.update({"stopped": "memory", "status": "memory"})
    else:
        message = f"worker died (exit code {stop.code})"
        row = solved_row(error_json(path, message, EXIT_BAD_INPUT))
        row["status"] = "crash"
    return row


def worker_failed(path: str, error: BaseException) -> BatchRow:
    message = f"worker failed: {type(error).__name__}: {error}"
    row = solved_row(error_json(path, message, EXIT_BAD_INPUT))
    row["status"] = "crash"
    return row


def finish_row(row: BatchRow, digest: str) -> BatchRow:
    """Every row's status, content hash and host (where it was decided, when the
    instance's process could not say: killed, crashed)."""
    row.setdefault("status", "error" if row["result"] == "ERROR" else "ok")
    row.setdefault("host", socket.gethostname())
    row["sha256"] = digest
    return row


def content_hash(path: Path, domain: DomainFile | None = None) -> str:
    """What ``--resume`` compares: an instance edited since its row was written runs again.

    A PDDL problem is solved with its domain (``domain``: ``--domain``, else the one
    beside it), so its digest covers the domain's bytes too: an edited domain runs the
    problem again.  Any other file's digest is its bytes' alone (rows written before
    this stay valid)."""
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    digest = hashlib.sha256(data)
    if pddl_kind(data.decode("utf-8", "replace")) == "problem":  # as domain_for sniffs
        digest.update(b"\0domain\0" + _domain_bytes(path, domain))
    return digest.hexdigest()


def _domain_bytes(problem: Path, domain: DomainFile | None) -> bytes:
    """The domain ``problem`` is solved with (none, or unreadable: nothing)."""
    if domain is not None:
        return domain.text.encode()
    beside = domain_beside(str(problem))
    try:
        return b"" if beside is None else beside.read_bytes()
    except OSError:
        return b""
