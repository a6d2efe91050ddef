"""A batch on a Dask cluster: ``batch --dask tcp://host:8786``, ``--dask local[:N]``, or
``--dask slurm:N`` (N worker jobs on Slurm: :mod:`hanoi_asp.batch.slurm`).

Dask places the instances on its workers and runs an instance once more elsewhere
when its worker dies (then records it as failed), so each finishes once; this process
reads every file (workers need no shared file system), gets the rows back as they
finish and is the only writer of the results file, so ``--resume`` works as it does on
one machine.  On the worker (:mod:`hanoi_asp.batch.dask_worker`), an instance runs in a
warm process of a pool of its own with the hard time limit and the memory limit
(:mod:`hanoi_asp.batch.worker`): a runaway solve is killed, not the worker.
``dask[distributed]`` is the optional extra ``hanoi-asp[dask]`` (``hanoi-asp[slurm]``
adds dask-jobqueue).
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass, replace
from itertools import repeat
from pathlib import Path
from typing import Any

from hanoi_asp.batch.dask_worker import CANCEL_POLL_S, DaskTask, solve_chunk, stop_pools
from hanoi_asp.batch.row import BatchRow, solved_row
from hanoi_asp.batch.slurm import REPLACE_AFTER_S, SlurmJobs, jobs_of
from hanoi_asp.batch.summary import WorkerClock
from hanoi_asp.batch.worker import (
    finish_row,
    worker_failed,
)
from hanoi_asp.inputs.instance import read_text
from hanoi_asp.inputs.pddl_files import DomainFile, domain_for
from hanoi_asp.model.errors import HanoiError, InputError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.outputs.json import error_json

INSTALL_HINT = "--dask needs the dask extra: pip install 'hanoi-asp[dask]'"
CONNECT_TIMEOUT_S = 10
DASHBOARD = "127.0.0.1:0"
"""Where the scheduler a batch starts serves its dashboard: any free port, here only."""
CHUNK_MAX = 16
"""Most instances in one Dask task (:func:`chunk_size`)."""
CHUNKS_PER_SLOT = 8
READY_POLL_S = 0.005
"""How often the client looks for finished rows (a local check, no message)."""
ALLOWED_FAILURES = 1
"""A task whose worker died runs once more, then is recorded as failed (Dask's own
default is 3 more; on a cluster started elsewhere, its scheduler's setting holds)."""
LOST_WORKER = "distributed.deploy.lost-worker-timeout"
SETTINGS = {
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
    LOST_WORKER: f"{REPLACE_AFTER_S}s",
}
"""Dask's configuration while a batch runs: for the scheduler it starts (``local:N``,
``slurm:N``; a scheduler started elsewhere keeps its own) and, read when a worker
leaves, for replacing a lost Slurm job (:mod:`hanoi_asp.batch.slurm`; on Slurm only:
:func:`settings_for`)."""


def settings_for(address: str) -> dict[str, object]:
    """:data:`SETTINGS` for a batch on ``address``, the lost-worker timeout on Slurm only.
    A ``local:N`` cluster's nanny restarts a killed worker; with 2 s, Dask closed that
    nanny when the restart took longer (2.7 s under load), killing the new worker that
    had meanwhile registered and taken the dead one's instance: a second death for it,
    so ``KilledWorker`` and an ERROR row where the instance should simply run again."""
    if jobs_of(address) is not None:
        return dict(SETTINGS)
    return {key: value for key, value in SETTINGS.items() if key != LOST_WORKER}


def solve_on_dask(
    todo: list[tuple[Path, str, str, SolveOptions]],
    address: str,
    memory_limit: int | None,
    clock: WorkerClock | None = None,
    on_running: Callable[[list[str]], None] = lambda _: None,
    slurm: tuple[tuple[str, str], ...] = (),
    chunk: int | None = None,
    domain: DomainFile | None = None,
    on_started: Callable[[], None] = lambda: None,
) -> Iterator[BatchRow]:
    """Rows as the cluster finishes them (each task: file, content hash, configuration
    name and its options).  One clingo thread per instance unless ``--threads`` says
    otherwise: a Dask worker's threads are its instances at once.  ``clock`` hears how
    many worker threads the cluster has; ``slurm``: ``--slurm-option`` pairs; ``chunk``:
    instances per Dask task (default: :func:`chunk_size`); ``domain``: ``--domain``;
    ``on_started`` is called once the cluster answers (the Slurm jobs accepted), before
    any row."""
    try:
        from distributed import as_completed
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    import dask
    from distributed.utils import silence_logging_cmgr

    clock = clock or WorkerClock()
    with ExitStack() as stack:
        stack.enter_context(dask.config.set(settings_for(address)))
        # Dask's logs are not the batch's (its rows say what failed): a Slurm job
        # cancelled mid-instance had the scheduler log a CommClosedError traceback
        # at INFO on this process's stderr, after the cluster's own silencing ended
        stack.enter_context(silence_logging_cmgr(logging.CRITICAL))
        cluster = stack.enter_context(connect(address, slurm))
        client = cluster.client
        on_started()
        tasks: list[DaskTask] = []
        where: list[tuple[str, str, str]] = []
        for file, digest, name, options in todo:
            options = replace(options, threads=options.threads or 1)
            try:
                text = read_text(str(file))
                shipped = domain_for(str(file), text, domain)  # no shared file system
            except HanoiError as error:
                row = solved_row(
                    error_json(str(file), str(error.for_command_line()), error.exit_code)
                )
                yield {**finish_row(row, digest), "config": name}
                continue
            tasks.append((str(file), digest, text, options, memory_limit, shipped))
            where.append((str(file), digest, name))
        # one graph for the scheduler, instances in chunks (Dask's upkeep per task is a
        # few milliseconds of its worker's and its scheduler's time: more than a small
        # instance's solve), the finished rows fetched in batches
        slots = sum(client.nthreads().values())  # none yet: Slurm jobs still queued
        size = chunk or (chunk_size(len(tasks), slots) if slots else 1)
        starts = range(0, len(tasks), size)
        chunks = [tasks[i : i + size] for i in starts]
        keys = [f"hanoi-asp-{i}-{tasks[i][1][:12]}-{min(size, len(tasks) - i)}" for i in starts]
        futures = client.map(solve_chunk, chunks, keys, key=keys, pure=False) if chunks else []
        places = [where[i : i + size] for i in starts]
        pending: dict[Any, list[tuple[str, str, str]]] = dict(zip(futures, places, strict=True))
        running: list[str] = []
        finished = as_completed(futures)  # type: ignore[no-untyped-call]
        del futures  # a chunk's rows stay on its worker while a future of it is held here
        looked = 0.0
        while pending:
            ready = finished.has_ready()  # type: ignore[no-untyped-call]
            batch = finished.next_batch(block=False) if ready else []  # type: ignore[no-untyped-call]
            for future, answer in _rows_of(client, finished, batch):
                for (path, digest, name), outcome in zip(pending.pop(future), answer, strict=False):
                    yield {**_checked_row(outcome, path, digest), "config": name}
            if time.monotonic() - looked < CANCEL_POLL_S:
                time.sleep(READY_POLL_S)
                continue
            # asked of the scheduler twice a second, not after every row
            looked = time.monotonic()
            cluster.keep_up()
            clock.slots(sum(client.nthreads().values()))
            now = _running(client, pending)
            if now != running:
                running = now
                on_running(running)


@dataclass
class Cluster:
    """A client of the batch's scheduler, and the cluster behind it when the batch
    started one (``local:N``, ``slurm:N``), closed when the batch ends."""

    client: Any
    local: Any = None
    slurm: Any = None

    def keep_up(self) -> None:
        if self.slurm is not None:
            self.slurm.keep_up()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *_: object) -> None:
        if self.local is not None or self.slurm is not None:
            with suppress(Exception):  # a worker gone already has nothing to stop
                self.client.run(stop_pools, on_error="ignore")
        self.client.close()
        if self.local is not None:
            self.local.close()
        if self.slurm is not None:
            self.slurm.close()


