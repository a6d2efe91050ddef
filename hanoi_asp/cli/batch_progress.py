"""What ``batch`` shows while it runs and when it ends: rich's progress bar at a
terminal (the instances being solved, done/total, this run's rate), plain lines
otherwise, and the summary table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from hanoi_asp.outputs.safe_text import visible_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID
    from rich.table import Table

    from hanoi_asp.batch.row import BatchRow
    from hanoi_asp.batch.summary import BatchSummary


class BatchProgress:
    """The live view of one batch: the callbacks :func:`~hanoi_asp.batch.run.run_batch`
    calls, on ``err`` (stderr).  Use it as a context manager around the run."""

    def __init__(self, err: Console, total: int, out: str, *, configs: bool) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.err, self.total, self.out, self.configs = err, total, out, configs
        self.progress: Progress = Progress(
            TextColumn("{task.description}", markup=False),  # file names, not markup
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            disable=not err.is_terminal,
        )
        self.done = 0
        self.solved_here, self.started = 0, time.monotonic()  # the rate: this run's rows
        self.task: TaskID | None = None

    def __enter__(self) -> BatchProgress:
        self.progress.__enter__()
        self.task = self.progress.add_task("solving", total=self.total, rate="")
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)

    def _task(self) -> TaskID:
        assert self.task is not None, "BatchProgress is used inside its with block"
        return self.task

    def on_resumed(self, count: int) -> None:
        self.done = count
        self.progress.advance(self._task(), count)
        if count:
            self.err.print(f"resumed: {count} instance(s) already in {self.out}", markup=False)

    def on_row(self, row: BatchRow) -> None:
        self.done += 1
        self.solved_here += 1
        rate = self.solved_here / max(time.monotonic() - self.started, 1e-9)
        self.progress.update(self._task(), advance=1, rate=f"{rate:.1f}/s")
        if self.err.is_terminal and row["result"] == "ERROR":
            line = f"{row['instance']}: ERROR: {row.get('error')}"
            self.progress.console.print(line, markup=False)
        if not self.err.is_terminal:
            length = "" if row.get("length") is None else f" {row['length']}"
            config = f" [{row['config']}]" if self.configs else ""
            error = f": {row['error']}" if row["result"] == "ERROR" and row.get("error") else ""
            line = (
                f"[{self.done}/{self.total}] {row['instance']}{config}: {row['result']}"
                f"{length}{error} ({row.get('time_s', '?')} s)"
            )
            print(visible_text(line), flush=True)

    def on_running(self, names: list[str]) -> None:
        shown = ", ".join(Path(name).name for name in names[:3])
        more = f" +{len(names) - 3}" if len(names) > 3 else ""
        description = f"solving {shown}{more}" if names else "solving"
        self.progress.update(self._task(), description=description)


def summary_table(summary: BatchSummary, total: int) -> Table:
    from rich.table import Table

    table = Table(title=f"{total} instance(s)")
    table.add_column("result")
    table.add_column("count", justify="right")
    for name, count in summary.counts.items():
        table.add_row(name, str(count))
    table.add_row(
        "optimal / feasible, not proven / no plan, proven / unsolved",
        f"{summary.optimal} / {summary.feasible} / {summary.no_plan} / {summary.unsolved}",
    )
    if summary.not_run:
        table.add_row("not run (interrupted)", str(summary.not_run))
    if summary.resumed:
        table.add_row("resumed (skipped)", str(summary.resumed))
    table.add_row("total solve time", f"{summary.total_s:.2f} s")
    for instance, seconds in summary.slowest:
        table.add_row(f"slowest: {instance}", f"{seconds:.2f} s")
    if summary.overhead_ms is not None:
        # the workers' time not spent solving, per instance solved in this run
        table.add_row("overhead per instance", f"{summary.overhead_ms:.1f} ms")
    return table
