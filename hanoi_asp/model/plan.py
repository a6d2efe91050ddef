"""Plans and the independent simulator that must accept every plan before it is shown.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=1, init={"a": (1,)}, goal={"c": (1,)})
>>> replay(p, [(1, "c")])
(Move(step=1, disk=1, source='a', target='c'),)

The simulator is plain Python with no ASP in it: it shares nothing with the
encodings, so a bug in an encoding cannot hide in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field
from typing_extensions import TypedDict

from hanoi_asp.model.errors import GoalNotReached, IllegalMove, VerificationError
from hanoi_asp.model.json_shape import From, dump, shape
from hanoi_asp.model.puzzle import Puzzle, State


@dataclass(frozen=True)
class Move:
    step: int
    disk: int
    source: str
    target: str

    def as_dict(self) -> dict[str, Any]:
        """Its :data:`MoveJSON` object."""
        return dump(MoveJSON, self)

    def __str__(self) -> str:
        return f"{self.step}. disk {self.disk}: {self.source} -> {self.target}"


MoveJSON = TypedDict(
    "MoveJSON",
    {
        "step": Annotated[int, Field(description="1 for the first move.")],
        "disk": Annotated[int, Field(description="1 is the largest disk.")],
        "from": Annotated[str, From("source"), Field(description="The peg it leaves.")],
        "to": Annotated[str, From("target"), Field(description="The peg it goes to.")],
    },
)
shape(MoveJSON)
"""One move of a plan in JSON (``from`` is a Python keyword, hence this spelling)."""


def legal_move(
    state: State, disk: int, target: int, edges: frozenset[tuple[int, int]] | None = None
) -> str | None:
    """Why moving ``disk`` to peg index ``target`` is illegal in ``state``, or None.

    ``edges`` are the allowed (source, target) peg-index moves; None allows all.
    """
    if not 1 <= disk <= len(state):
        return f"there is no disk {disk}"
    source = state[disk - 1]
    if source == target:
        return f"disk {disk} is already on that peg"
    if edges is not None and (source, target) not in edges:
        return "the move graph does not allow a move between these pegs in this direction"
    smaller = state[disk:]  # disks disk+1.. are the smaller ones
    if source in smaller:
        return f"disk {disk} is not on top (a smaller disk lies on it)"
    if target in smaller:
        return f"disk {disk} would be put on a smaller disk"
    return None


def replay(puzzle: Puzzle, steps: Iterable[tuple[int, str]]) -> tuple[Move, ...]:
    """Replay ``(disk, target peg)`` steps from the start; return the moves if the goal holds.

    Raises :class:`IllegalMove` naming the first illegal step, or
    :class:`GoalNotReached` naming a goal disk that ends in the wrong place.
    """
    state = list(puzzle.initial_state())
    edges = puzzle.edges()
    moves: list[Move] = []
    for step, (disk, target_name) in enumerate(steps, start=1):
        if target_name not in puzzle.pegs:
            raise VerificationError(f"step {step}: unknown peg {target_name!r}")
        target = puzzle.peg_index(target_name)
        problem = legal_move(tuple(state), disk, target, edges)
        if problem:
            raise IllegalMove(
                f"step {step}: illegal move of disk {disk} to {target_name}: {problem}",
                step=step,
                disk=disk,
                target=target_name,
                state=tuple(state),
            )
        moves.append(Move(step, disk, puzzle.pegs[state[disk - 1]], target_name))
        state[disk - 1] = target
    for disk, peg in sorted(puzzle.goal_pegs().items()):
        if state[disk - 1] != peg:
            raise GoalNotReached(
                f"goal not reached: disk {disk} ends on {puzzle.pegs[state[disk - 1]]}, "
                f"the goal wants it on {puzzle.pegs[peg]}",
                state=tuple(state),
            )
    return tuple(moves)


def states(puzzle: Puzzle, plan: Sequence[Move]) -> list[State]:
    """Every state of a verified plan, the start included."""
    state = list(puzzle.initial_state())
    out = [tuple(state)]
    for move in plan:
        state[move.disk - 1] = puzzle.peg_index(move.target)
        out.append(tuple(state))
    return out
