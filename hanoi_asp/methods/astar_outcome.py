"""What an A* search says: where it stands as it goes (:class:`Progress`) and what it
found or proved at its end (:class:`AstarOutcome`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple


class Progress(NamedTuple):
    """Where a search stands: the work done so far (:mod:`hanoi_asp.methods.work`), the
    smallest ``f`` still open (a proven lower bound), and whether it runs on the strong
    tables."""

    work: int
    lower: int
    strong: bool = False


Report = Callable[[Progress], None]
"""Told where the search stands after each batch (every 4,096 expansions one state
at a time): the racing A* sends it to the engine (:mod:`hanoi_asp.engine.astar_race`)."""


@dataclass(frozen=True)
class AstarOutcome:
    steps: list[tuple[int, str]] | None
    """(disk, target peg) moves of a shortest plan, or None."""
    expanded: int
    stored: int
    lower: int
    """Proven: no plan has fewer moves (the plan's length when there is one)."""
    exhausted: bool = False
    """Every reachable state was expanded without a goal: no plan exists."""
    stopped: str | None = None
    """``timeout``, ``states`` (the budget of stored states) or ``rent`` (the work
    allowed it, :func:`search`'s ``rent``): ``lower`` is still proven."""
    work: int = 0
    """The work done (:mod:`hanoi_asp.methods.work`): states estimated, tables built."""
