"""Cuts: the ways to partition the disks into runs whose tables fit a budget, and which
of them to build (each partition's sum is a bound; which disks share a run decides how
much it sees)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from hanoi_asp.methods.patterns.tables import DiskRun, Partitioned, PatternTable
from hanoi_asp.model.puzzle import Puzzle, State

TABLE_PATTERNS = 1 << 20
"""Most patterns one table may hold (4 pegs: 10 disks; 5 pegs: 8): about 2 MiB each and
a fraction of a second to build."""

STRONG_PATTERNS = 1 << 24
"""Most patterns of one table of the strong database (:func:`~.database.goal_database` with
``strong``): 4 pegs 12 disks, 5 pegs 10, 6 pegs 9; 16 MiB and about 2-3 s of numpy
each, so built only where the search has shown it needs them, or read from the
on-disk cache (:mod:`hanoi_asp.methods.table_cache`)."""

BEAM_PATTERNS = 1 << 22
"""Most patterns of the beam's table (:func:`~.database.beam_database`): 4 pegs 11
disks, 5 pegs 9, 6 pegs 8; 4 MiB and about 0.4 s each."""


def largest_run(pegs: int, disks: int, budget: int | None = None) -> int:
    """The most disks one table may cover within ``budget`` patterns (default
    :data:`TABLE_PATTERNS`, read when called, so tests can shrink it)."""
    budget = TABLE_PATTERNS if budget is None else budget
    size = 1
    while size < disks and pegs ** (size + 1) <= budget:
        size += 1
    return size


def partitions(pegs: int, disks: int, budget: int | None = None) -> list[tuple[DiskRun, ...]]:
    """Ways to cut the disks into runs of at most :func:`largest_run` disks: full runs
    from every offset, the largest disks' run first (they move least and matter most).
    Which disks share a run decides how much a sum sees, and no offset wins everywhere.
    Measured on the 20 competition files (4 pegs, runs of 10): the best offset's sum
    was up to 7 above the largest-first cut's (0056: 38 against 31, the optimum), and 8
    files reached their optimum, against 5 with two cuts.  Each partition covers every
    disk exactly once."""
    size = largest_run(pegs, disks, budget)
    if size >= disks:
        return [(DiskRun(0, disks),)]
    cuts = [[0, *range(first, disks, size), disks] for first in range(size, 0, -1)]
    return [tuple(DiskRun(low, high - low) for low, high in pairwise(c)) for c in cuts]


def strong_budget(pegs: int) -> int:
    """:data:`STRONG_PATTERNS`, or on 3 pegs the bound's budget: there tables serve
    restricted move graphs, whose distances grow like 3^n, so a table of 15 disks
    would take millions of breadth-first layers."""
    return STRONG_PATTERNS if pegs > 3 else TABLE_PATTERNS


def beam_budget(pegs: int) -> int:
    """:data:`BEAM_PATTERNS`, or on 3 pegs the bound's budget (as :func:`strong_budget`)."""
    return BEAM_PATTERNS if pegs > 3 else TABLE_PATTERNS


def largest_first(pegs: int, disks: int, budget: int) -> tuple[DiskRun, ...]:
    """The cut whose first run holds the largest disks, as many as ``budget`` allows
    (14 disks on 4 pegs within 4^11 patterns: 11+3): the beam's cut.  The largest disks
    move least and shape the whole plan, so a table exact for them guides a beam along
    near-optimal plans where the sum of several cuts does not (see
    :mod:`hanoi_asp.engine.shorten`)."""
    return partitions(pegs, disks, budget)[0]


def strong_partitions(
    pegs: int, disks: int, budget: int | None = None
) -> list[tuple[DiskRun, ...]]:
    """The cuts of :func:`partitions` at the strong budget that hold a run of the full
    size, i.e. the largest run at every offset (14 disks on 4 pegs: 12+2, 1+12+1,
    2+12): a cut of two shorter runs (11+3) sees far less, for tables nearly as large."""
    budget = strong_budget(pegs) if budget is None else budget
    parts = partitions(pegs, disks, budget)
    size = max(run.size for part in parts for run in part)
    full = [part for part in parts if any(run.size == size for run in part)]
    return full or parts


def strongest_partitions(tables: Partitioned, state: State, count: int) -> Partitioned:
    """The ``count`` partitions with the largest sums at ``state`` (ties: the earlier),
    in their order: the bound names the best cut."""
    ranked = sorted(range(len(tables)), key=lambda i: (-sum(t.lookup(state) for t in tables[i]), i))
    return tuple(tables[i] for i in sorted(ranked[:count]))


def ranked_partitions(
    puzzle: Puzzle,
    parts: Sequence[tuple[DiskRun, ...]],
    table: Callable[[DiskRun], PatternTable],
    cuts: int,
) -> list[tuple[DiskRun, ...]]:
    """The ``cuts`` partitions most promising at the start, in their order.

    Each is scored by its *proxy*: the same cut with every run split into pieces two
    disks shorter, whose tables are 16 times smaller on 4 pegs (all pieces of ten cuts
    in about 0.15 s, against 1.5 s for the full tables).  A proxy's sum is at most its
    cut's (a split run is a projection of the whole), so this only chooses which sound
    bounds to compute.  Measured on the 20 competition files (17-18 disks): the best
    of the ten cuts is among the three best proxies on all 20, and the tables take
    0.4-1.0 s instead of 1.4-2.3 s.  On random puzzles it is not always (4 pegs, 12
    disks: 27 instead of 29, the whole solve 3.0 s instead of 2.5 s; 5 pegs, 10 disks:
    15 instead of 17, 2.2 s instead of 2.6 s).  ``table`` builds a run's table, or gives
    the one built already: a run no longer than a piece is scored with the table the
    chosen cuts then use."""
    size = max(run.size for part in parts for run in part)
    if len(parts) <= cuts or size <= 2:
        return list(parts)
    piece = size - 2
    start = puzzle.initial_state()

    def proxy(part: tuple[DiskRun, ...]) -> int:
        return sum(
            table(DiskRun(low, min(piece, run.first + run.size - low))).lookup(start)
            for run in part
            for low in range(run.first, run.first + run.size, piece)
        )

    scores = [proxy(part) for part in parts]
    best = sorted(range(len(parts)), key=lambda i: (-scores[i], i))[:cuts]
    return [parts[i] for i in sorted(best)]
