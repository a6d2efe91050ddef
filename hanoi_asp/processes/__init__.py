"""Processes: every child process hanoi-asp starts, and how it is capped, watched and
ended.

A layer of its own, above the model and below everything that runs work in a child:
the engine (its racing A*, a user's encoding), teaching, batch, the web app and the
command line import supervision from here, and only from here.  One rule holds for
every child: it dies with the process that started it, however that one ends
(:func:`die_with_parent`), so killing a process kills its tree.

* :func:`fork_child`: a plain forked child on a duplex pipe (the racing A*).
* :func:`run_capped`: a function's call in a child with a hard time limit, a memory cap
  and a heartbeat (a user's encoding: ``solve``, ``explain``, ``grade``).
* :func:`run_command`: an outside program (a planner) as a capped process group.
* :class:`WarmPool`: warm workers taking job after job, each with a hard time limit
  (batch on this machine and on Dask, the web app's jobs); :func:`outcome` says how a
  job ended.
* :func:`memory_cap`: the one way a child's memory is capped; :class:`Stopped`: the one
  way a child that gave no answer is said.
"""

from typing import TYPE_CHECKING

from hanoi_asp.model.lazy import lazy_names

if TYPE_CHECKING:
    from hanoi_asp.processes.capped import beat, run_capped
    from hanoi_asp.processes.command import Ended, run_command
    from hanoi_asp.processes.fork import Child, fork_child
    from hanoi_asp.processes.memory import (
        OUT_OF_MEMORY_EXITS,
        OverMemory,
        default_memory_limit,
        memory_cap,
    )
    from hanoi_asp.processes.parent import die_with_parent
    from hanoi_asp.processes.pool import WarmPool, outcome, warm_up, worker_died
    from hanoi_asp.processes.stopped import Stopped, died
    from hanoi_asp.processes.tree import kill_descendants

_HOMES = {
    "beat": "capped",
    "run_capped": "capped",
    "Ended": "command",
    "run_command": "command",
    "Child": "fork",
    "fork_child": "fork",
    "OUT_OF_MEMORY_EXITS": "memory",
    "OverMemory": "memory",
    "default_memory_limit": "memory",
    "memory_cap": "memory",
    "die_with_parent": "parent",
    "WarmPool": "pool",
    "outcome": "pool",
    "warm_up": "pool",
    "worker_died": "pool",
    "Stopped": "stopped",
    "died": "stopped",
    "kill_descendants": "tree",
}
"""Where each name lives: imported when first used, so a solve that only forks the
racing A* does not import the pools (pebble, asyncio) and the capped runs."""


__getattr__, __dir__ = lazy_names(__name__, _HOMES)


__all__ = [
    "OUT_OF_MEMORY_EXITS",
    "Child",
    "Ended",
    "OverMemory",
    "Stopped",
    "WarmPool",
    "beat",
    "default_memory_limit",
    "die_with_parent",
    "died",
    "fork_child",
    "kill_descendants",
    "memory_cap",
    "outcome",
    "run_capped",
    "run_command",
    "warm_up",
    "worker_died",
]
