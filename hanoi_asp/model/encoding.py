"""A user's ASP encoding: its program text and the name messages give it.

>>> Encoding("move(1,b,1).", "mine.lp").name
'mine.lp'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hanoi_asp.model.errors import InputError
from hanoi_asp.model.files import read_user_file, shipped


@dataclass(frozen=True)
class Encoding:
    """A user's ASP encoding: its program text, and the name messages give it.

    Given as text (``Encoding(text, name)``) or read from a file
    (:meth:`from_file`); the engine refuses ``#script``/``#include`` in either.
    """

    text: str
    name: str = "<encoding>"

    @classmethod
    def from_file(cls, path: str | Path) -> Encoding:
        """The encoding in ``path``; a missing or unreadable file, or one that is not a
        regular file (a FIFO, a device), is an :class:`InputError`."""
        return cls(read_user_file(str(path), what="encoding"), str(path))

    @classmethod
    def shipped(cls, name: str) -> Encoding:
        """A shipped encoding or exercise by name, from the installed package:
        ``Encoding.shipped("quickstart")``, ``Encoding.shipped("no-frame-axiom")``."""
        for folder in ("encodings", "encodings/exercises"):
            found = shipped(f"{folder}/{name}.lp", f"{folder}/{name}.lp")
            if found.is_file():
                return cls(found.read_text(encoding="utf-8"), f"{name}.lp")
        known = sorted(
            item.name.removesuffix(".lp")
            for folder in ("encodings", "encodings/exercises")
            for item in shipped(folder, folder).iterdir()
            if item.name.endswith(".lp")
        )
        raise InputError(f"no shipped encoding {name!r} (shipped: {', '.join(known)})")
