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
    tables = goal_database(puzzle)
    for found in (astar.search(puzzle, tables), astar.search_one_by_one(puzzle, tables)):
        if expected is None:
            assert found.steps is None and found.exhausted
        else:
            assert found.steps is not None and len(found.steps) == expected == found.lower
    result = solve(puzzle, SolveOptions(method="astar"))
    if expected is not None:
        assert result.result == "OPTIMUM FOUND" and result.length == expected


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(4, 7), graphs=True), st.integers(1, 40))
def test_astar_stopped_by_its_budget_proves_no_more_than_the_optimum(
    small_tables: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, budget: int
) -> None:
    """Stopped by its budget of stored states (looked at after every expansion here,
    batched or not), A*'s smallest open ``f`` is a lower bound: never above
    breadth-first search's optimum, and with the strong tables bought on the way too."""
    monkeypatch.setattr(astar, "CHECK_EVERY", 1)
    monkeypatch.setattr(astar, "BATCH", 1)
    expected = bfs_optimum(puzzle)
    tables = goal_database(puzzle)
    for found in (
        astar.search(puzzle, tables, max_states=budget),
        astar.search_one_by_one(puzzle, tables, max_states=budget),
        astar.search_buying_tables(puzzle, None, max_states=budget)[0],
    ):
        if expected is None:
            assert found.steps is None
        elif found.steps is not None:
            assert len(found.steps) == found.lower == expected
        else:
            assert found.stopped == "states" and found.lower <= expected


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 4), disks=(7, 8)), st.sampled_from([1, 7, 1 << 16]))
def test_batched_astar_keeps_the_shortest_way_to_each_state(
    small_tables: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, batch: int
) -> None:
    """A batch of the batched A* holds states of many ``g`` (all of one ``f``), and a
    state reached from two of them must keep the shorter way (the batch ordered by
    ``g``), or it is opened too far from the start, its ``f`` too high, and A* proves
    too much.  On every cut of runs of 2 disks the estimate, the largest of many
    sums, jumps by 2 over two moves often enough that a batch in state order proved
    one move too many on 5 of 12 random 4-peg puzzles of 7-8 disks.  Batches of 1 and
    7 states split the buckets too."""
    monkeypatch.setattr(astar, "BATCH", batch)
    assert astar.batched(puzzle)
    expected = bfs_optimum(puzzle)
    found = astar.search(puzzle, goal_database(puzzle, every_cut=True))
    if expected is None:
        assert found.steps is None and found.exhausted
    else:
        assert found.steps is not None and len(found.steps) == found.lower == expected
