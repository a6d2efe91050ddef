"""Ground terms evaluated as clingo would: pools, intervals and integer arithmetic.

Instance files may write ``peg(a;b;c).`` or ``disk(1..4).``; these are expanded here,
with the expansion's size computed first, so ``disk(1..10**9).`` is refused before
anything is built.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import clingo
from clingo import ast

from hanoi_asp.model.errors import InputError

MAX_FACTS = 20_000
"""Most ground facts one instance file may expand to: ``disk(1..10**9).`` is refused
before anything is built.  A puzzle within the engine's limits (64 disks, 32 pegs by
default) needs a few hundred facts; reading one fact through clingo's Python API costs
about 40 us, so the cap keeps a refusal within a second (it was 200,000: 8 s)."""


def expansion_size(term: ast.AST) -> int:
    """How many symbols a term expands to, computed without expanding it."""
    kind = term.ast_type
    if kind == ast.ASTType.Pool:
        return sum(expansion_size(t) for t in term.arguments)
    if kind == ast.ASTType.Function:
        return _product(expansion_size(t) for t in term.arguments)
    if kind == ast.ASTType.Interval:
        try:  # ``1..2+2147483640`` is sized too, not only ``1..N``
            low, high = _arithmetic(term.left), _arithmetic(term.right)
        except _NotAnInteger:
            return 1  # expanding it says what is wrong
        if not all(-(2**31) <= bound < 2**31 for bound in (low, high)):
            return 1  # so is a bound past clingo's integers
        return max(0, high - low + 1)
    return 1


def _product(sizes: Iterator[int]) -> int:
    total = 1
    for size in sizes:
        total *= size
        if total > MAX_FACTS:
            return MAX_FACTS + 1
    return total


def expand(term: ast.AST, path: str, line: int) -> Iterator[clingo.Symbol]:
    """All symbols a ground term stands for, expanding pools and intervals like clingo."""
    kind = term.ast_type
    if kind == ast.ASTType.SymbolicTerm:
        yield term.symbol
    elif kind == ast.ASTType.Pool:
        for alternative in term.arguments:
            yield from expand(alternative, path, line)
    elif kind == ast.ASTType.Function:
        if term.external:
            raise InputError("external functions (@f) are not allowed", path=path, line=line)
        options = [list(expand(arg, path, line)) for arg in term.arguments]
        for args in itertools.product(*options):
            yield clingo.Function(term.name, list(args))
    elif kind == ast.ASTType.Interval:
        low, high = integer(term.left, path, line), integer(term.right, path, line)
        for value in range(low, high + 1):
            yield clingo.Number(value)
    elif kind in (ast.ASTType.UnaryOperation, ast.ASTType.BinaryOperation):
        yield clingo.Number(integer(term, path, line))
    elif kind == ast.ASTType.Variable:
        raise InputError(
            f"variable {term.name} in a fact: instance files hold only ground facts",
            path=path,
            line=line,
        )
    else:
        raise InputError("unsupported term in a fact", path=path, line=line)


def integer(term: ast.AST, path: str, line: int) -> int:
    """Evaluate ground integer arithmetic (+, -, *) as clingo would, refusing a value
    past clingo's 32-bit integers (clingo would wrap it without a word)."""
    try:
        value = _arithmetic(term)
    except _NotAnInteger:
        raise InputError(
            "expected an integer (only +, - and * are evaluated)", path=path, line=line
        ) from None
    if not -(2**31) <= value < 2**31:
        raise InputError(
            f"the arithmetic gives {value}, past clingo's integers "
            f"(-2147483648..2147483647): it would be read as another number",
            path=path,
            line=line,
        )
    return value


class _NotAnInteger(Exception):
    """A term that is no integer arithmetic."""


def _arithmetic(term: ast.AST) -> int:
    """The exact value of ground integer arithmetic, without clingo's wrapping."""
    kind = term.ast_type
    if kind == ast.ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Number:
        # clingo's parser keeps a number modulo 2**32 (2147483648 becomes -2147483648);
        # the scan before it (asp_text.scan) refused every number it would change but
        # that one, written after a minus sign: so the number written is this modulo 2**32
        value: int = term.symbol.number % 2**32
        return value
    if kind == ast.ASTType.UnaryOperation and term.operator_type == ast.UnaryOperator.Minus:
        return -_arithmetic(term.argument)
    if kind == ast.ASTType.BinaryOperation:
        left, right = _arithmetic(term.left), _arithmetic(term.right)
        operator = term.operator_type
        if operator == ast.BinaryOperator.Plus:
            return left + right
        if operator == ast.BinaryOperator.Minus:
            return left - right
        if operator == ast.BinaryOperator.Multiplication:
            return left * right
    raise _NotAnInteger
