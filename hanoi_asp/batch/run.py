"""Batch runs: many instance files, each solved in a warm worker process with its own
limits, on this machine's pool (:mod:`hanoi_asp.batch.worker`) or on a Dask cluster
(:mod:`hanoi_asp.batch.dask`, on Slurm too: :mod:`hanoi_asp.batch.slurm`).

One JSON line is appended and flushed per finished instance, by this process only, so
a batch killed halfway keeps every finished result and ``--resume`` picks up the rest.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from hanoi_asp.batch.results import ResultsFile
from hanoi_asp.batch.row import DEFAULT_CONFIG, BatchRow, retried, row_key
from hanoi_asp.batch.summary import WorkerClock
from hanoi_asp.batch.worker import (
    content_hash,
    hard_limit,
    new_pool,
    row_of,
    solve_file,
)
from hanoi_asp.engine import batch_threads
from hanoi_asp.inputs.pddl_files import DomainFile
from hanoi_asp.model.options import SolveOptions


@dataclass(frozen=True)
class BatchOptions:
    workers: int
    timeout: float | None
    out: Path
    resume: bool = False
    force: bool = False
    """Replace an ``out`` file that already holds results (else that is refused)."""
    retry: tuple[str, ...] = ()
    """With ``resume``: which earlier rows run again (:data:`~hanoi_asp.batch.row.RETRY_KINDS`)."""
    memory_limit: int | None = None
    """Bytes of address space per instance's process (None: no limit on this machine;
    on Dask, each worker's own default share)."""
    solve: SolveOptions = field(default_factory=SolveOptions)
    configs: tuple[tuple[str, SolveOptions], ...] = ()
    """Named configurations (``--encoding``, ``--config``), each run on every instance;
    none: ``solve`` alone, named ``default``."""
    dask: str | None = None
    """A Dask scheduler's address, ``local`` / ``local:N``, or ``slurm:N``; None: this
    machine's pool."""
    slurm: tuple[tuple[str, str], ...] = ()
    """``--slurm-option KEY=VALUE`` pairs for ``slurm:N`` (:mod:`hanoi_asp.batch.slurm`)."""
    domain: DomainFile | None = None
    """``--domain``: the domain of every PDDL problem (None: the one beside each)."""


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


Task = tuple[Path, str, str, SolveOptions]
"""An instance file, its content hash, a configuration's name and its options."""


def configurations(options: BatchOptions) -> tuple[tuple[str, SolveOptions], ...]:
    """The configurations a batch runs: the named ones, else the default."""
    return options.configs or ((DEFAULT_CONFIG, options.solve),)


@dataclass
class BatchRun:
    """What a batch did: every row of the instances asked for (resumed ones from the
    file, marked ``"resumed": true``), whether Ctrl-C stopped it, notes, and the
    worker-seconds its workers were there (:class:`~hanoi_asp.batch.summary.WorkerClock`)."""

    rows: list[BatchRow] = field(default_factory=list)
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    resumed: int = 0
    clock: WorkerClock = field(default_factory=WorkerClock)


def run_batch(
    files: list[Path],
    options: BatchOptions,
    on_row: Callable[[BatchRow], None],
    on_resumed: Callable[[int], None] = lambda _: None,
    on_running: Callable[[list[str]], None] = lambda _: None,
) -> BatchRun:
    """Solve ``files``; append each row to ``options.out`` as it finishes.  Ctrl-C
    stops the workers and returns what finished (``interrupted``)."""
    with ResultsFile.open(options.out, resume=options.resume, force=options.force) as sink:
        run = BatchRun(notes=list(sink.notes))
        earlier = {row_key(r): r for r in sink.rows()}
        again = {key for key, r in earlier.items() if retried(r, options.retry)}
        digests = {str(path): content_hash(path, options.domain) for path in files}
        changed = {  # edited since its row was written: the row no longer answers it
            key
            for key, r in earlier.items()
            if key[0] in digests and r.get("sha256") != digests[key[0]]
        }
        if again:
            run.notes.append(f"running {len(again)} instance(s) again ({', '.join(options.retry)})")
        if changed:
            run.notes.append(f"running {len(changed)} changed instance(s) again")
        todo: list[Task] = []
        for path in files:
            for name, solve_options in configurations(options):
                key = (str(path), name)
                row = earlier.get(key)
                if row is not None and key not in again | changed:
                    run.rows.append({**row, "resumed": True})
                else:
                    todo.append((path, digests[str(path)], name, solve_options))
        todo.sort(key=_largest_first)
        run.resumed = len(run.rows)
        on_resumed(run.resumed)

        def started() -> None:  # the file changes only once the workers are there
            sink.begin()
            if again or changed:
                sink.drop(again | changed)

        try:
            for row in _solve_all(todo, options, run.clock, started, on_running):
                row["timeout"] = options.timeout  # the limit, for report's PAR-2
                sink.append(row)
                run.rows.append(row)
                on_row(row)
        except KeyboardInterrupt:
            run.interrupted = True
        finally:
            run.clock.slots(0)
    return run


