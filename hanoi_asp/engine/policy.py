"""Engine policy, decided once per solve: which encodings, threads, mirror phase and
solver heuristics.  Each choice carries the measurement that made it.

The decision is an :class:`EnginePlan`; the search follows it and records its
``programs`` and ``threads`` on the result, so ``explain`` shows what was done rather
than guessing it again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from hanoi_asp.engine.encodings import shipped_encoding
from hanoi_asp.engine.mirror import applies as mirror_applies
from hanoi_asp.engine.mirror import searches_halves
from hanoi_asp.inputs.asp_text import check_encoding, is_incremental
from hanoi_asp.model.options import Encoding, SolveOptions
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import LowerBound, Mode

DEFAULT_THREADS = 2
"""Threads of the incremental engine unless asked otherwise (clingo's parallel mode:
threads with different configurations race and share learnt clauses).  Measured, one run
each, fresh processes: competition instance 0008 in 22.5 s with two threads, over 90 s
with one; 0007 7.3 s against 16.4 s; 5 pegs 10 disks 3.5 s against 6.0 s; classic
3 pegs unchanged (9 disks 1.4 s either way)."""

TEACHING_THREADS = 1
"""``explain`` and ``grade`` search with one thread: the same statistics every run."""

MIRROR_THREADS = 1
"""The mirror half is searched with one thread, whatever the full search uses.  Measured,
4 pegs 12 disks (40-move half), fresh processes: one thread 7.4-12.3 s and the same every
run; two threads 9.0, 9.2, 17.7, 20.7 and 64.2 s."""

EXACT_BOUND_OPTIONS = ("--sign-def=pos",)
"""clingo options when the bound is known to be the optimum, so the one horizon solved is
satisfiable and only a model must be found: trying atoms true first.  Measured in fresh
processes: 4 pegs 10 disks 5.0-5.5 s with it, 9.3-10.6 s without (5 runs each); 11 disks
50.8 s in one run (over 60 s with --sign-def=neg, over 120 s before).  Not with
distance3.lp (classic 3 pegs), whose heuristic already orders the search: there it made
a random 8-disk instance 4x slower (2.0 s against 0.5 s).  On the competition instances
(bounds not exact, so not used there) it was mixed: 0013 12.5 -> 7.3 s, 0005 10.3 ->
14.6 s."""

DOMAIN_OPTIONS = ("--heuristic=Domain",)
"""``distance3.lp`` and ``patterns.lp`` carry domain heuristics: clingo must be told to
use them."""

FORWARD = "exact bound"
"""With the pattern propagator, ``patterns.lp`` (moves decided in time order) is loaded
when the bound is exact, so that the one horizon solved holds a plan: the propagator's
look-ahead then leaves only moves that keep a plan of that length possible.  Where
horizons must be refuted, clingo's own heuristic (VSIDS) was better.  Measured, one
run each, fresh processes, look-ahead on:  random 4 pegs 10 disks with an exact bound
1.0 s in time order, 6.5 s with VSIDS; random 5 pegs 10 disks (bound 15, optimum 19)
8.3 s in time order, 1.2 s with VSIDS; two other instances equal (0.6-0.9 s)."""

HALVES = "a whole tower, no exact bound"
"""A whole tower whose bound is not known to be the optimum (5+ pegs: Frame-Stewart is
unproven there) is solved by the half search: its optimum is 2H* + 1, H* the shortest
half (:mod:`hanoi_asp.engine.mirror`), and clingo refutes half horizons, with the
pattern propagator on tables toward the half's end.  Measured, 5 pegs, 12 disks (47
moves): 8.6 s median, 9.6 s worst of 5 (``benchmarks/results/hard.log``); the full
search had refuted only 41 and 42 of 41..46 after 60 s."""

PATTERN_THREADS = 1
"""With the pattern propagator clingo searches with one thread unless asked otherwise.
The propagator runs in thread 0 only (:data:`hanoi_asp.engine.pruning.PRUNING_THREAD`),
so a second thread is clingo alone, a portfolio.  Before the propagator learnt bounds
across horizons the portfolio won (0008 27.9 s pruned alone, 3.6 s with both); since,
the pruned thread alone wins and is deterministic.  Measured, fresh processes, one
thread / two: random 4 pegs 12 disks 2.4-2.7 / 7.1-18.8 s (3 runs each); competition
0059 4.1 / 12.6 s, 0060 4.1 / 12.8 s, 0056 2.4 / 4.9 s, 0008 5.4 / 4.3 s, the other 16
files within 0.5 s of each other."""


@dataclass(frozen=True)
class EnginePlan:
    """What the engine does for one puzzle."""

    mode: Mode
    threads: int
    encoding: Encoding
    """The main encoding: the user's, or the shipped ``incremental.lp``/``quickstart.lp``."""
    user_encoding: bool
    """The encoding is the user's: a plan the simulator rejects is their error, not ours."""
    distance3: bool
    """Load ``distance3.lp`` and its facts beside the encoding."""
    patterns: bool
    """Check pattern-database estimates in the search (:mod:`hanoi_asp.engine.pruning`)."""
    forward: bool
    """Load ``patterns.lp``: decide the moves in time order (see :data:`FORWARD`)."""
    mirror: bool
    """Search half a mirrored plan first (:mod:`hanoi_asp.engine.mirror`)."""
    halves: bool
    """Prove a whole tower's optimum by refuting half horizons
    (:func:`hanoi_asp.engine.mirror.half_solver`), see :data:`HALVES`."""
    clingo_options: tuple[str, ...]
    """clingo's options for the full search."""

    @property
    def programs(self) -> tuple[str, ...]:
        """The encodings clingo is given, the main one first."""
        extras = (
            ("distance3.lp",) * self.distance3
            + ("patterns.lp",) * self.forward
            + ("mirror.lp",) * (self.mirror or self.halves)
        )
        return (self.encoding.name, *extras)


