"""Lower bounds (``hanoi_asp/engine/bounds.py``, ``pattern_search.py``, ``three_pegs.py``)
against breadth-first search, and their deadline."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.files import INSTANCES
from support.puzzles import bfs_optimum, tower
from support.reference import bfs_distance
from support.strategies import puzzles

from hanoi_asp import Puzzle, load_puzzle
from hanoi_asp.engine.bounds import (
    best_lower_bound,
    database_bound,
    lower_bound,
    misplaced_disks,
)
from hanoi_asp.engine.pattern_search import group_distance, run_size, runs_distance
from hanoi_asp.engine.pile_split import pile_bound
from hanoi_asp.engine.three_pegs import three_pegs


@settings(max_examples=200)
@given(puzzles())
def test_lower_bounds_are_sound(puzzle: Puzzle) -> None:
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    assert expected is not None
    assert best_lower_bound(puzzle).value <= expected
    assert misplaced_disks(puzzle).value <= expected
    if len(puzzle.pegs) == 3 and puzzle.is_full_goal():
        assert three_pegs(puzzle).value == expected  # exact, not just a bound


@st.composite
def piles(draw: st.DrawFn) -> Puzzle:
    """4-5 pegs, up to 7 disks, a bottom disk that starts and ends on the same peg."""
    pegs = draw(st.integers(4, 5))
    disks = draw(st.integers(2, 6))
    names = tuple(f"p{i}" for i in range(pegs))
    start = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    goal = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    pile = draw(st.integers(1, disks))
    goal[pile - 1] = start[pile - 1]
    init: dict[str, tuple[int, ...]] = {}
    end: dict[str, tuple[int, ...]] = {}
    for disk in range(1, disks + 1):
        init[names[start[disk - 1]]] = (*init.get(names[start[disk - 1]], ()), disk)
        end[names[goal[disk - 1]]] = (*end.get(names[goal[disk - 1]], ()), disk)
    return Puzzle(pegs=names, disks=disks, init=init, goal=end)


def largest_disks_bound(puzzle: Puzzle) -> int | None:
    """The breadth-first optimum of the largest disks one search covers, plus one move
    per other misplaced disk: the two parts of the pile-split bound's cases, by
    projection and additivity (None: no disk covered)."""
    everything = list(range(1, puzzle.disks + 1))
    found = group_distance(puzzle, everything, list(range(len(puzzle.pegs))))
    return None if found is None or found[1] == 0 else found[0]


def additive_runs_bound(puzzle: Puzzle) -> int | None:
    """The disks cut into runs of consecutive sizes, every offset tried: the runs'
    optima add up (what pile-split counts for the disks above the pile's disk)."""
    size = run_size(len(puzzle.pegs), puzzle.disks)
    if size < 2 or size >= puzzle.disks:
        return None  # one run: the largest disks' bound itself
    return runs_distance(puzzle, list(range(1, puzzle.disks + 1)))[0]


@settings(max_examples=300)
@given(piles())
def test_pile_and_pattern_bounds_are_sound(puzzle: Puzzle) -> None:
    """The pile-split bound, and the two pattern searches it adds up, against BFS."""
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    assert expected is not None
    pile = pile_bound(puzzle)
    assert pile is None or pile.value <= expected
    for value in (largest_disks_bound(puzzle), additive_runs_bound(puzzle)):
        assert value is None or value <= expected


FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True))
def test_the_database_bound_never_exceeds_the_optimum(small_tables: None, puzzle: Puzzle) -> None:
    expected = bfs_optimum(puzzle)
    bound = database_bound(puzzle)
    if expected is None:
        return  # no plan: any bound holds
    assert bound.value <= expected
    if bound.exact:
        assert bound.value == expected


def test_a_table_at_its_farthest_is_no_exact_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """One run of every disk is the exact optimum, unless its table holds no more than
    its farthest value there (65,534, shrunk to 20 here: 4 disks in a line on 3 pegs,
    80 moves, read 20): then it is a bound, not the optimum."""
    from hanoi_asp.methods.patterns import breadth_first, database

    monkeypatch.setattr(breadth_first, "FARTHEST", 20)
    database._CACHE.clear()
    try:
        bound = database_bound(tower(3, 4, graph="linear"))
    finally:
        database._CACHE.clear()
    assert bound.value == 20 and not bound.exact


def test_bounds_stop_at_their_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a clock that passes the deadline at its second look (wherever the machine's
    speed would put it), the bounds stop there and answer the best one finished: weaker
    than the full bound, never below the misplaced disks'."""
    from types import SimpleNamespace

    from hanoi_asp.engine import pattern_search

    puzzle = load_puzzle(str(INSTANCES / "aspcomp" / "0005-hanoi_tower-60-0.asp"))
    full = lower_bound(puzzle)
    looks = itertools.count()
    clock = SimpleNamespace(monotonic=lambda: 0.0 if next(looks) == 0 else 2.0)
    monkeypatch.setattr(pattern_search, "time", clock)
    quick = lower_bound(puzzle, "auto", deadline=1.0)
    assert next(looks) >= 2  # it looked again after it started
    assert misplaced_disks(puzzle).value <= quick.value < full.value


def test_long_towers_are_not_mistaken_for_unreachable_goals() -> None:
    bound = lower_bound(tower(3, 40))
    assert not bound.unreachable and bound.value == 2**40 - 1
