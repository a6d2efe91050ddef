"""Batch runs: many instance files, each solved in its own short-lived worker process.

A worker process per instance (clingo never frees symbols inside a process, and a
crash or hang must not take the batch down), a hard per-instance time limit that kills
the worker, and one JSON line appended and flushed per finished instance, so a batch
killed halfway keeps every finished result and ``--resume`` picks up the rest.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import resource
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pebble import ProcessExpired, ProcessPool

from hanoi_asp.batch.results import ResultsFile
from hanoi_asp.engine.policy import batch_threads
from hanoi_asp.engine.solve import solve
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.model.errors import (
    EXIT_BAD_INPUT,
    EXIT_FOUND,
    EXIT_UNKNOWN,
    EXIT_UNSAT,
    HanoiError,
    InputError,
)
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.outputs.json import error_json

INSTANCE_SUFFIXES = (".lp", ".asp", ".json", ".toml")
KILL_GRACE_S = 3.0
"""A worker still running this long after its timeout is killed (e.g. stuck grounding)."""

Row = dict[str, Any]

OUT_OF_MEMORY_EXITS = (127, -6, -9, -11)
"""How a worker over its memory limit may die (when it cannot raise MemoryError):
exit 127 (glibc: "cannot allocate memory for thread-local data", a clingo thread
starting; seen in 2 of 3 runs of the test), SIGABRT (std::bad_alloc in a clingo
thread), SIGKILL, SIGSEGV."""


def find_instances(paths: list[str]) -> list[Path]:
    """Files as given; folders walked recursively, instance files in sorted order; none
    at all is an error."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix in INSTANCE_SUFFIXES
            )
        elif path.is_file():
            found.append(path)
        else:
            raise InputError("no such file or folder", path=name)
    if not found:
        raise InputError(
            f"no instance files ({', '.join(INSTANCE_SUFFIXES)}) in: {' '.join(paths)}"
        )
    return found


