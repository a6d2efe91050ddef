"""Processes: every child process hanoi-asp starts, and how it is capped, watched and
ended.

A layer of its own, above the model and below everything that runs work in a child:
the engine (its racing A*, a user's encoding), teaching, batch, the web app and the
command line import supervision from here, and only from here.

* :func:`fork_child`: a plain forked child on a duplex pipe (the racing A*).
"""

from hanoi_asp.processes.fork import Child, fork_child
from hanoi_asp.processes.parent import die_with_parent

__all__ = ["Child", "die_with_parent", "fork_child"]
