"""A whole state as one integer, and the moves from it: the code every search shares.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1,), "b": (2,)}, goal={"c": (1, 2)})
>>> encode(p)
3
>>> [(position + 1, target) for position, target, _ in moves(p, encode(p))]
[(1, 2), (2, 0), (2, 2)]

Disk ``d`` (1 is the largest) lies on peg ``state // pegs**(d-1) % pegs``: the state is
a number in base ``pegs``, the largest disk its lowest digit (:func:`weights`).  A run
of consecutive disks is a contiguous block of digits, so a pattern table's code for a
run (:class:`~hanoi_asp.methods.patterns.PatternTable`) is ``state // pegs**first %
pegs**size``, and a table of one run of every disk is indexed by the state itself.  A
move changes one digit, so a successor is one addition.  The breadth-first and A*
searches one state at a time (:mod:`~hanoi_asp.methods.bfs`,
:mod:`~hanoi_asp.methods.astar`), the walk down an exact table (:func:`walk_down`) and
the pruning propagator (:mod:`hanoi_asp.engine.pruning`) use these; the batched
searches do the same on numpy arrays (:mod:`~hanoi_asp.methods.state_arrays`), and the
tables' builder on runs (:mod:`~hanoi_asp.methods.patterns.breadth_first`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from hanoi_asp.methods.patterns.tables import UNSEEN, move_lists
from hanoi_asp.model.puzzle import Puzzle

Steps = list[tuple[int, str]]
"""A plan as (disk, target peg name) moves."""


def weights(pegs: int, disks: int) -> list[int]:
    """Each disk's place value in a state, the largest disk (position 0) first."""
    return [pegs**position for position in range(disks)]


def code(pegs: int, state: Sequence[int]) -> int:
    """The number of the state that puts disk position ``i`` on peg ``state[i]``."""
    total = 0
    for peg in reversed(state):
        total = total * pegs + peg
    return total


def encode(puzzle: Puzzle) -> int:
    """The puzzle's initial state as a number."""
    return code(len(puzzle.pegs), puzzle.initial_state())


def tops(pegs: int, disks: int, state: int) -> list[int]:
    """The position of each peg's top disk, its smallest (the highest position); -1 for
    an empty peg."""
    top = [-1] * pegs
    for position in range(disks):  # largest first: each smaller disk overwrites
        state, peg = divmod(state, pegs)
        top[peg] = position
    return top


def moves(puzzle: Puzzle, state: int) -> list[tuple[int, int, int]]:
    """Every legal move from ``state`` on the puzzle's move graph, as (disk position,
    target peg, the state after it): a peg's top disk onto an empty peg or a larger top
    disk.  For a loop over many states, :func:`successors` with the lists made once."""
    pegs = len(puzzle.pegs)
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    return successors(state, tops(pegs, puzzle.disks, state), targets, weights(pegs, puzzle.disks))


def successors(
    state: int, top: Sequence[int], targets: Sequence[Sequence[int]], weight: Sequence[int]
) -> list[tuple[int, int, int]]:
    """:func:`moves` from ``state`` whose :func:`tops` are ``top``, with the move graph's
    ``targets`` per peg and the disks' :func:`weights` given."""
    found = []
    for source, position in enumerate(top):
        if position < 0:
            continue
        for target in targets[source]:
            if top[target] < position:  # empty (-1), or a larger disk on top
                found.append((position, target, state + (target - source) * weight[position]))
    return found


def moves_along(puzzle: Puzzle, trail: Sequence[int]) -> Steps:
    """The (disk, peg) moves from each state of ``trail`` to the next (each pair one
    move apart: they differ in the moved disk's digit alone)."""
    pegs, steps = len(puzzle.pegs), []
    weight = weights(pegs, puzzle.disks)
    for before, after in pairwise(trail):
        changed = next(
            d
            for d in range(puzzle.disks)
            if before // weight[d] % pegs != after // weight[d] % pegs
        )
        steps.append((changed + 1, puzzle.pegs[after // weight[changed] % pegs]))
    return steps


def steps_back(puzzle: Puzzle, parent: dict[int, int], end: int) -> Steps:
    """The moves to ``end``, walking the parent links back (the start's is -1)."""
    trail = [end]
    while parent[trail[-1]] != -1:
        trail.append(parent[trail[-1]])
    trail.reverse()
    return moves_along(puzzle, trail)


def walk_down(puzzle: Puzzle, distances: Sequence[int]) -> Steps | None:
    """A shortest plan read off ``distances``, every state's exact distance to the goal
    (a table of one run of every disk, indexed by the state): from the start, a move to
    a state one nearer, until the goal (distance 0).  Each step is one move and one
    nearer, so the plan has exactly the start's distance in moves: minimal.  None when
    the start cannot reach the goal (:data:`UNSEEN`)."""
    pegs, disks = len(puzzle.pegs), puzzle.disks
    targets = move_lists(pegs, puzzle.edges(), backwards=False)
    weight = weights(pegs, disks)
    state = encode(puzzle)
    left = distances[state]
    if left >= UNSEEN:
        return None
    at, top = list(puzzle.initial_state()), tops(pegs, disks, state)
    steps: Steps = []
    while left > 0:
        position, target, state = next(
            move
            for move in successors(state, top, targets, weight)
            if distances[move[2]] == left - 1
        )
        source, at[position] = at[position], target
        top[source] = max((d for d in range(position) if at[d] == source), default=-1)
        top[target] = position
        steps.append((position + 1, puzzle.pegs[target]))
        left -= 1
    return steps