def connect(address: str, slurm: tuple[tuple[str, str], ...] = ()) -> Cluster:
    """A client of the scheduler at ``address``; of a new ``LocalCluster`` of N
    one-thread worker processes (``local:N``; ``local``: one per core); or of N worker
    jobs on Slurm (``slurm:N``).  Workers take one instance per thread
    (``worker-saturation`` 1.0), so what the scheduler says is processing is what runs."""
    from distributed import Client, LocalCluster

    jobs = jobs_of(address)
    if jobs is not None:
        slurm_jobs = SlurmJobs(jobs, slurm)
        try:
            return Cluster(Client(slurm_jobs.cluster), slurm=slurm_jobs)  # type: ignore[no-untyped-call]
        except BaseException:
            slurm_jobs.close()
            raise
    if slurm:
        raise InputError(f"--slurm-option is for --dask slurm:N, not --dask {address}")
    if address == "local" or address.startswith("local:"):
        count = address.removeprefix("local").removeprefix(":") or str(os.cpu_count() or 1)
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise InputError(f"--dask {address}: local:N needs N from 1 to 256 workers")
        # the cluster's thread and processes start with a closed terminal's SIGHUP
        # blocked (they inherit it): this process handles it, as SIGTERM, and stops them
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
        try:
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=int(count),
                threads_per_worker=1,
                processes=True,
                # Dask serves its dashboard whatever it is told (None is its port 8787:
                # a second batch warned "port in use"): a free port of this machine's
                dashboard_address=DASHBOARD,
                # Dask's own logs are not the batch's: its rows say what failed.  ERROR
                # let through a worker's traceback when its heartbeat met a scheduler
                # that had just closed (once, test_an_instance_whose_process_died_runs_once_more)
                silence_logs=logging.CRITICAL,
            )
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        return Cluster(Client(cluster), local=cluster)  # type: ignore[no-untyped-call]
    try:
        return Cluster(Client(address, timeout=CONNECT_TIMEOUT_S))  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as error:
        message = f"cannot reach a Dask scheduler there ({error})"
        raise InputError(f"--dask {address}: {message}") from None


