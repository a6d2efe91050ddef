"""The plan built before the search (``hanoi_asp/methods/constructive.py``): legal, to the
goal, loops cut, within its deadline."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import tower
from support.strategies import big_puzzles

from hanoi_asp import Puzzle, replay
from hanoi_asp.engine.bounds import misplaced_disks
from hanoi_asp.methods.constructive import first_plan, shortcut


@settings(max_examples=60, deadline=None)
@given(st.one_of(big_puzzles(3, 16), big_puzzles(4, 30), big_puzzles(5, 30), big_puzzles(6, 30)))
def test_the_first_plan_is_legal_and_reaches_the_goal(puzzle: Puzzle) -> None:
    steps = first_plan(puzzle)
    assert steps is not None
    moves = replay(puzzle, steps)  # raises on an illegal move or a missed goal
    assert len(moves) >= misplaced_disks(puzzle).value


def test_shortcut_cuts_loops_and_moves_after_the_goal() -> None:
    puzzle = tower(3, 2)
    detour = [(2, "b"), (2, "a"), (2, "b"), (1, "c"), (2, "c"), (2, "a")]
    assert shortcut(puzzle, detour) == [(2, "b"), (1, "c"), (2, "c")]


def test_the_first_plan_keeps_the_deadline() -> None:
    names = tuple(f"p{i}" for i in range(32))
    disks = 64
    init: dict[str, tuple[int, ...]] = {names[(d * 7) % 32]: () for d in range(1, disks + 1)}
    for d in range(1, disks + 1):
        init[names[(d * 7) % 32]] += (d,)
    puzzle = Puzzle(pegs=names, disks=disks, init=init, goal={names[-1]: tuple(range(1, 65))})
    started = time.monotonic()
    first_plan(puzzle, deadline=time.monotonic() + 0.2)
    assert time.monotonic() - started < 1.5