def _largest_first(task: Task) -> int:
    """Largest files first, a stand-in for the hardest puzzles first (the longest-job-
    first rule of scheduling): a slow instance started last keeps one worker busy
    while the others have nothing left to do (1,000 small instances and one stuck at
    the end of the folder: the batch's last 2 s on one worker).  Rows come in the order
    they finish either way."""
    try:
        return -task[0].stat().st_size
    except OSError:
        return 0


def _solve_all(
    todo: list[Task],
    options: BatchOptions,
    clock: WorkerClock,
    on_started: Callable[[], None],
    on_running: Callable[[list[str]], None] = lambda _: None,
) -> Iterator[BatchRow]:
    """Rows as the instances finish, each in its own process, each named by its
    configuration; ``on_started`` is called once the workers are there (a pool, a
    cluster that answers), before any row; ``clock`` hears how many worker slots there
    are."""
    if not todo:  # all resumed: no pool, no cluster, no Slurm jobs to start
        return
    if options.dask is not None:
        from hanoi_asp.batch.dask import solve_on_dask

        timed = [(p, d, n, replace(o, timeout=options.timeout)) for p, d, n, o in todo]
        yield from solve_on_dask(
            timed,
            options.dask,
            options.memory_limit,
            clock,
            on_running,
            options.slurm,
            domain=options.domain,
            on_started=on_started,
        )
        return
    with new_pool(options.workers) as pool:
        on_started()
        clock.slots(min(options.workers, len(todo)))
        futures = [
            (
                path,
                digest,
                name,
                pool.submit(
                    solve_file,
                    str(path),
                    replace(
                        solve_options,
                        timeout=options.timeout,
                        threads=batch_threads(options.workers, solve_options.threads),
                    ),
                    options.memory_limit,
                    None,
                    options.domain,
                    timeout=hard_limit(options.timeout),
                ),
            )
            for path, digest, name, solve_options in todo
        ]
        try:
            yield from _collect(futures, options.timeout, options.memory_limit, on_running)
        except KeyboardInterrupt:
            pool.stop()
            raise


RUNNING_POLL_S = 0.25
"""How often the instances being solved are looked up for the live line."""


def _collect(
    futures: list[tuple[Path, str, str, Any]],
    timeout: float | None,
    memory_limit: int | None = None,
    on_running: Callable[[list[str]], None] = lambda _: None,
) -> Iterator[BatchRow]:
    """Rows in the order the workers finish: each future reports itself to a queue
    when it is done, so N instances cost N wake-ups of this process, where looking over
    every pending one 50 times a second cost the workers a core's share on a small
    machine.  ``on_running`` hears which instances are being solved whenever that
    changes, looked up a few times a second."""
    finished: queue.SimpleQueue[int] = queue.SimpleQueue()
    for index, (*_, future) in enumerate(futures):
        future.add_done_callback(partial(_report_done, finished, index))
    pending = dict(enumerate(futures))
    running: list[str] = []
    looked = time.monotonic()
    while pending:
        try:
            path, digest, name, future = pending.pop(finished.get(timeout=RUNNING_POLL_S))
            yield {**row_of(str(path), digest, future, timeout, memory_limit), "config": name}
        except queue.Empty:
            pass
        if time.monotonic() - looked < RUNNING_POLL_S and pending:
            continue
        looked = time.monotonic()
        now = [str(path) for path, _, _, future in pending.values() if future.running()]
        if now != running:
            running = now
            on_running(running)


def _report_done(finished: queue.SimpleQueue[int], index: int, _: Any) -> None:
    finished.put(index)


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


def write_csv(rows: list[BatchRow], path: Path) -> None:
    import csv

    from hanoi_asp.outputs.safe_text import spreadsheet_cell  # no formula from a name

    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            bound = row.get("bound")
            flat = {**row, "bound_name": bound.get("name") if isinstance(bound, dict) else None}
            cells = ["" if flat.get(c) is None else flat[c] for c in CSV_COLUMNS]
            writer.writerow([spreadsheet_cell(cell) for cell in cells])
