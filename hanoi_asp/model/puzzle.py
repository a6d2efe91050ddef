"""The puzzle as data: a pydantic model every input format turns into.

>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> p.initial_state()
(0, 0)

Disk 1 is the largest.  On a peg, disks are stacked by size, so any assignment of
disks to pegs is a state: a state is a tuple giving, for disk ``d``, the index of
its peg at position ``d - 1``.

Variants restrict which peg-to-peg moves are allowed (the *move graph*): a list of
``(source, target)`` pairs, or a preset name:

>>> Puzzle(pegs=("a", "b", "c"), disks=1, init={"a": (1,)}, goal={"c": (1,)},
...        moves_allowed="cyclic").moves_allowed
(('a', 'b'), ('b', 'c'), ('c', 'a'))
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from hanoi_asp.model.choices import GRAPH_PRESETS as GRAPH_PRESETS
from hanoi_asp.model.choices import MAX_INTEGER as MAX_INTEGER
from hanoi_asp.model.errors import InvalidPuzzle

State = tuple[int, ...]

MAX_DISKS = 100_000
"""Most disks a puzzle may have at all, checked before anything is built per disk (a
spec's ``"disks": 10**23`` must not allocate); the solving limit (``--limit disks``, 64
by default) is checked later and may be raised up to this."""

PegName = Annotated[str, Field(min_length=1)]
Disk = Annotated[int, Field(ge=1, le=MAX_DISKS, strict=True)]
"""Strict: ``true`` and ``3.0`` are no disk numbers."""
Edge = tuple[PegName, PegName]


def preset_edges(name: str, pegs: tuple[str, ...]) -> tuple[Edge, ...]:
    """The move graph a preset names, over ``pegs`` in their given order."""
    if name == "complete":
        return tuple((a, b) for a in pegs for b in pegs if a != b)
    if name == "linear":
        pairs = list(itertools.pairwise(pegs))
        return tuple(pairs + [(b, a) for a, b in pairs])
    if name == "cyclic":
        if len(pegs) < 2:
            return ()
        return tuple(zip(pegs, pegs[1:] + pegs[:1], strict=True))
    raise ValueError(f"unknown move graph preset {name!r} (use one of: {', '.join(GRAPH_PRESETS)})")


class Puzzle(BaseModel):
    """A Towers of Hanoi instance: pegs, disks 1..n, a full start and a (partial) goal.

    ``pegs``: peg names in order.  ``disks``: how many disks, numbered 1..n with 1 the
    largest.  ``init``: peg -> the disks on it at the start (every disk on one peg).
    ``goal``: peg -> the disks that must end on it (disks left out may end anywhere).
    ``max_moves``: the instance's own bound on the plan length (``moves/1``), if any.
    ``moves_allowed``: the move graph, ``(source, target)`` pairs or a preset name.
    In a notebook a puzzle shows its start and goal as SVG.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    def __init__(self, /, **data: Any) -> None:
        """Invalid data is an :class:`~hanoi_asp.model.errors.InvalidPuzzle` (an
        ``InputError``, as every bad input), with pydantic's problems kept on it."""
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise invalid_puzzle(error) from None

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Puzzle:
        """As pydantic's, with an invalid puzzle an ``InvalidPuzzle`` (see ``__init__``)."""
        try:
            return super().model_validate(obj, **options)
        except ValidationError as error:
            raise invalid_puzzle(error) from None

    pegs: tuple[PegName, ...] = Field(min_length=1)
    disks: int = Field(ge=1, le=MAX_DISKS, strict=True)
    init: Mapping[PegName, tuple[Disk, ...]]
    goal: Mapping[PegName, tuple[Disk, ...]]
    max_moves: int | None = Field(default=None, ge=0, le=MAX_INTEGER, strict=True)
    moves_allowed: tuple[Edge, ...] | None = None
    """The allowed ``(source, target)`` moves; None is the complete graph."""

    @field_validator("pegs")
    @classmethod
    def _unique_pegs(cls, pegs: tuple[str, ...]) -> tuple[str, ...]:
        seen: set[str] = set()
        for peg in pegs:
            if peg in seen:
                raise ValueError(f"peg {peg!r} is listed twice")
            seen.add(peg)
        return pegs

    @field_validator("moves_allowed", mode="before")
    @classmethod
    def _expand_preset(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str):
            return value
        pegs = info.data.get("pegs")
        if pegs is None:
            raise ValueError("a preset needs valid pegs")
        return preset_edges(value, pegs)

    @model_validator(mode="after")
    def _consistent(self) -> Puzzle:
        for part in ("init", "goal"):
            placement: Mapping[str, tuple[int, ...]] = getattr(self, part)
            where: dict[int, str] = {}
            for peg, disks in placement.items():
                if peg not in self.pegs:
                    raise ValueError(f"{part}: unknown peg {peg!r}")
                for disk in disks:
                    if disk > self.disks:
                        raise ValueError(f"{part}: disk {disk} is out of range 1..{self.disks}")
                    if disk in where:
                        raise ValueError(
                            f"{part}: disk {disk} is placed twice (on {where[disk]!r} and {peg!r})"
                        )
                    where[disk] = peg
            if part == "init":
                missing = [d for d in range(1, self.disks + 1) if d not in where]
                if missing:
                    raise ValueError(f"init: disk {missing[0]} is on no peg")
        if self.moves_allowed is not None and not self.moves_allowed:
            # as facts, no edge/2 at all means every move is allowed: refuse the ambiguity
            raise ValueError("moves_allowed lists no move (leave it out to allow every move)")
        for source, target in self.moves_allowed or ():
            for peg in (source, target):
                if peg not in self.pegs:
                    raise ValueError(f"moves_allowed: unknown peg {peg!r}")
            if source == target:
                raise ValueError(f"moves_allowed: a move from {source!r} to itself")
        return self

    # -- derived views ---------------------------------------------------------------

    def peg_index(self, peg: str) -> int:
        return self.pegs.index(peg)

    def initial_state(self) -> State:
        """Peg index of every disk at the start."""
        state = [0] * self.disks
        for peg, disks in self.init.items():
            for disk in disks:
                state[disk - 1] = self.peg_index(peg)
        return tuple(state)

    def goal_pegs(self) -> dict[int, int]:
        """Disk -> required peg index, for the disks the goal names."""
        return {disk: self.peg_index(peg) for peg, disks in self.goal.items() for disk in disks}

    def is_goal(self, state: State) -> bool:
        return all(state[disk - 1] == peg for disk, peg in self.goal_pegs().items())

    def is_full_goal(self) -> bool:
        return len(self.goal_pegs()) == self.disks

    def edges(self) -> frozenset[tuple[int, int]] | None:
        """Allowed moves as peg-index pairs; None when every move is allowed."""
        if self.moves_allowed is None:
            return None
        found = frozenset((self.peg_index(a), self.peg_index(b)) for a, b in self.moves_allowed)
        complete = len(self.pegs) * (len(self.pegs) - 1)
        return None if len(found) == complete else found

    def graph_name(self) -> str:
        """``complete``, the preset the graph equals, or ``custom``."""
        edges = self.edges()
        if edges is None:
            return "complete"
        for name in GRAPH_PRESETS[1:]:
            preset = {
                (self.peg_index(a), self.peg_index(b)) for a, b in preset_edges(name, self.pegs)
            }
            if preset == edges:
                return name
        return "custom"


