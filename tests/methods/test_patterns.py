"""Pattern databases (``hanoi_asp/methods/patterns``): every table entry is the run's own
breadth-first distance, however the table is built, and the cuts cover every disk once."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from support.reference import bfs_distance
from support.strategies import puzzles

from hanoi_asp import Puzzle
from hanoi_asp.methods import patterns
from hanoi_asp.methods.patterns import (
    DiskRun,
    breadth_first,
    cuts,
    partitions,
    toward_goal,
)

FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=60, deadline=None)
@given(puzzles(pegs=(3, 4), disks=(1, 4), graphs=True))
def test_each_table_entry_is_the_runs_own_breadth_first_distance(puzzle: Puzzle) -> None:
    """Every pattern of a run: the table says what BFS says for those disks alone."""
    disks = min(puzzle.disks, 3)
    run = DiskRun(puzzle.disks - disks, disks)  # the smallest disks: the goal may skip some
    table = toward_goal(puzzle, run)
    goal = {d - run.first: p for d, p in puzzle.goal_pegs().items() if d in run.disks}
    pegs = len(puzzle.pegs)
    for pattern in itertools.product(range(pegs), repeat=disks):
        state = (0,) * run.first + pattern
        expected = bfs_distance(pegs, pattern, goal, puzzle.edges())
        got = table.lookup(state)
        assert got == (patterns.UNSEEN if expected is None else expected), pattern


@pytest.mark.parametrize("few", [0, 10**9])
@settings(max_examples=15, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 4), disks=(3, 6), graphs=True))
def test_tables_in_chunks_and_split_top_disks_are_breadth_first_distances(
    monkeypatch: pytest.MonkeyPatch, few: int, puzzle: Puzzle
) -> None:
    """The whole table of every disk, built with tiny chunks (a layer in many pieces,
    patterns reached twice across them) and the top-disk tables split after one disk
    (the path tables of 9+ disks take), equals BFS's distances pattern by pattern; on
    3 pegs with a linear graph distances pass 254, so the table widens to two bytes
    mid-search.  Once every layer through numpy (``few`` 0), once every layer in plain
    Python (the path of thin layers)."""
    monkeypatch.setattr(breadth_first, "FEW", few)
    monkeypatch.setattr(breadth_first, "CHUNK", 8)
    monkeypatch.setattr(breadth_first, "TOPS_LOW", 1)
    pegs, edges = len(puzzle.pegs), puzzle.edges()
    ends = patterns.goal_allowed(puzzle)
    distances = patterns.distances_among(pegs, ends, edges)
    assert (distances.itemsize == 2) == (int(distances.max()) >= 255)
    goal = puzzle.goal_pegs()
    for code in range(0, pegs**puzzle.disks, 7):  # every seventh pattern: seconds, not minutes
        state = tuple(code // pegs**j % pegs for j in range(puzzle.disks))
        expected = bfs_distance(pegs, state, goal, edges)
        assert int(distances[code]) == (patterns.UNSEEN if expected is None else expected)


def test_a_linear_three_peg_table_widens_past_a_byte() -> None:
    """6 disks end to end on 3 pegs in a line: 728 moves (3^6 - 1), two bytes a pattern."""
    edges = frozenset({(0, 1), (1, 0), (1, 2), (2, 1)})
    distances = patterns.distances_to(3, 6, dict.fromkeys(range(6), 2), edges)
    assert distances.itemsize == 2 and int(distances[0]) == 728 == int(distances.max())


@pytest.mark.parametrize("few", [0, 10**9])
def test_a_table_holds_distances_up_to_the_farthest_it_can(
    monkeypatch: pytest.MonkeyPatch, few: int
) -> None:
    """Past :data:`breadth_first.FARTHEST` (65,534: 3 pegs in a line from 11 disks on) a
    pattern holds that, not its distance: shrunk to 300 here, 6 disks in a line (up to
    728 moves) hold ``min(distance, 300)`` and every pattern is reached; stored as it
    was, the 65,536th layer overflowed two bytes (a crash)."""
    monkeypatch.setattr(breadth_first, "FARTHEST", 300)
    monkeypatch.setattr(breadth_first, "FEW", few)
    edges = frozenset({(0, 1), (1, 0), (1, 2), (2, 1)})
    distances = patterns.distances_to(3, 6, dict.fromkeys(range(6), 2), edges)
    goal = dict.fromkeys(range(6), 2)
    for code in range(3**6):
        state = tuple(code // 3**j % 3 for j in range(6))
        expected = bfs_distance(3, state, goal, edges)
        assert expected is not None and int(distances[code]) == min(expected, 300)


def test_partitions_cover_every_disk_once() -> None:
    for pegs, disks in [(4, 12), (4, 18), (5, 10), (3, 30), (4, 3)]:
        for partition in partitions(pegs, disks):
            covered = [d for run in partition for d in run.disks]
            assert covered == list(range(1, disks + 1))
            assert all(pegs**run.size <= cuts.TABLE_PATTERNS for run in partition)


def test_the_largest_first_cut_holds_the_largest_disks_within_the_budget() -> None:
    """The beam's cut: its first run the largest disks, as many as the budget holds,
    and every disk once (4 pegs: 15 disks 11+4, 14 disks 11+3; 5 pegs 13: 9+4)."""
    for pegs, disks, first in [(4, 15, 11), (4, 14, 11), (5, 13, 9), (6, 11, 8), (4, 9, 9)]:
        cut = cuts.largest_first(pegs, disks, cuts.beam_budget(pegs))
        assert cut[0] == DiskRun(0, first)
        assert [d for run in cut for d in run.disks] == list(range(1, disks + 1))
        assert all(pegs**run.size <= cuts.BEAM_PATTERNS for run in cut)
    assert cuts.beam_budget(3) == cuts.TABLE_PATTERNS  # restricted graphs: 3^n distances


@settings(max_examples=30, deadline=None)
@given(puzzles(pegs=(4, 5), disks=(4, 7)))
def test_the_beams_tables_are_its_cut_and_cost_the_same_once_built(puzzle: Puzzle) -> None:
    """:func:`beam_database` is the tables of :func:`beam_cut`, each run's table the
    one the bound's database builds for it; built or not, its price is the work of
    building it (a decision made on it is the same cold or warm)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cuts, "TABLE_PATTERNS", 4**2)
        patch.setattr(cuts, "BEAM_PATTERNS", 4**3)
        patch.setattr(patterns.database, "_CACHE", {})
        runs = patterns.beam_cut(puzzle)
        assert runs == cuts.largest_first(len(puzzle.pegs), puzzle.disks, 4**3)
        price = patterns.beam_price(puzzle)
        assert price == patterns.table_price(puzzle, runs) > 0
        tables = patterns.beam_database(puzzle)
        assert len(tables) == 1 and tuple(t.run for t in tables[0]) == runs
        assert patterns.beam_price(puzzle) == price == patterns.tables_price(puzzle, tables)
        for table in tables[0]:
            fresh = toward_goal(puzzle, table.run)
            assert bytes(fresh.distances) == bytes(table.distances)


