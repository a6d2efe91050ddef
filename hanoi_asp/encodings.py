"""The shipped ASP encodings, found inside the installed package.

>>> "move(D,P,T)" in read_encoding("quickstart")
True

The top-level ``encodings/`` folder is mapped into the wheel as
``hanoi_asp/encodings`` (see pyproject); an editable checkout falls back to it.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from hanoi_asp.errors import EncodingError, InputError
from hanoi_asp.facts import safe_parse, scan

REFUSED_DIRECTIVES = ("#script", "#include", "#end")


def shipped(inside: str, checkout: str) -> Traversable:
    """Data shipped in the wheel as ``hanoi_asp/<inside>``; in an editable checkout,
    the top-level ``<checkout>`` it is mapped from (see pyproject's force-include)."""
    packaged = resources.files("hanoi_asp").joinpath(inside)
    if packaged.is_file() or packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / checkout


def read_encoding(name: str) -> str:
    """Text of a shipped encoding by name (``quickstart`` or ``incremental``)."""
    path = f"encodings/{name}.lp"
    return shipped(path, path).read_text(encoding="utf-8")


def read_user_encoding(path: str) -> str:
    """Text of a user's encoding file; a missing or unreadable file is an input error.

    ``#script`` and ``#include`` are refused (code would run, other files be read).
    Non-ASCII characters are refused outside strings and comments, and the syntax is
    checked on an ASCII copy first (see :func:`hanoi_asp.facts.scan` for why).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read encoding: {error}", path=path) from None
    found = scan(text)
    for line, word in found.directives:
        if word in REFUSED_DIRECTIVES:
            raise EncodingError(
                f"{word} is not allowed in an encoding: hanoi-asp never runs embedded "
                "scripts or reads other files (grading may run encodings nobody checked)",
                path=path,
                line=line,
            )
    safe_parse(text, path, found, EncodingError)
    return text
