"""Text from outside (file names, peg names, a student's strings) made safe for the
formats hanoi-asp writes it into: XML (JUnit, SVG, HTML), spreadsheets (CSV) and the
terminal.

>>> xml_text("in\\x01st\\udcff.lp")
'in\\\\x01st\\\\udcff.lp'
>>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell(-1.5)
("'=HYPERLINK(1)", -1.5)

XML 1.0 allows no control character but tab, newline and carriage return, no lone
surrogate (what Python makes of a file name's bytes that are not UTF-8) and neither
U+FFFE nor U+FFFF, not even escaped as ``&#1;``: one of them and a JUnit reader
refuses the whole file.  Each is written as its Python escape instead (``\\x01``), so
the reader sees where it was.  A spreadsheet runs a cell that starts with ``=``,
``+``, ``-`` or ``@`` (and some a tab or carriage return) as a formula; OWASP's rule
(CSV injection) puts a single quote before such a text cell, which the spreadsheet
shows as text.  Numbers are left alone: ``-1.5`` is a number, not a formula.
"""

from __future__ import annotations

import re
from typing import TypeVar

__all__ = ["spreadsheet_cell", "terminal_text", "visible_text", "xml_text"]

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Every character XML 1.0 forbids, listed: the complement of its ``Char`` production,
which as a negated class takes ten times as long to compile (every command pays it)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
T = TypeVar("T")


def _escape(code: int) -> str:
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def _escaped(found: re.Match[str]) -> str:
    return _escape(ord(found.group(0)))


def xml_text(text: str) -> str:
    """``text`` with each character XML 1.0 forbids written as its escape."""
    return _NOT_XML.sub(_escaped, text)


def visible_text(text: str) -> str:
    """``text`` with every character that prints nothing (a control character such as
    a terminal's escape, a tab, a lone surrogate) written as its escape: for a table on
    a terminal or a label in a plot, where it would act or show as nothing."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(ord(c)) for c in text)


def terminal_text(text: str) -> str:
    """``text`` as :func:`visible_text` has it, line breaks kept: for a view of many
    lines on a terminal, where a name's escape (``\\x1b[2J`` clears the screen) would
    act instead of showing.

    >>> terminal_text("peg a\\x1b[2J\\nnext line")
    'peg a\\\\x1b[2J\\nnext line'
    """
    if text.isprintable():
        return text
    return "\n".join(visible_text(line) for line in text.split("\n"))


def spreadsheet_cell(value: T) -> T | str:
    """A CSV cell a spreadsheet shows as written: text that would start a formula gets
    a single quote before it (OWASP); anything not text is left as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
