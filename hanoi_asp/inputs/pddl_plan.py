"""A planner's plan for the PDDL ``export --pddl`` writes -> the ``(disk, target peg)``
steps :func:`~hanoi_asp.model.plan.replay` checks.

A plan file (IPC's format, what Fast Downward and SymK write) has one ground action a
line, ``(move d3 p0 d1)``, and ``;`` comments.  An action names what the disk lies on and
what it is put on (a disk or a peg); its peg is followed down the stacks, and an action
whose ``?from``/``?to`` are not what the disk lies on / the top of a stack (the PDDL's
own preconditions, checked on our stacks) is refused with its step: the simulator then
checks the moves by the puzzle's rules.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> plan_steps(p, "(move d2 d1 b)\\n(MOVE d1 a c) ; a comment\\n; cost = 2")
[(2, 'b'), (1, 'c')]
"""

from __future__ import annotations

from hanoi_asp.inputs.pddl_names import Names
from hanoi_asp.model.errors import VerificationError
from hanoi_asp.model.puzzle import Puzzle, stacks


class PlanFileError(VerificationError):
    """A plan file's action that is no move of the exported domain, or does not fit the
    stacks; ``step`` is its number."""

    def __init__(self, message: str, *, step: int) -> None:
        super().__init__(message)
        self.step = step


def plan_actions(text: str) -> list[list[str]]:
    """The plan's actions as ``[name, arg, ...]`` lists, lower-cased, comments dropped."""
    actions = []
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].strip()
        if line:
            actions.append(line.strip("()").lower().split())
    return actions


def plan_steps(puzzle: Puzzle, text: str) -> list[tuple[int, str]]:
    """The plan file ``text`` as steps for :func:`~hanoi_asp.model.plan.replay`; a
    :class:`PlanFileError` for an action that is not a move of a top disk from what it
    lies on onto the top of a stack."""
    names = Names(puzzle)
    towers = stacks(puzzle, puzzle.initial_state())
    where = dict(enumerate(puzzle.initial_state(), start=1))
    steps: list[tuple[int, str]] = []
    for step, action in enumerate(plan_actions(text), start=1):
        shown = "(" + " ".join(action) + ")"
        disk = names.disk_number(action[1]) if len(action) in (4, 6) else None
        if action[0] != "move" or disk is None:
            raise PlanFileError(f"step {step}: {shown} is not a move of a disk", step=step)
        onto = action[3]
        onto_disk = names.disk_number(onto)
        if onto_disk is not None:
            target = where[onto_disk]
        elif onto in names.pegs:
            target = names.pegs.index(onto)
        else:
            raise PlanFileError(f"step {step}: {shown}: no disk or peg {onto}", step=step)
        stack = towers[where[disk]]
        lies_on = names.disk(stack[-2]) if len(stack) > 1 else names.pegs[where[disk]]
        top = names.disk(towers[target][-1]) if towers[target] else names.pegs[target]
        if stack[-1] != disk:
            raise PlanFileError(f"step {step}: {shown}: {action[1]} is not on top", step=step)
        if action[2] != lies_on or onto != top or target == where[disk]:
            raise PlanFileError(
                f"step {step}: {shown}: {action[1]} lies on {lies_on} and the top there is {top}",
                step=step,
            )
        stack.pop()
        towers[target].append(disk)
        where[disk] = target
        steps.append((disk, puzzle.pegs[target]))
    return steps
