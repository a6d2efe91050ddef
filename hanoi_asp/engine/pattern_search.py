"""Breadth-first optima of a few disks alone: the searches the pile-split bound
(:func:`hanoi_asp.engine.bounds.pile_bound`) adds up.

>>> pattern_distance(4, (0, 0, 0), {1: 3, 2: 3, 3: 3}, [1, 2, 3])
5

Each optimum bounds a whole plan by projection, and optima of disjoint sets of disks
add up (:mod:`hanoi_asp.engine.bounds`).  The searches are plain Python, so each takes
the ``deadline`` (a ``time.monotonic()`` value) and raises ``TimeoutError`` once it
has passed.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hanoi_asp.engine.three_pegs import three_peg_distance
from hanoi_asp.methods.patterns import UNSEEN, Edges, distances_to
from hanoi_asp.methods.states import code
from hanoi_asp.model.puzzle import Puzzle, State
from hanoi_asp.model.result import UNREACHABLE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PATTERN_STATES = 100_000
"""Most abstract states one pattern search may visit (a few seconds of Python at most)."""
TABLES_KEPT = 256
"""Distance tables kept for later searches: pile-split asks about many start patterns
on the same few tables (each at most 0.8 MiB, numpy's 2 bytes a pattern)."""

_tables: dict[tuple[object, ...], npt.NDArray[np.uint16]] = {}
"""The kept tables, least recently used first."""


def check_time(deadline: float | None) -> None:
    """Raise ``TimeoutError`` once ``deadline`` has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise TimeoutError


def pattern_distance(
    pegs: int,
    start: State,
    goal: dict[int, int],
    disks: Sequence[int],
    edges: Edges = None,
    deadline: float | None = None,
) -> int | None:
    """Breadth-first distance for ``disks`` alone (others deleted), or None if they
    have more than 4 x :data:`PATTERN_STATES` patterns.  An unreachable goal
    gives a huge number (no plan exists: any bound holds).  ``edges`` restricts the
    moves to a move graph (None: all)."""
    here = tuple(start[d - 1] for d in disks)
    wanted = tuple((i, goal[d]) for i, d in enumerate(disks) if d in goal)
    if pegs ** len(here) > 4 * PATTERN_STATES:
        return None
    check_time(deadline)
    distances = _pattern_table(pegs, len(here), wanted, edges, deadline)
    found = int(distances[code(pegs, here)])
    return UNREACHABLE if found == UNSEEN else found


def _pattern_table(
    pegs: int,
    size: int,
    wanted: tuple[tuple[int, int], ...],
    edges: Edges,
    deadline: float | None,
) -> npt.NDArray[np.uint16]:
    """Every pattern's distance to the goal ``wanted`` (a peg for some positions)
    (:func:`hanoi_asp.methods.patterns.distances_to`), kept for the next start
    pattern asked about: pile-split asks many (tens of tables per competition file,
    asked about hundreds of times)."""
    key = (pegs, size, wanted, edges)
    table = _tables.pop(key, None)
    if table is None:
        table = distances_to(pegs, size, dict(wanted), edges, deadline)
        if len(_tables) >= TABLES_KEPT:
            del _tables[next(iter(_tables))]
    _tables[key] = table  # last: the most recently used
    return table


def run_size(pegs: int, disks: int) -> int:
    """The longest run of disks one pattern search covers within the budget."""
    size = 1
    while pegs ** (size + 1) <= PATTERN_STATES and size < disks:
        size += 1
    return size


def runs_distance(
    puzzle: Puzzle, group: Sequence[int], deadline: float | None = None
) -> tuple[int, int]:
    """Best sum of breadth-first optima over runs of consecutive disks of ``group``
    (every offset tried), and the offset that gave it: projection on each run, and
    additivity (the runs are disjoint, and every move moves one disk of one run)."""
    pegs = len(puzzle.pegs)
    size = run_size(pegs, len(group))
    start, goal = puzzle.initial_state(), puzzle.goal_pegs()
    best = (0, 0)
    for offset in range(1, size + 1):
        cuts = [0, *range(offset, len(group), size), len(group)]
        total = 0
        for low, high in itertools.pairwise(cuts):
            found = pattern_distance(pegs, start, goal, group[low:high], None, deadline)
            if found is None:
                break
            total += found
        else:
            best = max(best, (total, offset))
    return best


def group_distance(
    puzzle: Puzzle,
    group: Sequence[int],
    pegs: Sequence[int],
    edges: Edges = None,
    deadline: float | None = None,
) -> tuple[int, int] | None:
    """A lower bound on the moves of ``group`` (largest first) restricted to ``pegs``:
    exact for 3 pegs (formula) or for the largest disks a pattern search covers, plus
    one move per other misplaced disk of the group.  None if the goal needs a peg
    outside ``pegs``.  Also returns how many disks the exact part covered.  ``edges``
    (peg indexes of ``pegs``) restricts the pattern search to a move graph; the 3-peg
    formula, which assumes every move, is then not used."""
    start, goal = puzzle.initial_state(), puzzle.goal_pegs()
    index = {peg: i for i, peg in enumerate(pegs)}
    if any(start[d - 1] not in index or goal.get(d, pegs[0]) not in index for d in group):
        return None
    local_start = tuple(index.get(p, 0) for p in start)
    local_goal = {d: index[goal[d]] for d in group if d in goal}
    if len(pegs) == 3 and edges is None:
        target = tuple(local_goal.get(d, local_start[d - 1]) for d in range(1, len(start) + 1))
        named = [d for d in group if d in local_goal]
        return three_peg_distance(local_start, target, named), len(group)
    best = (0, 0)
    for size in range(1, len(group) + 1):
        found = pattern_distance(len(pegs), local_start, local_goal, group[:size], edges, deadline)
        if found is None:
            break
        best = (found, size)
    value, size = best
    rest = sum(1 for d in group[size:] if d in goal and start[d - 1] != goal[d])
    return value + rest, size
