"""The puzzle (``hanoi_asp/model/puzzle.py``): frozen, strict, numbers checked before
anything is built, and the API's own argument checks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from hanoi_asp import (
    Puzzle,
    solve,
)
from hanoi_asp.model.errors import InputError, InvalidPuzzle


def test_puzzle_is_frozen_and_strict() -> None:
    puzzle = Puzzle(pegs=("a",), disks=1, init={"a": (1,)}, goal={})
    with pytest.raises(ValidationError):
        puzzle.disks = 2
    # an invalid puzzle is an InputError, as the README promises, pydantic's details kept
    with pytest.raises(InvalidPuzzle, match="colour: Extra inputs are not permitted") as caught:
        Puzzle(pegs=("a",), disks=1, init={"a": (1,)}, goal={}, colour="red")
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
    where integers are meant.  "At once" is measured in memory, which does not depend on
    the machine's speed: under 1 MiB allocated (a range of 10**9 disks would take GiBs)."""
    import tracemalloc

    data = {"pegs": ["a", "b"], "disks": 2, "init": {"a": [1, 2]}, "goal": {"b": [1, 2]}}
    tracemalloc.start()
    try:
        with pytest.raises(InvalidPuzzle, match=message):
            Puzzle.model_validate({**data, field: value})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    with pytest.raises(InvalidPuzzle, match=r"goal\.b\.0: Input should be a valid integer"):
        Puzzle.model_validate({**data, "goal": {"b": [1.0]}})


THREE = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})


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
