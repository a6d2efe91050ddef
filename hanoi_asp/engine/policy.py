"""Engine policy, decided once per solve: the strategy, the programs clingo loads, its
threads and options.

>>> from hanoi_asp.engine.three_pegs import three_pegs
>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> strategy = choose_strategy(p, SolveOptions(), three_pegs(p))
>>> strategy.name, strategy.program_names
('upward', ('incremental.lp', 'distance3.lp'))

The decision is a :class:`Strategy`: it names how the search goes (one module each in
:mod:`hanoi_asp.engine.strategies`) and every program it loads, and the result reports
its ``programs`` and ``threads``, so ``explain`` shows what was done rather than
guessing it again.  Each constant says why it is what it is; the figures behind the
choices are measured by ``benchmarks/`` (``speed.py``, ``hard.py``, ``anytime.py``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from hanoi_asp.engine.distance3 import distance3_facts
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.engine.mirror import applies as mirror_applies
from hanoi_asp.engine.mirror import mirror_fact, searches_halves
from hanoi_asp.engine.solver import Program
from hanoi_asp.inputs.asp_text import check_encoding, is_incremental
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.proof import Phase
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import LowerBound, Mode

StrategyName = Literal["upward", "mirror", "halves", "exact"]
"""How clingo is driven (:mod:`hanoi_asp.engine.strategies`): up the horizons from the
lower bound; half a mirrored plan at an exact bound first; up the half horizons of a
whole tower; or one horizon, asked as it is (``--moves``, grading)."""

DEFAULT_THREADS = 1
"""clingo's threads unless asked otherwise: one, so that a run repeats (which of clasp's
parallel threads finds what first depends on the machine's timing; what one thread
costs where two were used: ``docs/decisions/threads.md``)."""

ENGINE_CORES = 2
"""The cores one solve of the engine takes at most: clingo's thread, and A* racing it
(:mod:`hanoi_asp.engine.astar_race`)."""

TEACHING_THREADS = 1
"""``explain`` and ``grade`` search with one thread: the same statistics every run."""

MIRROR_THREADS = 1
"""The mirror half is searched with one thread, whatever the full search uses (a
portfolio's time to a model varied several-fold from run to run on long halves)."""

EXACT_BOUND_OPTIONS = ("--sign-def=pos",)
"""clingo options when the bound is known to be the optimum, so the one horizon solved is
satisfiable and only a model must be found: trying atoms true first finds it sooner.
Not with ``distance3.lp``, whose heuristic already orders the search, nor where horizons
must be refuted (the bound is not exact)."""

DOMAIN_OPTIONS = ("--heuristic=Domain",)
"""``distance3.lp`` and ``patterns.lp`` carry domain heuristics: clingo must be told to
use them."""

FORWARD = "exact bound"
"""With the pattern propagator, ``patterns.lp`` (moves decided in time order) is loaded
when the bound is exact, so that the one horizon solved holds a plan: the propagator's
look-ahead then leaves only moves that keep a plan of that length possible.  Where
horizons must be refuted, clingo's own heuristic (VSIDS) is better."""

HALVES = "a whole tower, no exact bound"
"""A whole tower whose bound is not known to be the optimum (5+ pegs: Frame-Stewart is
unproven there) is solved by the half search (:mod:`hanoi_asp.engine.mirror`): clingo
refutes half horizons, far shorter than the full search's."""

PATTERN_THREADS = 1
"""With the pattern propagator, which runs in thread 0 only, a second thread would be
clingo alone: the pruned thread alone wins (``docs/decisions/pruning.md``)."""


@dataclass(frozen=True)
class Strategy:
    """What the engine does for one puzzle."""

    name: StrategyName
    mode: Mode
    threads: int
    programs: tuple[Program, ...]
    """Every program clingo is given, the main encoding first: each solver loads those
    of its horizons (:meth:`load`), and the result reports them all."""
    user_encoding: bool
    """The encoding is the user's: a plan the simulator rejects is their error, not ours."""
    patterns: bool
    """Check pattern-database estimates in the search (:mod:`hanoi_asp.engine.pruning`)."""
    clingo_options: tuple[str, ...]
    """clingo's options for the search at full horizons."""
    half_options: tuple[str, ...] = ()
    """clingo's options for half horizons (the mirror phase, the half search)."""
    half_threads: int = 1
    """clingo's threads for half horizons (:data:`MIRROR_THREADS` in the mirror phase)."""

    @property
    def encoding(self) -> Program:
        """The main encoding: the user's, or the shipped ``incremental.lp``/``quickstart.lp``."""
        return self.programs[0]

    @property
    def program_names(self) -> tuple[str, ...]:
        """The encodings clingo is given, the main one first."""
        return tuple(program.name for program in self.programs)

    def load(self, phase: Phase) -> tuple[Program, ...]:
        """The programs a solver for ``phase`` horizons loads, in order."""
        return tuple(program for program in self.programs if phase in program.phases)


def engine_mode(options: SolveOptions) -> Mode:
    """As asked; else incremental, unless a user's encoding has no ``step(t)`` part
    (a one-shot encoding, run the quickstart way)."""
    if options.mode is not None:
        return options.mode
    if options.encoding is not None and not is_incremental(options.encoding.text):
        return "oneshot"
    return "incremental"


def solver_threads(options: SolveOptions, patterns: bool = False) -> int:
    """Threads clingo searches with: as asked; else :data:`DEFAULT_THREADS` (and
    :data:`PATTERN_THREADS` with the pattern propagator, one for one-shot mode): the
    same on every machine, so a run repeats there."""
    if options.threads is not None:
        return options.threads
    if patterns:
        return PATTERN_THREADS
    return DEFAULT_THREADS


def batch_threads(workers: int, threads: int | None = None) -> int | None:
    """clingo threads per batch worker: as asked; else the engine's own choice (None)
    if the cores shared among the workers hold :data:`ENGINE_CORES` (clingo and the
    racing A*), else that share (at least one: a thread count given keeps A* out), so a
    batch does not oversubscribe the machine."""
    if threads is not None:
        return threads
    share = max(1, (os.cpu_count() or 1) // workers)
    return None if share >= ENGINE_CORES else share


def uses_distance3(puzzle: Puzzle, options: SolveOptions) -> bool:
    """The incremental engine adds ``distance3.lp`` for classic 3-peg puzzles.  On a
    restricted move graph it stays sound but misleads the heuristic (slower than
    without it), so it is left out there."""
    return (
        engine_mode(options) == "incremental"
        and options.encoding is None
        and options.distance
        and len(puzzle.pegs) == 3
        and puzzle.edges() is None
    )


def uses_patterns(puzzle: Puzzle, options: SolveOptions) -> bool:
    """The incremental engine checks pattern estimates where ``distance3.lp`` does not
    apply: 4+ pegs, and 3 pegs on a restricted move graph (the tables keep the graph)."""
    return (
        engine_mode(options) == "incremental"
        and options.encoding is None
        and options.patterns
        and not uses_distance3(puzzle, options)
    )


def uses_first_plan(options: SolveOptions) -> bool:
    """Build a plan before the search, unless asked not to or a user's encoding is
    given: its point is to have clingo find the plan with that encoding, so a plan
    made without it must never stand in for that encoding's answer."""
    return options.first_plan and options.encoding is None


def choose_strategy(puzzle: Puzzle, options: SolveOptions, bound: LowerBound | None) -> Strategy:
    """Decide how to search ``puzzle``.  ``bound`` is the lower bound a minimal search
    starts from; None when the question is a fixed horizon (``--moves``, grading).

    The mirror phase runs for a whole tower whose bound is exact, except where
    ``distance3.lp`` already finds plans fast, and the half search where it is not
    (:data:`HALVES`); ``--sign-def=pos`` when the bound is exact and no domain
    heuristic orders the search.  A user's encoding is checked (no
    ``#script``/``#include``, valid syntax) here.
    """
    mode = engine_mode(options)
    if options.encoding is not None:
        check_encoding(options.encoding)
        main = Program(options.encoding.name, options.encoding.text)
    else:
        shipped = "quickstart" if mode == "oneshot" else "incremental"
        main = Program(f"{shipped}.lp", read_encoding(shipped))
    distance3 = uses_distance3(puzzle, options)
    patterns = uses_patterns(puzzle, options)
    exact = bound is not None and bound.exact and mode == "incremental"
    mirror = (
        exact
        and bound is not None
        and options.mirror
        and options.encoding is None
        and not distance3
        and mirror_applies(puzzle, bound)
    )
    halves = (
        mode == "incremental"
        and bound is not None
        and not bound.exact
        and patterns
        and options.mirror
        and options.max_moves is None
        and options.bound == "auto"  # "none", "misplaced": the full horizons, as asked
        and searches_halves(puzzle)
    )
    forward = patterns and exact
    programs = [main]
    if distance3:
        text = read_encoding("distance3") + "\n" + distance3_facts(puzzle)
        programs.append(Program("distance3.lp", text, ("full",)))
    if forward:
        programs.append(Program("patterns.lp", read_encoding("patterns"), ("full",)))
    if mirror or halves:
        text = read_encoding("mirror") + mirror_fact(puzzle)
        programs.append(Program("mirror.lp", text, ("mirror-half",)))
    clingo_options = options.clingo_options
    if distance3 or forward:
        clingo_options = (*DOMAIN_OPTIONS, *clingo_options)
    elif exact:
        clingo_options = (*EXACT_BOUND_OPTIONS, *clingo_options)
    name: StrategyName = "exact" if bound is None else "upward"
    threads = solver_threads(options, patterns)
    if mirror:
        name = "mirror"
    elif halves:
        name = "halves"
    return Strategy(
        name=name,
        mode=mode,
        threads=threads,
        programs=tuple(programs),
        user_encoding=options.encoding is not None,
        patterns=patterns,
        clingo_options=clingo_options,
        half_options=options.clingo_options,
        half_threads=threads if halves else MIRROR_THREADS,
    )
