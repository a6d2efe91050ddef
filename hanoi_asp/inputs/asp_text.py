"""ASP text from outside, made safe to hand to clingo's parser: the sanitiser.

Instance files and user encodings are data.  Before clingo's parser sees a text,
:func:`scan` finds every ``#`` directive (the parser itself would follow
``#include``) and every non-ASCII character outside strings and comments (clingo 5.8
can cut a multi-byte character in an error message, and its Python logger then
aborts the process).  :func:`safe_parse` then parses an ASCII copy first.

>>> scan('peg(a). #include "x".').directives
((1, '#include'),)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from clingo import ast

from hanoi_asp.model.errors import EncodingError, HanoiError
from hanoi_asp.model.options import Encoding

REFUSED_DIRECTIVES = ("#script", "#include", "#end")
"""Never run from an encoding someone gave us: code would run, other files be read."""


@dataclass(frozen=True)
class Scan:
    """What a look at the raw text finds before clingo's parser is trusted with it."""

    directives: tuple[tuple[int, str], ...]  # line and word of every '#' directive
    foreign: tuple[int, str] | None  # line and character of the first non-ASCII one
    ascii_text: str  # the text with non-ASCII characters in strings/comments as 'x'
    problem: tuple[int, str] | None = None
    """Line and message of the first thing clingo would read wrong without a word: a
    NUL byte (clingo stops reading there) or a number past its 32-bit integers (which
    it wraps: ``moves(4294967299)`` would be ``moves(3)``)."""

    def refusal(self, refuse: Callable[[str], str | None]) -> tuple[int, str] | None:
        """Line and message of the first reason not to hand the text to clingo's parser:
        a directive ``refuse`` has a message for (the parser itself would follow
        ``#include``), else :attr:`problem`, else a non-ASCII character."""
        for line, word in self.directives:
            message = refuse(word)
            if message is not None:
                return line, message
        if self.problem is not None:
            return self.problem
        if self.foreign is not None:
            line, char = self.foreign
            return line, f"unexpected character {char!r}: only ASCII outside strings and comments"
        return None


def scan(text: str) -> Scan:
    """Find ``#`` directives and non-ASCII characters outside comments and strings.

    Directives are checked before clingo's parser sees the text, because the parser
    itself follows ``#include`` and reads the named file.  Non-ASCII text is kept away
    from the parser's error messages: clingo 5.8 can cut a multi-byte character in a
    message, and its Python logger then aborts the process.  Names and numbers are
    read whole, as clingo's lexer reads them, so a digit inside a name (``p12``) is no
    number and every number is checked once (:func:`number_problem`).
    """
    directives: list[tuple[int, str]] = []
    foreign: tuple[int, str] | None = None
    problem: tuple[int, str] | None = None
    out: list[str] = []
    nul = text.find("\0")  # clingo reads up to it, in a comment or string too
    if nul >= 0:
        problem = text.count("\n", 0, nul) + 1, "a NUL byte: clingo would ignore the text after it"
    i, line, n = 0, 1, len(text)
    while i < n:
        end = _quoted_end(text, i)
        if end is not None:  # a comment or string: any character is harmless there
            out.append("".join(c if c.isascii() else "x" for c in text[i:end]))
            line += text.count("\n", i, end)
            i = end
            continue
        name = _NAME.match(text, i)
        number = None if name else _NUMBER.match(text, i)
        token = name or number
        if token is not None:  # ASCII, no line break
            if number is not None and problem is None and len(number.group(0)) > 9:
                # nine characters at most (999999999, 0xfffffff) are always in range
                wrong = number_problem(number.group(0), _after_minus(text, i))
                problem = None if wrong is None else (line, wrong)
            out.append(token.group(0))
            i = token.end()
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
    return Scan(tuple(directives), foreign, "".join(out), problem)


MAX_INTEGER = 2**31 - 1
"""clingo's integers are 32-bit: -2147483648..2147483647."""
_NAME = re.compile(r"[A-Za-z_'][A-Za-z0-9_']*")
"""A name (a constant, a variable, a directive's word), digits in it included."""
_NUMBER = re.compile(r"0x[0-9A-Fa-f]+|0o[0-7]+|0b[01]+|0|[1-9][0-9]*")
"""A number as clingo's lexer reads one: decimal, hexadecimal, octal or binary (never
negative: a minus sign before it is an operator)."""


def number_problem(written: str, negated: bool) -> str | None:
    """Why clingo would misread the number ``written`` (a minus sign before it when
    ``negated``), or None.  clingo keeps a number's value modulo 2**32 as a signed
    32-bit integer and then applies the minus: ``-2147483648`` is read right,
    ``4294967301`` (or ``0x100000005``) as 5.  A minus sign that subtracts (``x-N``)
    gives the same result modulo 2**32 as one that negates, so either way the number
    is read right exactly when its value with the sign is within clingo's integers.

    >>> print(number_problem("0x100000005", negated=True).split(" is ")[0])
    the number -0x100000005 (-4294967301)
    >>> number_problem("2147483648", negated=True) is None
    True
    """
    sign = "-" if negated else ""
    if len(written) > LONGEST_NUMBER:  # past any 32-bit value; Python's int() refuses
        return (  # decimal strings of over 4300 digits
            f"the number {sign}{written[:12]}... ({len(written)} characters) is past "
            f"clingo's integers (-{MAX_INTEGER + 1}..{MAX_INTEGER})"
        )
    value = -int(written, 0) if negated else int(written, 0)
    if -MAX_INTEGER - 1 <= value <= MAX_INTEGER:
        return None
    decimal = "" if written.isdigit() else f" ({value})"
    return (
        f"the number {sign}{written}{decimal} is past clingo's integers "
        f"(-{MAX_INTEGER + 1}..{MAX_INTEGER}): it would be read as another number"
    )


