"""Peg names as PDDL object names and back, so that ``export --pddl`` and reading the
files again give the same pegs.

PDDL names start with a letter and hold letters, digits, ``-`` and ``_``; parsers fold
them to lower case.  A peg named so (in lower case) keeps its name; a name starting with
a digit (the competition's pegs ``1``..``4``) is written ``peg-1``; any other is written
``peg--`` and its UTF-8 bytes in hex.  Reading undoes exactly these two forms, and only
where the undone name could not have been written as itself, so a peg someone named
``peg-left`` stays ``peg-left``.

>>> [peg_object(name) for name in ("left", "1", "A")]
['left', 'peg-1', 'peg--41']
>>> [peg_name(peg_object(name)) for name in ("left", "1", "A", "peg-left")]
['left', '1', 'A', 'peg-left']
"""

from __future__ import annotations

import re

from hanoi_asp.model.puzzle import Puzzle

PDDL_NAME = re.compile(r"[a-z][a-z0-9_-]*")
"""A PDDL name as parsers hand it back (folded to lower case)."""
DIGIT_FIRST = re.compile(r"[0-9][a-z0-9_-]*")
HEX_FORM = re.compile(r"peg--((?:[0-9a-f]{2})+)")


def peg_object(name: str) -> str:
    """The PDDL object for the peg ``name``."""
    if PDDL_NAME.fullmatch(name):
        return name
    if DIGIT_FIRST.fullmatch(name):
        return f"peg-{name}"
    return "peg--" + name.encode("utf-8").hex()


def peg_name(obj: str) -> str:
    """The peg name a PDDL object (as the parser gives it) stands for."""
    found = HEX_FORM.fullmatch(obj)
    if found:
        try:
            decoded = bytes.fromhex(found.group(1)).decode("utf-8")
        except UnicodeDecodeError:
            return obj
        return decoded if peg_object(decoded) == obj else obj
    rest = obj.removeprefix("peg-")
    if rest != obj and DIGIT_FIRST.fullmatch(rest):
        return rest
    return obj


def disk_prefix(pegs: tuple[str, ...]) -> str:
    """The prefix of the disk objects (``d1``..``dn``, disk 1 the largest), one no peg
    object can clash with.

    >>> disk_prefix(("a", "b")), disk_prefix(("d1", "d2"))
    ('d', 'disk-')
    """
    objects = {peg_object(peg) for peg in pegs}
    prefix = "d"
    while any(o.startswith(prefix) and o[len(prefix) :].isdigit() for o in objects):
        prefix = "disk-" if prefix == "d" else prefix + "x"  # ends: finitely many pegs
    return prefix


class Names:
    """The PDDL objects of one puzzle's disks and pegs (as ``export --pddl`` writes
    them), and back."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.prefix = disk_prefix(puzzle.pegs)
        self.pegs = [peg_object(peg) for peg in puzzle.pegs]
        self.disks = puzzle.disks

    def disk(self, disk: int) -> str:
        return f"{self.prefix}{disk}"

    def disk_number(self, obj: str) -> int | None:
        """The disk an object names, or None."""
        rest = obj.removeprefix(self.prefix)
        if rest == obj or not rest.isdigit() or not 1 <= int(rest) <= self.disks:
            return None
        return int(rest) if self.disk(int(rest)) == obj else None
