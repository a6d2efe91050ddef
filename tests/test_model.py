"""The Python API: Puzzle validation, facts round trip, and the simulator."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from hanoi_asp import (
    Encoding,
    Puzzle,
    SolveOptions,
    VerificationError,
    read_facts,
    replay,
    solve,
    to_facts,
)
from hanoi_asp.model.errors import InputError, InvalidPuzzle

peg_names = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True).filter(lambda s: s != "not"),
    st.integers(0, 99).map(str),
    st.text(alphabet='AZ _-"\\é', min_size=1, max_size=6),
)


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    names = tuple(draw(st.lists(peg_names, min_size=1, max_size=5, unique=True)))
    disks = draw(st.integers(1, 6))
    start = [draw(st.sampled_from(names)) for _ in range(disks)]
    init: dict[str, tuple[int, ...]] = {}
    for disk, peg in enumerate(start, start=1):
        init[peg] = (*init.get(peg, ()), disk)
    goal: dict[str, tuple[int, ...]] = {}
    for disk in range(1, disks + 1):
        if draw(st.booleans()):
            peg = draw(st.sampled_from(names))
            goal[peg] = (*goal.get(peg, ()), disk)
    moves = draw(st.none() | st.integers(0, 50))
    pairs = [(a, b) for a in names for b in names if a != b]
    graph = (
        draw(st.none() | st.lists(st.sampled_from(pairs), unique=True).map(tuple))
        if pairs
        else None
    )
    return Puzzle(
        pegs=names, disks=disks, init=init, goal=goal, max_moves=moves, moves_allowed=graph or None
    )


@given(puzzles())
def test_facts_round_trip(puzzle: Puzzle) -> None:
    back = read_facts(to_facts(puzzle), "<round trip>")
    assert back.pegs == puzzle.pegs
    assert back.disks == puzzle.disks
    assert back.initial_state() == puzzle.initial_state()
    assert back.goal_pegs() == puzzle.goal_pegs()
    assert back.max_moves == puzzle.max_moves
    assert back.edges() == puzzle.edges()


def test_pools_and_intervals_like_clingo() -> None:
    puzzle = read_facts(
        "peg(a;b;c). disk(1..4). init_on(1..4,a). goal_on((1;2),c). goal_on(2+1,b).", "x"
    )
    assert puzzle.pegs == ("a", "b", "c")
    assert puzzle.initial_state() == (0, 0, 0, 0)
    assert puzzle.goal_pegs() == {1: 2, 2: 2, 3: 1}


def test_puzzle_is_frozen_and_strict() -> None:
    puzzle = Puzzle(pegs=("a",), disks=1, init={"a": (1,)}, goal={})
    with pytest.raises(ValidationError):
        puzzle.disks = 2  # type: ignore[misc]
    # an invalid puzzle is an InputError, as the README promises, pydantic's details kept
    with pytest.raises(InvalidPuzzle, match="colour: Extra inputs are not permitted") as caught:
        Puzzle(pegs=("a",), disks=1, init={"a": (1,)}, goal={}, colour="red")  # type: ignore[call-arg]
    assert isinstance(caught.value, InputError)
    assert caught.value.problems[0]["type"] == "extra_forbidden"
    with pytest.raises(InvalidPuzzle):
        Puzzle.model_validate({"pegs": ["a"], "disks": 1, "init": {"a": [1]}, "goal": {}, "x": 1})


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("disks", True, "disks: Input should be a valid integer"),
        ("disks", 3.0, "disks: Input should be a valid integer"),
        ("disks", 10**23, "disks: Input should be less than or equal to 100000"),
        ("disks", 10**9, "disks: Input should be less than or equal to 100000"),
        ("max_moves", 2**31, "max_moves: Input should be less than or equal to 2147483647"),
        ("max_moves", False, "max_moves: Input should be a valid integer"),
    ],
)
def test_numbers_are_integers_in_range_before_anything_is_built(
    field: str, value: object, message: str
) -> None:
    """``"disks": 99999999999999999999999`` took the server down: range(1, disks + 1)
    ran before the limit.  Now the field is refused at once, as are booleans and floats
    where integers are meant."""
    import time

    data = {"pegs": ["a", "b"], "disks": 2, "init": {"a": [1, 2]}, "goal": {"b": [1, 2]}}
    started = time.monotonic()
    with pytest.raises(InvalidPuzzle, match=message):
        Puzzle.model_validate({**data, field: value})
    assert time.monotonic() - started < 0.1
    with pytest.raises(InvalidPuzzle, match=r"goal\.b\.0: Input should be a valid integer"):
        Puzzle.model_validate({**data, "goal": {"b": [1.0]}})


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


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: solve(None), "solve takes a Puzzle, not NoneType"),  # type: ignore[arg-type]
        (lambda: solve("file.lp"), "load_puzzle(path) reads a file"),  # type: ignore[arg-type]
        (lambda: solve(THREE, "fast"), "options take SolveOptions, not str"),  # type: ignore[arg-type]
        (lambda: solve(THREE, None, 3), "on_progress takes a function"),  # type: ignore[arg-type]
    ],
)
def test_the_api_says_what_argument_is_wrong(call: Any, message: str) -> None:
    """``solve(None)`` and ``solve("file.lp")`` raised AttributeError from deep inside."""
    with pytest.raises(TypeError, match=re.escape(message)):
        call()


@pytest.mark.parametrize(
    ("option", "value"),
    [("exact_moves", True), ("max_moves", 10**30), ("max_moves", 2.0), ("threads", True)],
)
def test_options_refuse_booleans_and_huge_numbers(option: str, value: object) -> None:
    with pytest.raises(InputError, match=option):
        SolveOptions(**{option: value})  # type: ignore[arg-type]


def test_shipped_encodings_load_by_name() -> None:
    quickstart = Encoding.shipped("quickstart")
    assert quickstart.name == "quickstart.lp"
    assert quickstart.text == (ROOT / "encodings" / "quickstart.lp").read_text("utf-8")
    exercise = Encoding.shipped("no-frame-axiom")
    assert exercise.text.startswith("% Exercise")
    with pytest.raises(InputError, match=r"no shipped encoding 'nope'.*quickstart"):
        Encoding.shipped("nope")
