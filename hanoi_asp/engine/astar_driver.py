"""A* as the engine runs it, alone (``--method astar``) or racing clingo: the one driver
both share, its memory budget, and the bound it proves.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=4, init={"a": (1, 2, 3, 4)},
...            goal={"d": (1, 2, 3, 4)})
>>> found = run_astar(p, None, 10**6, None)
>>> len(found.steps), astar_bound(found).name
(9, 'astar')

Why A*'s number is a sound lower bound (the argument of
:func:`hanoi_asp.methods.astar.search`): the tables' estimate is admissible and
consistent, so A* pops every state at its true distance from the start; while the
smallest ``f = g + h`` still open is F, every plan shorter than F would have a state
open with ``f`` < F, so none exists; a goal popped at ``f`` = L is a plan with none
shorter.
"""

from __future__ import annotations

import resource
from typing import TYPE_CHECKING

from hanoi_asp.methods.astar_outcome import AstarOutcome, Progress, Report
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.lazy import lazy_module
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import LowerBound

if TYPE_CHECKING:
    from hanoi_asp.methods import astar
else:  # loaded when used: it imports numpy
    astar = lazy_module("hanoi_asp.methods.astar")

ASTAR_MEMORY = 3 * 2**30
"""Most memory A*'s states take by default (the engine's peak stays under 4 GiB)."""
CLINGO_MEMORY = 2**30
"""Memory the main process (clingo, its propagator, the beam, the tables) keeps beside
the racing A*: with :data:`ASTAR_MEMORY` that makes the 4 GiB the engine's peak must
stay under (A*'s states counted at the most bytes measured per state,
:func:`hanoi_asp.methods.astar.state_bytes`)."""
BOUND_NAME = "astar"
"""The name of the bound A* proves (``bound.name`` in the JSON)."""

__all__ = ["BOUND_NAME", "Progress", "astar_bound", "astar_budget", "race_budget", "run_astar"]


def run_astar(
    puzzle: Puzzle,
    tables: Partitioned | None,
    budget: int,
    deadline: float | None,
    report: Report | None = None,
) -> AstarOutcome:
    """A* on ``tables`` (the bound's, built if None), buying the strong tables once its
    work has paid their price (:func:`hanoi_asp.methods.astar.search_buying_tables`), at
    most ``budget`` stored states; ``report`` hears where it stands as it goes."""
    return astar.search_buying_tables(
        puzzle, tables, max_states=budget, deadline=deadline, report=report
    )


def astar_bound(found: AstarOutcome | Progress, expanded: int | None = None) -> LowerBound:
    """The bound A* proved, with its argument: the optimum, where it found a plan; else
    the smallest ``f`` it left open."""
    if isinstance(found, AstarOutcome) and found.steps is not None:
        return LowerBound(
            found.lower,
            BOUND_NAME,
            f"A* on the pattern tables (a consistent estimate) reached the goal at "
            f"f = {found.lower} after expanding {found.expanded} states: every shorter "
            "plan would have been expanded first",
            exact=True,
        )
    how = f"after {found.work:,} units of work"
    if isinstance(found, AstarOutcome):
        how = f"({found.expanded} states, stopped: {found.stopped})"
    return LowerBound(
        found.lower,
        BOUND_NAME,
        f"A* on the pattern tables (a consistent estimate) expanded every state with "
        f"f below {found.lower} {how}: a shorter plan would have had one of them open",
    )


def astar_budget(limits: Limits, puzzle: Puzzle) -> int:
    """How many states A* may store on the puzzle: ``--limit states=N`` when given, else
    as many as half the memory available now holds, at most :data:`ASTAR_MEMORY`
    (:func:`hanoi_asp.methods.astar.states_within`; never fewer than the default
    limit).  A* stopped by its budget still answers with the plan built first and its
    proven bound, so the budget decides how much it can prove, not whether it answers:
    a limit of the machine, as the time limit is."""
    if limits.states_given:
        return limits.states
    room = min(available_memory() // 2, ASTAR_MEMORY)
    return max(limits.states, astar.states_within(puzzle, room))


def race_budget(limits: Limits, puzzle: Puzzle) -> int:
    """States the racing A* may store on the puzzle: A*'s budget less
    :data:`CLINGO_MEMORY`, never under half of it (a user's ``--limit states=N`` is
    halved, as clingo shares it).  Half of the default budget stopped A* (one state at a
    time) at f = 93 on random4-n15-full-3, where ``--method astar`` alone proved the
    optimum, 94."""
    whole = astar_budget(limits, puzzle)
    if limits.states_given:
        return whole // 2
    return max(whole // 2, whole - CLINGO_MEMORY // astar.state_bytes(puzzle))


def available_memory() -> int:
    """Bytes this process could still take: the kernel's MemAvailable, within the
    address-space limit (``ulimit -v``) if one is set; 0 where neither can be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            fields = dict(line.split(":", 1) for line in meminfo)
        free = int(fields["MemAvailable"].split()[0]) * 1024
    except (OSError, KeyError, ValueError):
        return 0
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return free if soft == resource.RLIM_INFINITY else min(free, soft)
