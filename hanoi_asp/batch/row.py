"""One row of a batch: the ``solve --json`` object of one instance under one
configuration, and what the batch adds (its configuration, where and how it ran).

A row is one line of a results file that researchers' scripts read, so it is a
``TypedDict``: a plain dict at run time, written by ``json.dumps`` exactly as built
(keys, values and their order), and its keys typed wherever the batch, the report and
the CLI read or write one.  Rows carry every other key of solve's JSON object too
(``plan``, ``proof``, ``horizons``, ...), as solve wrote them; only the keys a batch
reads or adds are declared here.

>>> row = as_row({"instance": "a.lp", "result": "OPTIMUM FOUND", "length": 7})
>>> row["length"], row_key(row)
(7, ('a.lp', 'default'))
>>> as_row({"instance": "a.lp"})
Traceback (most recent call last):
  ...
hanoi_asp.batch.row.NotARow: no "result"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Required, TypedDict, cast

DEFAULT_CONFIG = "default"
"""The configuration of a batch given no ``--encoding`` or ``--config`` (and of rows
written before configurations existed)."""


class BatchRow(TypedDict, total=False):
    """A results file's row (see the module docstring; the README's batch section
    lists the keys)."""

    # solve's JSON object (hanoi_asp.model.result.Result.to_dict, outputs.json.error_json)
    version: int
    instance: Required[str]
    result: Required[str]
    """``OPTIMUM FOUND``, ``SATISFIABLE``, ``UNSATISFIABLE``, ``UNKNOWN`` or ``ERROR``."""
    length: int | None
    lower_bound: int | None
    upper_bound: int | None
    time_s: float | None
    stopped: str | None
    """Why the search stopped early (``timeout``, ``memory``, ``killed``, ...), or None."""
    error: str
    exit_code: int
    bound: dict[str, Any]
    max_moves: int | None
    method: str
    threads: int
    proven_minimal: bool
    # what the batch adds
    pegs: int
    disks: int
    status: str
    """``ok``, or how the instance ended otherwise (``timeout``, ``memory``, ``crash``,
    ``error``, ...)."""
    peak_mib: float
    host: str
    sha256: str
    """The instance file's content hash: ``--resume`` runs an edited instance again."""
    config: str
    attempts: int
    """2 when the instance's process died and it ran once more (on Dask)."""
    timeout: float | None
    """The batch's ``--timeout`` (None: none), so that ``report`` knows the limit."""
    # in memory only, never written: the row came from the file, not from this run
    resumed: bool


class NotARow(ValueError):
    """A JSON value that is no batch row; its message names what is missing."""


def as_row(value: object) -> BatchRow:
    """``value`` (a JSON object read from a results file, or solve's JSON object) as a
    row: it needs a string ``instance`` and a string ``result``, else :class:`NotARow`."""
    if not isinstance(value, dict):
        raise NotARow("not a JSON object")
    for key in ("instance", "result"):
        if not isinstance(value.get(key), str):
            raise NotARow(f'no "{key}"')
    return cast(BatchRow, value)


def solved_row(solved: Mapping[str, Any]) -> BatchRow:
    """Solve's JSON object (or an error object) as the start of a row."""
    return as_row(dict(solved))


def row_key(row: BatchRow) -> tuple[str, str]:
    """What a row answers: its instance, under its configuration (rows written before
    configurations existed are the default's)."""
    return str(row["instance"]), str(row.get("config", DEFAULT_CONFIG))


def row_time(row: BatchRow) -> float | None:
    """The row's solve time in seconds, if it has a number there (old or damaged rows
    may not)."""
    time_s: object = row.get("time_s")
    return float(time_s) if isinstance(time_s, int | float) else None


RETRY_KINDS: dict[str, Callable[[BatchRow], bool]] = {
    "unknown": lambda row: row.get("result") == "UNKNOWN",
    "error": lambda row: row.get("result") == "ERROR",
    "satisfiable": lambda row: row.get("result") == "SATISFIABLE",
    "timeout": lambda row: row.get("stopped") in ("timeout", "killed"),
}
"""``batch --retry`` names (its choices) and the earlier rows each runs again: UNKNOWN
rows; ERROR rows; SATISFIABLE rows (a plan, not proven minimal: run again with a longer
``--timeout``); rows stopped by the time limit (with a plan or without)."""


def retried(row: BatchRow, kinds: tuple[str, ...]) -> bool:
    """Does ``--retry`` with these ``kinds`` run this earlier row again?"""
    return any(RETRY_KINDS[kind](row) for kind in kinds)