def engine_mode(options: SolveOptions) -> Mode:
    """As asked; else incremental, unless a user's encoding has no ``step(t)`` part
    (a one-shot encoding, run the quickstart way)."""
    if options.mode is not None:
        return options.mode
    if options.encoding is not None and not is_incremental(options.encoding.text):
        return "oneshot"
    return "incremental"


def solver_threads(options: SolveOptions, patterns: bool = False) -> int:
    """Threads clingo searches with: as asked; else :data:`DEFAULT_THREADS` (at most
    the machine's cores) for the incremental engine, :data:`PATTERN_THREADS` with the
    pattern propagator, and one for one-shot mode, which is the benchmark's baseline
    and gives teaching runs the same statistics each time."""
    if options.threads is not None:
        return options.threads
    if engine_mode(options) == "oneshot":
        return 1
    if patterns:
        return PATTERN_THREADS
    return max(1, min(DEFAULT_THREADS, os.cpu_count() or 1))


def batch_threads(workers: int, threads: int | None = None) -> int | None:
    """clingo threads per batch worker: as asked; else the engine's own choice
    (None) if the cores shared among the workers hold :data:`DEFAULT_THREADS`, else
    that share (at least one), so a batch does not oversubscribe the machine."""
    if threads is not None:
        return threads
    share = max(1, (os.cpu_count() or 1) // workers)
    return None if share >= DEFAULT_THREADS else share


def uses_distance3(puzzle: Puzzle, options: SolveOptions) -> bool:
    """The incremental engine adds ``distance3.lp`` for classic 3-peg puzzles.  On a
    restricted move graph it stays sound but misleads the heuristic (measured, cyclic
    3 pegs, 6 disks: 27 s with it, 15 s without), so it is left out there."""
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


def plan_engine(puzzle: Puzzle, options: SolveOptions, bound: LowerBound | None) -> EnginePlan:
    """Decide how to search ``puzzle``.  ``bound`` is the lower bound a minimal search
    starts from; None when the question is a fixed horizon (``--moves``, grading).

    The mirror phase runs for a whole tower whose bound is exact, except where
    ``distance3.lp`` already finds plans fast, and the half search where it is not
    (:data:`HALVES`); ``--sign-def=pos`` when the bound is exact
    and no domain heuristic orders the search.
    A user's encoding is checked (no ``#script``/``#include``, valid syntax) here.
    """
    mode = engine_mode(options)
    if options.encoding is not None:
        check_encoding(options.encoding)
        encoding = options.encoding
    else:
        encoding = shipped_encoding("quickstart" if mode == "oneshot" else "incremental")
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
    clingo_options = options.clingo_options
    if distance3 or forward:
        clingo_options = (*DOMAIN_OPTIONS, *clingo_options)
    elif exact:
        clingo_options = (*EXACT_BOUND_OPTIONS, *clingo_options)
    return EnginePlan(
        mode=mode,
        threads=solver_threads(options, patterns),
        encoding=encoding,
        user_encoding=options.encoding is not None,
        distance3=distance3,
        patterns=patterns,
        forward=forward,
        mirror=mirror,
        halves=halves,
        clingo_options=clingo_options,
    )
