"""Puzzle <-> ASP facts, both ways, with instance files treated as data.

>>> from hanoi_asp.spec import Puzzle
>>> p = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
>>> print(to_facts(p))
peg(a). peg(b).
disk(1..1).
init_on(1,a).
goal_on(1,b).

Reading goes through clingo's own parser (``clingo.ast.parse_string``), never
``Control.load``: only ground facts of the instance predicates are accepted, so a
``#script`` in a file someone sent you is reported, not run.  Pools and intervals
(``peg(a;b;c).``, ``disk(1..4).``) are expanded here as clingo would expand them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import clingo
from clingo import ast

from hanoi_asp.errors import HanoiError, InputError
from hanoi_asp.spec import Puzzle

MAX_FACTS = 200_000
"""Most ground facts one instance file may expand to (``disk(1..10**9).`` is refused)."""

INSTANCE_PREDICATES = {
    "peg": 1,
    "disk": 1,
    "init_on": 2,
    "goal_on": 2,
    "moves": 1,
    "edge": 2,
}

_CONSTANT = re.compile(r"[a-z][A-Za-z0-9_']*")
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
_KEYWORDS = {"not"}
# the implicit '#program base.' heading every text, and comments (clingo >= 5.8 keeps them)
_SKIPPED = {ast.ASTType.Program} | (
    {ast.ASTType.Comment} if hasattr(ast.ASTType, "Comment") else set()
)


# -- writing -------------------------------------------------------------------------


def peg_term(name: str) -> str:
    """The ASP term for a peg name: a constant, an integer, or else a quoted string."""
    if _CONSTANT.fullmatch(name) and name not in _KEYWORDS:
        return name
    if _INTEGER.fullmatch(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def peg_name(symbol: clingo.Symbol) -> str | None:
    """The peg name a symbol stands for (inverse of :func:`peg_term`), or None."""
    if symbol.type == clingo.SymbolType.Number:
        return str(symbol.number)
    if symbol.type == clingo.SymbolType.String:
        return str(symbol.string)
    if symbol.type == clingo.SymbolType.Function and not symbol.arguments and symbol.positive:
        return str(symbol.name)
    return None


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


# -- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    symbol: clingo.Symbol
    line: int


@dataclass(frozen=True)
class Scan:
    """What a look at the raw text finds before clingo's parser is trusted with it."""

    directives: tuple[tuple[int, str], ...]  # line and word of every '#' directive
    foreign: tuple[int, str] | None  # line and character of the first non-ASCII one
    ascii_text: str  # the text with non-ASCII characters in strings/comments as 'x'

    @property
    def directive(self) -> tuple[int, str] | None:
        """The first directive, if any."""
        return self.directives[0] if self.directives else None


def scan(text: str) -> Scan:
    """Find ``#`` directives and non-ASCII characters outside comments and strings.

    Directives are checked before clingo's parser sees the text, because the parser
    itself follows ``#include`` and reads the named file.  Non-ASCII text is kept away
    from the parser's error messages: clingo 5.8 can cut a multi-byte character in a
    message, and its Python logger then aborts the process.
    """
    directives: list[tuple[int, str]] = []
    foreign: tuple[int, str] | None = None
    out: list[str] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        end = _quoted_end(text, i)
        if end is not None:  # a comment or string: any character is harmless there
            out.append("".join(c if c.isascii() else "x" for c in text[i:end]))
            line += text.count("\n", i, end)
            i = end
            continue
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "#":
            word = re.match(r"#[A-Za-z_]*", text[i:])
            directives.append((line, word.group(0) if word else "#"))
        elif not c.isascii() and foreign is None:
            foreign = (line, c)
        out.append(c if c.isascii() else "x")
        i += 1
    return Scan(tuple(directives), foreign, "".join(out))


def _quoted_end(text: str, i: int) -> int | None:
    """Where the comment or string starting at ``i`` ends, or None if none starts there."""
    if text.startswith("%*", i):
        end = text.find("*%", i + 2)
        return len(text) if end < 0 else end + 2
    if text[i] == "%":
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text[i] == '"':
        j = i + 1
        while j < len(text) and text[j] not in '"\n':
            j += 2 if text[j] == "\\" else 1
        return min(j + 1, len(text))
    return None


def parse_facts(text: str, path: str, predicates: dict[str, int] | None = None) -> list[Fact]:
    """Ground facts of ``text``; anything that is not a fact of ``predicates`` is an error."""
    allowed = INSTANCE_PREDICATES if predicates is None else predicates
    found = scan(text)
    if found.directive is not None:
        line, word = found.directive
        raise InputError(
            f"{word} is not allowed in an instance file (instance files hold only facts)",
            path=path,
            line=line,
        )
    statements = safe_parse(text, path, found, InputError)
    facts: list[Fact] = []
    for stmt in statements:
        line = stmt.location.begin.line
        if stmt.ast_type in _SKIPPED:
            continue
        head = _fact_head(stmt, path, line)
        count = _expansion_size(head)
        if count + len(facts) > MAX_FACTS:
            raise InputError(
                f"the instance expands to more than {MAX_FACTS} facts", path=path, line=line
            )
        for symbol in _expand(head, path, line):
            name, args = _signature(symbol)
            if allowed.get(name) != len(args):
                known = ", ".join(f"{p}/{a}" for p, a in allowed.items())
                raise InputError(
                    f"unknown predicate {name}/{len(args)} (expected one of {known})",
                    path=path,
                    line=line,
                )
            facts.append(Fact(symbol, line))
    return facts


