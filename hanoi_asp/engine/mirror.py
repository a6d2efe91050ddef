"""The mirror phase: find a whole-tower plan as half a plan and its mirror image.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=2, init={"a": (1, 2)}, goal={"d": (1, 2)})
>>> unfold(p, [(2, "b")])
[(2, 'b'), (1, 'd'), (2, 'd')]

A whole tower moves from peg s to peg g.  If after h moves the largest disk lies
alone on s and g is empty, the largest disk moves s -> g, and the h moves played
backwards with s and g swapped finish the tower: 2h + 1 moves (see
``encodings/mirror.lp``).  clingo then searches half the horizon, which for a long
plan is far easier: 4 pegs, 12 disks, 81 moves took 18.2 s this way (median of 3,
``benchmarks/speed.py``) and did not finish in 120 s at the full horizon (one run,
2 threads).

The phase only finds plans.  It runs when the lower bound is known to be the optimum
(:attr:`hanoi_asp.model.result.LowerBound.exact`), so a mirrored plan of that length is
minimal by the bound's own proof; if clingo finds no half, the normal search runs.
The unfolded plan is replayed by the simulator like any other.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import clingo

from hanoi_asp.engine.bounds import whole_tower
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.engine.solver import ClingoCalls, Steps
from hanoi_asp.inputs.facts import instance_facts, peg_term
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import HorizonRun, LowerBound


def applies(puzzle: Puzzle, bound: LowerBound) -> bool:
    """A whole tower on the complete move graph (swapping its start and goal pegs maps
    moves to moves) whose bound is the optimum and odd (a mirrored plan has 2h + 1
    moves): a mirrored plan of that length is then minimal."""
    return (
        bound.exact
        and bound.value % 2 == 1
        and puzzle.edges() is None
        and whole_tower(puzzle) is not None
    )


def half_plan(
    puzzle: Puzzle,
    horizon: int,
    deadline: float | None,
    options: Sequence[str] = (),
    threads: int = 1,
) -> tuple[HorizonRun, Steps | None]:
    """clingo's search for the first (horizon - 1) / 2 moves of a mirrored plan, with
    ``threads`` (the policy's :data:`~hanoi_asp.engine.policy.MIRROR_THREADS`)."""
    ends = whole_tower(puzzle)
    assert ends is not None
    start, goal = (peg_term(puzzle.pegs[i]) for i in ends)
    half = (horizon - 1) // 2
    started = time.monotonic()
    calls = ClingoCalls("mirror.lp", options, threads)
    ctl = calls.new_control()
    calls.add(ctl, "base", [], instance_facts(puzzle))
    calls.add(ctl, "base", [], read_encoding("incremental"))
    calls.add(ctl, "base", [], read_encoding("mirror") + f"\nmirror(1,{start},{goal}).")
    parts: list[tuple[str, list[clingo.Symbol]]] = [("base", [])]
    for t in range(1, half + 1):
        parts += [("step", [clingo.Number(t)]), ("prune", [clingo.Number(t)])]
    parts.append(("half", [clingo.Number(half)]))
    calls.ground(ctl, parts)
    run, steps = calls.solve(ctl, half, deadline, started)
    return run.as_phase("mirror-half"), steps


def unfold(puzzle: Puzzle, half: Steps) -> Steps:
    """The whole plan: the half, the largest disk's move, the half backwards mirrored."""
    ends = whole_tower(puzzle)
    assert ends is not None
    start, goal = (puzzle.pegs[i] for i in ends)
    swap = {start: goal, goal: start}
    where = {disk: start for disk in range(1, puzzle.disks + 1)}
    came_from: list[str] = []
    for disk, target in half:
        came_from.append(where[disk])
        where[disk] = target
    back = [
        (disk, swap.get(source, source))
        for (disk, _), source in zip(reversed(half), reversed(came_from), strict=True)
    ]
    return [*half, (1, goal), *back]