LONGEST_NUMBER = 100
"""Characters of a number shown whole in a message (and converted to an int): a 64-bit
number in binary needs 66; a longer one is cut in the message."""


def _after_minus(text: str, i: int) -> bool:
    """Whether a minus sign stands before position ``i`` (spaces between)."""
    j = i - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return j >= 0 and text[j] == "-"


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


def safe_parse(
    text: str,
    path: str,
    found: Scan,
    error: type[HanoiError],
    refuse: Callable[[str], str | None],
) -> list[ast.AST]:
    """clingo's parse of ``text`` (a file's, already :func:`scan` ned), kept from
    non-ASCII error messages and from the directives ``refuse`` has a message for
    (:meth:`Scan.refusal`): the syntax is checked on the ASCII copy, and only then is
    the real text parsed."""
    refusal = found.refusal(refuse)
    if refusal is not None:
        line, message = refusal
        raise error(message, path=path, line=line)
    messages: list[str] = []
    statements: list[ast.AST] = []
    try:
        ast.parse_string(
            found.ascii_text, statements.append, logger=lambda _c, m: messages.append(m)
        )
    except RuntimeError:
        raise _syntax_error(messages, path, error, found.ascii_text) from None
    if found.ascii_text != text:  # the same syntax: now the real strings
        statements = []
        ast.parse_string(text, statements.append, logger=lambda _c, _m: None)
    return statements


def _syntax_error(messages: list[str], path: str, error: type[HanoiError], text: str) -> HanoiError:
    for message in messages:
        found = re.match(r"<string>:(\d+):(\d+)(?:-\d+)?:\s*(?:error:\s*)?(.*)", message)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
            hint = _hint(text, line) or _period_hint(text, line, column)
            return error(found.group(3).strip() + hint, path=path, line=line)
    return error("syntax error", path=path)


def _period_hint(text: str, line: int, column: int) -> str:
    """An error at the start of a line is most often the previous statement's missing
    period: clingo reads on into this line and reports where it stopped making sense.

    >>> print(_period_hint("peg(a)\\ndisk(1).", 2, 1))
     (is a period missing at the end of line 1?)
    >>> print(_period_hint("peg(a).\\ndisk(1)\\n", 3, 1))  # at the end: the last line's
     (is a period missing at the end of line 2?)
    """
    lines = text.splitlines()
    if line > len(lines):  # the end of the text: the last statement may lack its period
        line, column = len(lines) + 1, 1
    if line < 1 or (line <= len(lines) and lines[line - 1][: column - 1].strip()):
        return ""
    for before in range(line - 1, 0, -1):
        code = lines[before - 1].split("%", 1)[0].rstrip()
        if code:
            return (
                "" if code.endswith(".") else f" (is a period missing at the end of line {before}?)"
            )
    return ""


def _hint(text: str, line: int) -> str:
    """A hint for a common slip on ``line``: a predicate name written with a capital,
    which ASP reads as a variable.

    >>> print(_hint("Peg(a;b).", 1).split(";")[1])
     write peg(...))
    """
    lines = text.splitlines()
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    capital = re.search(r"(?<![\w'\"])([A-Z][A-Za-z0-9_']*)\s*\(", source)
    if capital is None:
        return ""
    name = capital.group(1)
    return (
        f" ({name} is a variable: names starting with a capital letter are variables "
        f"in ASP; write {name[0].lower() + name[1:]}(...))"
    )


def check_encoding(encoding: Encoding) -> None:
    """Refuse an encoding that would run code or read files, or does not parse.

    ``#script`` and ``#include`` are refused (a teacher may grade files nobody read);
    non-ASCII characters outside strings and comments are refused, and the syntax is
    checked on an ASCII copy first (see :func:`scan` for why).
    """
    safe_parse(encoding.text, encoding.name, scan(encoding.text), EncodingError, _refused)


def _refused(word: str) -> str | None:
    if word not in REFUSED_DIRECTIVES:
        return None
    return (
        f"{word} is not allowed in an encoding: hanoi-asp never runs embedded scripts or "
        "reads other files (grading may run encodings nobody checked)"
    )


def is_incremental(text: str) -> bool:
    """Does an encoding use the multi-shot ``#program step(t).`` layout?"""
    return any(
        stmt.ast_type == ast.ASTType.Program and stmt.name == "step" for stmt in _statements(text)
    )


def derives(text: str, name: str, arity: int) -> bool:
    """Does some rule of ``text`` have ``name/arity`` in its head (a choice included)?"""
    return any(
        (name, arity) in _head_symbols(stmt.head)
        for stmt in _statements(text)
        if stmt.ast_type == ast.ASTType.Rule
    )


def _statements(text: str) -> list[ast.AST]:
    """clingo's parse of an already checked text; empty if it does not parse."""
    statements: list[ast.AST] = []
    try:
        ast.parse_string(text, statements.append, logger=lambda _c, _m: None)
    except RuntimeError:
        return []
    return statements


def _head_symbols(head: ast.AST) -> list[tuple[str, int]]:
    """Predicate signatures in a rule head: a literal, a choice or a disjunction."""
    out: list[tuple[str, int]] = []
    kind = head.ast_type
    if kind == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom:
        term = head.atom.symbol
        if term.ast_type == ast.ASTType.Function:
            out.append((str(term.name), len(term.arguments)))
    elif kind in (ast.ASTType.Aggregate, ast.ASTType.Disjunction):
        for element in head.elements:
            literal = element.literal
            out += _head_symbols(literal)
    return out
