"""The tables the search uses (``hanoi_asp/engine/tables.py``): stronger ones bought as
refuting costs what they do (in work, as if built), none built once a bound meets the
plan in hand."""

from __future__ import annotations

from typing import Any

import pytest
from support.puzzles import bfs_optimum

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.methods.patterns import (
    cuts,
    database,
    goal_database,
    partitions,
    tables_price,
)

SIX = Puzzle(
    pegs=("a", "b", "c", "d"),
    disks=6,
    init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
    goal={"d": (1, 2, 3, 4, 5, 6)},
)


@pytest.fixture
def three_disk_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound's tables: runs of 3 disks, one cut of three; the strong ones: runs of
    4 (not one table of every disk)."""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 64)
    monkeypatch.setattr(cuts, "STRONG_PATTERNS", 256)
    monkeypatch.setattr(database, "CUTS_BUILT", 1)
    database._CACHE.clear()


def _purchases(puzzle: Puzzle, options: SolveOptions) -> Any:
    from hanoi_asp.engine.policy import choose_strategy
    from hanoi_asp.engine.state import SearchState
    from hanoi_asp.engine.tables import Purchases

    run = SearchState(puzzle, options)
    run.strategy = choose_strategy(puzzle, options, None)
    return Purchases(puzzle, run.strategy, run.deadline, goal_database(puzzle))


def test_every_cut_then_the_strong_tables_once_the_rent_reaches_their_price(
    three_disk_runs: None,
) -> None:
    """Nothing while the rent (clingo's and the beam's work) is below what the bound's
    tables cost; then every cut; then nothing until the rent reaches the strong
    tables' price; then they, and nothing after."""
    purchases = _purchases(SIX, SolveOptions(threads=1))
    first, strong = purchases.first_price, purchases.strong_price
    assert first == tables_price(SIX, goal_database(SIX)) and 0 < first < strong
    assert purchases.due(first - 1, None) is None
    assert purchases.due(first, None) is False
    tables, price = purchases.buy(False)
    assert tables == goal_database(SIX, every_cut=True) and price == first
    assert len(tables) == len(partitions(4, 6, 64)) == 3
    assert purchases.due(strong - 1, None) is None
    assert purchases.due(strong, None) is True
    tables, price = purchases.buy(True)
    assert tables == goal_database(SIX, strong=True) and price == strong
    assert {t.run.size for part in tables for t in part} == {1, 2, 4}
    assert purchases.due(10**12, None) is None


def test_a_solve_that_buys_both_mid_search_ends_at_the_optimum(
    three_disk_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prices tiny: every cut after the first refuted horizon, the strong tables after
    the next; the propagator and the beam are handed each, and the answer is still
    breadth-first search's optimum."""
    from hanoi_asp.engine import tables
    from hanoi_asp.engine.shorten import Shortener

    monkeypatch.setattr(tables, "tables_price", lambda puzzle, tables: 1)
    monkeypatch.setattr(tables, "strong_price", lambda puzzle: 2)
    handed: list[Any] = []
    retable = Shortener.retable

    def counted(self: Shortener, given: Any) -> None:
        handed.append(given)
        retable(self, given)

    monkeypatch.setattr(Shortener, "retable", counted)
    result = solve(SIX, SolveOptions(threads=1, first_plan=False, astar=False))
    assert result.length == bfs_optimum(SIX) and [h.status for h in result.horizons][-1] == "SAT"
    assert handed == [goal_database(SIX, every_cut=True), goal_database(SIX, strong=True)]


def test_no_tables_are_built_once_a_bound_meets_the_plan_in_hand() -> None:
    """The smallest disk of a 4-peg tower of 10 to another peg: the plan built first
    has one move, the misplaced-disks bound is 1, so the pattern tables (a third of a
    second) are not built; without that plan they are."""
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=10,
        init={"a": tuple(range(1, 11))},
        goal={"a": tuple(range(1, 10)), "b": (10,)},
    )
    database._CACHE.clear()
    result = solve(puzzle)
    assert result.result == "OPTIMUM FOUND" and result.length == 1
    assert result.bound.name == "misplaced-disks" and not database._CACHE
    searched = solve(puzzle, SolveOptions(first_plan=False))
    assert searched.length == 1 and database._CACHE
    database._CACHE.clear()


def test_while_astar_races_the_strong_tables_wait_until_it_has_bought_them(
    three_disk_runs: None,
) -> None:
    """With A* racing (it builds the strong tables), every cut is bought, then the strong
    tables only once A* has said it bought them (their rent paid too)."""
    purchases = _purchases(SIX, SolveOptions(threads=1, table_cache=False))
    rent = 10**12  # far past every price
    assert purchases.due(rent, False) is False
    purchases.buy(False)
    assert purchases.due(rent, False) is None  # waits
    assert purchases.due(rent, True) is True


def test_a_warm_solve_buys_what_a_cold_one_does_when_it_does(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, three_disk_runs: None
) -> None:
    """The bound's tables read from the on-disk cache cost what building them did: the
    prices, and so every purchase at every rent, are the same warm as cold."""
    monkeypatch.setattr(database, "CACHED_PATTERNS", 64)  # the 3-disk runs are kept
    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("HANOI_ASP_NO_CACHE", raising=False)
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3), "c": (4, 5, 6)},  # no two runs share a table
    )
    options = SolveOptions(threads=1)
    cold = _purchases(puzzle, options)
    database._CACHE.clear()  # a new process: the tables come from the disk
    warm = _purchases(puzzle, options)
    assert list(tmp_path.iterdir())
    prices = (cold.first_price, cold.strong_price)
    assert prices == (warm.first_price, warm.strong_price)
    for rent in (0, cold.first_price - 1, cold.first_price, 10**12):
        assert cold.due(rent, None) == warm.due(rent, None)
    database._CACHE.clear()
