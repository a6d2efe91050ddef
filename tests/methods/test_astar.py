"""A* on the pattern tables (``hanoi_asp/methods/astar.py``) against breadth-first search:
the optimum."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.puzzles import bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import (
    goal_database,
)

FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True))
def test_astar_finds_the_breadth_first_optimum(small_tables: None, puzzle: Puzzle) -> None:
    expected = bfs_optimum(puzzle)
    found = astar.search(puzzle, goal_database(puzzle))
    if expected is None:
        assert found.steps is None and found.exhausted
    else:
        assert found.steps is not None and len(found.steps) == expected == found.lower
        result = solve(puzzle, SolveOptions(method="astar"))
        assert result.result == "OPTIMUM FOUND" and result.length == expected


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(4, 7), graphs=True), st.integers(1, 40))
def test_astar_stopped_by_its_budget_proves_no_more_than_the_optimum(
    small_tables: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, budget: int
) -> None:
    """Stopped by its budget of stored states (looked at after every expansion here),
    A*'s smallest open ``f`` is a lower bound: never above breadth-first search's
    optimum, and with the strong tables bought on the way too."""
    monkeypatch.setattr(astar, "CHECK_EVERY", 1)
    expected = bfs_optimum(puzzle)
    for found in (
        astar.search(puzzle, goal_database(puzzle), max_states=budget),
        astar.search_buying_tables(puzzle, None, max_states=budget)[0],
    ):
        if expected is None:
            assert found.steps is None
        elif found.steps is not None:
            assert len(found.steps) == found.lower == expected
        else:
            assert found.stopped == "states" and found.lower <= expected
