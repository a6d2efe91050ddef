"""Plans and the independent simulator that must accept every plan before it is shown.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=1, init={"a": (1,)}, goal={"c": (1,)})
>>> replay(p, [(1, "c")])
(Move(step=1, disk=1, source='a', target='c'),)
>>> replay(p, [{"disk": 1, "from": "a", "to": "c"}])[0].to  # the JSON plan's moves
'c'

The simulator is plain Python with no ASP in it: it shares nothing with the
encodings, so a bug in an encoding cannot hide in it.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field
from typing_extensions import TypedDict

from hanoi_asp.model.errors import GoalNotReached, IllegalMove, UnknownPeg, VerificationError
from hanoi_asp.model.json_shape import From, dump, shape
from hanoi_asp.model.puzzle import Puzzle, State


@dataclass(frozen=True)
class Move:
    """One move of a plan: ``source`` and ``target`` are the JSON's ``from`` and ``to``
    (also readable as :attr:`from_` and :attr:`to`)."""

    step: int
    disk: int
    source: str
    target: str

    @property
    def to(self) -> str:
        """The peg it goes to, as the JSON names it (``target``)."""
        return self.target

    @property
    def from_(self) -> str:
        """The peg it leaves, as the JSON names it (``source``; ``from`` is a Python
        keyword)."""
        return self.source

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


Rule = Literal[
    "unknown-peg",
    "no-such-disk",
    "same-peg",
    "wrong-source",
    "move-graph",
    "not-on-top",
    "larger-on-smaller",
]
"""The rule an illegal move breaks (:attr:`~hanoi_asp.model.errors.IllegalMove.rule`)."""

RULES: dict[str, str] = {
    "unknown-peg": "a move goes to one of the puzzle's pegs",
    "no-such-disk": "a move moves one of the puzzle's disks",
    "same-peg": "a move takes a disk to another peg",
    "wrong-source": "a move takes a disk from the peg it is on",
    "move-graph": "a move follows the move graph",
    "not-on-top": "only the top disk of a peg moves",
    "larger-on-smaller": "no disk lies on a smaller one",
}
"""Each rule in a sentence, for people."""


def legal_move(
    state: State, disk: int, target: int, edges: frozenset[tuple[int, int]] | None = None
) -> str | None:
    """Why moving ``disk`` to peg index ``target`` is illegal in ``state``, or None.

    ``edges`` are the allowed (source, target) peg-index moves; None allows all.
    """
    broken = broken_rule(state, disk, target, edges)
    return None if broken is None else broken[1]


def broken_rule(
    state: State, disk: int, target: int, edges: frozenset[tuple[int, int]] | None = None
) -> tuple[Rule, str] | None:
    """The rule moving ``disk`` to peg index ``target`` breaks in ``state``, and why in
    words; None for a legal move."""
    if not 1 <= disk <= len(state):
        return "no-such-disk", f"there is no disk {disk}"
    source = state[disk - 1]
    if source == target:
        return "same-peg", f"disk {disk} is already on that peg"
    if edges is not None and (source, target) not in edges:
        return (
            "move-graph",
            "the move graph does not allow a move between these pegs in this direction",
        )
    smaller = state[disk:]  # disks disk+1.. are the smaller ones
    if source in smaller:
        return "not-on-top", f"disk {disk} is not on top (a smaller disk lies on it)"
    if target in smaller:
        return "larger-on-smaller", f"disk {disk} would be put on a smaller disk"
    return None


Step = tuple[int, str] | Move | Mapping[str, Any]
"""A step :func:`replay` takes: ``(disk, target peg)``, a :class:`Move`, or a move of the
JSON's plan, ``{"disk": 1, "to": "c"}`` (``"from"`` and ``"step"`` may be given too:
``"from"`` is then checked against where the disk is)."""


def replay(puzzle: Puzzle, steps: Iterable[Step]) -> tuple[Move, ...]:
    """Replay ``steps`` from the start; return the moves if the goal holds.

    Raises :class:`IllegalMove` naming the first illegal step and the rule it breaks,
    :class:`UnknownPeg` for a move to a peg the puzzle does not have,
    :class:`GoalNotReached` naming a goal disk that ends in the wrong place, or
    :class:`VerificationError` for a step that is no move at all.
    """
    state = list(puzzle.initial_state())
    edges = puzzle.edges()
    moves: list[Move] = []
    for step, given in enumerate(steps, start=1):
        disk, target_name, source_name = _step(given, step)
        refusal: type[IllegalMove | UnknownPeg] = IllegalMove
        broken: tuple[Rule, str] | None
        if target_name not in puzzle.pegs:
            refusal, broken = UnknownPeg, ("unknown-peg", f"unknown peg {target_name!r}")
        elif (
            source_name is not None
            and 1 <= disk <= len(state)
            and source_name != puzzle.pegs[state[disk - 1]]
        ):
            broken = (
                "wrong-source",
                f"disk {disk} is on {puzzle.pegs[state[disk - 1]]}, not on {source_name}",
            )
        else:
            broken = broken_rule(tuple(state), disk, puzzle.peg_index(target_name), edges)
        if broken is not None:
            rule, problem = broken
            what = f"illegal move of disk {disk} to {target_name}: "
            what = "" if refusal is UnknownPeg else what
            raise refusal(
                f"step {step}: {what}{problem}",
                step=step,
                disk=disk,
                target=target_name,
                state=tuple(state),
                rule=rule,
                reason=problem,
            )
        moves.append(Move(step, disk, puzzle.pegs[state[disk - 1]], target_name))
        state[disk - 1] = puzzle.peg_index(target_name)
    for disk, peg in sorted(puzzle.goal_pegs().items()):
        if state[disk - 1] != peg:
            raise GoalNotReached(
                f"goal not reached: disk {disk} ends on {puzzle.pegs[state[disk - 1]]}, "
                f"the goal wants it on {puzzle.pegs[peg]}",
                state=tuple(state),
                disk=disk,
                steps=len(moves),
            )
    return tuple(moves)


def _step(given: Step, number: int) -> tuple[int, str, str | None]:
    """A step's disk, target peg, and source peg where it names one."""
    if isinstance(given, Move):
        return given.disk, given.target, given.source
    if isinstance(given, Mapping):
        unknown = sorted(set(given) - {"disk", "to", "from", "step"})
        if unknown or "disk" not in given or "to" not in given:
            why = f"unknown key {unknown[0]!r}" if unknown else 'it lacks "disk" or "to"'
            raise VerificationError(
                f'step {number}: a move is {{"disk": D, "to": P}} (and "from", "step"): {why}'
            )
        disk, target, source = given["disk"], given["to"], given.get("from")
    else:
        try:
            disk, target = given
        except (TypeError, ValueError):
            raise VerificationError(
                f"step {number}: a step is (disk, peg), a Move or "
                f'{{"disk": D, "to": P}}, not {given!r:.60}'
            ) from None
        source = None
    if not isinstance(disk, int) or isinstance(disk, bool):
        raise VerificationError(f"step {number}: the disk is a number, not {disk!r:.40}")
    if not isinstance(target, str) or not (source is None or isinstance(source, str)):
        raise VerificationError(f"step {number}: pegs are named by strings")
    return disk, target, source


def states(puzzle: Puzzle, plan: Sequence[Move]) -> list[State]:
    """Every state of a verified plan, the start included."""
    state = list(puzzle.initial_state())
    out = [tuple(state)]
    for move in plan:
        state[move.disk - 1] = puzzle.peg_index(move.target)
        out.append(tuple(state))
    return out
