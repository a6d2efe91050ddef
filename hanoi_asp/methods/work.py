"""Effort in units of work: the one currency every search and every table is priced in.

>>> table_work(1 << 20)
367001

A unit is about one state estimated by the batched A*
(:func:`hanoi_asp.methods.astar.search`): what every worker does is counted in its own
terms (states estimated, patterns built, clingo's propagator calls) and converted here,
so a search's decisions (when to buy a table, when the beam's turn comes, who answers
first in a race) follow the work done, the same on every machine, loaded or not, cold
or warm (a table read from the on-disk cache costs what building it would).  The
conversions are ratios of speeds measured on one machine (``python -m
benchmarks.work_units``; ``docs/decisions/work-units.md``): a wrong ratio makes a
decision come later or sooner than it should, the same way every time.
"""

from __future__ import annotations

ESTIMATE = 1
"""A state estimated by the batched A* or the beam (numpy, a batch at a time)."""

ESTIMATE_ONE_BY_ONE = 14
"""A state estimated by A* one state at a time (Python, a dict and a heap)."""

PATTERN_PERCENT = 35
"""Hundredths of a unit per pattern a breadth-first table build takes."""


def table_work(patterns: int) -> int:
    """The work of building a table of ``patterns`` patterns, wherever it comes from."""
    return patterns * PATTERN_PERCENT // 100
