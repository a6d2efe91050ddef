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

from hanoi_asp.model.options import Encoding


def shipped(inside: str, checkout: str) -> Traversable:
    """Data shipped in the wheel as ``hanoi_asp/<inside>``; in an editable checkout,
    the top-level ``<checkout>`` it is mapped from (see pyproject's force-include)."""
    packaged = resources.files("hanoi_asp").joinpath(inside)
    if packaged.is_file() or packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / checkout


def read_encoding(name: str) -> str:
    """Text of a shipped encoding by name (``quickstart``, ``incremental``, ...)."""
    path = f"encodings/{name}.lp"
    return shipped(path, path).read_text(encoding="utf-8")


def shipped_encoding(name: str) -> Encoding:
    """A shipped encoding as an :class:`Encoding` named ``<name>.lp``."""
    return Encoding(read_encoding(name), f"{name}.lp")
