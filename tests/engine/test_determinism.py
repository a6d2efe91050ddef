"""The same answer on every run (issue #46): the search's decisions read the work done,
never the clock, so a solve gives the same plan, proof, horizons and statistics under a
clock that jumps an hour at every look, with A* on the other core slowed, and with the
main process slowed; only the times differ.  (``python -m benchmarks.determinism``
checks whole processes on the benchmark's puzzles.)"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support import answers
from support.files import ROOT
from support.puzzles import EIGHT_DISKS, tower

from hanoi_asp import Puzzle, Result, SolveOptions, load_puzzle, solve
from hanoi_asp.engine import astar_race, scheduler
from hanoi_asp.methods import astar, astar_batched
from hanoi_asp.methods.patterns import cuts, database

PUZZLES = (
    EIGHT_DISKS,
    Puzzle(
        pegs=("a", "b", "c", "d", "e"),
        disks=8,
        init={"a": (1, 3, 6), "b": (2, 8), "e": (4, 5, 7)},
        goal={"c": (1, 2, 4, 5), "d": (3, 6, 7, 8)},
    ),
)


@pytest.fixture(params=[100, 1000], ids=["astar-leads", "clingo-leads"])
def every_worker(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tables of a few disks (cuts, not the exact distance, strong tables to buy), A* on
    the other core at once, each of its states counted as ``request.param`` units of
    work (so that on these small puzzles it leads, or clingo refutes horizon after
    horizon before A* answers): clingo, the beam, the purchases and A* all take turns."""
    monkeypatch.setattr(astar_batched, "ESTIMATE", request.param)
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**4)
    monkeypatch.setattr(cuts, "STRONG_PATTERNS", 4**5)
    monkeypatch.setattr(cuts, "BEAM_PATTERNS", 4**5)
    monkeypatch.setattr(astar_race, "RACE_AFTER", 0)
    monkeypatch.setattr(astar_race, "REPORT_EVERY", 1)
    monkeypatch.setattr(astar_batched, "BATCH", 64)
    database._CACHE.clear()
    yield
    database._CACHE.clear()


def timeless(result: Result) -> dict[str, Any]:
    """The result's JSON but for what the clock decides."""
    return answers.timeless(result.to_dict())


def _solve(puzzle: Puzzle) -> dict[str, Any]:
    database._CACHE.clear()  # a new process: the tables built afresh
    return timeless(solve(puzzle, SolveOptions(first_plan=False, table_cache=False)))


def _jumping_clock() -> Callable[[], float]:
    hours = itertools.count(0, 3600)
    return lambda: float(next(hours))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=["4-pegs", "5-pegs"])
def test_the_clock_decides_nothing(
    every_worker: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle
) -> None:
    """The same answer under a clock that jumps an hour at every look (in the engine, the
    methods and the forked A*): no decision reads it."""
    calm = _solve(puzzle)
    assert calm["result"] == "OPTIMUM FOUND"
    with monkeypatch.context() as patch:
        patch.setattr(time, "monotonic", _jumping_clock())
        patch.setattr(time, "perf_counter", _jumping_clock())
        rushed = _solve(puzzle)
    assert rushed == calm


_SEARCH, _MEET = astar.search, scheduler.Scheduler.meet


def _slow_search(*args: Any, report: Any = None, **kwargs: Any) -> Any:
    """A* slowed on the other core: a pause at every report it makes."""

    def slowly(progress: Any) -> None:
        time.sleep(0.002)
        if report is not None:
            report(progress)

    return _SEARCH(*args, report=slowly, **kwargs)


def _slow_meet(self: scheduler.Scheduler) -> bool:
    """The main process slowed: a pause at every checkpoint."""
    time.sleep(0.001)
    return _MEET(self)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=["4-pegs", "5-pegs"])
