"""The engine: sound lower bounds, the shipped encodings, clingo's drivers, the
strategies around one horizon loop, and the reference methods' runner.

>>> from hanoi_asp.engine import solve
>>> from hanoi_asp.model.puzzle import Puzzle
>>> solve(Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})).length
3

This module is the engine's public surface: teaching, web, batch and the command line
import these names from ``hanoi_asp.engine`` and nothing from its modules (an
import-linter contract in ``pyproject.toml`` checks it).  The search starts in
:mod:`hanoi_asp.engine.search`; its policy (which strategy, encodings, threads) lives in
one place, :mod:`hanoi_asp.engine.policy`.
"""

from typing import TYPE_CHECKING

from hanoi_asp.model.lazy import lazy_names

if TYPE_CHECKING:
    from hanoi_asp.engine.clingo_calls import ClingoCalls
    from hanoi_asp.engine.encodings import read_encoding, shipped, shipped_encoding
    from hanoi_asp.engine.entry import HARD_GRACE_S, solve, solve_capped
    from hanoi_asp.engine.policy import TEACHING_THREADS, batch_threads
    from hanoi_asp.engine.solver import HorizonSolver
    from hanoi_asp.engine.solvers import horizon_solver
    from hanoi_asp.engine.state import OnProgress

_HOMES = {
    "ClingoCalls": "clingo_calls",
    "read_encoding": "encodings",
    "shipped": "encodings",
    "shipped_encoding": "encodings",
    "HARD_GRACE_S": "entry",
    "solve": "entry",
    "solve_capped": "entry",
    "TEACHING_THREADS": "policy",
    "batch_threads": "policy",
    "HorizonSolver": "solver",
    "horizon_solver": "solvers",
    "OnProgress": "state",
}
"""Where each name lives: imported when first used, so a command imports the parts of
the engine it runs (a quick solve needs neither process supervision nor A*)."""


__getattr__, __dir__ = lazy_names(__name__, _HOMES)


__all__ = [
    "HARD_GRACE_S",
    "TEACHING_THREADS",
    "ClingoCalls",
    "HorizonSolver",
    "OnProgress",
    "batch_threads",
    "horizon_solver",
    "read_encoding",
    "shipped",
    "shipped_encoding",
    "solve",
    "solve_capped",
]