def content_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def solve_file(path: str, options: SolveOptions, memory_limit: int | None = None) -> Row:
    """Worker side: one instance file to one result row; errors are data, not raised.
    The row also says where it ran and the worker's peak memory (one instance per
    worker process, so the process's peak is the instance's).  ``memory_limit`` (bytes)
    caps the worker's address space: clingo has no limit of its own, and an instance
    over it ends as ``UNKNOWN`` with ``stopped: "memory"`` instead of taking the
    machine down."""
    started = time.monotonic()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if memory_limit is not None:  # the soft limit only: lifted again to send the row back
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, hard))
    try:
        puzzle = load_puzzle(path)
        result = solve(puzzle, replace(options, source=path))
    except HanoiError as error:
        row = error_json(path, str(error), error.exit_code)
        row["time_s"] = round(time.monotonic() - started, 4)
    except (MemoryError, RuntimeError) as error:
        if not isinstance(error, MemoryError) and "bad_alloc" not in str(error):
            raise
        row = error_json(path, f"over the memory limit of {memory_limit} bytes", EXIT_UNKNOWN)
        row.update(stopped="memory", status="memory", time_s=round(time.monotonic() - started, 4))
    else:
        row = result.to_dict(path)
        row.update(pegs=len(puzzle.pegs), disks=puzzle.disks)
        row["status"] = result.stopped or "ok"
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    row["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    row["host"] = socket.gethostname()
    return row


@dataclass(frozen=True)
class BatchOptions:
    workers: int
    timeout: float | None
    out: Path
    resume: bool = False
    force: bool = False
    """Replace an ``out`` file that already holds results (else that is refused)."""
    retry: tuple[str, ...] = ()
    """With ``resume``: results (e.g. ``UNKNOWN``) whose instances run again."""
    memory_limit: int | None = None
    """Bytes of address space per instance's worker (None: no limit)."""
    solve: SolveOptions = field(default_factory=SolveOptions)


def default_memory_limit(workers: int) -> int:
    """A safe share of the machine: 80% of its memory, split among the workers."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(total * 0.8) // max(1, workers)


def parse_size(text: str) -> int:
    """``4GiB``, ``512MiB``, ``2G``, ``1500M``, ``800k`` or plain bytes, as bytes.

    >>> parse_size("4GiB"), parse_size("1.5G"), parse_size("100")
    (4294967296, 1610612736, 100)
    """
    units = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
    number = text.strip().lower().removesuffix("ib").removesuffix("b")
    unit = number[-1:] if number[-1:] in units else ""
    try:
        value = float(number[: len(number) - len(unit)])
    except ValueError:
        raise ValueError(f"not a size: {text!r} (e.g. 4GiB, 512MiB)") from None
    if value <= 0:
        raise ValueError(f"a size must be positive, not {text!r}")
    return int(value * units[unit])


@dataclass
class BatchRun:
    """What a batch did: every row of the instances asked for (resumed ones from the
    file, marked ``"resumed": true``), whether Ctrl-C stopped it, and notes."""

    rows: list[Row] = field(default_factory=list)
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    resumed: int = 0


def run_batch(
    files: list[Path],
    options: BatchOptions,
    on_row: Callable[[Row], None],
    on_resumed: Callable[[int], None] = lambda _: None,
    on_running: Callable[[list[str]], None] = lambda _: None,
) -> BatchRun:
    """Solve ``files``; append each row to ``options.out`` as it finishes.  Ctrl-C
    stops the workers and returns what finished (``interrupted``)."""
    with ResultsFile.open(options.out, resume=options.resume, force=options.force) as sink:
        run = BatchRun(notes=list(sink.notes))
        earlier = {(r["instance"], r.get("sha256")): r for r in sink.rows()}
        again = {i for (i, _), r in earlier.items() if r.get("result") in options.retry}
        if again:
            sink.drop(again)
            run.notes.append(f"running {len(again)} instance(s) again ({', '.join(options.retry)})")
        todo: list[tuple[Path, str]] = []
        for path in files:
            digest = content_hash(path)
            row = earlier.get((str(path), digest))
            if row is not None and str(path) not in again:
                run.rows.append({**row, "resumed": True})
            else:
                todo.append((path, digest))
        run.resumed = len(run.rows)
        on_resumed(run.resumed)
        try:
            for row in _solve_all(todo, options, on_running):
                sink.append(row)
                run.rows.append(row)
                on_row(row)
        except KeyboardInterrupt:
            run.interrupted = True
    return run


def _solve_all(
    todo: list[tuple[Path, str]],
    options: BatchOptions,
    on_running: Callable[[list[str]], None] = lambda _: None,
) -> Iterator[Row]:
    """Rows as the workers finish, each instance in its own process."""
    solve_options = replace(
        options.solve,
        timeout=options.timeout,
        threads=batch_threads(options.workers, options.solve.threads),
    )
    hard_limit = None if options.timeout is None else options.timeout + KILL_GRACE_S
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["hanoi_asp.batch.run"])
    with ProcessPool(max_workers=options.workers, max_tasks=1, context=context) as pool:
        futures = [
            (
                path,
                digest,
                pool.schedule(
                    solve_file,
                    args=(str(path), solve_options, options.memory_limit),
                    timeout=hard_limit,
                ),
            )
            for path, digest in todo
        ]
        try:
            yield from _collect(futures, options.timeout, options.memory_limit, on_running)
        except KeyboardInterrupt:
            pool.stop()  # type: ignore[no-untyped-call]
            raise


def _collect(
    futures: list[tuple[Path, str, Any]],
    timeout: float | None,
    memory_limit: int | None = None,
    on_running: Callable[[list[str]], None] = lambda _: None,
) -> Iterator[Row]:
    """Rows in the order the workers finish; ``on_running`` hears which instances are
    being solved whenever that changes."""
    pending = list(futures)
    running: list[str] = []
    while pending:
        still: list[tuple[Path, str, Any]] = []
        for path, digest, future in pending:
            if not future.done():
                still.append((path, digest, future))
                continue
            yield _row_of(path, digest, future, timeout, memory_limit)
        pending = still
        now = [str(path) for path, _, future in pending if future.running()]
        if now != running:
            running = now
            on_running(running)
        if pending:
            time.sleep(0.02)


def _row_of(
    path: Path, digest: str, future: Any, timeout: float | None, memory_limit: int | None
) -> Row:
    try:
        row: Row = future.result()
    except FutureTimeout:
        row = error_json(str(path), f"killed after {timeout} s", EXIT_UNKNOWN)
        row.update(result="UNKNOWN", stopped="killed", time_s=timeout)
        row["status"] = "timeout"
    except ProcessExpired as error:
        if memory_limit is not None and error.exitcode in OUT_OF_MEMORY_EXITS:
            # clingo's threads abort on a failed allocation: the limit, not a bug
            message = f"worker died (exit code {error.exitcode}) over the memory limit"
            row = error_json(str(path), f"{message} of {memory_limit} bytes", EXIT_UNKNOWN)
            row.update(stopped="memory", status="memory")
        else:
            message = f"worker died (exit code {error.exitcode})"
            row = error_json(str(path), message, EXIT_BAD_INPUT)
            row["status"] = "crash"
    except Exception as error:
        row = error_json(
            str(path), f"worker failed: {type(error).__name__}: {error}", EXIT_BAD_INPUT
        )
        row["status"] = "crash"
    row.setdefault("status", "error" if row["result"] == "ERROR" else "ok")
    row["sha256"] = digest
    return row


def summarize(rows: list[Row]) -> dict[str, Any]:
    """Counts per result (resumed rows included: the file's answer for each instance),
    total and slowest times of this run, and the batch's exit code."""
    fresh = [r for r in rows if not r.get("resumed")]
    counts = {
        key: 0 for key in ("OPTIMUM FOUND", "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "ERROR")
    }
    for row in rows:
        counts[row["result"]] = counts.get(row["result"], 0) + 1
    timed = sorted(
        (r for r in fresh if isinstance(r.get("time_s"), int | float)),
        key=lambda r: -float(r["time_s"]),
    )
    if counts["ERROR"]:
        code = EXIT_BAD_INPUT
    elif counts["UNSATISFIABLE"] or counts["UNKNOWN"]:
        code = EXIT_UNSAT
    else:
        code = EXIT_FOUND
    return {
        "counts": counts,
        # optimal: proven minimal; feasible: a plan not proven minimal (a stopped search);
        # unsolved: stopped with no plan
        "answers": {
            "optimal": counts["OPTIMUM FOUND"],
            "feasible": counts["SATISFIABLE"],
            "unsolved": counts["UNKNOWN"],
        },
        "resumed": len(rows) - len(fresh),
        "total_s": round(sum(float(r["time_s"]) for r in timed), 3),
        "slowest": [(r["instance"], r["time_s"]) for r in timed[:3]],
        "exit_code": code,
    }


CSV_COLUMNS = (
    "instance",
    "result",
    "length",
    "lower_bound",
    "time_s",
    "status",
    "error",
    "upper_bound",
    "proven_minimal",
    "stopped",
    "pegs",
    "disks",
    "max_moves",
    "method",
    "bound_name",
    "threads",
    "peak_mib",
    "host",
)
"""The CSV's columns: the first seven as before, the rest added after them."""


def write_csv(rows: list[Row], path: Path) -> None:
    import csv

    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            bound = row.get("bound")
            flat = {**row, "bound_name": bound.get("name") if isinstance(bound, dict) else None}
            writer.writerow(["" if flat.get(c) is None else flat[c] for c in CSV_COLUMNS])
