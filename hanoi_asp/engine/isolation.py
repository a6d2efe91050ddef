"""Moved to :mod:`hanoi_asp.processes`; kept only for :mod:`hanoi_asp.engine.astar_race`
until it forks through :func:`hanoi_asp.processes.fork_child` (then delete this file)."""

from hanoi_asp.processes import die_with_parent

__all__ = ["die_with_parent"]