def _rows_of(
    client: Any, finished: Any, batch: list[Any]
) -> list[tuple[Any, Iterable[BatchRow | BaseException]]]:
    """Each finished chunk with its rows, fetched together (one request per worker), or
    with the exception that ended it on Dask's side, once for each of its instances.

    A chunk whose rows were lost after it finished (its worker died before they were
    fetched: Dask computes it again, and says ``lost`` meanwhile) goes back to
    ``finished`` (the batch's ``as_completed``) to come out again with its new rows:
    taken for a failure, it made ERROR rows (``worker failed: RuntimeError: None``) of
    instances that had their answers.  One lost after its status was read is computed
    again by the fetch itself; if that fails too (a second worker died with it:
    ``KilledWorker``), its instances get error rows, the others their answers."""
    said = [(future, future.status) for future in batch]  # once: Dask's thread changes it
    done = [future for future, status in said if status == "finished"]
    ended = [future for future, status in said if status in ("error", "cancelled")]
    finished.update(future for future, status in said if status in ("lost", "pending"))
    try:
        rows: list[Iterable[BatchRow | BaseException]] = client.gather(done) if done else []
    except Exception:  # Dask's reason is each future's: read one by one
        rows = [_result_or_failure(future) for future in done]
    return [*zip(done, rows, strict=True), *((f, repeat(_failure(f))) for f in ended)]


def _result_or_failure(future: Any) -> Iterable[BatchRow | BaseException]:
    """The chunk's rows, or the exception that ended it once for each instance."""
    try:
        rows: list[BatchRow] = future.result()
    except Exception:
        return repeat(_failure(future))
    return rows


def _failure(future: Any) -> BaseException:
    try:
        error = future.exception()
    except BaseException as cancelled:  # a cancelled future raises its CancelledError
        return cancelled
    return error if isinstance(error, BaseException) else RuntimeError(str(error))


def chunk_size(instances: int, slots: int) -> int:
    """Instances per Dask task: enough chunks for each of the cluster's ``slots``
    worker threads to take about :data:`CHUNKS_PER_SLOT` of them (so the last ones still
    spread over the cluster), at most :data:`CHUNK_MAX` instances each, one when there
    are few.  A cluster whose workers are not there yet (Slurm jobs in the queue) gets
    one instance per task: its size is unknown."""
    return max(1, min(CHUNK_MAX, instances // (slots * CHUNKS_PER_SLOT)))


def _checked_row(row: BatchRow | BaseException, path: str, digest: str) -> BatchRow:
    """The task's row; a task that failed on Dask's side (its workers kept dying:
    ``KilledWorker``) or was cancelled is an error row for that instance, and the batch
    goes on."""
    if isinstance(row, BaseException):
        return finish_row(worker_failed(path, row), digest)
    return row


def _running(client: Any, pending: dict[Any, list[tuple[str, str, str]]]) -> list[str]:
    """The instances of the chunks being solved."""
    by_key = {future.key: [path for path, _, _ in places] for future, places in pending.items()}
    processing = client.processing()
    return sorted(
        path for keys in processing.values() for key in keys for path in by_key.get(key, ())
    )
