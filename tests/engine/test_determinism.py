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
from support.puzzles import EIGHT_DISKS

from hanoi_asp import Puzzle, Result, SolveOptions, solve
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
    data = result.to_dict()
    for key in ("time_s", "timings"):
        data.pop(key)
    if data.get("first_plan"):
        data["first_plan"].pop("time_s")
    for horizon in data["horizons"]:
        horizon.pop("time_s")
    return data


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


@pytest.mark.parametrize("puzzle", PUZZLES, ids=["4-pegs", "5-pegs"])
def test_a_slowed_astar_or_a_slowed_clingo_changes_nothing(
    every_worker: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle
) -> None:
    """A* made slow on the other core (a pause at every report), then the main process
    made slow (a pause at every checkpoint): the engine meets A* at the same work either
    way, so the answer is the same, statistics and all."""
    calm = _solve(puzzle)
    search = astar.search

    def slow_search(*args: Any, report: Any = None, **kwargs: Any) -> Any:
        def slowly(progress: Any) -> None:
            time.sleep(0.002)
            if report is not None:
                report(progress)

        return search(*args, report=slowly, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(astar, "search", slow_search)
        slow_astar = _solve(puzzle)
    meet = scheduler.Scheduler.meet

    def slow_meet(self: scheduler.Scheduler) -> bool:
        time.sleep(0.001)
        return meet(self)

    with monkeypatch.context() as patch:
        patch.setattr(scheduler.Scheduler, "meet", slow_meet)
        slow_clingo = _solve(puzzle)
    assert slow_astar == calm and slow_clingo == calm
