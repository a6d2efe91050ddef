"""ASP instance text -> :class:`~hanoi_asp.model.puzzle.Puzzle`, with line-precise errors.

>>> read_facts("peg(a;b). disk(1). init_on(1,a). goal_on(1,b).", "x.lp").goal
{'b': (1,)}

Reading goes through clingo's own parser (``clingo.ast.parse_string``), never
``Control.load``: only ground facts of the instance predicates are accepted, so a
``#script`` in a file someone sent you is reported, not run.  The plainest texts (small
integers, intervals and constants only) are matched line by line instead
(:mod:`hanoi_asp.inputs.plain_facts`), with the same facts as a result.
"""

from __future__ import annotations

from dataclasses import dataclass

import clingo
from clingo import ast

from hanoi_asp.inputs.asp_text import safe_parse, scan
from hanoi_asp.inputs.facts import peg_name
from hanoi_asp.inputs.plain_facts import plain_facts
from hanoi_asp.inputs.terms import MAX_FACTS, expand, expansion_size
from hanoi_asp.model.errors import InputError, InvalidPuzzle
from hanoi_asp.model.puzzle import Puzzle, placement

INSTANCE_PREDICATES = {
    "peg": 1,
    "disk": 1,
    "init_on": 2,
    "goal_on": 2,
    "moves": 1,
    "edge": 2,
}

# the implicit '#program base.' heading every text, and comments (clingo >= 5.8 keeps them)
_SKIPPED = {ast.ASTType.Program} | (
    {ast.ASTType.Comment} if hasattr(ast.ASTType, "Comment") else set()
)


@dataclass(frozen=True)
class Fact:
    symbol: clingo.Symbol
    line: int
    name: str
    args: tuple[clingo.Symbol, ...]
    """The predicate and its arguments, read once (each read is a call into clingo)."""


def parse_facts(text: str, path: str, predicates: dict[str, int] | None = None) -> list[Fact]:
    """Ground facts of ``text``; anything that is not a fact of ``predicates`` is an error."""
    allowed = INSTANCE_PREDICATES if predicates is None else predicates
    plain = plain_facts(text)
    if plain is not None:  # the common case, read without clingo's syntax tree
        for line, name, args in plain:
            _check_predicate(name, args, allowed, path, line)
        return [Fact(clingo.Function(name, args), line, name, args) for line, name, args in plain]
    return parse_with_clingo(text, path, allowed)


def _no_directive(word: str) -> str:
    return f"{word} is not allowed in an instance file (instance files hold only facts)"


def parse_with_clingo(text: str, path: str, allowed: dict[str, int]) -> list[Fact]:
    """:func:`parse_facts` through clingo's parser: any text, with its exact errors."""
    statements = safe_parse(text, path, scan(text), InputError, _no_directive)
    facts: list[Fact] = []
    for stmt in statements:
        line = stmt.location.begin.line
        if stmt.ast_type in _SKIPPED:
            continue
        head = _fact_head(stmt, path, line)
        count = expansion_size(head)
        if count + len(facts) > MAX_FACTS:
            raise InputError(
                f"the instance expands to more than {MAX_FACTS} facts", path=path, line=line
            )
        for symbol in expand(head, path, line):
            name, args = _signature(symbol)
            _check_predicate(name, args, allowed, path, line)
            facts.append(Fact(symbol, line, name, args))
    return facts


def _check_predicate(
    name: str, args: tuple[clingo.Symbol, ...], allowed: dict[str, int], path: str, line: int
) -> None:
    if allowed.get(name) != len(args):
        known = ", ".join(f"{p}/{a}" for p, a in allowed.items())
        raise InputError(
            f"unknown predicate {name}/{len(args)} (expected one of {known})",
            path=path,
            line=line,
        )


def _fact_head(stmt: ast.AST, path: str, line: int) -> ast.AST:
    if stmt.ast_type != ast.ASTType.Rule:
        kind = str(stmt.ast_type).rsplit(".", 1)[-1]
        raise InputError(f"only facts are allowed, found a {kind} statement", path=path, line=line)
    if stmt.body:
        raise InputError("only facts are allowed, found a rule with a body", path=path, line=line)
    head = stmt.head
    if head.ast_type != ast.ASTType.Literal:
        if head.ast_type == ast.ASTType.BooleanConstant:
            raise InputError("only facts are allowed, found a constraint", path=path, line=line)
        raise InputError(
            "only plain facts are allowed (no choices or aggregates)", path=path, line=line
        )
    if head.sign != ast.Sign.NoSign or head.atom.ast_type != ast.ASTType.SymbolicAtom:
        raise InputError("only positive facts are allowed", path=path, line=line)
    symbol: ast.AST = head.atom.symbol
    if symbol.ast_type == ast.ASTType.UnaryOperation:
        # classical negation: clingo 5.8 writes ``-peg(a)`` as a unary minus on the atom
        # (a minus before a number, ``-1.``, is no atom: a syntax error)
        raise InputError("only positive facts are allowed", path=path, line=line)
    return symbol


