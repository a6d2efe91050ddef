"""The sanitiser's view of numbers, checked against clingo's own reading of them."""

from __future__ import annotations

from collections.abc import Callable

import clingo
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from hanoi_asp.inputs.asp_text import scan

BASES: dict[str, Callable[[int], str]] = {"decimal": str, "hex": hex, "octal": oct, "binary": bin}
LIMIT = 2**31


def clingo_reads(text: str) -> list[int]:
    """The numbers of the ``x/1`` atoms clingo grounds from ``text``."""
    control = clingo.Control(["--warn=none"])
    control.add("base", [], text)
    control.ground([("base", [])])
    return [atom.symbol.arguments[0].number for atom in control.symbolic_atoms.by_signature("x", 1)]


def written(value: int, base: str) -> str:
    """``value`` as clingo's syntax writes it: a minus sign before the digits."""
    digits = BASES[base](abs(value))
    return ("-" if value < 0 else "") + digits


numbers = st.one_of(
    st.integers(-(2**40), 2**40),
    st.sampled_from([LIMIT - 1, LIMIT, LIMIT + 1, -LIMIT, -LIMIT - 1, 2**32, 2**32 + 5]),
)


@given(numbers, st.sampled_from(sorted(BASES)))
@example(-LIMIT, "decimal")
@example(2**32 + 5, "hex")
def test_a_number_is_refused_exactly_when_clingo_would_misread_it(value: int, base: str) -> None:
    """Either the scan lets the text through and clingo reads the number written, or it
    refuses, giving the number as written with its sign, and clingo would read another."""
    number = written(value, base)
    text = f"x({number})."
    problem = scan(text).problem
    if problem is None:
        assert -LIMIT <= value < LIMIT
        assert clingo_reads(text) == [value]
    else:
        line, message = problem
        assert line == 1 and message.startswith(f"the number {number} ")
        assert not -LIMIT <= value < LIMIT
        assert clingo_reads(text) != [value]


@given(numbers, st.sampled_from(sorted(BASES)))
def test_a_number_after_a_minus_that_subtracts(value: int, base: str) -> None:
    """``7 - N`` is ``7 + (-N)``: clingo's sum is right modulo 2**32 exactly when ``-N``
    is one of its integers, which is what the scan asks of a number after a minus."""
    number = written(abs(value), base)
    text = f"x(7 - {number})."
    problem = scan(text).problem
    assert (problem is None) == (abs(value) <= LIMIT)
    if problem is None:
        assert (clingo_reads(text)[0] - (7 - abs(value))) % 2**32 == 0
    else:
        assert problem[1].startswith(f"the number -{number} ")


@pytest.mark.parametrize(
    "text",
    [
        "p12345678901(1).",  # digits inside a name
        "X_4294967299 = 1 :- p.",
        "x(0).",
        "% 4294967299\nx(1).",  # a comment
        'x("4294967299").',  # a string
        "x(0x7fffffff).",
        "x(-0x80000000).",
    ],
)
def test_what_clingo_reads_right_passes(text: str) -> None:
    assert scan(text).problem is None


def test_a_nul_byte_in_a_comment_is_found() -> None:
    """clingo stops reading at a NUL byte anywhere, in a comment too: the goal after
    it would be lost without a word."""
    assert scan("peg(a). % a\0b\ngoal_on(1,c).").problem == (
        1,
        "a NUL byte: clingo would ignore the text after it",
    )


def test_a_number_of_thousands_of_digits_is_refused_at_once() -> None:
    problem = scan("x(" + "9" * 10_000 + ").").problem
    assert problem is not None and "(10000 characters)" in problem[1]
