"""What a batch did, in figures: the counts per result, the times, the exit code, and
the overhead per instance (the time workers were up but not solving).

>>> from hanoi_asp.batch.row import as_row
>>> rows = [as_row({"instance": "a.lp", "result": "OPTIMUM FOUND", "time_s": 0.5}),
...         as_row({"instance": "b.lp", "result": "UNKNOWN", "time_s": 2.0})]
>>> summary = summarize(rows, worker_s=3.0)
>>> summary.counts["UNKNOWN"], summary.total_s, summary.exit_code
(1, 2.5, 1)
>>> summary.overhead_ms  # (3 worker-seconds - 2.5 s solving) / 2 instances
250.0
>>> summarize(rows, total=5).not_run  # interrupted after two of five
3
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from hanoi_asp.batch.row import BatchRow, row_time
from hanoi_asp.model.errors import EXIT_BAD_INPUT, EXIT_FOUND, EXIT_UNSAT

RESULTS = ("OPTIMUM FOUND", "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "ERROR")


@dataclass(frozen=True)
class BatchSummary:
    """The figures the batch prints at its end."""

    counts: dict[str, int]
    """Rows per result (resumed rows included: the file's answer for each instance)."""
    optimal: int
    """Proven minimal (``OPTIMUM FOUND``)."""
    feasible: int
    """A plan not proven minimal (``SATISFIABLE``: a stopped search)."""
    unsolved: int
    """Stopped with no plan (``UNKNOWN``)."""
    resumed: int
    total_s: float
    """Every row's time, resumed or not: the batch's answers took that long in all."""
    slowest: list[tuple[str, float]]
    """The three slowest instances of this run, slowest first."""
    exit_code: int
    overhead_ms: float | None
    """Per instance solved in this run: the workers' time not spent solving
    (:class:`WorkerClock`), in milliseconds; None when this run solved nothing."""
    no_plan: int = 0
    """Proven to have no plan (``UNSATISFIABLE``)."""
    not_run: int = 0
    """Instances (per configuration) the batch was to run and has no row for: an
    interrupted batch's rest."""


@dataclass
class WorkerClock:
    """Worker-seconds: how long each worker slot (a local pool's process, a Dask
    worker's thread) was there while the batch ran, summed.  Minus the instances' own
    solve times, that is what a batch spends on upkeep: starting and feeding workers,
    isolating each instance, sending rows back."""

    worker_s: float = 0.0
    _since: float | None = field(default=None, repr=False)
    _slots: int = field(default=0, repr=False)

    def slots(self, count: int) -> None:
        """From now on ``count`` worker slots are there (say it again when it changes)."""
        self.tick()
        self._slots = count

    def tick(self) -> None:
        """Count the time since the last call at the slots there were."""
        now = time.monotonic()
        if self._since is not None:
            self.worker_s += self._slots * (now - self._since)
        self._since = now


def summarize(
    rows: list[BatchRow], worker_s: float | None = None, total: int | None = None
) -> BatchSummary:
    """The figures of a batch's rows (``worker_s``: see :class:`WorkerClock`; ``total``:
    the rows the batch was to have, so an interrupted one counts what it did not run)."""
    fresh = [r for r in rows if not r.get("resumed")]
    counts = dict.fromkeys(RESULTS, 0)
    for row in rows:
        counts[row["result"]] = counts.get(row["result"], 0) + 1
    timed = sorted(
        ((r["instance"], t) for r in fresh if (t := row_time(r)) is not None),
        key=lambda pair: -pair[1],
    )
    if counts["ERROR"]:
        code = EXIT_BAD_INPUT
    elif counts["UNSATISFIABLE"] or counts["UNKNOWN"]:
        code = EXIT_UNSAT
    else:
        code = EXIT_FOUND
    solving = sum(seconds for _, seconds in timed)
    overhead = None
    if worker_s is not None and fresh:
        overhead = round(max(0.0, worker_s - solving) / len(fresh) * 1000, 1)
    return BatchSummary(
        counts=counts,
        optimal=counts["OPTIMUM FOUND"],
        feasible=counts["SATISFIABLE"],
        unsolved=counts["UNKNOWN"],
        resumed=len(rows) - len(fresh),
        total_s=round(sum(t for r in rows if (t := row_time(r)) is not None), 3),
        slowest=timed[:3],
        exit_code=code,
        overhead_ms=overhead,
        no_plan=counts["UNSATISFIABLE"],
        not_run=0 if total is None else max(0, total - len(rows)),
    )
