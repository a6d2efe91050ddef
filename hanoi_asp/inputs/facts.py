"""Puzzle -> ASP facts: the text clingo is given, and plans as facts for ASP users.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
>>> print(to_facts(p))
peg(a). peg(b).
disk(1..1).
init_on(1,a).
goal_on(1,b).

Peg names that are not ASP constants are quoted, so any name round-trips through
:mod:`hanoi_asp.inputs.read_facts`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import clingo

from hanoi_asp.model.plan import Move
from hanoi_asp.model.puzzle import Puzzle

_CONSTANT = re.compile(r"[a-z][A-Za-z0-9_']*")
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
_KEYWORDS = {"not"}


def peg_term(name: str) -> str:
    """The ASP term for a peg name: a constant, an integer, or else a quoted string."""
    if _CONSTANT.fullmatch(name) and name not in _KEYWORDS:
        return name
    if _INTEGER.fullmatch(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def peg_name(symbol: clingo.Symbol) -> str | None:
    """The peg name a symbol stands for (inverse of :func:`peg_term`), or None.

    A function symbol without a name is a tuple (``()`` has no arguments either): no peg.
    """
    if symbol.type == clingo.SymbolType.Number:
        return str(symbol.number)
    if symbol.type == clingo.SymbolType.String:
        return str(symbol.string)
    if symbol.type != clingo.SymbolType.Function or symbol.arguments or not symbol.positive:
        return None
    return str(symbol.name) or None


def instance_facts(puzzle: Puzzle) -> str:
    """peg/1, disk/1, init_on/2, goal_on/2 and (for a restricted move graph) edge/2
    facts, without moves/1."""
    lines = [" ".join(f"peg({peg_term(p)})." for p in puzzle.pegs), f"disk(1..{puzzle.disks})."]
    for part, placement in (("init_on", puzzle.init), ("goal_on", puzzle.goal)):
        facts = [
            f"{part}({disk},{peg_term(peg)})."
            for peg, disks in placement.items()
            for disk in sorted(disks)
        ]
        if facts:
            lines.append(" ".join(facts))
    if puzzle.edges() is not None:
        pairs = puzzle.moves_allowed or ()
        lines.append(" ".join(f"edge({peg_term(a)},{peg_term(b)})." for a, b in pairs))
    return "\n".join(lines)


def to_facts(puzzle: Puzzle) -> str:
    """The whole instance as facts, with ``moves/1`` when the puzzle has a bound."""
    text = instance_facts(puzzle)
    if puzzle.max_moves is not None:
        text += f"\nmoves({puzzle.max_moves})."
    return text


def plan_facts(plan: Iterable[Move]) -> str:
    """A plan as the encodings' output atoms, one ``move(D,P,T).`` per line.

    >>> print(plan_facts([Move(1, 2, "a", "b"), Move(2, 1, "a", "c")]))
    move(2,b,1).
    move(1,c,2).
    """
    return "\n".join(f"move({m.disk},{peg_term(m.target)},{m.step})." for m in plan)