def invalid_puzzle(error: ValidationError) -> InvalidPuzzle:
    """One line for pydantic's problems: the first, and how many more there are.

    >>> try:
    ...     Puzzle(pegs=("a",), disks=True, init={}, goal={})
    ... except InvalidPuzzle as error:
    ...     print(error)
    disks: Input should be a valid integer
    """
    problems = error.errors(include_url=False)
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    text = f"{where}: {message}" if where else message
    if len(problems) > 1:
        text += f" (and {len(problems) - 1} more problem(s))"
    kept: list[dict[str, Any]] = [
        {"loc": p["loc"], "msg": p["msg"], "type": p["type"]} for p in problems
    ]
    return InvalidPuzzle(text, kept)


def placement(where: Mapping[int, str]) -> dict[str, tuple[int, ...]]:
    """``{disk: peg}`` -> ``{peg: disks}``, disks in order (largest first), as
    :class:`Puzzle` takes ``init`` and ``goal``.

    >>> placement({2: "a", 1: "a", 3: "c"})
    {'a': (1, 2), 'c': (3,)}
    """
    out: dict[str, tuple[int, ...]] = {}
    for disk in sorted(where):
        out[where[disk]] = (*out.get(where[disk], ()), disk)
    return out


def stacks(puzzle: Puzzle, state: State) -> list[list[int]]:
    """Per peg index, its disks bottom (largest, lowest number) to top.  A negative
    peg index leaves a disk out (a disk a partial goal does not place)."""
    towers: list[list[int]] = [[] for _ in puzzle.pegs]
    for disk, peg in enumerate(state, start=1):
        if peg >= 0:
            towers[peg].append(disk)
    return towers
