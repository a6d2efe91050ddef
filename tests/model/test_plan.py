"""The simulator (``hanoi_asp/model/plan.py``): every rule of a legal move, and the goal."""

from __future__ import annotations

import pickle

import pytest

from hanoi_asp import (
    Move,
    Puzzle,
    VerificationError,
    replay,
)
from hanoi_asp.model.errors import (
    EXIT_BAD_INPUT,
    GoalNotReached,
    IllegalMove,
    RefusedMove,
    UnknownPeg,
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


def test_the_json_plan_replays_as_it_is() -> None:
    """``solve --json``'s plan, and the plan of a result, go back into ``replay``."""
    json_plan = [
        {"step": 1, "disk": 2, "from": "a", "to": "b"},
        {"step": 2, "disk": 1, "from": "a", "to": "c"},
        {"disk": 2, "to": "c"},
    ]
    plan = replay(THREE, json_plan)
    assert [m.as_dict() for m in plan][:2] == json_plan[:2]
    assert replay(THREE, plan) == plan
    assert [(m.disk, m.from_, m.to) for m in plan] == [(2, "a", "b"), (1, "a", "c"), (2, "b", "c")]


@pytest.mark.parametrize(
    "steps, rule",
    [
        ([(1, "b")], "not-on-top"),
        ([(2, "b"), (1, "b")], "larger-on-smaller"),
        ([(2, "a")], "same-peg"),
        ([(2, "q")], "unknown-peg"),
        ([(3, "b")], "no-such-disk"),
        ([{"disk": 2, "from": "c", "to": "b"}], "wrong-source"),
        ([Move(1, 2, "b", "c")], "wrong-source"),
    ],
)
def test_an_illegal_move_names_its_step_disk_and_rule(
    steps: list[tuple[int, str]], rule: str
) -> None:
    with pytest.raises((IllegalMove, UnknownPeg)) as caught:  # no rule broken: no such peg
        replay(THREE, steps)
    assert isinstance(caught.value, UnknownPeg if rule == "unknown-peg" else IllegalMove)
    assert caught.value.rule == rule and caught.value.step == len(steps)
    assert caught.value.exit_code == EXIT_BAD_INPUT  # the caller's plan, not our bug


def test_goal_not_reached_names_the_disk() -> None:
    with pytest.raises(GoalNotReached) as caught:
        replay(THREE, [(2, "b"), (1, "c")])
    assert (caught.value.disk, caught.value.steps) == (2, 2)
    assert caught.value.exit_code == EXIT_BAD_INPUT


@pytest.mark.parametrize(
    "step, words",
    [
        ({"disk": 2}, 'lacks "disk" or "to"'),
        ({"disk": 2, "to": "b", "peg": "a"}, "unknown key 'peg'"),
        ((2, "b", "c"), "a step is (disk, peg)"),
        (("2", "b"), "the disk is a number"),
        ((True, "b"), "the disk is a number"),
        ((2, 3), "pegs are named by strings"),
    ],
)
def test_a_step_that_is_no_move_says_what_a_step_is(step: object, words: str) -> None:
    with pytest.raises(VerificationError, match="step 1: ") as caught:
        replay(THREE, [step])  # type: ignore[list-item]
    assert words in str(caught.value)


def test_a_limit_error_says_the_api_way_to_the_api() -> None:
    """Raised through the Python API, a limit names ``Limits``; the command line's
    funnel says ``--limit`` (``tests/cli/test_main.py``)."""
    from hanoi_asp import LimitError, SolveOptions, solve
    from hanoi_asp.model.limits import Limits

    big = Puzzle(pegs=("a", "b", "c"), disks=5, init={"a": (1, 2, 3, 4, 5)}, goal={"c": (3,)})
    with pytest.raises(LimitError) as caught:
        solve(big, SolveOptions(limits=Limits(disks=4)))
    assert "SolveOptions(limits=Limits(disks=5))" in str(caught.value)
    assert "--limit" not in str(caught.value)
    assert "--limit disks=5" in str(caught.value.for_command_line())


@pytest.mark.parametrize("plan", [[(1, "z")], [(1, "b")]], ids=["unknown-peg", "illegal"])
def test_a_refused_move_pickles_whole(plan: list[tuple[int, str]]) -> None:
    """A refused move crosses processes as itself: its class, message and fields."""
    with pytest.raises(RefusedMove) as caught:
        replay(THREE, plan)
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is type(caught.value)
    assert str(again) == str(caught.value)
    assert vars(again) == vars(caught.value)
