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
The pattern databases are stronger there (projection keeps the graph).

The pattern searches are plain Python and can take seconds: with a ``deadline`` (a
``time.monotonic()`` value, passed down to every search), :func:`lower_bound` returns
the best bound finished by then (every one is sound).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from hanoi_asp.engine.pile_split import pile_bound
from hanoi_asp.engine.small_space import small_space
from hanoi_asp.engine.three_pegs import three_pegs
from hanoi_asp.methods.frame_stewart import frame_stewart_count
from hanoi_asp.methods.patterns import UNSEEN, estimate, goal_database, strongest_partitions
from hanoi_asp.methods.patterns import breadth_first as tables_builder
from hanoi_asp.model.options import BoundChoice
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import UNREACHABLE, LowerBound


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


def zero_bound(puzzle: Puzzle) -> LowerBound:
    """No plan has fewer than 0 moves: every horizon is left to clingo to refute."""
    return LowerBound(0, "none", "no bound used: every shorter horizon refuted by clingo")


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


def database_bound(puzzle: Puzzle, deadline: float | None = None) -> LowerBound:
    """The pattern databases' estimate at the start (:mod:`hanoi_asp.methods.patterns`):
    for each way of cutting the disks into runs, the runs' breadth-first optima toward
    the goal, each for the run alone, add up (projection on each run; additivity, as
    every move moves one disk of one run); the larger sum is the bound.  One run of
    every disk is the breadth-first optimum itself: exact, unless it reads
    :data:`~hanoi_asp.methods.patterns.breadth_first.FARTHEST` (the most a table holds:
    a farther pattern reads that).  The move graph is kept."""
    tables = goal_database(puzzle, deadline=deadline)
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
    exact = len(best) == 1 and value < tables_builder.FARTHEST
    if exact:
        states = len(puzzle.pegs) ** puzzle.disks
        argument = (
            f"breadth-first search{graph} backwards from every goal state over all "
            f"{len(puzzle.pegs)}^{puzzle.disks} = {states:,} states (one table of every "
            "disk): the start's distance, the exact optimum"
        )
    else:
        argument = (
            f"breadth-first optima{graph} of runs of disks, each alone (cut {cut}, largest "
            f"disks first; the best of {len(tables)} cuts), added up: projection on each "
            "run, and every move moves one disk of one run"
        )
    return LowerBound(value, "pattern-database", argument, exact=exact)


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
    return best_lower_bound(puzzle, finished, upper, deadline)


def best_lower_bound(
    puzzle: Puzzle,
    finished: list[LowerBound] | None = None,
    upper: int | None = None,
    deadline: float | None = None,
) -> LowerBound:
    """The strongest sound bound known for this puzzle (the strongest finished, if
    ``deadline`` passes while they are computed); each is added to ``finished`` when
    done.  Once one is exact (the optimum) or reaches ``upper``, the length of a plan
    in hand, the rest are not computed: no bound can exceed it."""
    candidates = [] if finished is None else finished
    candidates.append(misplaced_disks(puzzle))
    try:
        for make in _bounds_for(puzzle, deadline):
            best = strongest(candidates)
            if best.exact or (upper is not None and best.value >= upper):
                break  # the optimum itself, or the plan in hand is proven
            found = make()
            if found is not None:
                candidates.append(found)
    except TimeoutError:
        pass
    return strongest(candidates)


def _bounds_for(
    puzzle: Puzzle, deadline: float | None
) -> Iterator[Callable[[], LowerBound | None]]:
    """The bounds worth computing, cheapest and strongest first."""
    complete = puzzle.edges() is None
    if len(puzzle.pegs) == 3:
        if not complete:
            yield partial(database_bound, puzzle, deadline)  # on the move graph
        yield partial(three_pegs, puzzle)  # exact on the complete graph for a full goal
        if complete and small_space(puzzle):
            yield partial(database_bound, puzzle, deadline)  # a partial goal: the whole space
    elif four_peg_tower(puzzle) is not None and complete:
        yield partial(four_peg_tower, puzzle)  # the optimum itself: nothing stronger exists
    else:
        # pile-split first: it takes a fraction of the tables' time, and where it meets
        # the plan in hand the tables are not built at all
        yield partial(pile_bound, puzzle, deadline)
        yield partial(database_bound, puzzle, deadline)


def strongest(bounds: list[LowerBound]) -> LowerBound:
    """The strongest of ``bounds`` (at least one)."""
    return max(bounds, key=_strongest)


def _strongest(bound: LowerBound) -> tuple[int, bool]:
    """Order bounds by value; on a tie an exact bound wins (it tells the engine more)."""
    return bound.value, bound.exact
