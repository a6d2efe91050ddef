"""How to solve, as validated data: :class:`SolveOptions` and a user's :class:`Encoding`.

>>> SolveOptions(threads=0)
Traceback (most recent call last):
...
hanoi_asp.model.errors.InputError: threads must be 1-64, not 0
>>> SolveOptions(encoding="encodings/quickstart.lp")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanoi_asp.model.errors.InputError: encoding takes an Encoding, not a str: ...

Options are checked when they are made, so a script learns at once what it asked
wrong, in the same words the command line uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hanoi_asp.model.errors import InputError
from hanoi_asp.model.files import read_user_file, shipped
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import MAX_INTEGER, Puzzle
from hanoi_asp.model.result import METHODS, MODES, Method, Mode

BoundChoice = Literal["auto", "misplaced", "none"]
BOUND_CHOICES: tuple[BoundChoice, ...] = ("auto", "misplaced", "none")
MAX_THREADS = 64
"""clingo runs at most 64 search threads."""


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


@dataclass(frozen=True)
class SolveOptions:
    """How to search; the defaults are what ``hanoi-asp solve FILE`` does."""

    method: Method = "asp"
    """``asp`` (clingo, proven minimal), or a reference method: ``recursive``,
    ``frame-stewart``, ``bfs`` (:mod:`hanoi_asp.methods`)."""
    mode: Mode | None = None
    """``incremental`` (multi-shot, the default) or ``oneshot`` (re-ground per horizon,
    the quickstart way); None: incremental, or one-shot for a one-shot user encoding."""
    max_moves: int | None = None
    """Search no horizon above this; None: the instance's ``moves/1``, else no bound
    (a plan exists or the goal is proven unreachable)."""
    exact_moves: int | None = None
    """Instead of the minimal search, decide whether a plan of exactly this many moves
    exists (``solve --moves``)."""
    timeout: float | None = None
    """Seconds before the search stops with the best plan found so far (UNKNOWN if
    none); None: no limit."""
    started: float | None = None
    """The ``time.monotonic()`` reading the time limit counts from: the command's start
    (the command line sets it, so ``--timeout T`` bounds the whole command, Python's
    start-up and the reading of the files included); None: the solve's own start."""

    def time_left(self, now: float) -> float | None:
        """Seconds of the time limit left at ``now``, if the limit counts from
        :attr:`started`; else the whole limit (None: no limit)."""
        if self.timeout is None or self.started is None:
            return self.timeout
        return max(0.0, self.started + self.timeout - now)

    first_plan: bool = True
    """Build a plan at once (:mod:`hanoi_asp.methods.constructive`) as the first upper
    bound; off, clingo finds every plan (``--no-first-plan``)."""
    encoding: Encoding | None = None
    """A user's encoding instead of the shipped one."""
    clingo_options: tuple[str, ...] = ()
    """Extra command-line options for clingo."""
    bound: BoundChoice = "auto"
    """Where the upward search starts: the best sound lower bound, the misplaced-disk
    count, or 0 (``none``: clingo refutes every shorter horizon)."""
    distance: bool = True
    """With 3 pegs, add the redundant distance constraints of ``distance3.lp``."""
    patterns: bool = True
    """With 4+ pegs, check pattern-database estimates inside clingo's search
    (:mod:`hanoi_asp.engine.pruning`); off, only the lower bound uses the tables."""
    mirror: bool = True
    """For a whole tower with an exact bound, first look for a mirrored plan
    (:mod:`hanoi_asp.engine.mirror`); off, the full horizon is searched directly."""
    astar: bool = True
    """With the pattern tables, let A* on them race clingo on a spare core once clingo's
    refutations prove costly (:mod:`hanoi_asp.engine.astar_race`); off (``--no-astar``),
    clingo's refutations alone raise the bound."""
    threads: int | None = None
    """clingo's search threads, 1-64; None: the engine's policy decides
    (:mod:`hanoi_asp.engine.policy`)."""
    table_cache: bool = True
    """Read and keep pattern tables in the on-disk cache
    (:mod:`hanoi_asp.methods.table_cache`); off (``--no-cache``), every table is built
    in memory and nothing is written."""
    limits: Limits = field(default_factory=Limits)
    """Size limits checked before grounding."""
    source: str = "<puzzle>"
    """Where the puzzle came from, for error messages and the JSON ``instance``."""

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise InputError(f"unknown method {self.method!r} (use one of: {', '.join(METHODS)})")
        if self.mode is not None and self.mode not in MODES:
            raise InputError(f"unknown mode {self.mode!r} (use one of: {', '.join(MODES)})")
        if self.bound not in BOUND_CHOICES:
            raise InputError(
                f"unknown bound {self.bound!r} (use one of: {', '.join(BOUND_CHOICES)})"
            )
        if self.threads is not None and not (
            _integer(self.threads) and 1 <= self.threads <= MAX_THREADS
        ):
            raise InputError(f"threads must be 1-{MAX_THREADS}, not {self.threads!r}")
        for name in ("max_moves", "exact_moves"):
            value = getattr(self, name)
            if value is not None and not (_integer(value) and 0 <= value <= MAX_INTEGER):
                raise InputError(
                    f"{name} must be a non-negative integer (at most {MAX_INTEGER}), not {value!r}"
                )
        if self.max_moves is not None and self.exact_moves is not None:
            raise InputError(
                "max_moves bounds the minimal search and exact_moves asks for a plan of "
                "exactly that many moves: give one, not both"
            )
        if self.timeout is not None and not (
            isinstance(self.timeout, int | float)
            and self.timeout > 0
            and math.isfinite(self.timeout)
        ):
            raise InputError(f"timeout must be a positive number of seconds, not {self.timeout!r}")
        if self.encoding is not None and not isinstance(self.encoding, Encoding):
            raise InputError(
                f"encoding takes an Encoding, not a {type(self.encoding).__name__}: "
                "Encoding.from_file(path) for a file, Encoding(text) for program text"
            )
        if not isinstance(self.limits, Limits):
            raise InputError("limits takes a Limits object")

    def move_limit(self, puzzle: Puzzle) -> int | None:
        """The user's bound on the plan length: ``max_moves``, else the instance's
        ``moves/1``; None when neither gives one."""
        return self.max_moves if self.max_moves is not None else puzzle.max_moves


def _integer(value: object) -> bool:
    """An int and not a bool (``True`` is an int to Python, not a number of moves)."""
    return isinstance(value, int) and not isinstance(value, bool)
