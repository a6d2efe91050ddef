"""What the workers of the upward search (A*, the beam, the table purchases) tell the
scheduler, and what they may read: they never hold the search's state.  A worker reads
where the search stands as a :class:`Standing` (two numbers, read-only) and reports what
it found (a bound with its argument, a plan with its origin, the time it took); the
scheduler (:mod:`hanoi_asp.engine.scheduler`) applies each report to the state through
the state's methods, so the state alone decides what a bound or a plan changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hanoi_asp.model.plan import Move
from hanoi_asp.model.proof import PlanOrigin
from hanoi_asp.model.result import LowerBound


@dataclass(frozen=True)
class Standing:
    """Where the search stands: the proven lower bound and the best plan's length."""

    lower: int
    best: int | None

    def open(self) -> bool:
        """A plan is in hand and not yet proven minimal: a shorter one may exist."""
        return self.best is not None and self.best > self.lower


@dataclass(frozen=True)
class Offer:
    """A verified plan (replayed by the simulator) and where it came from."""

    moves: tuple[Move, ...]
    origin: PlanOrigin


@dataclass(frozen=True)
class Spent:
    """Seconds a worker spent in one of the answer's phases (``first_plan``, ``bounds``)."""

    phase: str
    seconds: float


Report = LowerBound | Offer | Spent
"""A bound proven (its argument with it), a plan found, or time spent."""


@dataclass(frozen=True)
class Desk:
    """How a worker that runs its own loop (the beam) reaches the scheduler: whether to
    go on (``checkpoint``), where the search stands now (``standing``), and what it did
    (``report``)."""

    checkpoint: Callable[[], bool]
    standing: Callable[[], Standing]
    report: Callable[[Report], None]
