"""Sound lower bounds on the length of any plan, each with its argument.

>>> from hanoi_asp.spec import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> misplaced_disks(p).value
2

The upward search starts at the bound, so the horizons below it are never solved:
each bound here must hold for *every* plan, and says why in its ``argument``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hanoi_asp.spec import Puzzle


@dataclass(frozen=True)
class LowerBound:
    value: int
    name: str
    argument: str

    def as_dict(self) -> dict[str, object]:
        return {"value": self.value, "name": self.name, "argument": self.argument}


def misplaced_disks(puzzle: Puzzle) -> LowerBound:
    """Every disk the goal puts on another peg than its start peg moves at least once,
    and every move moves one disk: so a plan has at least that many moves."""
    start = puzzle.initial_state()
    count = sum(1 for disk, peg in puzzle.goal_pegs().items() if start[disk - 1] != peg)
    return LowerBound(
        count,
        "misplaced-disks",
        f"{count} disk(s) start off their goal peg; each must move at least once, "
        "one disk per move",
    )


def best_lower_bound(puzzle: Puzzle) -> LowerBound:
    """The strongest sound bound known for this puzzle."""
    return misplaced_disks(puzzle)