def test_a_slowed_astar_or_a_slowed_clingo_changes_nothing(
    every_worker: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle
) -> None:
    """A* made slow on the other core (a pause at every report), then the main process
    made slow (a pause at every checkpoint): the engine meets A* at the same work either
    way, so the answer is the same, statistics and all."""
    calm = _solve(puzzle)
    with monkeypatch.context() as patch:
        patch.setattr(astar, "search", _slow_search)
        slow_astar = _solve(puzzle)
    with monkeypatch.context() as patch:
        patch.setattr(scheduler.Scheduler, "meet", _slow_meet)
        slow_clingo = _solve(puzzle)
    assert slow_astar == calm and slow_clingo == calm


# -- a work budget (--work): the same stopping point on every run -------------------------

TWELVE_ON_FIVE = tower(5, 12)
"""A whole tower on 5 pegs: the half search, which runs no scheduler (its ledger of its
own counts the half's tables and the propagator's calls)."""


def _budgeted(puzzle: Puzzle, work: int, first_plan: bool = True) -> dict[str, Any]:
    database._CACHE.clear()
    options = SolveOptions(first_plan=first_plan, table_cache=False, work=work)
    return timeless(solve(puzzle, options))


def _clock_and_slowness_change_nothing(
    monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, work: int, first_plan: bool = True
) -> dict[str, Any]:
    """The budgeted answer, checked to be the same run again, under a clock that jumps an
    hour at every look, with A* slowed, and with the main process slowed."""
    calm = _budgeted(puzzle, work, first_plan)
    assert _budgeted(puzzle, work, first_plan) == calm
    with monkeypatch.context() as patch:
        patch.setattr(time, "monotonic", _jumping_clock())
        patch.setattr(time, "perf_counter", _jumping_clock())
        assert _budgeted(puzzle, work, first_plan) == calm
    with monkeypatch.context() as patch:
        patch.setattr(astar, "search", _slow_search)
        patch.setattr(scheduler.Scheduler, "meet", _slow_meet)
        assert _budgeted(puzzle, work, first_plan) == calm
    return calm


@pytest.mark.parametrize(("work", "first_plan"), [(300_000, True), (1_000_000, False)])
def test_a_work_budget_stops_at_the_same_point_on_every_run(
    every_worker: None, monkeypatch: pytest.MonkeyPatch, work: int, first_plan: bool
) -> None:
    """Stopped by its budget inside clingo's search, before the proof, racing A*: the
    same plan, bounds, horizons and statistics however the clock and the workers run."""
    answer = _clock_and_slowness_change_nothing(monkeypatch, EIGHT_DISKS, work, first_plan)
    assert answer["stopped"] == "work" and answer["result"] != "OPTIMUM FOUND"
    assert answer["horizons"] and answer["horizons"][-1]["status"] == "UNKNOWN"
    data = answer["proof_data"]
    assert data["kind"] == "stopped" and data["work_limit"] == work
    assert data["time_limit"] is None
    assert answer["proof"].startswith(f"stopped at its work budget ({work} units of work): ")
    if answer["length"] is not None:
        assert answer["result"] == "SATISFIABLE" and answer["gap"] > 0
        assert "not proven minimal" in answer["proof"]
    proven = timeless(solve(EIGHT_DISKS, SolveOptions(first_plan=first_plan, table_cache=False)))
    assert proven["result"] == "OPTIMUM FOUND"
    assert answer["lower_bound"] <= proven["lower_bound"]
    assert answer["horizons"][:-1] == proven["horizons"][: len(answer["horizons"]) - 1]


def test_the_half_search_stops_at_its_budget_the_same_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 5-peg tower's half search, stopped inside a half horizon by the budget."""
    answer = _clock_and_slowness_change_nothing(monkeypatch, TWELVE_ON_FIVE, 1_000_000)
    assert answer["stopped"] == "work" and answer["result"] == "SATISFIABLE"
    assert answer["proof_data"]["half_search"] is not None
    assert answer["horizons"][-1]["status"] == "UNKNOWN"
    assert {h["phase"] for h in answer["horizons"]} == {"mirror-half"}
    assert answer["lower_bound"] < answer["length"] == 47


