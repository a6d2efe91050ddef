"""The one place a strategy's solvers are made: full horizons, the mirror phase's half,
and the half search's half horizons, each loading the strategy's programs for them.

>>> from hanoi_asp.engine.policy import choose_strategy
>>> from hanoi_asp.model.options import SolveOptions
>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> record, steps = horizon_solver(p, SolveOptions()).run(3, None)
>>> record.status, len(steps)
('SAT', 3)
"""

from __future__ import annotations

import threading

from hanoi_asp.engine.mirror import MirrorHalf, half_solver
from hanoi_asp.engine.policy import Strategy, choose_strategy
from hanoi_asp.engine.pruning import Checkpoint
from hanoi_asp.engine.solver import HorizonSolver, IncrementalSolver, OneShotSolver
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.proof import Phase
from hanoi_asp.model.puzzle import Puzzle


def make_solver(
    puzzle: Puzzle,
    strategy: Strategy,
    *,
    minimal: bool,
    phase: Phase = "full",
    warnings: bool = False,
    tables: Partitioned | None = None,
    checkpoint: Checkpoint | None = None,
    halt: threading.Event | None = None,
) -> HorizonSolver:
    """The driver for the strategy's ``phase`` horizons, loading its programs for them.
    ``full``: ``minimal`` adds the pruning that keeps only minimal plans (never for a
    fixed-horizon question); the pattern propagator (when the strategy asks for it and
    ``tables`` are given) checks what holds for every plan of the horizon's length, so
    it serves both; ``checkpoint`` is the scheduler's, asked as clingo searches, and
    ``halt`` is set when a search is cancelled (:mod:`hanoi_asp.engine.scheduler`).
    ``mirror-half``: the mirror phase's one half (:class:`MirrorHalf`), or the half
    search's half horizons on ``tables`` toward the half's end, asking ``checkpoint``
    (:func:`~hanoi_asp.engine.mirror.half_solver`)."""
    programs = strategy.load(phase)
    if phase == "mirror-half":
        options, threads = strategy.half_options, strategy.half_threads
        if strategy.name == "mirror":
            return MirrorHalf(puzzle, programs, options, threads)
        return half_solver(puzzle, tables, programs, options, threads, checkpoint)
    if strategy.mode == "oneshot":
        return OneShotSolver(
            puzzle,
            programs,
            options=strategy.clingo_options,
            threads=strategy.threads,
            warnings=warnings,
        )
    return IncrementalSolver(
        puzzle,
        programs,
        prune=minimal,
        options=strategy.clingo_options,
        threads=strategy.threads,
        warnings=warnings,
        tables=tables if strategy.patterns else None,
        checkpoint=checkpoint,
        halt=halt,
    )


def horizon_solver(
    puzzle: Puzzle, options: SolveOptions, *, warnings: bool = False
) -> HorizonSolver:
    """A solver that answers "a plan of exactly h moves?" for any horizon h, as
    ``options`` say (the user's encoding, its mode, threads), without the pruning that
    keeps only minimal plans: what grading asks of a student's encoding.  ``warnings``
    keeps clingo's warnings in ``solver.calls.messages``."""
    return make_solver(
        puzzle, choose_strategy(puzzle, options, None), minimal=False, warnings=warnings
    )
