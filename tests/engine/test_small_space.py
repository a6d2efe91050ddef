"""Small state spaces proven at once (``hanoi_asp/engine/small_space.py``): the whole
space's breadth-first table is the exact bound, and the plan walked down it meets it
before clingo runs, whatever the shape; checked against breadth-first search."""

from __future__ import annotations

import random

from hypothesis import given, settings
from support.puzzles import bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine.small_space import small_space, space_plan, space_table
from hanoi_asp.inputs.generate import random_puzzle
from hanoi_asp.methods.states import walk_down
from hanoi_asp.model.plan import replay


@settings(max_examples=60, deadline=None)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True))
def test_every_small_puzzle_is_proven_before_clingo_runs(puzzle: Puzzle) -> None:
    """Any shape (partial goals, move graphs, any start): the optimum of breadth-first
    search, or no plan at all, with no horizon asked of clingo."""
    assert small_space(puzzle)
    result = solve(puzzle, SolveOptions())
    expected = bfs_optimum(puzzle)
    assert result.horizons == ()
    if expected is None:
        assert result.result == "UNSATISFIABLE" and result.unreachable
        assert result.proof_data.kind == "unreachable"
    else:
        assert result.result == "OPTIMUM FOUND" and result.length == expected
        assert result.proof_data.kind == "meets-bound"


def test_the_three_peg_partial_goals_of_the_issue_are_proven_at_once() -> None:
    """``hanoi-asp generate --pegs 3 --disks 9 --count 12 --seed 4 --partial``: 3 of 12
    were proven within 5 s (the 3-peg formula counts the named disks alone, and clingo
    refuted horizon after horizon); now all 12, by the whole space's table."""
    rng = random.Random(4)
    for _ in range(12):
        puzzle = random_puzzle(rng, 3, 9, partial=True)
        result = solve(puzzle, SolveOptions())
        assert result.result == "OPTIMUM FOUND" and result.horizons == ()
        assert result.length == bfs_optimum(puzzle)


def test_a_plan_walked_down_the_table_is_legal_and_as_long_as_the_distance() -> None:
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 3, 6), "d": (5,)},
        goal={"c": (1, 2), "a": (5,)},
        moves_allowed="cyclic",
    )
    table = space_table(puzzle, None)
    assert table is not None
    steps = walk_down(puzzle, table.distances)
    assert steps is not None
    assert len(replay(puzzle, steps)) == table.lookup(puzzle.initial_state())
    assert len(steps) == bfs_optimum(puzzle)


def test_a_space_larger_than_one_table_is_left_to_the_search() -> None:
    tower = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=11,
        init={"a": tuple(range(1, 12))},
        goal={"d": tuple(range(1, 12))},
    )
    assert not small_space(tower)
    assert space_table(tower, None) is None and space_plan(tower, None) is None
