"""One horizon at a time (``hanoi_asp/engine/solver.py``): both drivers answer "a plan of
exactly h moves?" as the tests' own search does, horizon by horizon, however the steps
are chunked for the grounder; with the minimal pruning they still find every optimum;
horizons only increase, and a deadline passed before grounding is UNKNOWN."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from support.puzzles import bfs_optimum, tower
from support.reference import reaches_in_exactly
from support.strategies import puzzles

from hanoi_asp import Puzzle, replay
from hanoi_asp.engine import solver as solver_module
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.engine.solver import HorizonSolver, IncrementalSolver, OneShotSolver, Program

ONE_SHOT = Program("quickstart.lp", read_encoding("quickstart"))
INCREMENTAL = Program("incremental.lp", read_encoding("incremental"))


def drivers(puzzle: Puzzle, prune: bool = False) -> list[HorizonSolver]:
    """Both drivers for ``puzzle``, one thread each (the same answers every run)."""
    return [
        OneShotSolver(puzzle, [ONE_SHOT], threads=1),
        IncrementalSolver(puzzle, [INCREMENTAL], prune=prune, threads=1),
    ]


@pytest.mark.parametrize("chunk", [1, 3, solver_module.GROUND_CHUNK])
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(puzzles(pegs=(2, 4), disks=(1, 3), graphs=True))
def test_each_horizon_is_answered_as_the_reference_says(
    monkeypatch: pytest.MonkeyPatch, chunk: int, puzzle: Puzzle
) -> None:
    """Every horizon 0 .. the optimum + 2 (or 6 where there is none): SAT exactly where
    some plan of that many moves exists (the tests' layered search, which counts every
    plan, not only the shortest), and each SAT answer's moves replay to the goal in
    that many moves.  The incremental driver grounds ``chunk`` steps per call."""
    monkeypatch.setattr(solver_module, "GROUND_CHUNK", chunk)
    pegs, start, goal, edges = (
        len(puzzle.pegs),
        puzzle.initial_state(),
        puzzle.goal_pegs(),
        puzzle.edges(),
    )
    optimum = bfs_optimum(puzzle)
    last = 6 if optimum is None else optimum + 2
    for driver in drivers(puzzle):
        for horizon in range(last + 1):
            run, steps = driver.run(horizon, None)
            expected = reaches_in_exactly(pegs, start, goal, horizon, edges)
            assert run.horizon == horizon
            assert run.status == ("SAT" if expected else "UNSAT"), (type(driver), horizon)
            if expected:
                assert steps is not None and len(replay(puzzle, steps)) == horizon
            else:
                assert steps is None


@settings(max_examples=25, deadline=None)
@given(puzzles(pegs=(3, 4), disks=(1, 4), graphs=True))
def test_the_minimal_pruning_keeps_an_optimum(puzzle: Puzzle) -> None:
    """With ``prune`` (the constraints that keep every minimal plan, not every plan):
    every horizon below the breadth-first optimum is refuted and the optimum's holds."""
    optimum = bfs_optimum(puzzle)
    driver = IncrementalSolver(puzzle, [INCREMENTAL], prune=True, threads=1)
    for horizon in range(8 if optimum is None else optimum + 1):
        run, steps = driver.run(horizon, None)
        if optimum is None or horizon < optimum:
            assert run.status == "UNSAT" and steps is None, horizon
        else:
            assert run.status == "SAT" and steps is not None
            assert len(replay(puzzle, steps)) == optimum


def test_horizons_never_decrease() -> None:
    """The incremental driver grounds one more step per horizon: going back is refused;
    the same horizon again (a solve cancelled by A*'s answer) is solved again."""
    driver = IncrementalSolver(tower(3, 2), [INCREMENTAL], prune=False, threads=1)
    assert driver.run(2, None)[0].status == "UNSAT"
    assert driver.run(3, None)[0].status == "SAT"
    with pytest.raises(ValueError, match="horizons must not decrease: 2 after 3"):
        driver.run(2, None)
    again, steps = driver.run(3, None)
    assert again.status == "SAT" and steps is not None and len(steps) == 3


def test_a_deadline_passed_before_grounding_is_unknown_and_grounds_nothing() -> None:
    """Out of time before its steps are ground, the incremental driver answers UNKNOWN
    and grounds no further; asked again without a deadline, it answers that horizon."""
    driver = IncrementalSolver(tower(3, 3), [INCREMENTAL], prune=False, threads=1)
    run, steps = driver.run(7, time.monotonic() - 1)
    assert run.status == "UNKNOWN" and steps is None and run.horizon == 7
    assert driver.stepped == -1 and driver.grounded == -1
    run, steps = driver.run(7, None)
    assert run.status == "SAT" and steps is not None and len(steps) == 7