def read_facts(text: str, path: str) -> Puzzle:
    """A :class:`Puzzle` from quickstart-style instance text, with line-precise errors."""
    return puzzle_from_facts(parse_facts(text, path), path)


def puzzle_from_facts(facts: list[Fact], path: str) -> Puzzle:
    pegs: list[str] = []
    disk_lines: dict[int, int] = {}
    placements: dict[str, dict[int, tuple[str, int]]] = {"init_on": {}, "goal_on": {}}
    moves: tuple[int, int] | None = None

    def fail(message: str, line: int | None) -> InputError:
        return InputError(message, path=path, line=line)

    for fact in facts:
        symbol, line, name, args = fact.symbol, fact.line, fact.name, fact.args
        if name == "peg":
            peg = peg_name(args[0])
            if peg is None:
                raise fail(f"peg name must be a constant, integer or string: {symbol}", line)
            if not peg:  # a name nothing could show (the puzzle's peg names are never empty)
                raise fail(f"a peg name cannot be empty: {symbol}", line)
            if peg not in pegs:
                pegs.append(peg)
        elif name == "disk":
            disk = _disk_number(args[0], symbol, path, line)
            disk_lines.setdefault(disk, line)
        elif name == "moves":
            if args[0].type != clingo.SymbolType.Number or args[0].number < 0:
                raise fail(f"moves/1 needs a non-negative integer: {symbol}", line)
            if moves is not None and moves[0] != args[0].number:
                raise fail(f"moves/1 given twice ({moves[0]} at line {moves[1]})", line)
            moves = (args[0].number, line)
    if not pegs:
        raise fail("no peg/1 facts: an instance needs at least one peg", None)
    if not disk_lines:
        raise fail("no disk/1 facts: an instance needs at least one disk", None)
    count = len(disk_lines)
    for disk in sorted(disk_lines):
        if disk > count:
            raise fail(
                f"disks must be numbered 1..n with 1 the largest; disk {disk} "
                f"is given but not disk {min(set(range(1, count + 1)) - set(disk_lines))}",
                disk_lines[disk],
            )

    for fact in facts:
        name, args = fact.name, fact.args
        if name not in placements:
            continue
        part = "init" if name == "init_on" else "goal"
        disk = _disk_number(args[0], fact.symbol, path, fact.line)
        peg = peg_name(args[1])
        if disk not in disk_lines:
            raise fail(f"{name}: disk {disk} is out of range 1..{count}", fact.line)
        if peg is None or peg not in pegs:
            raise fail(f"{name}: unknown peg {args[1]} (pegs: {', '.join(pegs)})", fact.line)
        earlier = placements[name].get(disk)
        if earlier is not None and earlier[0] != peg:
            raise fail(
                f"{name}: disk {disk} is placed twice in the {part} "
                f"(on {earlier[0]} at line {earlier[1]} and on {peg})",
                fact.line,
            )
        placements[name][disk] = (peg, fact.line)
    edges: list[tuple[str, str]] = []
    for fact in facts:
        name, args = fact.name, fact.args
        if name != "edge":
            continue
        ends = [peg_name(arg) for arg in args]
        for arg, end in zip(args, ends, strict=True):
            if end is None or end not in pegs:
                raise fail(f"edge: unknown peg {arg} (pegs: {', '.join(pegs)})", fact.line)
        source, target = str(ends[0]), str(ends[1])
        if source == target:
            raise fail(f"edge: a move from peg {source} to itself", fact.line)
        if (source, target) not in edges:
            edges.append((source, target))
    missing = [d for d in range(1, count + 1) if d not in placements["init_on"]]
    if missing:
        raise fail(
            f"disk {missing[0]} has no init_on/2 fact: every disk starts on a peg",
            disk_lines[missing[0]],
        )

    def pegs_of(placed: dict[int, tuple[str, int]]) -> dict[str, tuple[int, ...]]:
        return placement({disk: peg for disk, (peg, _) in placed.items()})

    try:
        return Puzzle(
            pegs=tuple(pegs),
            disks=count,
            init=pegs_of(placements["init_on"]),
            goal=pegs_of(placements["goal_on"]),
            max_moves=None if moves is None else moves[0],
            moves_allowed=tuple(edges) if edges else None,
        )
    except InvalidPuzzle as error:  # every rule is checked above; still, name the file
        raise fail(error.message, None) from None


def _signature(symbol: clingo.Symbol) -> tuple[str, tuple[clingo.Symbol, ...]]:
    if symbol.type != clingo.SymbolType.Function or not symbol.name:
        return str(symbol), ()
    return str(symbol.name), tuple(symbol.arguments)


def _disk_number(arg: clingo.Symbol, symbol: clingo.Symbol, path: str, line: int) -> int:
    if arg.type != clingo.SymbolType.Number or arg.number < 1:
        raise InputError(
            f"a disk is a positive integer (1 is the largest): {symbol}", path=path, line=line
        )
    return int(arg.number)
