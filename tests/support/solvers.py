"""The engine's solvers as the tests reach into them: the incremental solver behind
:func:`hanoi_asp.engine.solvers.make_solver` and its pattern propagator."""

from __future__ import annotations

from hanoi_asp.engine.pruning import PatternPruning
from hanoi_asp.engine.solver import HorizonSolver, IncrementalSolver


def incremental(solver: HorizonSolver) -> IncrementalSolver:
    """``solver`` as the incremental solver it is (the engine's own encodings)."""
    assert isinstance(solver, IncrementalSolver)
    return solver


def pruning(solver: HorizonSolver) -> PatternPruning:
    """The pattern propagator ``solver`` checks (the policy gave it one: 4+ pegs)."""
    propagator = incremental(solver).propagator
    assert isinstance(propagator, PatternPruning)
    return propagator
