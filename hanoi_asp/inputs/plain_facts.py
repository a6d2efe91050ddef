"""A fast reading of the plainest instance text: ground facts whose arguments are
small integers, integer intervals and constants, ``%`` comments, nothing else.

Reading an instance through clingo's parser walks its syntax tree from Python, one call
into clingo per attribute: about 6 ms for a 5-disk instance, most of a batch's upkeep
per small instance.  Text that holds only such facts (what ``hanoi-asp generate`` and
the competition files write) is read here with one pattern per line instead, giving
the same symbols in the same order; anything else at all (a pool, a string, a block
comment, a directive, a number past nine digits, a rule, a syntax error) returns None
and goes through clingo's parser, which gives its exact error.  Nothing is run either
way: this only matches text.
"""

from __future__ import annotations

import itertools
import re

import clingo

from hanoi_asp.inputs.terms import MAX_FACTS

_NUMBER = r"(?:0|[1-9][0-9]{0,8})"  # below 2**31: clingo's integers, never wrapped
_CONSTANT = r"[a-z][A-Za-z0-9_]*"
_ARGUMENT = re.compile(rf"\s*(?:{_NUMBER}(?:\s*\.\.\s*{_NUMBER})?|{_CONSTANT})\s*")
_FACT = rf"({_CONSTANT})\(([A-Za-z0-9_ \t.,;]*)\)\s*\."
_LINE = re.compile(rf"\s*(?:{_FACT}\s*)*")
_FACTS = re.compile(_FACT)
_KEYWORDS = frozenset({"not"})
"""A constant clingo would read as a keyword: not plain."""

PlainFact = tuple[int, str, tuple[clingo.Symbol, ...]]
"""A fact's line, its predicate and its arguments."""


def plain_facts(text: str) -> list[PlainFact] | None:
    """Every fact of ``text`` expanded (intervals, and pools of one argument such as
    ``peg(a;b;c)``), in clingo's order; None when the text is not plain or expands to
    more than :data:`MAX_FACTS` facts (sizes are counted before anything is built)."""
    if "\r" in text.replace("\r\n", "\n") or "\0" in text:
        return None  # a lone carriage return, or a NUL byte even in a comment: clingo says
    facts: list[PlainFact] = []
    for number, line in enumerate(text.split("\n"), start=1):
        code, _, comment = line.partition("%")
        if comment.startswith("*") or not _LINE.fullmatch(code):
            return None
        for name, inside in _FACTS.findall(code):
            if name in _KEYWORDS:
                return None
            room = MAX_FACTS - len(facts)
            if ";" in inside:  # a pool: of whole arguments only, one argument each
                pooled = None if "," in inside else _values(inside.split(";"), room)
                options = None if pooled is None else [pooled]
            else:
                options = _arguments(inside.split(","), room)
            if options is None:
                return None
            size = 1
            for option in options:
                size *= len(option)
            if size > room:
                return None
            facts.extend((number, name, args) for args in itertools.product(*options))
    return facts


def _arguments(texts: list[str], room: int) -> list[list[clingo.Symbol]] | None:
    options: list[list[clingo.Symbol]] = []
    for text in texts:
        values = _values([text], room)
        if values is None:
            return None
        options.append(values)
    return options


def _values(texts: list[str], room: int) -> list[clingo.Symbol] | None:
    """The symbols the alternatives ``texts`` stand for, in order; None if one is not
    plain, or past ``room`` of them."""
    values: list[clingo.Symbol] = []
    for text in texts:
        if not _ARGUMENT.fullmatch(text):
            return None
        argument = text.strip()
        if argument in _KEYWORDS:
            return None
        low, dots, high = argument.partition("..")
        if not argument[0].isdigit():
            values.append(clingo.Function(argument))
        elif not dots:
            values.append(clingo.Number(int(low)))
        elif int(high) - int(low) + 1 > room - len(values):
            return None
        else:
            values.extend(clingo.Number(value) for value in range(int(low), int(high) + 1))
        if len(values) > room:
            return None
    return values
