"""Whole towers as half a plan and its mirror image: the mirror phase finds a plan, the
half search proves the optimum.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=2, init={"a": (1, 2)}, goal={"d": (1, 2)})
>>> unfold(p, [(2, "b")])
[(2, 'b'), (1, 'd'), (2, 'd')]

A whole tower moves from peg s to peg g.  If after h moves the largest disk lies
alone on s and g is empty, the largest disk moves s -> g, and the h moves played
backwards with s and g swapped finish the tower: 2h + 1 moves (see
``encodings/mirror.lp``).  clingo then searches half the horizon, which for a long
plan is far easier (``python -m benchmarks.speed`` measures both ways).

The mirror phase (:mod:`hanoi_asp.engine.strategies.mirror`) only finds plans.  It runs
when the lower bound is known to be the optimum
(:attr:`hanoi_asp.model.result.LowerBound.exact`), so a mirrored plan of that length is
minimal by the bound's own proof; if clingo finds no half, the upward search runs.  The
unfolded plan is replayed by the simulator like any other.

Where no exact bound is known (5+ pegs: Frame-Stewart is unproven there), the half
search (:mod:`hanoi_asp.engine.strategies.halves`, :func:`half_solver`) proves the
optimum.  Let H* be the fewest moves that take
the n - 1 smaller disks off s and off one other peg x.  It is the same for every x,
as renaming the pegs other than s maps the start to itself.

* **Every plan has at least 2H* + 1 moves.**  The largest disk moves at least once.
  Just before its first move, s -> x, every other disk is off s and off x: at least
  H* moves came before.  Just after its last move, y -> g, every other disk is off y
  and off g, and from there it must reach the tower on g.  Played backwards with s
  and g swapped, that rest takes the tower on s to a state with every other disk off
  s and off y: at least H* moves came after.  Those two stretches do not overlap, and
  the largest disk's move lies between them.
* **A plan of 2H* + 1 moves exists:** the mirror of a half of H* moves.

A half's own largest disk may move too, but dropping its moves (projection) leaves a
half of the smaller disks that is no longer.  So clingo refuting the half horizons
below h proves H* >= h, and the optimum at least 2h + 1; the first half horizon with a
plan is H*.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import clingo

from hanoi_asp.engine.bounds import whole_tower
from hanoi_asp.engine.clingo_calls import ClingoCalls, Steps
from hanoi_asp.engine.pruning import Checkpoint
from hanoi_asp.engine.solver import IncrementalSolver, Program
from hanoi_asp.inputs.facts import instance_facts, peg_term
from hanoi_asp.methods.patterns import Allowed, Partitioned, goal_database
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


class MirrorHalf:
    """The mirror phase's solver: the first ``half`` moves of a mirrored plan, a fresh
    control for the one half horizon asked (every step ground at once, and the end
    state asked by ``mirror.lp``'s half(t), no check(t))."""

    def __init__(
        self,
        puzzle: Puzzle,
        programs: Sequence[Program],
        options: Sequence[str] = (),
        threads: int = 1,
    ) -> None:
        self.puzzle = puzzle
        self.programs = programs
        self.calls = ClingoCalls(programs[0].name, options, threads)

    def run(self, half: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        started = time.monotonic()
        ctl = self.calls.new_control()
        self.calls.add(ctl, "base", [], instance_facts(self.puzzle))
        for program in self.programs:
            self.calls.add(ctl, "base", [], program.text)
        parts: list[tuple[str, list[clingo.Symbol]]] = [("base", [])]
        for t in range(1, half + 1):
            parts += [("step", [clingo.Number(t)]), ("prune", [clingo.Number(t)])]
        parts.append(("half", [clingo.Number(half)]))
        self.calls.ground(ctl, parts)
        run, steps = self.calls.solve(ctl, half, deadline, started)
        return run.as_phase("mirror-half"), steps

    def retable(self, tables: Partitioned) -> None:
        return None


def tower_ends(puzzle: Puzzle) -> tuple[int, int]:
    """The whole tower's (start, goal) peg indexes; only towers come here."""
    ends = whole_tower(puzzle)
    assert ends is not None
    return ends


def mirrored_length(half: int) -> int:
    """The moves of a half's mirrored plan: the half, the largest disk's, the half again."""
    return 2 * half + 1


def unfold(puzzle: Puzzle, half: Steps) -> Steps:
    """The whole plan: the half, the largest disk's move, the half backwards mirrored."""
    ends = tower_ends(puzzle)
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


def mirror_fact(puzzle: Puzzle) -> str:
    """``mirror.lp``'s input: the largest disk and the tower's start and goal pegs."""
    ends = tower_ends(puzzle)
    start, goal = (peg_term(puzzle.pegs[i]) for i in ends)
    return f"\n#program base.\nmirror(1,{start},{goal}).\n"


def searches_halves(puzzle: Puzzle) -> bool:
    """A whole tower on the complete move graph: its optimum is 2H* + 1, and the half
    search finds H*."""
    return puzzle.edges() is None and whole_tower(puzzle) is not None


def half_puzzle(puzzle: Puzzle) -> Puzzle:
    """The tower with the goal "the largest disk on the start peg": with ``mirror.lp``'s
    check(t), the half's goal (the rest is :func:`half_allowed`, for the tables)."""
    ends = tower_ends(puzzle)
    start = puzzle.pegs[ends[0]]
    return Puzzle(pegs=puzzle.pegs, disks=puzzle.disks, init=puzzle.init, goal={start: (1,)})


def half_allowed(puzzle: Puzzle) -> Allowed:
    """Where the half leaves each disk: the largest on the start peg, every other off
    the start and goal pegs."""
    ends = tower_ends(puzzle)
    others = tuple(peg for peg in range(len(puzzle.pegs)) if peg not in ends)
    return ((ends[0],), *[others] * (puzzle.disks - 1))


def half_tables(puzzle: Puzzle, deadline: float | None) -> Partitioned:
    """Pattern tables toward the half's end, every cut (a half search refutes
    horizons).  Raises ``TimeoutError`` if ``deadline`` passes first."""
    allowed = half_allowed(puzzle)
    return goal_database(half_puzzle(puzzle), deadline=deadline, every_cut=True, allowed=allowed)


def half_solver(
    puzzle: Puzzle,
    tables: Partitioned | None,
    programs: Sequence[Program],
    options: Sequence[str] = (),
    threads: int = 1,
    checkpoint: Checkpoint | None = None,
) -> IncrementalSolver:
    """The upward search over half horizons: ``programs`` (``incremental.lp`` with its
    minimal-plan pruning, as a shortest half is a shortest plan to its states, and
    ``mirror.lp``'s check(t)), and the pattern propagator on the half's tables if
    given (asking ``checkpoint`` as it goes: the work budget's)."""
    half = half_puzzle(puzzle)
    return IncrementalSolver(
        half,
        programs,
        prune=True,
        options=options,
        threads=threads,
        tables=tables,
        checkpoint=checkpoint,
    )
