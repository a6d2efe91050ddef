"""The goal database: the tables toward a puzzle's goal, built once per puzzle and kept on
disk (:mod:`hanoi_asp.methods.table_cache`), for the bound's cuts, the strong ones or the
beam's, and what the strong and the beam's would cost to build."""

from __future__ import annotations

import sys
import time
from array import array
from collections.abc import Sequence

from hanoi_asp.methods import table_cache
from hanoi_asp.methods.patterns import cuts as sizes  # TABLE_PATTERNS read when called
from hanoi_asp.methods.patterns.breadth_first import distances_among
from hanoi_asp.methods.patterns.cuts import (
    beam_budget,
    largest_first,
    partitions,
    ranked_partitions,
    strong_budget,
    strong_partitions,
)
from hanoi_asp.methods.patterns.tables import (
    Allowed,
    DiskRun,
    Edges,
    Partitioned,
    PatternTable,
    goal_allowed,
)
from hanoi_asp.model.puzzle import Puzzle


def toward_goal(
    puzzle: Puzzle, run: DiskRun, deadline: float | None = None, allowed: Allowed | None = None
) -> PatternTable:
    """The run's :func:`distances_among` its disks' places in the goal (the puzzle's,
    or ``allowed``), on the puzzle's move graph."""
    ends = goal_allowed(puzzle) if allowed is None else allowed
    pegs, edges = len(puzzle.pegs), puzzle.edges()
    distances, saved = cached_distances(pegs, run_ends(ends, run), edges, deadline)
    return PatternTable(pegs, run, distances, saved=saved)


def run_ends(allowed: Allowed, run: DiskRun) -> tuple[tuple[int, ...], ...]:
    """Where each of the run's disks may end: with the pegs and the move graph, all the
    run's table depends on (runs that end alike have one table)."""
    return tuple(allowed[d - 1] for d in run.disks)


CACHED_PATTERNS = 1 << 16
"""Tables of at least this many patterns are kept on disk (:mod:`table_cache`):
smaller ones are built in a few milliseconds, less than reading a file."""


def table_key(pegs: int, choices: Sequence[Sequence[int]], edges: Edges) -> str:
    """What a table of :func:`distances_among` is of, as its on-disk cache key."""
    graph = "all" if edges is None else ",".join(f"{a}-{b}" for a, b in sorted(edges))
    ends = ";".join(",".join(map(str, c)) for c in choices)
    return f"distances pegs={pegs} ends={ends} graph={graph} order={sys.byteorder}"


def cached_distances(
    pegs: int, choices: Sequence[Sequence[int]], edges: Edges, deadline: float | None = None
) -> tuple[Sequence[int], float]:
    """:func:`distances_among`, and the seconds the on-disk cache saved: read from the
    cache when it holds the table (a view of the mapped file, and the seconds its build
    took, recorded with it), else built now and stored there with its build time (and 0
    saved).  One byte an entry, or two (:class:`~.tables.PatternTable`).  The key is all
    the table depends on: pegs, each disk's allowed end pegs, the move graph."""
    key = table_key(pegs, choices, edges)
    entries = pegs ** len(choices)
    big = entries >= CACHED_PATTERNS
    found = table_cache.load(key) if big else None
    if found is not None and len(found.payload) == found.width * entries:
        if found.width == 1:
            return found.payload, found.seconds
        return found.payload.cast("H"), found.seconds
    began = time.perf_counter()
    distances = distances_among(pegs, choices, edges, deadline)
    payload = distances.tobytes()
    if big:
        table_cache.store(key, payload, distances.itemsize, time.perf_counter() - began)
    if distances.itemsize == 1:
        return payload, 0.0
    wide = array("H")
    wide.frombytes(payload)
    return wide, 0.0


_CACHE: dict[
    tuple[object, ...],
    tuple[
        dict[DiskRun, PatternTable],
        dict[tuple[object, ...], Partitioned],
        dict[tuple[tuple[int, ...], ...], PatternTable],
    ],
] = {}
"""Per puzzle (one at a time): every run's table built, the partitions asked for (by
budget and number of cuts, or the beam's), and a table per goal pattern of a run."""


def _built_by_ends(puzzle: Puzzle) -> dict[tuple[tuple[int, ...], ...], PatternTable]:
    """The tables toward the puzzle's goal built (or read) in this process so far, one
    per goal pattern of a run (:func:`run_ends`); empty if none."""
    return _CACHE.get(_key(puzzle, goal_allowed(puzzle)), ({}, {}, {}))[2]


def _key(puzzle: Puzzle, allowed: Allowed) -> tuple[object, ...]:
    edges = puzzle.edges()
    return (
        len(puzzle.pegs),
        puzzle.initial_state(),
        allowed,
        None if edges is None else tuple(sorted(edges)),
    )


CUTS_BUILT = 3
"""Partitions whose full-size tables are built for the lower bound (of ten on 4 pegs);
the search asks for every cut once it must refute a horizon (see
:func:`hanoi_asp.engine.tables.pattern_tables`)."""

STRONG_CUTS = 4
"""Partitions of the strong database (the most promising by their proxies)."""

SECONDS_PER_PATTERN = 0.2e-6
"""About what :func:`~.breadth_first.breadth_first` takes per pattern of a large table
(4 pegs 12 disks: 2.3 s; 5 pegs 10 disks: 1.7 s; 6 pegs 9 disks: 2.4 s; CPU, one core)."""


