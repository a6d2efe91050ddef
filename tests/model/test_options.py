"""Solve options and encodings (``hanoi_asp/model/options.py``): what they refuse, and
encodings read from a file, by name, or as text."""

from __future__ import annotations

import pytest
from support.files import QUICKSTART, ROOT

import hanoi_asp
from hanoi_asp import (
    Encoding,
    InputError,
    SolveOptions,
    load_puzzle,
    solve,
)
from hanoi_asp.engine.encodings import read_encoding


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


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"method": "dfs"}, "unknown method 'dfs'"),
        ({"mode": "fast"}, "unknown mode 'fast'"),
        ({"bound": "tight"}, "unknown bound 'tight'"),
        ({"threads": 0}, "threads must be 1-64"),
        ({"threads": 65}, "threads must be 1-64"),
        ({"max_moves": -1}, "max_moves must be a non-negative integer"),
        ({"exact_moves": -3}, "exact_moves must be a non-negative integer"),
        ({"timeout": 0}, "timeout must be a positive number"),
        ({"timeout": float("nan")}, "timeout must be a positive number"),
        ({"max_moves": 10, "exact_moves": 15}, "give one, not both"),
        ({"encoding": "encodings/quickstart.lp"}, "Encoding.from_file(path)"),
    ],
)
def test_solve_options_reject_what_they_cannot_do(options: dict[str, object], words: str) -> None:
    with pytest.raises(InputError) as caught:
        SolveOptions(**options)  # type: ignore[arg-type]
    assert words in str(caught.value)


def test_an_encoding_file_is_read_not_mistaken_for_text() -> None:
    options = SolveOptions(encoding=Encoding.from_file(ROOT / "encodings" / "quickstart.lp"))
    result = solve(load_puzzle(QUICKSTART), options)
    assert result.length == 15 and result.mode == "oneshot"
    assert result.programs == (str(ROOT / "encodings" / "quickstart.lp"),)
    with pytest.raises(InputError, match="cannot read encoding"):
        Encoding.from_file(ROOT / "no-such.lp")


def test_encoding_text_with_a_script_is_refused_through_the_api() -> None:
    text = read_encoding("quickstart") + "\n#script (python)\nimport os\n#end.\n"
    with pytest.raises(hanoi_asp.EncodingError, match="#script is not allowed"):
        solve(load_puzzle(QUICKSTART), SolveOptions(encoding=Encoding(text, "mine.lp")))
