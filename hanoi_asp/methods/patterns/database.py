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
from hanoi_asp.methods.work import table_work
from hanoi_asp.model.puzzle import Puzzle


def toward_goal(
    puzzle: Puzzle, run: DiskRun, deadline: float | None = None, allowed: Allowed | None = None
) -> PatternTable:
    """The run's :func:`distances_among` its disks' places in the goal (the puzzle's,
    or ``allowed``), on the puzzle's move graph."""
    ends = goal_allowed(puzzle) if allowed is None else allowed
    pegs, edges = len(puzzle.pegs), puzzle.edges()
    distances, _ = cached_distances(pegs, run_ends(ends, run), edges, deadline)
    return PatternTable(pegs, run, distances)


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
    cache when it holds the table (read into memory, and the seconds its build
    took, recorded with it), else built now and stored there with its build time (and 0
    saved).  One byte an entry, or two (:class:`~.tables.PatternTable`).  The key is all
    the table depends on: pegs, each disk's allowed end pegs, the move graph.  Whether
    it was read or built changes nothing but the time: its price
    (:func:`table_price`) is the same."""
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


def strong_exact(puzzle: Puzzle, budget: int | None = None) -> bool:
    """Whether the strong database is one table of every disk: the exact distance."""
    parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    return len(parts) == 1 and len(parts[0]) == 1


def strong_price(puzzle: Puzzle, budget: int | None = None) -> int:
    """The work the strong database (:func:`goal_database` with ``strong``) takes to
    build: its largest runs, one per cut it will hold.  Priced as if built, whether
    built already or kept in the on-disk cache: the cache saves the time, never changes
    a decision."""
    parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    size = max(run.size for part in parts for run in part)
    runs = list(dict.fromkeys(run for part in parts for run in part if run.size == size))
    return table_price(puzzle, runs[:STRONG_CUTS])


def beam_price(puzzle: Puzzle) -> int:
    """The work :func:`beam_database` takes to build (as if built, as above)."""
    return table_price(puzzle, list(beam_cut(puzzle)))


def table_price(puzzle: Puzzle, runs: Sequence[DiskRun]) -> int:
    """The work the runs' tables take to build; runs whose disks end alike count once
    (they share one table: :func:`_database`)."""
    ends = goal_allowed(puzzle)
    sizes = {run_ends(ends, run): len(puzzle.pegs) ** run.size for run in runs}
    return table_work(sum(sizes.values()))


def tables_price(puzzle: Puzzle, tables: Partitioned) -> int:
    """The work ``tables`` (toward the puzzle's goal) take to build, as if built."""
    return table_price(puzzle, [table.run for part in tables for table in part])


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
    one table's distances."""
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
