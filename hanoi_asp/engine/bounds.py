"""Sound lower bounds on the length of any plan, each with its argument.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> best_lower_bound(p).value
7

The upward search starts at the bound and never solves the horizons below it, so
each bound here must hold for *every* plan; its docstring is the proof and its
``argument`` says it to the user.

Two facts carry most of the arguments:

* **Projection.** Delete from a legal plan every move of the disks outside a set S:
  what remains is a legal plan for the disks of S alone (a disk on top stays on top
  when other disks vanish, and it still never lands on a smaller disk of S), and it
  reaches the goal restricted to S.  So the optimum for S alone is a lower bound.
* **Additivity.** Every move moves one disk, so for disjoint sets S1, S2 the moves of
  S1-disks and S2-disks add up: the S1- and S2-optima add up to a lower bound.

A restricted move graph (a variant) only removes moves, so every plan of it is a
plan of the classic game: every bound for the complete graph holds for it too.
The move-graph pattern search below is stronger there (projection keeps the graph).

The pattern searches are plain Python and can take seconds: with a ``deadline``,
:func:`lower_bound` returns the best bound finished by then (every one is sound).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from functools import lru_cache
from typing import TYPE_CHECKING

from hanoi_asp.methods.frame_stewart import frame_stewart_count
from hanoi_asp.methods.patterns import (
    UNSEEN,
    Edges,
    distances_to,
    estimate,
    goal_database,
    strongest_partitions,
)
from hanoi_asp.model.options import BoundChoice
from hanoi_asp.model.puzzle import Puzzle, State
from hanoi_asp.model.result import UNREACHABLE, LowerBound

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PATTERN_STATES = 100_000
"""Most abstract states one pattern search may visit (a few seconds of Python at most)."""

_DEADLINE: ContextVar[float | None] = ContextVar("bounds_deadline", default=None)


class OutOfTime(Exception):
    """The deadline passed while a bound was being computed."""


def _check_time() -> None:
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime


def misplaced_disks(puzzle: Puzzle) -> LowerBound:
    """Every disk the goal puts on another peg than its start peg moves at least once,
    and every move moves one disk: so a plan has at least that many moves."""
    start = puzzle.initial_state()
    count = sum(1 for disk, peg in puzzle.goal_pegs().items() if start[disk - 1] != peg)
    return LowerBound(
        count,
        "misplaced-disks",
        f"{count} disk(s) start off their goal peg; each moves at least once, one per move",
    )


# -- three pegs: the exact distance -----------------------------------------------------


def to_perfect(state: State, disks: Sequence[int], target: int) -> int:
    """Moves to gather ``disks`` (largest first) as a tower on ``target``, 3 pegs.

    Classic: the largest disk not on its target needs every smaller one on the third
    peg first (2^k - 1 moves for k smaller disks, plus its own move); the smaller
    disks then aim at that third peg.  This is exact (Hinz 1989).
    """
    total = 0
    for rank, disk in enumerate(disks):
        here = state[disk - 1]
        if here != target:
            total += 1 << (len(disks) - rank - 1)
            target = 3 - here - target
    return total


def three_peg_distance(start: State, goal: State, disks: Sequence[int]) -> int:
    """Fewest moves between two states of ``disks`` (largest first) on 3 pegs.

    The largest disk D that differs moves once or twice in an optimal plan (Hinz
    1989, "The Tower of Hanoi", L'Enseignement Math. 35): once from a to b with all
    smaller disks on the third peg c in between; or twice, a -> c -> b, with the
    smaller disks on b, then moved as a tower to a, then to their goal.  Take the
    better of the two; disks larger than D never move in an optimal plan.
    """
    for index, disk in enumerate(disks):
        a, b = start[disk - 1], goal[disk - 1]
        if a != b:
            rest = disks[index + 1 :]
            c = 3 - a - b
            once = to_perfect(start, rest, c) + 1 + to_perfect(goal, rest, c)
            twice = to_perfect(start, rest, b) + 1 + ((1 << len(rest)) - 1) + 1
            twice += to_perfect(goal, rest, a)
            return min(once, twice)
    return 0


def three_pegs(puzzle: Puzzle) -> LowerBound:
    """Exact 3-peg distance for the disks the goal names (all of them for a full goal).

    For a partial goal it is the optimum of the named disks alone, a bound by
    projection; for a full goal it is the optimum itself.
    """
    goal = puzzle.goal_pegs()
    named = sorted(goal)
    start = puzzle.initial_state()
    target = tuple(goal.get(d, start[d - 1]) for d in range(1, puzzle.disks + 1))
    value = three_peg_distance(start, target, named)
    why = "the largest differing disk moves once or twice, Hinz 1989"
    if len(named) == puzzle.disks:
        argument = f"the exact 3-peg distance ({why})"
    else:
        argument = f"exact 3-peg distance of the disks the goal names ({why}), by projection"
    return LowerBound(value, "three-peg-distance", argument, exact=len(named) == puzzle.disks)


# -- any pegs: pattern search over the largest disks ---------------------------------------


def pattern_distance(
    pegs: int, start: State, goal: dict[int, int], disks: Sequence[int], edges: Edges = None
) -> int | None:
    """Breadth-first distance for ``disks`` alone (others deleted), or None if they
    have more than 4 x :data:`PATTERN_STATES` patterns.  An unreachable goal
    gives a huge number (no plan exists: any bound holds).  ``edges`` restricts the
    moves to a move graph (None: all)."""
    here = tuple(start[d - 1] for d in disks)
    wanted = tuple((i, goal[d]) for i, d in enumerate(disks) if d in goal)
    return _pattern_search(pegs, here, wanted, edges)


def _pattern_search(
    pegs: int, here: State, wanted: tuple[tuple[int, int], ...], edges: Edges
) -> int | None:
    if pegs ** len(here) > 4 * PATTERN_STATES:
        return None
    _check_time()
    distances = _pattern_table(pegs, len(here), wanted, edges)
    found = int(distances[sum(peg * pegs**j for j, peg in enumerate(here))])
    return UNREACHABLE if found == UNSEEN else found


@lru_cache(maxsize=256)
def _pattern_table(
    pegs: int, size: int, wanted: tuple[tuple[int, int], ...], edges: Edges
) -> npt.NDArray[np.uint16]:
    """Every pattern's distance to the goal ``wanted`` (a peg for some positions)
    (:func:`hanoi_asp.methods.patterns.distances_to`), kept for every start pattern
    asked about, as pile-split asks many: 37-63 tables per competition file, asked
    about 110-270 times.  Keeping 16 tables, 0.65 s on 0047; keeping 256, 0.13-0.18 s
    on each file (each table at most 0.8 MiB, numpy's 2 bytes a pattern)."""
    try:
        return distances_to(pegs, size, dict(wanted), edges, _DEADLINE.get())
    except TimeoutError:
        raise OutOfTime from None


def pattern_bound(puzzle: Puzzle, edges: Edges = None) -> LowerBound | None:
    """Exact optimum of the largest disks that matter, plus 1 per other misplaced disk.

    S = the largest disks up to a search budget; by projection the optimum for S alone
    bounds the plan's S-moves, and each misplaced disk outside S adds at least one
    move of its own (additivity).  With ``edges`` the search keeps to that move graph:
    projection keeps the graph (the S-moves of a plan are S-moves along allowed edges).
    """
    everything = list(range(1, puzzle.disks + 1))
    found = _group_distance(puzzle, everything, list(range(len(puzzle.pegs))), edges)
    if found is None or found[1] == 0:
        return None
    value, size = found
    name = "pattern-search" if edges is None else "move-graph-pattern"
    graph = "" if edges is None else "on this move graph "
    if value >= UNREACHABLE:
        return LowerBound(
            UNREACHABLE,
            name,
            f"{graph}the goal of the {size} largest disks alone is unreachable "
            "(breadth-first search exhausted every state), so by projection no plan exists",
        )
    if edges is None:
        return LowerBound(
            value,
            name,
            f"breadth-first optimum of the {size} largest disks alone (a bound by projection) "
            "plus one move per other misplaced disk",
        )
    exact = size == puzzle.disks
    return LowerBound(
        value,
        name,
        f"breadth-first optimum of the {size} largest disks alone on the move graph "
        "(projection), plus one move per other misplaced disk: "
        + ("the exact optimum" if exact else "a lower bound"),
        exact=exact,
    )


def move_graph_bound(puzzle: Puzzle) -> LowerBound | None:
    """For a restricted move graph: :func:`pattern_bound` on that graph."""
    edges = puzzle.edges()
    return None if edges is None else pattern_bound(puzzle, edges)


def whole_tower(puzzle: Puzzle) -> tuple[int, int] | None:
    """(source, target) peg indexes if the puzzle moves all disks from one peg to another."""
    start = set(puzzle.initial_state())
    goal = puzzle.goal_pegs()
    end = set(goal.values())
    if len(start) == 1 and len(end) == 1 and len(goal) == puzzle.disks and start != end:
        return start.pop(), end.pop()
    return None


def four_peg_tower(puzzle: Puzzle) -> LowerBound | None:
    """A whole tower between two of 4 pegs needs the Frame-Stewart count of moves:
    Bousch proved the Frame-Stewart algorithm optimal for 4 pegs ("La quatrième tour
    de Hanoï", Bull. Belg. Math. Soc. 21, 2014).  For 5+ pegs this is unproven: no
    bound is claimed there."""
    if len(puzzle.pegs) != 4 or whole_tower(puzzle) is None:
        return None
    value = frame_stewart_count(puzzle.disks, 4)
    return LowerBound(
        value,
        "four-peg-tower",
        "a whole tower on 4 pegs needs the Frame-Stewart count (proven optimal, Bousch 2014)",
        exact=True,
    )


def _run_size(pegs: int, disks: int) -> int:
    """The longest run of disks one pattern search covers within the budget."""
    size = 1
    while pegs ** (size + 1) <= PATTERN_STATES and size < disks:
        size += 1
    return size


def runs_distance(puzzle: Puzzle, group: Sequence[int]) -> tuple[int, int]:
    """Best sum of breadth-first optima over runs of consecutive disks of ``group``
    (every offset tried), and the offset that gave it."""
    pegs = len(puzzle.pegs)
    size = _run_size(pegs, len(group))
    start, goal = puzzle.initial_state(), puzzle.goal_pegs()
    best = (0, 0)
    for offset in range(1, size + 1):
        cuts = [0, *range(offset, len(group), size), len(group)]
        total = 0
        for low, high in itertools.pairwise(cuts):
            found = pattern_distance(pegs, start, goal, group[low:high])
            if found is None:
                break
            total += found
        else:
            best = max(best, (total, offset))
    return best


def additive_bound(puzzle: Puzzle) -> LowerBound | None:
    """Cut the disks into runs of consecutive sizes (every offset tried); the runs'
    breadth-first optima add up to a bound (projection on each run, and additivity:
    the runs are disjoint and every move moves one disk of exactly one run)."""
    size = _run_size(len(puzzle.pegs), puzzle.disks)
    if size < 2 or size >= puzzle.disks:
        return None  # one run would be the pattern bound itself
    value, offset = runs_distance(puzzle, list(range(1, puzzle.disks + 1)))
    return LowerBound(
        value,
        "additive-patterns",
        f"sum of breadth-first optima of runs of {size} consecutive disks (first run "
        f"{offset}): projection on each run, and every move moves one disk of one run",
    )


def _group_distance(
    puzzle: Puzzle, group: Sequence[int], pegs: Sequence[int], edges: Edges = None
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
        found = pattern_distance(len(pegs), local_start, local_goal, group[:size], edges)
        if found is None:
            break
        best = (found, size)
    value, size = best
    rest = sum(1 for d in group[size:] if d in goal and start[d - 1] != goal[d])
    return value + rest, size


def pile_bound(puzzle: Puzzle) -> LowerBound | None:
    """Case split on whether a disk x that starts and ends on peg q ever moves.

    Let S be the disks larger than x, T the smaller ones, A the disks above x at the
    start, B those above it in the goal, R = T minus A and B.
    * x never moves: no disk of S can ever be put on q, and those under x stay put;
      by projection the S-moves are at least the optimum of S on the other pegs.
    * x moves: the S-moves are at least the optimum of S on all pegs (projection), x
      moves at least once, and every disk of A moves before x's first move and every
      disk of B after its last, so T makes at least |A| + |B| moves, plus one per
      misplaced disk of R.
    In both cases T also makes at least the additive optimum of its runs
    (:func:`runs_distance`), so T counts the larger of the two.  S, {x} and T are
    disjoint, so the parts add up; the bound is the smaller case, and the best over
    all such x is taken.
    """
    start, goal = puzzle.initial_state(), puzzle.goal_pegs()
    pegs = list(range(len(puzzle.pegs)))
    misplaced = {d for d, p in goal.items() if start[d - 1] != p}
    best: tuple[int, str] | None = None
    for x in range(1, puzzle.disks + 1):
        q = start[x - 1]
        if goal.get(x) != q:
            continue
        _check_time()
        smaller = range(x + 1, puzzle.disks + 1)
        above_start = [d for d in smaller if start[d - 1] == q]
        above_goal = [d for d in smaller if goal.get(d) == q]
        if not above_start and not above_goal:
            continue
        larger = list(range(1, x))
        fixed = [d for d in larger if start[d - 1] == q]
        free = [d for d in larger if d not in fixed]
        small = runs_distance(puzzle, list(smaller))[0]
        if any(goal.get(d, q) != q for d in fixed):
            stays = None  # a disk under x must leave q: x has to move
        else:
            others = [p for p in pegs if p != q]
            part = _group_distance(puzzle, free, others) if free else (0, 0)
            stays = None if part is None else part[0] + small
        moved = _group_distance(puzzle, larger, pegs) if larger else (0, 0)
        assert moved is not None
        big = max(moved[0], runs_distance(puzzle, larger)[0]) if larger else 0
        rest = set(smaller) - set(above_start) - set(above_goal)
        pile = len(above_start) + len(above_goal) + len(misplaced & rest)
        moves = big + 1 + max(pile, small)
        value = moves if stays is None else min(stays, moves)
        if best is None or value > best[0]:
            best = (value, f"disk {x} on {puzzle.pegs[q]}")
    if best is None:
        return None
    return LowerBound(
        best[0],
        "pile-split",
        f"{best[1]} starts and ends in place: if it never moves the larger disks avoid "
        "its peg; if it moves, the disks above it move before and after (see bounds.py)",
    )


def database_bound(puzzle: Puzzle) -> LowerBound:
    """The pattern databases' estimate at the start (:mod:`hanoi_asp.methods.patterns`):
    for each way of cutting the disks into runs, the runs' breadth-first optima toward
    the goal, each for the run alone, add up (projection on each run; additivity, as
    every move moves one disk of one run); the larger sum is the bound.  One run of
    every disk is the breadth-first optimum itself: exact.  The move graph is kept."""
    try:
        tables = goal_database(puzzle, deadline=_DEADLINE.get())
    except TimeoutError:
        raise OutOfTime from None
    value = estimate(tables, puzzle.initial_state())
    graph = "" if puzzle.edges() is None else " on the move graph"
    if value >= UNSEEN:
        return LowerBound(
            UNREACHABLE,
            "pattern-database",
            f"the goal of a run of disks alone is unreachable{graph} (breadth-first search "
            "exhausted its patterns), so by projection no plan exists",
        )
    best = strongest_partitions(tables, puzzle.initial_state(), 1)[0]
    cut = "+".join(str(t.run.size) for t in best)
    exact = len(best) == 1
    return LowerBound(
        value,
        "pattern-database",
        f"breadth-first optima{graph} of runs of disks, each alone (cut {cut}, largest "
        f"disks first; the best of {len(tables)} cuts), added up: projection on each run, "
        "and every move moves one disk of one run"
        + (" (one run holds every disk: the exact optimum)" if exact else ""),
        exact=exact,
    )


def zero_bound(puzzle: Puzzle) -> LowerBound:
    """No plan has fewer than 0 moves: every horizon is left to clingo to refute."""
    return LowerBound(0, "none", "no bound used: every shorter horizon refuted by clingo")


def lower_bound(
    puzzle: Puzzle,
    choice: BoundChoice = "auto",
    deadline: float | None = None,
    finished: list[LowerBound] | None = None,
    upper: int | None = None,
) -> LowerBound:
    """The bound the search starts from: the best known (``auto``) or a weaker one;
    with ``deadline`` (a ``time.monotonic()`` value), the best finished by then.
    ``finished`` collects each bound as it is done, for a caller interrupted meanwhile.
    ``upper``: the length of a plan in hand (see :func:`best_lower_bound`)."""
    if choice == "none":
        return zero_bound(puzzle)
    if choice == "misplaced":
        return misplaced_disks(puzzle)
    token = _DEADLINE.set(deadline)
    try:
        return best_lower_bound(puzzle, finished, upper)
    finally:
        _DEADLINE.reset(token)


def best_lower_bound(
    puzzle: Puzzle, finished: list[LowerBound] | None = None, upper: int | None = None
) -> LowerBound:
    """The strongest sound bound known for this puzzle (the strongest finished, if a
    deadline passes while they are computed); each is added to ``finished`` when done.
    Once one reaches ``upper``, the length of a plan in hand, the rest are not computed:
    that plan is proven minimal, and no bound can exceed it.  Measured: random 4 pegs,
    10 disks, partial goals of 2 and 7 moves, whose first plan is optimal, 0.34 s of
    tables each for nothing before."""
    candidates = [] if finished is None else finished
    candidates.append(misplaced_disks(puzzle))
    try:
        for make in _bounds_for(puzzle):
            if upper is not None and strongest(candidates).value >= upper:
                break
            found = make(puzzle)
            if found is not None:
                candidates.append(found)
    except OutOfTime:
        pass
    return strongest(candidates)


def _bounds_for(puzzle: Puzzle) -> Iterator[Callable[[Puzzle], LowerBound | None]]:
    """The bounds worth computing, cheapest and strongest first."""
    complete = puzzle.edges() is None
    if len(puzzle.pegs) == 3:
        if not complete:
            yield database_bound  # on the move graph; the formula below ignores it
        yield three_pegs  # exact on the complete graph
    elif four_peg_tower(puzzle) is not None and complete:
        yield four_peg_tower  # the optimum itself: nothing stronger exists
    else:
        # pattern_bound is never larger (its disks lie in the first table's run, and
        # each other run counts at least its misplaced disks); additive_bound cuts the
        # runs elsewhere, and was not worth its second of Python next to the tables.
        # pile_bound first: 0.1-0.2 s against 0.3-0.6 s of tables (competition files),
        # and where it meets the plan in hand the tables are not built
        yield pile_bound
        yield database_bound


def strongest(bounds: list[LowerBound]) -> LowerBound:
    """The strongest of ``bounds`` (at least one)."""
    return max(bounds, key=_strongest)


def _strongest(bound: LowerBound) -> tuple[int, bool]:
    """Order bounds by value; on a tie an exact bound wins (it tells the engine more)."""
    return bound.value, bound.exact
