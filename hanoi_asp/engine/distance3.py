"""Facts for ``encodings/distance3.lp``, the 3-peg distance constraints.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=1, init={"a": (1,)}, goal={"c": (1,)})
>>> print(distance3_facts(p).splitlines()[-3:])
['gcost(1,a,0).', 'gcost(1,b,0).', 'gcost(1,c,0).']
"""

from __future__ import annotations

import itertools

from hanoi_asp.engine.three_pegs import to_perfect
from hanoi_asp.inputs.facts import peg_term
from hanoi_asp.model.puzzle import Puzzle


def distance3_facts(puzzle: Puzzle) -> str:
    """Facts for ``encodings/distance3.lp``: the goal-side constants of the 3-peg formula.

    ``third/3`` names the third peg, ``gnext/2`` orders the goal's disks, ``weight/2``
    is 2^(goal disks below), ``gcost(D,Z,V)``: V moves take a tower of the goal disks
    smaller than D on peg Z to their goal places
    (:func:`~hanoi_asp.engine.three_pegs.to_perfect`, read backwards).
    """
    pegs = [peg_term(p) for p in puzzle.pegs]
    goal = puzzle.goal_pegs()
    named = sorted(goal)
    target = tuple(goal.get(d, 0) for d in range(1, puzzle.disks + 1))
    lines = [
        f"third({pegs[a]},{pegs[b]},{pegs[3 - a - b]})."
        for a in range(3)
        for b in range(3)
        if a != b
    ]
    lines += [f"gnext({d},{e})." for d, e in itertools.pairwise(named)]
    for index, disk in enumerate(named):
        rest = named[index + 1 :]
        lines.append(f"weight({disk},{1 << len(rest)}).")
        lines += [f"gcost({disk},{pegs[z]},{to_perfect(target, rest, z)})." for z in range(3)]
    return "\n".join(lines)
