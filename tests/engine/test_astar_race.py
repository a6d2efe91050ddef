"""A* racing clingo in step with it (``hanoi_asp/engine/astar_race.py``): whoever
answers first, the optimum is breadth-first search's; what A* says is taken in at the
same work on every run, however fast either side goes; the race leaves no process
behind and runs only where it may take a second core."""

from __future__ import annotations

import time
from typing import Any

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from support.puzzles import EIGHT_DISKS, bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine import astar_driver, astar_race
from hanoi_asp.engine.astar_race import Rival
from hanoi_asp.engine.loop import Found, Ladder, climb
from hanoi_asp.engine.policy import choose_strategy
from hanoi_asp.engine.scheduler import take_in
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import cuts, database, goal_database
from hanoi_asp.model.limits import Limits

FIXTURE_OK = [HealthCheck.function_scoped_fixture]
HARD = EIGHT_DISKS


@pytest.fixture
def cut_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables of 6 disks on :data:`HARD`'s 8: not one table of every disk (the exact
    distance, which proves the puzzle before any search)."""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**6)
    database._CACHE.clear()


@pytest.fixture
def race_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A* may start as soon as the tables are built."""
    monkeypatch.setattr(astar_race, "RACE_AFTER", 0)


def _rival(puzzle: Puzzle, options: SolveOptions) -> tuple[SearchState, Rival]:
    run = SearchState(puzzle, options)
    run.strategy = choose_strategy(puzzle, options, None)
    allowed = options.astar and options.threads is None
    rival = Rival(puzzle, options.limits, run.deadline, goal_database(puzzle), allowed)
    return run, rival


def _meet(run: SearchState, rival: Rival, work: int) -> None:
    """Meet A* at ``work`` as the scheduler does: what it said applied to the state."""
    rival.meet(work, run.lower)
    rival.hand_over(lambda report: take_in(run, report))


def _children() -> set[int]:
    """This process's children (other tests' servers may be among them)."""
    return {child.pid for child in psutil.Process().children()}


def test_astar_answer_is_the_optimum_and_its_proof(cut_tables: None) -> None:
    """Met at more work than A* needs, A*'s answer is taken in: its plan (replayed)
    offered, its bound the plan's length, with its argument; the process has ended."""
    expected = bfs_optimum(HARD)
    before = _children()
    run, rival = _rival(HARD, SolveOptions())
    rival.start_if_due(astar_race.RACE_AFTER)
    assert rival.child is not None and rival.child.pid not in before
    _meet(run, rival, astar_race.RACE_AFTER + 10**12)
    assert run.best is not None and len(run.best) == expected == run.lower
    assert run.origin is not None and run.origin.source == "astar"
    assert run.bound is not None and run.bound.name == "astar" and run.bound.exact
    assert "A*" in run.bound.argument
    assert run.meets() and rival.child is None and _children() <= before


def test_what_astar_says_is_taken_in_at_the_work_it_was_said(cut_tables: None) -> None:
    """Met at each amount of work in turn, the engine takes in A*'s bounds as A* said
    them, never one said later: the same on every run, and a slowed A* only makes the
    engine wait."""
    seen: list[list[tuple[int, int]]] = []
    for slow in (False, True):
        run, rival = _rival(HARD, SolveOptions())
        if slow:
            time.sleep(0.2)  # nothing changes by waiting: A* has not started yet
        rival.start_if_due(0 + astar_race.RACE_AFTER)
        steps = []
        for work in range(astar_race.RACE_AFTER, astar_race.RACE_AFTER + 3_000_000, 50_000):
            _meet(run, rival, work)
            steps.append((work, run.lower))
            if slow:
                time.sleep(0.001)
        rival.close()
        seen.append(steps)
    assert seen[0] == seen[1]


def test_astar_stopped_by_memory_raises_the_bound_no_further_than_the_optimum(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of its budget of stored states, A* sends its smallest open ``f``: the
    bound rises to it (no further than the optimum) and no plan is offered."""
    monkeypatch.setattr(astar, "CHECK_EVERY", 1)
    monkeypatch.setattr(astar_race, "race_budget", lambda limits, puzzle: 100)
    expected = bfs_optimum(HARD)
    assert expected is not None
    run, rival = _rival(HARD, SolveOptions())
    rival.start_if_due(astar_race.RACE_AFTER)
    _meet(run, rival, 10**12)
    assert run.best is None and 0 < run.lower <= expected and not rival.racing()
    assert run.bound is not None and "stopped: states" in run.bound.argument


@pytest.mark.parametrize("free_gib", [1, 2, 8, 23])
@pytest.mark.parametrize("disks", [15, 17])
def test_the_racing_astar_leaves_clingo_its_memory_and_no_more(
    monkeypatch: pytest.MonkeyPatch, free_gib: int, disks: int
) -> None:
    """A*'s budget less what the main process keeps, never under half of it: together
    they stay within A*'s default budget and the main process's share (4 GiB), and a
    user's ``--limit states=N`` is halved as before; batched (4 pegs 15 disks, its
    closed set's bits counted) or one state at a time (17 disks)."""
    monkeypatch.setattr(astar_driver, "available_memory", lambda: free_gib * 2**30)
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=disks,
        init={"a": tuple(range(1, disks + 1))},
        goal={"d": tuple(range(1, disks + 1))},
    )
    assert astar.batched(puzzle) == (disks == 15)
    whole = astar_driver.astar_budget(Limits(), puzzle)
    per_state = astar.state_bytes(puzzle)
    kept = astar_driver.CLINGO_MEMORY // per_state
    racing = astar_driver.race_budget(Limits(), puzzle)
    assert racing == max(whole // 2, whole - kept)
    closed = 4**disks // 8 if astar.batched(puzzle) else 0
    assert racing * per_state + closed + astar_driver.CLINGO_MEMORY <= 4 * 2**30
    if free_gib >= 8:  # room for A*'s whole default budget: more than half of it races
        assert whole // 2 < racing
    assert astar_driver.race_budget(Limits(states=10_000), puzzle) == 5_000


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(5, 8)))
def test_the_race_ends_at_the_breadth_first_optimum(
    race_at_once: None, small_tables: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle
) -> None:
    """Whoever answers first (clingo, A*, or A* out of memory and then clingo), the
    answer is the optimum, its bound no higher, and no A* process is left."""
    monkeypatch.setattr(astar, "CHECK_EVERY", 64)
    expected = bfs_optimum(puzzle)
    assert expected is not None  # full goals are always reachable with every move
    before = _children()
    result = solve(puzzle, SolveOptions(first_plan=False))
    assert result.result == "OPTIMUM FOUND" and result.length == expected
    assert result.bound.value <= expected
    assert result.proof_data is not None and result.proof_data.lower == expected
    assert _children() <= before


