"""What the pruning thread knows of the plan clingo is building, step by step: the moves
made so far and the whole states they lead to, with each state's moves once estimated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hanoi_asp.engine.pruning.estimates import Estimated


@dataclass
class ThreadState:
    """What the pruning thread knows, indexed by step: the moves made, and the states
    after steps ``0 .. known`` (a prefix: a state follows from the one before and its
    move, the start from the puzzle)."""

    known: int
    """The last step whose state is known."""
    move: list[tuple[int, int, int] | None]
    """Per step, its move as (literal, disk position, target peg index) once made."""
    peg: list[list[int]]
    """Per known step, each disk's peg index."""
    state: list[int]
    """Per known step, the state as one number (digit ``disk`` in base pegs)."""
    moves: list[Estimated | None]
    """Per known step, its legal moves once estimated
    (:meth:`hanoi_asp.engine.pruning.learnt.LearntBounds.moves`)."""

    @classmethod
    def fresh(cls, horizon: int, start: Sequence[int], weight: Sequence[int]) -> ThreadState:
        """Nothing known but the ``start`` (a peg index per disk) of a plan of ``horizon``
        steps; ``weight`` is each disk's digit value in a state's number."""
        steps, pegs = horizon + 1, list(start)
        return cls(
            known=0,
            move=[None] * steps,
            peg=[pegs] + [[] for _ in range(steps - 1)],
            state=[sum(peg * w for peg, w in zip(pegs, weight, strict=True)), *[0] * (steps - 1)],
            moves=[None] * steps,
        )
