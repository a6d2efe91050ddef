"""What ``hanoi-asp report`` computes from batch results files: plain data, no output.

Each row of a results file (:func:`hanoi_asp.batch.worker.solve_file`) belongs to a
*configuration*, its ``"config"`` key, or, for rows without one or of a batch's
``default`` configuration (no ``--encoding`` or ``--config``), the results file's stem
(``runs/clingo-a.jsonl`` is ``clingo-a``: two plain runs compare as two), and to a
*family*, the name of the folder its instance is in (``.`` for an instance given
without a folder).  A later row for the same configuration and instance replaces an
earlier one (as ``batch --resume --retry`` does).

Per group, counted over its rows:

* *solved*: a plan was found (``OPTIMUM FOUND`` or ``SATISFIABLE``);
* *proven*: the answer is proven (``OPTIMUM FOUND``, or ``UNSATISFIABLE``: no plan
  within the bound, which a finished search proves);
* *timeouts*: stopped by the time limit (``stopped`` or ``status`` ``timeout`` or
  ``killed``) or ``UNKNOWN`` for any other reason (an interrupt, a memory-out), with or
  without a plan;
* *errors*: ``ERROR`` rows (an instance that could not be read or run, a worker crash);
* median and total ``time_s`` of the rows that have one;
* *PAR-2*: the mean over the group's instances of ``time_s`` for an instance proven within
  the time limit, and of twice the limit for every other one (a plan not proven
  minimal, a timeout, an error).  The time limit of a configuration is ``--timeout S``
  when given, else the batch's ``--timeout`` its rows carry (``"timeout"``), else (rows
  of older batches) the largest ``time_s`` among its rows the time limit stopped
  (``stopped`` or ``status`` ``timeout`` or ``killed``; not a memory-out: a timed-out
  row's time is that limit, or a little over it).  A configuration with no limit known
  whose rows are not all proven has no PAR-2 (``None``): a penalty needs a limit.

Two configurations *disagree* on an instance when both proved an optimum
(``OPTIMUM FOUND``) of different lengths: one of the encodings is wrong, and ``report``
exits 1 naming each such instance.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hanoi_asp.batch.results import BadLine, row_from_line
from hanoi_asp.batch.row import DEFAULT_CONFIG, BatchRow, row_time
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.files import read_user_file
from hanoi_asp.outputs.safe_text import visible_text

By = Literal["config", "family"]

MAX_RESULTS_BYTES = 1024 * 1024 * 1024
"""A results file larger than this (1 GiB, some three million rows) is refused."""

ALL = "(all)"
"""The family (or configuration) name of a group that spans all of them."""

PLAN_RESULTS = frozenset({"OPTIMUM FOUND", "SATISFIABLE"})
PROVEN_RESULTS = frozenset({"OPTIMUM FOUND", "UNSATISFIABLE"})
TIMEOUT_STOPS = frozenset({"timeout", "killed"})


@dataclass(frozen=True)
class Outcome:
    """One configuration's answer on one instance, as ``report`` counts it."""

    config: str
    instance: str
    family: str
    result: str
    length: int | None
    time_s: float | None
    timed_out: bool
    batch_limit: float | None = None
    """The ``--timeout`` of the batch that wrote the row, if the row says."""

    @property
    def solved(self) -> bool:
        return self.result in PLAN_RESULTS

    @property
    def proven(self) -> bool:
        return self.result in PROVEN_RESULTS

    @property
    def error(self) -> bool:
        return self.result == "ERROR"

    @property
    def timeout(self) -> bool:
        return self.timed_out or self.result == "UNKNOWN"

    def proven_within(self, limit: float | None) -> bool:
        """Proven, in time: what counts as solved for PAR-2 and the cactus plot."""
        if not self.proven or self.time_s is None:
            return False
        return limit is None or self.time_s <= limit


@dataclass(frozen=True)
class GroupSummary:
    """The figures of one group of outcomes (one table row)."""

    config: str
    family: str
    instances: int
    solved: int
    proven: int
    timeouts: int
    errors: int
    median_s: float | None
    total_s: float
    par2_s: float | None
    limit_s: float | None


@dataclass(frozen=True)
class Disagreement:
    """An instance on which configurations proved optima of different lengths."""

    instance: str
    lengths: dict[str, int]

    def line(self) -> str:
        """The line a person reads (what prints nothing in a name escaped)."""
        found = ", ".join(f"{config}: {length}" for config, length in self.lengths.items())
        return visible_text(f"DISAGREE {self.instance}: optimum lengths differ ({found})")


@dataclass
class Report:
    """Everything ``report`` shows: the groups in display order, the limit per
    configuration, and the disagreements."""

    by: By
    groups: list[GroupSummary]
    outcomes: list[Outcome]
    limits: dict[str, float | None]
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def configs(self) -> list[str]:
        return list(self.limits)


def read_results(path: str) -> list[BatchRow]:
    """The rows of one results file; an :class:`InputError` naming ``path:line`` for a line
    that is not a JSON object with an ``instance``.  A blank line is skipped, and so is a
    torn last line (no newline after it: a batch killed while writing it), as ``batch
    --resume`` cuts it off."""
    text = read_user_file(path, what="results", cap=MAX_RESULTS_BYTES)
    rows: list[BatchRow] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rows.append(row_from_line(line))
        except BadLine as error:
            if error.why == "not JSON" and number == len(lines) and not text.endswith("\n"):
                break  # a torn last line (a batch killed mid-write): --resume cuts it off too
            raise InputError(str(error), path=path, line=number) from None
    return rows


