"""The shipped ASP encodings, found inside the installed package.

>>> "move(D,P,T)" in read_encoding("quickstart")
True

The top-level ``encodings/`` folder is mapped into the wheel as
``hanoi_asp/encodings`` (see pyproject); an editable checkout falls back to it.
"""

from __future__ import annotations

from functools import cache

from hanoi_asp.model.files import shipped
from hanoi_asp.model.options import Encoding

__all__ = ["read_encoding", "shipped", "shipped_encoding"]


@cache
def read_encoding(name: str) -> str:
    """Text of a shipped encoding by name (``quickstart``, ``incremental``, ...), read
    once per process: a batch worker solves thousands of instances with the same few."""
    path = f"encodings/{name}.lp"
    return shipped(path, path).read_text(encoding="utf-8")


def shipped_encoding(name: str) -> Encoding:
    """A shipped encoding as an :class:`Encoding` named ``<name>.lp``."""
    return Encoding(read_encoding(name), f"{name}.lp")
