"""A* racing clingo (``hanoi_asp/engine/astar_race.py``): whoever answers first, the
optimum is breadth-first search's; A*'s answer, taken in, is a sound bound; the race
leaves no process behind and runs only where it may take a second core."""

from __future__ import annotations

import time

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from support.puzzles import EIGHT_DISKS, bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine import astar_race, reference
from hanoi_asp.engine.astar_race import AstarRival
from hanoi_asp.engine.loop import Found, Ladder, climb
from hanoi_asp.engine.policy import choose_strategy, make_solver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import goal_database
from hanoi_asp.model.limits import Limits

FIXTURE_OK = [HealthCheck.function_scoped_fixture]
HARD = EIGHT_DISKS


@pytest.fixture
def race_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A* may start as soon as the tables are built, on any machine."""
    monkeypatch.setattr(astar_race, "RACE_AFTER", 0.0)
    monkeypatch.setattr(astar_race, "spare_core", lambda run: True)


def _rival(puzzle: Puzzle, options: SolveOptions) -> tuple[SearchState, AstarRival]:
    run = SearchState(puzzle, options)
    run.strategy = choose_strategy(puzzle, options, None)
    return run, AstarRival(run, goal_database(puzzle))


def _children() -> set[int]:
    """This process's children (other tests' servers may be among them)."""
    return {child.pid for child in psutil.Process().children()}


def _answer(rival: AstarRival) -> None:
    """Wait (at most a minute) for A*'s answer and take it in."""
    stop = time.monotonic() + 60
    while not rival.finished() and time.monotonic() < stop:
        time.sleep(0.01)
    assert rival.take()


def test_astar_answer_is_the_optimum_and_its_proof(race_at_once: None) -> None:
    """A* answering first: its plan (replayed) is offered and its bound is the plan's
    length, with its argument; the process has ended."""
    expected = bfs_optimum(HARD)
    before = _children()
    run, rival = _rival(HARD, SolveOptions())
    rival.start_if_due()
    assert rival.pid is not None and rival.pid not in before
    _answer(rival)
    assert run.best is not None and len(run.best) == expected == run.lower
    assert run.origin is not None and run.origin.source == "astar"
    assert run.bound is not None and run.bound.name == "astar" and run.bound.exact
    assert "A*" in run.bound.argument
    assert run.meets() and rival.pid is None and _children() <= before


def test_astar_stopped_by_memory_raises_the_bound_no_further_than_the_optimum(
    race_at_once: None, small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of its budget of stored states, A* sends its smallest open ``f``: the
    bound rises to it (no further than the optimum) and no plan is offered."""
    monkeypatch.setattr(astar, "CHECK_EVERY", 1)
    monkeypatch.setattr(astar_race, "astar_budget", lambda limits, puzzle: 100)
    expected = bfs_optimum(HARD)
    assert expected is not None
    run, rival = _rival(HARD, SolveOptions())
    rival.start_if_due()
    _answer(rival)
    assert run.best is None and 0 < run.lower <= expected
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
    monkeypatch.setattr(reference, "available_memory", lambda: free_gib * 2**30)
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=disks,
        init={"a": tuple(range(1, disks + 1))},
        goal={"d": tuple(range(1, disks + 1))},
    )
    assert astar.batched(puzzle) == (disks == 15)
    whole = reference.astar_budget(Limits(), puzzle)
    per_state = astar.state_bytes(puzzle)
    kept = astar_race.CLINGO_MEMORY // per_state
    racing = astar_race.race_budget(Limits(), puzzle)
    assert racing == max(whole // 2, whole - kept)
    closed = 4**disks // 8 if astar.batched(puzzle) else 0
    assert racing * per_state + closed + astar_race.CLINGO_MEMORY <= 4 * 2**30
    if free_gib >= 8:  # room for A*'s whole default budget: more than half of it races
        assert whole // 2 < racing
    assert astar_race.race_budget(Limits(states=10_000), puzzle) == 5_000


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
def test_a_horizon_cancelled_by_the_rival_is_asked_again_unless_proven(raised: int) -> None:
    """A rival's answer cancels clingo's running horizon (UNKNOWN); the loop asks that
    horizon again unless the rival's bound passed it, and goes on from the bound (a
    bound at the optimum without a plan: clingo finds the plan at that horizon)."""
    expected = bfs_optimum(HARD)
    assert expected is not None
    options = SolveOptions(first_plan=False, astar=False, patterns=False)  # slower horizons
    run = SearchState(HARD, options)
    run.strategy = choose_strategy(HARD, options, None)
    solver = make_solver(HARD, run.strategy, minimal=True, tables=goal_database(HARD))
    run.solvers.append(solver)
    run.lower = start = expected - 3
    calls = iter([True])
    solver.calls.interrupt = lambda: next(calls, False)  # the first solve only

    def answered() -> bool:
        run.lower = min(run.lower + raised, expected)
        return True

    outcome = climb(run, Ladder(solver, range(start, expected + 10), rival_answered=answered))
    statuses = [record.status for record in run.horizons]
    assert statuses[0] == "UNKNOWN" and "UNKNOWN" not in statuses[1:]
    assert isinstance(outcome, Found) and len(outcome.moves) == expected
    asked = [record.horizon for record in run.horizons]
    assert asked == [start, *range(min(start + raised, expected), expected + 1)]


def test_an_astar_that_fails_leaves_the_proof_to_clingo(
    race_at_once: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A* ending without an answer (a failure, e.g. over a memory cap) is no timeout:
    clingo asks its horizon again and proves the optimum itself."""

    def fail(*args: object, **kwargs: object) -> object:
        raise MemoryError

    monkeypatch.setattr(astar, "search_buying_tables", fail)
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
    rival.start_if_due()
    assert not rival.allowed and rival.pid is None


def test_the_build_time_the_cache_saved_counts_toward_the_race(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A* starts once the search has run RACE_AFTER seconds, or would have but for the
    on-disk cache: a warm solve whose tables saved that much races at once, as the cold
    one did once its tables were built; one that saved less waits."""
    monkeypatch.setattr(astar_race, "RACE_AFTER", 30.0)
    monkeypatch.setattr(astar_race, "spare_core", lambda run: True)
    run, rival = _rival(HARD, SolveOptions())
    run.cache_saved = 29.0
    rival.start_if_due()
    assert rival.allowed and rival.pid is None  # 29 s saved, a moment run: not yet
    run.cache_saved = 30.0
    rival.start_if_due()
    assert rival.pid is not None
    _answer(rival)
    assert run.best is not None and len(run.best) == bfs_optimum(HARD) == run.lower