def outcome_of(row: BatchRow, default_config: str) -> Outcome:
    """A row as the figures ``report`` counts (rows of any batch, old ones too: a key
    missing or of another type counts as unknown)."""
    config: object = row.get("config")
    instance = row["instance"]
    length: object = row.get("length")
    stops = {row.get("stopped"), row.get("status")}
    return Outcome(
        config=config
        if isinstance(config, str) and config not in ("", DEFAULT_CONFIG)
        else default_config,
        instance=instance,
        family=Path(instance).parent.name or ".",
        result=row["result"],
        length=length if isinstance(length, int) else None,
        time_s=row_time(row),
        timed_out=bool(stops & TIMEOUT_STOPS),
        batch_limit=_seconds(row.get("timeout")),
    )


def _seconds(value: object) -> float | None:
    """A positive number of seconds, or None (``true`` is no number)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def load_outcomes(paths: Iterable[str]) -> list[Outcome]:
    """Every file's rows as outcomes, the last per configuration and instance kept."""
    latest: dict[tuple[str, str], Outcome] = {}
    for path in paths:
        stem = Path(path).stem
        for row in read_results(path):
            outcome = outcome_of(row, stem)
            latest.pop((outcome.config, outcome.instance), None)  # keep the later position
            latest[(outcome.config, outcome.instance)] = outcome
    return list(latest.values())


def time_limits(outcomes: list[Outcome], timeout: float | None) -> dict[str, float | None]:
    """Each configuration's time limit (see the module's docstring), in first-seen order."""
    limits: dict[str, float | None] = {}
    carried: dict[str, float] = {}
    for outcome in outcomes:
        limits.setdefault(outcome.config, timeout)
        if outcome.batch_limit is not None:
            carried[outcome.config] = max(carried.get(outcome.config, 0.0), outcome.batch_limit)
        if timeout is None and outcome.timed_out and outcome.time_s is not None:
            known = limits[outcome.config]
            limits[outcome.config] = outcome.time_s if known is None else max(known, outcome.time_s)
    if timeout is None:
        limits.update(carried)
    return limits


def par2(outcomes: list[Outcome], limits: dict[str, float | None]) -> float | None:
    """Penalised average runtime: time if proven within the limit, else twice the limit."""
    if not outcomes:
        return None
    total = 0.0
    for outcome in outcomes:
        limit = limits[outcome.config]
        if outcome.proven_within(limit):
            assert outcome.time_s is not None
            total += outcome.time_s
        elif limit is None:
            return None
        else:
            total += 2 * limit
    return total / len(outcomes)


def summarize_group(
    config: str, family: str, outcomes: list[Outcome], limits: dict[str, float | None]
) -> GroupSummary:
    times = [o.time_s for o in outcomes if o.time_s is not None]
    configs = {o.config for o in outcomes}
    return GroupSummary(
        config=config,
        family=family,
        instances=len(outcomes),
        solved=sum(o.solved for o in outcomes),
        proven=sum(o.proven for o in outcomes),
        timeouts=sum(o.timeout for o in outcomes),
        errors=sum(o.error for o in outcomes),
        median_s=statistics.median(times) if times else None,
        total_s=sum(times),
        par2_s=par2(outcomes, limits),
        limit_s=limits[config] if len(configs) == 1 and config in limits else None,
    )


def disagreements(outcomes: list[Outcome]) -> list[Disagreement]:
    """Instances with proven optima of different lengths, in first-seen order."""
    optima: dict[str, dict[str, int]] = defaultdict(dict)
    for outcome in outcomes:
        if outcome.result == "OPTIMUM FOUND" and outcome.length is not None:
            optima[outcome.instance][outcome.config] = outcome.length
    return [
        Disagreement(instance, lengths)
        for instance, lengths in optima.items()
        if len(set(lengths.values())) > 1
    ]


def build_report(
    paths: Iterable[str], *, by: By = "config", timeout: float | None = None
) -> Report:
    """The report of results files: groups by configuration then family (``by="config"``)
    or by family then configuration; a group's sub-groups are listed only when there
    are two or more of them."""
    outcomes = load_outcomes(paths)
    limits = time_limits(outcomes, timeout)
    outer: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        outer[outcome.config if by == "config" else outcome.family].append(outcome)
    groups: list[GroupSummary] = []
    for name in sorted(outer) if by == "family" else outer:
        members = outer[name]
        inner: dict[str, list[Outcome]] = defaultdict(list)
        for outcome in members:
            inner[outcome.family if by == "config" else outcome.config].append(outcome)
        if by == "config":
            groups.append(summarize_group(name, ALL, members, limits))
        else:
            groups.append(summarize_group(ALL, name, members, limits))
        if len(inner) > 1:
            for sub in sorted(inner) if by == "config" else inner:
                config, family = (name, sub) if by == "config" else (sub, name)
                groups.append(summarize_group(config, family, inner[sub], limits))
    return Report(by, groups, outcomes, limits, disagreements(outcomes))