@pytest.mark.parametrize("raised", [0, 3, 100])
def test_a_horizon_the_scheduler_stopped_is_asked_again_unless_proven(
    cut_tables: None, raised: int
) -> None:
    """A horizon's search stopped at a checkpoint (UNKNOWN) is asked again unless the
    bound passed it meanwhile, and the loop goes on from the bound (a bound at the
    optimum without a plan: clingo finds the plan at that horizon)."""
    expected = bfs_optimum(HARD)
    assert expected is not None
    options = SolveOptions(first_plan=False, astar=False)
    run = SearchState(HARD, options)
    run.strategy = choose_strategy(HARD, options, None)
    start = expected - 3
    run.raise_lower(start, "a test")
    stops = iter([True])

    def checkpoint(ticks: int, horizon: int) -> bool:
        if next(stops, False):  # the first call of the first solve only
            run.raise_lower(min(run.lower + raised, expected), "a rival")
            return False
        return True

    solver = make_solver(
        HARD, run.strategy, minimal=True, tables=goal_database(HARD), checkpoint=checkpoint
    )
    run.solvers.append(solver)
    outcome = climb(run, Ladder(solver, range(start, expected + 10), paused=lambda: True))
    statuses = [record.status for record in run.horizons]
    assert statuses[0] == "UNKNOWN" and "UNKNOWN" not in statuses[1:]
    assert isinstance(outcome, Found) and len(outcome.moves) == expected
    asked = [record.horizon for record in run.horizons]
    assert asked == [start, *range(min(start + raised, expected), expected + 1)]


def test_an_astar_that_fails_leaves_the_proof_to_clingo(
    race_at_once: None, cut_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A* ending without an answer (a failure, e.g. over a memory cap) is no timeout:
    clingo goes on and proves the optimum itself."""

    def fail(*args: object, **kwargs: object) -> Any:
        raise MemoryError

    monkeypatch.setattr(astar_race, "run_astar", fail)
    result = solve(HARD, SolveOptions(first_plan=False, timeout=60))
    assert result.result == "OPTIMUM FOUND" and result.length == bfs_optimum(HARD)
    assert result.proof_data is not None and result.proof_data.plan is not None
    assert result.proof_data.plan.source == "clingo" and result.bound.name != "astar"


@pytest.mark.parametrize(
    "options",
    [SolveOptions(astar=False), SolveOptions(threads=1), SolveOptions(threads=2)],
    ids=["no-astar", "threads-1", "threads-2"],
)
def test_no_race_where_it_is_not_asked_for(options: SolveOptions) -> None:
    """``--no-astar``, or threads chosen by the user or a batch: clingo alone."""
    _, rival = _rival(HARD, options)
    rival.start_if_due(10**12)
    assert not rival.allowed and rival.child is None


def test_the_race_starts_at_the_same_work_however_the_tables_came(cut_tables: None) -> None:
    """A* starts once the search's work reaches RACE_AFTER, counted in work (a table read
    from the cache costs what building it would), never on the clock."""
    run, rival = _rival(HARD, SolveOptions())
    rival.start_if_due(astar_race.RACE_AFTER - 1)
    assert rival.allowed and rival.child is None
    rival.start_if_due(astar_race.RACE_AFTER)
    assert rival.child is not None
    _meet(run, rival, 10**12)
    assert run.best is not None and len(run.best) == bfs_optimum(HARD) == run.lower


def test_reports_left_by_an_interrupt_are_handed_over_next_time() -> None:
    """A Ctrl-C while one report is applied drops none: the interrupted one and those
    after it are handed over again at the next call, in order."""
    _, rival = _rival(HARD, SolveOptions())
    rival.said.extend(["first", "second", "third"])  # type: ignore[list-item]
    applied: list[Any] = []

    def interrupted_once(report: Any) -> None:
        applied.append(report)
        if len(applied) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        rival.hand_over(interrupted_once)
    rival.hand_over(applied.append)
    assert applied == ["first", "second", "second", "third"]
    assert rival.said == []
