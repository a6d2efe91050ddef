"""The worker's side of a batch on Dask (:mod:`hanoi_asp.batch.dask`): a chunk of
instances, each in a warm process of a pool of this Dask worker's own, with the hard
time limit and the memory limit (:mod:`hanoi_asp.batch.worker`), run once more if its
process died, and given up once Dask cancels the task."""

from __future__ import annotations

import os
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from hanoi_asp.batch.row import BatchRow
from hanoi_asp.batch.worker import hard_limit, new_pool, row_of, solve_file
from hanoi_asp.inputs.pddl_files import DomainFile
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.processes import WarmPool, default_memory_limit, worker_died

CANCEL_POLL_S = 0.5
"""How often a running instance, and the client, look whether Dask cancelled it."""
DaskTask = tuple[str, str, str, SolveOptions, int | None, DomainFile | None]
"""One instance for a worker: its file's name, content hash and text, its options, its
memory limit (None: the worker's own share) and a PDDL problem's domain, read."""


def solve_chunk(tasks: list[DaskTask], key: str) -> list[BatchRow]:
    """Runs on a Dask worker: each instance of the chunk in turn, as
    :func:`solve_isolated` (its own process, time limit, memory cap, once more if its
    process died); the rest of the chunk is skipped once Dask cancels it."""
    rows: list[BatchRow] = []
    for task in tasks:
        if _cancelled(key):
            break
        rows.append(solve_isolated(*task, key))
    return rows


def solve_isolated(
    path: str,
    digest: str,
    text: str,
    options: SolveOptions,
    memory_limit: int | None,
    domain: DomainFile | None,
    key: str,
) -> BatchRow:
    """Runs on a Dask worker: the instance in a process of its own, killed at the hard
    time limit, or when Dask cancels the task (the client went away or was stopped).
    With no ``memory_limit`` given, an instance may use 80% of this worker's part of its
    machine (Dask's own worker memory limit: by default the machine's memory shared among
    the workers started there, or ``dask worker --memory-limit``), split among its threads.

    The processes are a warm pool (:func:`_warm_pool`), as on this machine; they die
    with the Dask worker however it ends (:class:`~hanoi_asp.processes.WarmPool`).  An
    instance whose process died (killed from outside, a crash; not its time limit) runs
    once more; its row then says ``"attempts": 2``."""
    from distributed import get_worker

    worker = get_worker()
    memory_limit = memory_limit or _worker_share(worker)
    row, died = _solve_once(path, digest, text, options, memory_limit, domain, key)
    if died and not _cancelled(key):
        # the instance's process died (killed from outside, a crash, or its memory cap
        # when clingo could not raise MemoryError): once more, then recorded as it ends
        row, _ = _solve_once(path, digest, text, options, memory_limit, domain, key)
        row["attempts"] = 2
    return row


def _solve_once(
    path: str,
    digest: str,
    text: str,
    options: SolveOptions,
    memory_limit: int,
    domain: DomainFile | None,
    key: str,
) -> tuple[BatchRow, bool]:
    """The instance's row, and whether its process died before it could write one."""
    from distributed import get_worker

    future = _warm_pool(get_worker().state.nthreads).submit(
        solve_file, path, options, memory_limit, text, domain, timeout=hard_limit(options.timeout)
    )
    while not future.done():
        try:
            future.result(timeout=CANCEL_POLL_S)
        except FutureTimeout:
            if _cancelled(key):
                future.cancel()  # pebble stops the instance's process
        except BaseException:  # the row says what happened
            break
    return row_of(path, digest, future, options.timeout, memory_limit), worker_died(future)


_pools: dict[int, WarmPool] = {}
"""This Dask worker process's warm pool (one per process: a worker's tasks share it)."""


def _warm_pool(threads: int) -> WarmPool:
    """Warm processes for this Dask worker's instances, as the local pool has
    (:func:`hanoi_asp.batch.worker.new_pool`): a fresh process per instance cost about
    60 ms each.  Made on the first task; its threads are daemons and its processes die
    with the worker, so it never keeps a worker from shutting down."""
    pool = _pools.get(os.getpid())
    if pool is None or not pool.active:
        pool = _pools[os.getpid()] = new_pool(threads)
    return pool


def stop_pools() -> None:
    """Run on each worker before a cluster the batch started closes: a worker whose
    pool was still up took 4 s to close (its nanny waited, then ended it)."""
    for pool in _pools.values():
        pool.stop()
    _pools.clear()


def _worker_share(worker: Any) -> int:
    threads = worker.state.nthreads
    share = worker.memory_manager.memory_limit  # None: the worker has no limit
    return int(share * 0.8) // threads if share else default_memory_limit(threads)


def _cancelled(key: str) -> bool:
    from distributed import get_worker

    task = get_worker().state.tasks.get(key)
    return task is None or task.state in ("cancelled", "released", "forgotten")
