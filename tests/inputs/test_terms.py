"""Sizing a fact's expansion before expanding it: the cap on an instance's facts holds
for intervals whose bounds are arithmetic too (``disk(1..1000*1000).``)."""

from __future__ import annotations

import clingo
from clingo import ast
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_asp.inputs.terms import MAX_FACTS, expand, expansion_size


def _head(text: str) -> ast.AST:
    statements: list[ast.AST] = []
    ast.parse_string(text, statements.append)
    (rule,) = (s for s in statements if s.ast_type == ast.ASTType.Rule)
    head: ast.AST = rule.head.atom.symbol
    return head


def _grounded(text: str) -> int:
    """How many atoms clingo itself makes of the fact: the independent reference."""
    control = clingo.Control(["--warn=none"])
    control.add("base", [], text)
    control.ground([("base", [])])
    return sum(1 for _ in control.symbolic_atoms)


_BOUND = st.sampled_from(["{a}", "{a}*{b}", "{a}+{b}", "{a}-{b}", "-{a}*{b}", "({a}+{b})*{b}"])
_SMALL = st.integers(min_value=-6, max_value=12)


@settings(max_examples=60, deadline=None)
@given(low=_BOUND, high=_BOUND, numbers=st.lists(_SMALL, min_size=4, max_size=4))
def test_arithmetic_bounds_are_sized_as_clingo_grounds_them(
    low: str, high: str, numbers: list[int]
) -> None:
    a, b, c, d = numbers
    text = f"p({low.format(a=a, b=b)}..{high.format(a=c, b=d)}; x)."
    head = _head(text)
    assert expansion_size(head) == _grounded(text)
    assert expansion_size(head) == len(list(expand(head, "t.lp", 1)))


def test_a_million_by_arithmetic_is_sized_without_expanding() -> None:
    (interval,) = _head("disk(1..1000*1000).").arguments
    assert expansion_size(interval) == 1000 * 1000
    assert expansion_size(_head("disk(1;1..(1000+1)*1000).")) > MAX_FACTS
    # a fact's count stops once past the cap, so a product of intervals is no big number
    assert expansion_size(_head("disk(1..1000*1000).")) == MAX_FACTS + 1
    assert expansion_size(_head("edge(1..1000*1000,1..1000*1000).")) == MAX_FACTS + 1
