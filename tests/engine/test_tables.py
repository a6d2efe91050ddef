"""The tables the search uses (``hanoi_asp/engine/tables.py``): stronger ones bought as
refuting costs what they do, none built once a bound meets the plan in hand."""

from __future__ import annotations

from typing import Any

import pytest
from support.puzzles import bfs_optimum
from support.solvers import pruning

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.methods.patterns import (
    cuts,
    database,
    goal_database,
    partitions,
)


def test_the_search_checks_every_cut_once_refuting_costs_what_the_tables_did(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``check_every_cut`` waits while clingo's search time is below the bounds' time,
    then hands the propagator every cut of the bound's tables; it waits again while the
    search time is below the strong tables' price, then hands those over; and a whole
    solve that widens mid-search still ends at the BFS optimum."""
    from hanoi_asp.engine.policy import choose_strategy, make_solver
    from hanoi_asp.engine.state import SearchState
    from hanoi_asp.engine.tables import check_every_cut

    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 64)  # runs of 3 disks: 3 cuts
    monkeypatch.setattr(cuts, "STRONG_PATTERNS", 256)  # strong: runs of 4, 3 cuts
    monkeypatch.setattr(database, "CUTS_BUILT", 1)
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3, 4, 5, 6)},
    )
    options = SolveOptions(threads=1)
    plan = choose_strategy(puzzle, options, None)
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    assert len(pruning(solver).tables) == 1
    run = SearchState(puzzle, options, timings={"bounds": 3600.0})
    assert not check_every_cut(run, plan, solver)
    assert len(pruning(solver).tables) == 1
    run.timings["bounds"] = 0.0
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 3600.0)  # a price never reached
    assert not check_every_cut(run, plan, solver)
    assert pruning(solver).tables == goal_database(puzzle, every_cut=True)
    run.timings["bounds"] = 0.0
    assert len(pruning(solver).tables) == len(partitions(4, 6, 64)) == 3
    assert not check_every_cut(run, plan, solver)
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 0.0)
    run.timings["bounds"] = 0.0  # the first purchase counts as the bounds' time
    assert check_every_cut(run, plan, solver)
    strong = pruning(solver).tables
    assert strong == goal_database(puzzle, strong=True) and len(strong) == 3
    assert {t.run.size for part in strong for t in part} == {1, 2, 4}
    database._CACHE.clear()
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 1e-6)  # bought after a horizon
    widened: list[int] = []

    retabled: list[Any] = []

    def at_once(
        run: Any, plan: Any, solver: Any, buy_strong: bool, on_tables: Any, beam_time: float
    ) -> bool:
        run.timings["bounds"] = 0.0  # no waiting
        widened.append(len(pruning(solver).tables))

        def retable(tables: Any) -> None:
            retabled.append(tables)
            on_tables(tables)

        return check_every_cut(run, plan, solver, buy_strong, retable)

    monkeypatch.setattr("hanoi_asp.engine.strategies.upward.check_every_cut", at_once)
    result = solve(puzzle, SolveOptions(threads=1, first_plan=False))
    assert result.length == bfs_optimum(puzzle)
    assert widened[:2] == [1, 3] and [h.status for h in result.horizons][-1] == "SAT"
    assert len(result.horizons) > 2  # horizons were refuted: the search widened twice
    every_cut = goal_database(puzzle, every_cut=True)
    assert retabled == [every_cut, goal_database(puzzle, strong=True)]  # the beam's tables


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


def test_while_astar_races_the_strong_tables_wait_until_they_are_free(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not ``buy_strong`` (A* builds them), every cut is bought, then the strong tables
    only once free (in this process or the cache); then they are taken at once."""
    from hanoi_asp.engine.policy import choose_strategy, make_solver
    from hanoi_asp.engine.state import SearchState
    from hanoi_asp.engine.tables import check_every_cut

    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 64)
    monkeypatch.setattr(cuts, "STRONG_PATTERNS", 256)
    monkeypatch.setattr(database, "CUTS_BUILT", 1)
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 0.0001)  # a price above 0
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3, 4, 5, 6)},
    )
    options = SolveOptions(threads=1, table_cache=False)
    plan = choose_strategy(puzzle, options, None)
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    solver.calls.solving = 3600.0  # far past every price
    run = SearchState(puzzle, options, timings={"bounds": 0.0})
    assert not check_every_cut(run, plan, solver, buy_strong=False)
    assert pruning(solver).tables == goal_database(puzzle, every_cut=True)
    assert not check_every_cut(run, plan, solver, buy_strong=False)  # waits
    assert pruning(solver).tables == goal_database(puzzle, every_cut=True)
    strong = goal_database(puzzle, strong=True)  # built meanwhile: free now
    assert check_every_cut(run, plan, solver, buy_strong=False)
    assert pruning(solver).tables == strong


def test_a_warm_solve_buys_every_cut_when_a_cold_one_would(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound's tables read from the on-disk cache cost milliseconds; their price
    (:func:`~hanoi_asp.engine.tables.bounds_price`) adds the build time recorded with
    them, so ``check_every_cut`` waits for a rent as long as the cold build, not for
    the read; a cold solve's price is its bounds' time alone, as before.  Before, a
    warm solve bought (and built) every cut at once."""
    from hanoi_asp.engine.policy import choose_strategy, make_solver
    from hanoi_asp.engine.state import SearchState
    from hanoi_asp.engine.tables import bounds_price, check_every_cut, timed_tables
    from hanoi_asp.methods import table_cache

    monkeypatch.setattr(database, "CACHED_PATTERNS", 64)  # the 3-disk runs are kept
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 64)
    monkeypatch.setattr(cuts, "STRONG_PATTERNS", 256)  # not one exact table
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 3600.0)  # strong: never bought
    monkeypatch.setattr(database, "CUTS_BUILT", 1)
    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("HANOI_ASP_NO_CACHE", raising=False)
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3), "c": (4, 5, 6)},  # no two runs share a table
    )
    options = SolveOptions(threads=1)
    plan = choose_strategy(puzzle, options, None)
    database._CACHE.clear()
    cold_run = SearchState(puzzle, options)
    cold = timed_tables(cold_run, plan)  # built, and stored with their build times
    assert cold is not None and all(t.saved == 0 for part in cold for t in part)
    assert cold_run.cache_saved == 0 and bounds_price(cold_run) == cold_run.timings["bounds"]
    database._CACHE.clear()  # a new process
    run = SearchState(puzzle, options)
    warm = timed_tables(run, plan)
    assert warm == cold
    recorded = {t.run: table_cache.load(_key_of(puzzle, t.run)) for part in warm for t in part}
    assert all(found is not None and found.seconds > 0 for found in recorded.values())
    assert run.cache_saved == pytest.approx(sum(f.seconds for f in recorded.values() if f))
    solver = make_solver(puzzle, plan, minimal=True, tables=warm)
    run.timings["bounds"] = 0.001
    price = bounds_price(run)
    assert price == pytest.approx(0.001 + run.cache_saved)
    solver.calls.solving = price * 0.99
    assert not check_every_cut(run, plan, solver)  # past the read, short of the build
    assert pruning(solver).tables == warm
    solver.calls.solving = price
    check_every_cut(run, plan, solver)
    assert pruning(solver).tables == goal_database(puzzle, every_cut=True)
    database._CACHE.clear()


def _key_of(puzzle: Puzzle, run: Any) -> str:
    from hanoi_asp.methods.patterns import goal_allowed

    return database.table_key(4, database.run_ends(goal_allowed(puzzle), run), puzzle.edges())
