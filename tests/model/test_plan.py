"""The simulator (``hanoi_asp/model/plan.py``): every rule of a legal move, and the goal."""

from __future__ import annotations

import pytest

from hanoi_asp import (
    Puzzle,
    VerificationError,
    replay,
)

THREE = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})


@pytest.mark.parametrize(
    "steps, problem",
    [
        ([(1, "b")], "not on top"),
        ([(2, "b"), (1, "b")], "on a smaller disk"),
        ([(2, "a")], "already on that peg"),
        ([(2, "q")], "unknown peg"),
        ([(3, "b")], "no disk 3"),
        ([(2, "b"), (1, "c")], "goal not reached"),
    ],
)
def test_simulator_rejects(steps: list[tuple[int, str]], problem: str) -> None:
    with pytest.raises(VerificationError, match=problem):
        replay(THREE, steps)


def test_simulator_accepts_and_names_sources() -> None:
    plan = replay(THREE, [(2, "b"), (1, "c"), (2, "c")])
    assert [str(m) for m in plan] == ["1. disk 2: a -> b", "2. disk 1: a -> c", "3. disk 2: b -> c"]