def test_a_larger_budget_goes_further_and_enough_of_it_proves() -> None:
    """More work, a lower bound as high or higher; a budget past the proof's work
    changes nothing of the proven answer."""
    lowers = [_budgeted(TWELVE_ON_FIVE, work)["lower_bound"] for work in (300_000, 1_000_000)]
    assert lowers == sorted(lowers) and lowers[0] < lowers[1]
    unbounded = timeless(solve(tower(5, 11), SolveOptions(table_cache=False)))
    assert _budgeted(tower(5, 11), 10**9) == unbounded
    assert unbounded["result"] == "OPTIMUM FOUND"


def test_whichever_limit_comes_first_stops_the_search() -> None:
    """``--timeout`` and ``--work`` together: a tiny time limit stops before a large
    budget; a tiny budget before a long time limit."""
    database._CACHE.clear()
    timed = solve(TWELVE_ON_FIVE, SolveOptions(table_cache=False, work=10**12, timeout=1e-6))
    assert timed.stopped == "timeout" and timed.proof_data.work_limit is None
    database._CACHE.clear()
    worked = solve(TWELVE_ON_FIVE, SolveOptions(table_cache=False, work=1, timeout=3600))
    assert worked.stopped == "work" and worked.proof_data.time_limit is None


@pytest.mark.parametrize("work", [1_000_000, 2_000_000])
def test_a_time_limit_beside_the_budget_decides_nothing(
    monkeypatch: pytest.MonkeyPatch, work: int
) -> None:
    """Beside ``--work``, ``--timeout`` only stops the search: a short one, which alone
    makes the beam buy its cut at once (:data:`~hanoi_asp.engine.shorten.SHORT_LIMIT`) and
    its widths watch the clock, here never reached (the clock stands still), leaves the
    budget's answer as it is: stopped by it (1,000,000), or proven (2,000,000)."""
    hard = load_puzzle(str(ROOT / "instances" / "hard" / "4pegs-12disks-arbitrary.lp"))
    alone = _budgeted(hard, work)
    database._CACHE.clear()
    options = SolveOptions(table_cache=False, work=work, timeout=9)
    with monkeypatch.context() as patch:
        patch.setattr(time, "monotonic", lambda: 1000.0)
        timed = timeless(solve(hard, options))
    assert timed == alone
    assert alone["stopped"] == ("work" if work < 2_000_000 else None)


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"threads": 2}, "--threads 2"),
        ({"method": "astar"}, "--method astar"),
        ({"method": "bfs"}, "--method bfs"),
        ({"exact_moves": 9}, "--moves"),
        ({"mode": "oneshot"}, "--mode oneshot"),
        ({"patterns": False}, "--no-patterns"),
    ],
)
def test_a_budget_is_refused_where_no_search_on_tables_runs(
    changes: dict[str, Any], named: str
) -> None:
    from hanoi_asp.model.errors import InputError

    with pytest.raises(InputError, match=f"which {named} does not run: give --timeout"):
        SolveOptions(work=1000, **changes)


@pytest.mark.parametrize("work", [0, -5, True, 2.5])
def test_a_budget_is_a_positive_number_of_units(work: Any) -> None:
    from hanoi_asp.model.errors import InputError

    with pytest.raises(InputError, match="work must be a positive number of units"):
        SolveOptions(work=work)


def test_a_three_peg_search_refuses_a_budget_but_not_a_puzzle_settled_before_it() -> None:
    """Classic 3 pegs search with ``distance3.lp``, where no work is counted: refused
    once clingo's search is needed, naming the puzzle; a plan that meets the bound
    before any search is the answer, budget or not."""
    from hanoi_asp.model.errors import InputError

    three = tower(3, 5)
    assert solve(three, SolveOptions(work=1)).result == "OPTIMUM FOUND"
    options = SolveOptions(work=1, first_plan=False, source="three.lp")
    with pytest.raises(InputError, match=r"three.lp: --work counts .* 3-peg puzzle"):
        solve(three, options)
