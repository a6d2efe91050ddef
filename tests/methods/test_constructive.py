"""The plan built before the search (``hanoi_asp/methods/constructive.py``): legal, to the
goal, loops cut, within its deadline."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import tower
from support.strategies import big_puzzles

from hanoi_asp import Puzzle, replay
from hanoi_asp.engine.bounds import misplaced_disks
from hanoi_asp.methods import constructive
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


def test_the_first_plan_keeps_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    names = tuple(f"p{i}" for i in range(32))
    disks = 64
    init: dict[str, tuple[int, ...]] = {names[(d * 7) % 32]: () for d in range(1, disks + 1)}
    for d in range(1, disks + 1):
        init[names[(d * 7) % 32]] += (d,)
    puzzle = Puzzle(pegs=names, disks=disks, init=init, goal={names[-1]: tuple(range(1, 65))})
    looks: list[float] = []

    def late() -> float:  # every look at the clock finds the deadline passed
        looks.append(math.inf)
        return math.inf

    monkeypatch.setattr(constructive, "time", SimpleNamespace(monotonic=late))
    plan = first_plan(puzzle, deadline=0.0)  # without one: 136 moves, over 10 s
    # each construction looks every 1024 moves and gives up at its first look: the
    # work is at most 1024 moves a construction, whatever the machine's speed; one
    # shorter than that still gives a plan
    assert 1 <= len(looks) <= 4
    assert plan is not None and replay(puzzle, plan)
