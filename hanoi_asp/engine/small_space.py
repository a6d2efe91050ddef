"""Small state spaces proven at once: an exact breadth-first table over every state, and
a shortest plan read off it.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (2,)})
>>> small_space(p), len(space_plan(p, None))
(True, 2)

Where the puzzle has at most :data:`~hanoi_asp.methods.patterns.cuts.TABLE_PATTERNS`
states (3 pegs up to 12 disks, 4 pegs up to 10, 5 pegs up to 8, 6 pegs up to 7), the
lower bound's pattern table holds one run of every disk: a breadth-first search
backwards from every goal state over the whole space, in numpy, a fraction of a second
(:func:`hanoi_asp.engine.bounds.database_bound`).  The start's entry is then the
optimum itself, whatever the shape (partial goals, move graphs, any start), and
walking down the table (:func:`~hanoi_asp.methods.states.walk_down`) gives a plan of
that length: minimal by the bound's own proof, before clingo runs.  On 3 pegs with a
partial goal no other bound is exact (the 3-peg formula counts the named disks
alone), so the search used to refute horizon after horizon there.  A table holds
distances up to :data:`~hanoi_asp.methods.patterns.breadth_first.FARTHEST`; a start
farther (3 pegs in a line, 11 disks) is left to the search.
"""

from __future__ import annotations

from hanoi_asp.methods.patterns import UNSEEN, PatternTable, cuts, goal_database
from hanoi_asp.methods.patterns.breadth_first import FARTHEST
from hanoi_asp.methods.states import Steps, walk_down
from hanoi_asp.model.puzzle import Puzzle


def small_space(puzzle: Puzzle) -> bool:
    """Whether the bound's table is one run of every disk: the whole state space
    (``TABLE_PATTERNS`` read when called, so tests that shrink it keep their cuts)."""
    states: int = len(puzzle.pegs) ** puzzle.disks
    return states <= cuts.TABLE_PATTERNS


def space_table(puzzle: Puzzle, deadline: float | None) -> PatternTable | None:
    """The whole space's table, every state's distance to the goal (built once per
    puzzle, shared with the bound); None where the space is not small.  Raises
    ``TimeoutError`` if ``deadline`` passes while it is built."""
    if not small_space(puzzle):
        return None
    (table,) = goal_database(puzzle, deadline=deadline)[0]
    return table


def unreachable(table: PatternTable, puzzle: Puzzle) -> str | None:
    """Why no plan exists at all, if the table never reached the start."""
    if table.lookup(puzzle.initial_state()) < UNSEEN:
        return None
    states = len(puzzle.pegs) ** puzzle.disks
    return (
        f"breadth-first search backwards from every goal state over all {states:,} "
        "states never reaches the start"
    )


def space_plan(puzzle: Puzzle, deadline: float | None) -> Steps | None:
    """A shortest plan walked down the whole space's table; None where the space is
    not small, or the start is farther than a table holds or cannot reach the goal.
    Raises ``TimeoutError`` if ``deadline`` passes while the table is built."""
    table = space_table(puzzle, deadline)
    if table is None or table.lookup(puzzle.initial_state()) >= FARTHEST:
        return None
    return walk_down(puzzle, table.distances)
