"""What a benchmark leaves: its log (every line printed, kept for the results folder),
its CSV (one row per run, written and flushed as the runs finish), and its plot
(matplotlib, without a display).

>>> log = Log()
>>> log("a line")
a line
>>> log.lines
['a line']
"""

from __future__ import annotations

import csv
import shlex
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from benchmarks.harness.paths import shown

if TYPE_CHECKING:  # rich is imported when a table is shown: not in a spawned worker
    from rich.console import RenderableType


class Log:
    """Prints each line at once and keeps it for :meth:`save`."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.lines.append(text)

    def table(self, table: RenderableType) -> None:
        """Print a rich table (or any renderable) and keep its text."""
        from rich.console import Console

        console = Console(record=True, width=160)
        console.print(table)
        self.lines.append(console.export_text().rstrip("\n"))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        print(f"log: {shown(path)}", flush=True)


def cell(value: Any) -> Any:
    """A CSV cell: nothing for None, floats to 6 decimals, anything else as it is."""
    if value is None:
        return ""
    return round(value, 6) if isinstance(value, float) else value


class CsvRows:
    """A CSV file written row by row, flushed after each, so a benchmark stopped
    half-way keeps what it measured."""

    def __init__(self, handle: IO[str], columns: Sequence[str]) -> None:
        self.handle = handle
        self.writer = csv.DictWriter(handle, list(columns), extrasaction="ignore")
        self.writer.writeheader()

    def write(self, row: Mapping[str, Any]) -> None:
        self.writer.writerow({key: cell(value) for key, value in row.items()})
        self.handle.flush()


@contextmanager
def csv_rows(path: Path, columns: Sequence[str]) -> Iterator[CsvRows]:
    """Open ``path`` (its folder made) for :class:`CsvRows` with ``columns``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        yield CsvRows(handle, columns)


def read_csv(path: Path) -> list[dict[str, str]]:
    """An earlier run's rows, every cell a string."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def can_plot() -> bool:
    """Whether matplotlib is there (it comes with ``pip install '.[bench]'``; said when
    it is not), set to draw without a display; the caller then imports
    ``matplotlib.pyplot``."""
    try:
        import matplotlib
    except ImportError:
        print("matplotlib not installed: no plot (pip install '.[bench]')")
        return False
    matplotlib.use("Agg")
    return True


def log_header(log: Log, name: str, argv: Sequence[str]) -> None:
    """A benchmark log's first lines: the command, the machine, the commit, the start
    and the load (the machine is shared: say how busy it was)."""
    from benchmarks.harness.machine import describe, git_head, load, versions

    log(f"command: python -m benchmarks.{name} {shlex.join(argv)}".rstrip())
    log(f"machine: {describe()}; {versions('clingo')}")
    log(f"git {git_head()}; started {time.strftime('%Y-%m-%d %H:%M:%S')}; {load()}")


def log_footer(log: Log) -> None:
    from benchmarks.harness.machine import load

    log(f"finished {time.strftime('%Y-%m-%d %H:%M:%S')}; {load()}")