def safe_parse(
    text: str, path: str, found: Scan, error: type[HanoiError] = InputError
) -> list[ast.AST]:
    """clingo's parse of ``text`` (a file's, already :func:`scan` ned), kept from
    non-ASCII error messages: non-ASCII outside strings and comments is an error, the
    syntax is checked on the ASCII copy, and only then is the real text parsed."""
    if found.foreign is not None:
        line, char = found.foreign
        raise error(
            f"unexpected character {char!r}: only ASCII outside strings and comments",
            path=path,
            line=line,
        )
    messages: list[str] = []
    statements: list[ast.AST] = []
    try:
        ast.parse_string(
            found.ascii_text, statements.append, logger=lambda _c, m: messages.append(m)
        )
    except RuntimeError:
        raise _syntax_error(messages, path, error) from None
    if found.ascii_text != text:  # the same syntax: now the real strings
        statements = []
        ast.parse_string(text, statements.append, logger=lambda _c, _m: None)
    return statements


def _syntax_error(messages: list[str], path: str, error: type[HanoiError]) -> HanoiError:
    for message in messages:
        found = re.match(r"<string>:(\d+):[\d-]+:\s*(?:error:\s*)?(.*)", message)
        if found:
            return error(found.group(2).strip(), path=path, line=int(found.group(1)))
    return error("syntax error", path=path)


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
    return symbol


def _expansion_size(term: ast.AST) -> int:
    """How many symbols a term expands to, computed without expanding it."""
    kind = term.ast_type
    if kind == ast.ASTType.Pool:
        return sum(_expansion_size(t) for t in term.arguments)
    if kind == ast.ASTType.Function:
        return _product(_expansion_size(t) for t in term.arguments)
    if kind == ast.ASTType.Interval:
        low, high = term.left, term.right
        if all(t.ast_type == ast.ASTType.SymbolicTerm for t in (low, high)) and all(
            t.symbol.type == clingo.SymbolType.Number for t in (low, high)
        ):
            width: int = high.symbol.number - low.symbol.number + 1
            return max(0, width)
        return 1
    return 1


def _product(sizes: Iterator[int]) -> int:
    total = 1
    for size in sizes:
        total *= size
        if total > MAX_FACTS:
            return MAX_FACTS + 1
    return total


def _expand(term: ast.AST, path: str, line: int) -> Iterator[clingo.Symbol]:
    """All symbols a ground term stands for, expanding pools and intervals like clingo."""
    kind = term.ast_type
    if kind == ast.ASTType.SymbolicTerm:
        yield term.symbol
    elif kind == ast.ASTType.Pool:
        for alternative in term.arguments:
            yield from _expand(alternative, path, line)
    elif kind == ast.ASTType.Function:
        if term.external:
            raise InputError("external functions (@f) are not allowed", path=path, line=line)
        options = [list(_expand(arg, path, line)) for arg in term.arguments]
        for args in itertools.product(*options):
            yield clingo.Function(term.name, list(args))
    elif kind == ast.ASTType.Interval:
        low, high = _integer(term.left, path, line), _integer(term.right, path, line)
        for value in range(low, high + 1):
            yield clingo.Number(value)
    elif kind in (ast.ASTType.UnaryOperation, ast.ASTType.BinaryOperation):
        yield clingo.Number(_integer(term, path, line))
    elif kind == ast.ASTType.Variable:
        raise InputError(
            f"variable {term.name} in a fact: instance files hold only ground facts",
            path=path,
            line=line,
        )
    else:
        raise InputError("unsupported term in a fact", path=path, line=line)


def _integer(term: ast.AST, path: str, line: int) -> int:
    """Evaluate ground integer arithmetic (+, -, *) as clingo would."""
    kind = term.ast_type
    if kind == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Number:
        value: int = term.symbol.number
        return value
    if kind == ast.ASTType.UnaryOperation and term.operator_type == ast.UnaryOperator.Minus:
        return -_integer(term.argument, path, line)
    if kind == ast.ASTType.BinaryOperation:
        left, right = _integer(term.left, path, line), _integer(term.right, path, line)
        operator = term.operator_type
        if operator == ast.BinaryOperator.Plus:
            return left + right
        if operator == ast.BinaryOperator.Minus:
            return left - right
        if operator == ast.BinaryOperator.Multiplication:
            return left * right
    raise InputError("expected an integer (only +, - and * are evaluated)", path=path, line=line)


# -- from facts to a puzzle ---------------------------------------------------------------


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
        symbol, line = fact.symbol, fact.line
        name, args = _signature(symbol)
        if name == "peg":
            peg = peg_name(args[0])
            if peg is None:
                raise fail(f"peg name must be a constant, integer or string: {symbol}", line)
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
        name, args = _signature(fact.symbol)
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
        name, args = _signature(fact.symbol)
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

    def by_peg(placed: dict[int, tuple[str, int]]) -> dict[str, tuple[int, ...]]:
        out: dict[str, list[int]] = {}
        for disk, (peg, _) in sorted(placed.items()):
            out.setdefault(peg, []).append(disk)
        return {peg: tuple(disks) for peg, disks in out.items()}

    return Puzzle(
        pegs=tuple(pegs),
        disks=count,
        init=by_peg(placements["init_on"]),
        goal=by_peg(placements["goal_on"]),
        max_moves=None if moves is None else moves[0],
        moves_allowed=tuple(edges) if edges else None,
    )


def _signature(symbol: clingo.Symbol) -> tuple[str, list[clingo.Symbol]]:
    if symbol.type != clingo.SymbolType.Function or not symbol.name:
        return str(symbol), []
    return str(symbol.name), list(symbol.arguments)


def _disk_number(arg: clingo.Symbol, symbol: clingo.Symbol, path: str, line: int) -> int:
    if arg.type != clingo.SymbolType.Number or arg.number < 1:
        raise InputError(
            f"a disk is a positive integer (1 is the largest): {symbol}", path=path, line=line
        )
    return int(arg.number)