def strong_exact(puzzle: Puzzle, budget: int | None = None) -> bool:
    """Whether the strong database is one table of every disk: the exact distance."""
    parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    return len(parts) == 1 and len(parts[0]) == 1


def strong_price(puzzle: Puzzle, budget: int | None = None) -> float:
    """Seconds the strong database (:func:`goal_database` with ``strong``) should take to
    build: its largest runs, one per cut it will hold, counted unless built in this
    process already or kept in the on-disk cache (0 when all are)."""
    parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    size = max(run.size for part in parts for run in part)
    runs = list(dict.fromkeys(run for part in parts for run in part if run.size == size))
    return _price(puzzle, runs[:STRONG_CUTS])


def beam_price(puzzle: Puzzle) -> float:
    """Seconds :func:`beam_database` should take to build (0 when built or cached)."""
    return _price(puzzle, list(beam_cut(puzzle)))


def _price(puzzle: Puzzle, runs: Sequence[DiskRun]) -> float:
    """Seconds the runs' tables should take to build, but for those built in this
    process already or kept in the on-disk cache; runs whose disks end alike count
    once (they share one table: :func:`_database`)."""
    pegs, ends, edges = len(puzzle.pegs), goal_allowed(puzzle), puzzle.edges()
    by_ends = _built_by_ends(puzzle)
    missing: dict[tuple[tuple[int, ...], ...], int] = {}
    for run in runs:
        these = run_ends(ends, run)
        if these in by_ends or (
            pegs**run.size >= CACHED_PATTERNS and table_cache.holds(table_key(pegs, these, edges))
        ):
            continue
        missing[these] = pegs**run.size
    return sum(missing.values()) * SECONDS_PER_PATTERN


def saved_seconds(puzzle: Puzzle) -> float:
    """The build time the on-disk cache has saved on the puzzle's tables in this process
    (toward its own goal): each table read rather than built, its recorded seconds,
    once however many runs share it."""
    return sum(table.saved for table in _built_by_ends(puzzle).values())


def beam_cut(puzzle: Puzzle) -> tuple[DiskRun, ...]:
    """The runs of :func:`beam_database`'s one cut."""
    pegs = len(puzzle.pegs)
    return largest_first(pegs, puzzle.disks, beam_budget(pegs))


def beam_database(puzzle: Puzzle, deadline: float | None = None) -> Partitioned:
    """The beam's tables: one cut, :func:`~.cuts.largest_first` within
    :func:`~.cuts.beam_budget`, built once per puzzle (and kept on disk) like
    :func:`goal_database`'s.  Raises ``TimeoutError`` if ``deadline`` passes first."""
    return _database(puzzle, [beam_cut(puzzle)], ("beam",), deadline, goal_allowed(puzzle))


def goal_database(
    puzzle: Puzzle,
    budget: int | None = None,
    deadline: float | None = None,
    every_cut: bool = False,
    allowed: Allowed | None = None,
    strong: bool = False,
) -> Partitioned:
    """Tables toward the goal (the puzzle's, or ``allowed``) for the :data:`CUTS_BUILT`
    :func:`ranked_partitions` of :func:`partitions` (or every one), built once per
    puzzle: the lower bound, the search's pruning and A* share them, and asking for
    every cut later builds only the tables not built yet.  ``strong``: instead, the
    :data:`STRONG_CUTS` most promising :func:`strong_partitions` (tables of up to
    :data:`~hanoi_asp.methods.patterns.cuts.STRONG_PATTERNS` patterns; one cut alone
    when one run holds every disk: the exact distance).  Tables of 65,536 patterns and
    more are read from and kept in the on-disk cache.  Raises ``TimeoutError`` if
    ``deadline`` passes first."""
    if strong:
        budget = strong_budget(len(puzzle.pegs)) if budget is None else budget
        cuts: int | None = STRONG_CUTS
        parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    else:
        budget = sizes.TABLE_PATTERNS if budget is None else budget
        cuts = None if every_cut else CUTS_BUILT
        parts = partitions(len(puzzle.pegs), puzzle.disks, budget)
    allowed = goal_allowed(puzzle) if allowed is None else allowed
    return _database(puzzle, parts, (budget, cuts), deadline, allowed, cuts)


def _database(
    puzzle: Puzzle,
    parts: Sequence[tuple[DiskRun, ...]],
    asked: tuple[object, ...],
    deadline: float | None,
    allowed: Allowed,
    cuts: int | None = None,
) -> Partitioned:
    """The tables of ``parts`` (the ``cuts`` most promising, or all), kept per puzzle
    under ``asked``; a run's table is built once whichever database asks for it, and
    runs whose disks end alike (a whole tower's goal: every run of one length) share
    one table's distances (the first one's :attr:`~.tables.PatternTable.saved` counts
    for all)."""
    key = _key(puzzle, allowed)
    if key not in _CACHE:
        _CACHE.clear()  # one puzzle at a time: tables can be megabytes
        _CACHE[key] = ({}, {}, {})
    built, chosen, by_ends = _CACHE[key]
    if asked not in chosen:

        def table(run: DiskRun) -> PatternTable:
            if run not in built:
                ends = run_ends(allowed, run)
                twin = by_ends.get(ends)
                if twin is None:
                    built[run] = by_ends[ends] = toward_goal(puzzle, run, deadline, allowed)
                else:
                    built[run] = PatternTable(twin.pegs, run, twin.distances)
            return built[run]

        ranked = parts if cuts is None else ranked_partitions(puzzle, parts, table, cuts)
        chosen[asked] = tuple(tuple(table(run) for run in part) for part in ranked)
    return chosen[asked]