def test_runs_whose_disks_end_alike_share_one_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole tower's goal: every run of one length has the same goal pattern, so the
    database keeps one table's distances for them all (equal to a fresh build of each
    run), built or read once, and prices them as one; runs ending differently keep
    their own."""
    from hanoi_asp.methods.patterns import database, goal_database
    from hanoi_asp.methods.work import table_work

    monkeypatch.setattr(database, "CACHED_PATTERNS", 4**3)  # runs of 3 and 4 kept on disk
    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", str(tmp_path))
    database._CACHE.clear()
    tower = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=9,
        init={"a": tuple(range(1, 10))},
        goal={"d": tuple(range(1, 10))},
    )
    cut_runs = {r for part in cuts.strong_partitions(4, 9, 4**4) for r in part if r.size == 4}
    assert len(cut_runs) > 1  # the strong cuts' runs of 4 disks: one table to build
    assert patterns.strong_price(tower, 4**4) == table_work(4**4)
    goal_database(tower, budget=4**4, every_cut=True)  # built, kept on disk
    database._CACHE.clear()  # read back, as a new process would
    tables = [t for part in goal_database(tower, budget=4**4, every_cut=True) for t in part]
    by_size: dict[int, list[patterns.PatternTable]] = {}
    for table in tables:
        by_size.setdefault(table.run.size, []).append(table)
        assert list(table.distances) == list(toward_goal(tower, table.run).distances)
    runs = {size: {t.run for t in group} for size, group in by_size.items()}
    assert len(runs[4]) > 1  # several runs of 4 disks
    for group in by_size.values():
        assert len({id(t.distances) for t in group}) == 1
    database._CACHE.clear()
    split = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=8,
        init={"a": tuple(range(1, 9))},
        goal={"d": (1, 2, 3, 4), "c": (5, 6, 7, 8)},
    )
    own = {t.run: t for part in goal_database(split, budget=4**4, every_cut=True) for t in part}
    assert own[DiskRun(0, 4)].distances is not own[DiskRun(4, 4)].distances
    database._CACHE.clear()
