"""Pattern databases: exact distances for a run of disks alone, as admissible estimates.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)}, goal={"d": (1, 2, 3)})
>>> table = toward_goal(p, DiskRun(0, 3))
>>> table.lookup(p.initial_state())
5

A *run* is a set of consecutive disks (largest first).  Its table gives, for every way
of placing the run's disks alone on the pegs (a *pattern*), the fewest moves that take
it to the goal's pattern (:func:`toward_goal`, breadth-first search backwards from
every pattern the goal allows).

Why a table value bounds a real plan (Korf and Felner, "Recent progress in heuristic
search: a case study of the four-peg Towers of Hanoi problem", IJCAI 2007):

* **Projection.** Delete from a legal plan every move of the disks outside the run:
  what remains is legal for the run alone (a disk on top stays on top when others
  vanish, it never lands on a smaller disk of the run, and the move graph is the same),
  and it reaches the goal's pattern.  So the rest of any plan moves the run's disks at
  least ``lookup(state)`` times.
* **Additivity.** Every move moves one disk, of exactly one run: for disjoint runs the
  values add up (:func:`estimate`).  The largest of several such sums is a bound too.

The modules, one idea each:

* :mod:`~hanoi_asp.methods.patterns.tables`: runs, their tables, the sum over a partition.
* :mod:`~hanoi_asp.methods.patterns.breadth_first`: the tables' builder (numpy, a whole
  breadth-first layer at a time).
* :mod:`~hanoi_asp.methods.patterns.cuts`: the partitions into runs, and which to build.
* :mod:`~hanoi_asp.methods.patterns.database`: the tables toward a puzzle's goal, built
  once per puzzle and kept on disk, and what the strong ones cost.

The sizes that tests shrink (``TABLE_PATTERNS`` and the like) are read, and so patched,
in the module that defines them; they are not repeated here.
"""

from hanoi_asp.methods.patterns.breadth_first import distances_among, distances_to
from hanoi_asp.methods.patterns.cuts import (
    largest_first,
    partitions,
    ranked_partitions,
    strong_partitions,
    strongest_partitions,
)
from hanoi_asp.methods.patterns.database import (
    beam_cut,
    beam_database,
    beam_price,
    cached_distances,
    goal_database,
    strong_exact,
    strong_price,
    table_price,
    tables_price,
    toward_goal,
)
from hanoi_asp.methods.patterns.tables import (
    UNSEEN,
    Allowed,
    DiskRun,
    Edges,
    Partitioned,
    PatternTable,
    estimate,
    goal_allowed,
    move_lists,
)

__all__ = [
    "UNSEEN",
    "Allowed",
    "DiskRun",
    "Edges",
    "Partitioned",
    "PatternTable",
    "beam_cut",
    "beam_database",
    "beam_price",
    "cached_distances",
    "distances_among",
    "distances_to",
    "estimate",
    "goal_allowed",
    "goal_database",
    "largest_first",
    "move_lists",
    "partitions",
    "ranked_partitions",
    "strong_exact",
    "strong_partitions",
    "strong_price",
    "strongest_partitions",
    "table_price",
    "tables_price",
    "toward_goal",
]
