"""The package (``hanoi_asp/__init__.py``): its namespace is its API, and nothing below the
command line prints."""

from __future__ import annotations

import pytest
from support.files import QUICKSTART
from support.puzzles import tower

import hanoi_asp
from hanoi_asp import (
    SolveOptions,
    load_puzzle,
    solve,
)
from hanoi_asp.teaching.explain import explain


def test_nothing_below_the_cli_prints(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = load_puzzle(QUICKSTART)
    solve(puzzle)
    explain(puzzle, SolveOptions())
    assert capsys.readouterr() == ("", "")


def test_the_package_namespace_is_its_api() -> None:
    """``dir(hanoi_asp)`` lists the API only (no ``Any``, ``TYPE_CHECKING`` or
    ``importlib``), and each name it lists loads."""
    assert dir(hanoi_asp) == sorted(hanoi_asp.__all__)
    assert not {"Any", "TYPE_CHECKING", "importlib"} & set(dir(hanoi_asp))
    assert all(getattr(hanoi_asp, name) is not None for name in hanoi_asp.__all__)
    assert hanoi_asp.Proof is type(hanoi_asp.solve(tower(3, 1)).proof_data)
