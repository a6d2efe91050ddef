"""What a user chooses from, as plain names: the methods, the modes, the move graph
presets, and clingo's largest integer.

>>> METHODS[0], GRAPH_PRESETS[-1]
('asp', 'cyclic')

The command line's parser reads these to print ``--help`` and check its arguments; they
live apart from the models (:mod:`hanoi_asp.model.puzzle`, :mod:`hanoi_asp.model.result`
re-export them) so that building the parser loads no pydantic.
"""

from __future__ import annotations

from typing import Literal

Mode = Literal["incremental", "oneshot"]
Method = Literal["asp", "recursive", "frame-stewart", "bfs", "astar"]
METHODS: tuple[Method, ...] = ("asp", "recursive", "frame-stewart", "bfs", "astar")
MODES: tuple[Mode, ...] = ("incremental", "oneshot")

GRAPH_PRESETS = ("complete", "linear", "cyclic")
"""``complete``: any peg to any other (the classic game, also the default);
``linear``: adjacent pegs only, both ways; ``cyclic``: each peg to the next, the last
back to the first, one way only."""

MAX_INTEGER = 2**31 - 1
"""clingo's largest integer: a bound past it would wrap in the solver."""
