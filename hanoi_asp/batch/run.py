"""Batch runs: many instance files, each solved in its own short-lived worker process.

A worker process per instance (clingo never frees symbols inside a process, and a
crash or hang must not take the batch down), a hard per-instance time limit that kills
the worker, and one JSON line appended and flushed per finished instance, so a batch
killed halfway keeps every finished result and ``--resume`` picks up the rest.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pebble import ProcessExpired, ProcessPool

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


def find_instances(paths: Iterable[str]) -> list[Path]:
    """Files as given; folders walked recursively, instance files in sorted order."""
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
    return found


def content_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def solve_file(path: str, options: SolveOptions) -> Row:
    """Worker side: one instance file to one result row; errors are data, not raised."""
    started = time.monotonic()
    try:
        result = solve(load_puzzle(path), replace(options, source=path))
    except HanoiError as error:
        row = error_json(path, str(error), error.exit_code)
        row["time_s"] = round(time.monotonic() - started, 4)
        return row
    row = result.to_dict(path)
    row["status"] = "ok"
    return row


def read_results(out: Path) -> list[Row]:
    """Rows of a results file; a torn last line (a batch killed mid-write) is skipped."""
    rows: list[Row] = []
    if not out.exists():
        return rows
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "instance" in row:
            rows.append(row)
    return rows


@dataclass(frozen=True)
class BatchOptions:
    workers: int
    timeout: float | None
    out: Path
    resume: bool = False
    solve: SolveOptions = field(default_factory=SolveOptions)


def run_batch(files: list[Path], options: BatchOptions, on_row: Callable[[Row], None]) -> list[Row]:
    """Solve ``files``; append each row to ``options.out`` as it finishes; return all rows
    of this run (resumed ones included, marked ``"resumed": true``)."""
    earlier = (
        {(r["instance"], r.get("sha256")) for r in read_results(options.out)}
        if options.resume
        else set()
    )
    rows: list[Row] = []
    todo: list[tuple[Path, str]] = []
    for path in files:
        digest = content_hash(path)
        if (str(path), digest) in earlier:
            rows.append({"instance": str(path), "sha256": digest, "resumed": True})
        else:
            todo.append((path, digest))
    if not options.resume and options.out.exists():
        options.out.unlink()  # a fresh batch starts a fresh results file
    solve_options = replace(
        options.solve,
        timeout=options.timeout,
        threads=batch_threads(options.workers, options.solve.threads),
    )
    hard_limit = None if options.timeout is None else options.timeout + KILL_GRACE_S
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["hanoi_asp.batch.run"])
    options.out.parent.mkdir(parents=True, exist_ok=True)
    with (
        options.out.open("a", encoding="utf-8") as sink,
        ProcessPool(max_workers=options.workers, max_tasks=1, context=context) as pool,
    ):
        futures = [
            (
                path,
                digest,
                pool.schedule(solve_file, args=(str(path), solve_options), timeout=hard_limit),
            )
            for path, digest in todo
        ]
        try:
            for row in _collect(futures, options.timeout):
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                rows.append(row)
                on_row(row)
        except KeyboardInterrupt:
            pool.stop()  # type: ignore[no-untyped-call]
            raise
    return rows


def _collect(futures: list[tuple[Path, str, Any]], timeout: float | None) -> Iterator[Row]:
    """Rows in the order the workers finish."""
    pending = list(futures)
    while pending:
        still: list[tuple[Path, str, Any]] = []
        for path, digest, future in pending:
            if not future.done():
                still.append((path, digest, future))
                continue
            yield _row_of(path, digest, future, timeout)
        pending = still
        if pending:
            time.sleep(0.02)


def _row_of(path: Path, digest: str, future: Any, timeout: float | None) -> Row:
    try:
        row: Row = future.result()
    except FutureTimeout:
        row = error_json(str(path), f"killed after {timeout} s", EXIT_UNKNOWN)
        row.update(result="UNKNOWN", stopped="killed", time_s=timeout)
        row["status"] = "timeout"
    except ProcessExpired as error:
        row = error_json(str(path), f"worker died (exit code {error.exitcode})", EXIT_BAD_INPUT)
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
    """Counts per result, total and slowest times, and the batch's exit code."""
    fresh = [r for r in rows if not r.get("resumed")]
    counts = {
        key: 0 for key in ("OPTIMUM FOUND", "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "ERROR")
    }
    for row in fresh:
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


def write_csv(rows: list[Row], path: Path) -> None:
    import csv

    columns = (
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
    )
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([row.get(c, "") if row.get(c) is not None else "" for c in columns])
