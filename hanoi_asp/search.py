"""The upward search: the first satisfiable horizon from a sound lower bound is minimal.

>>> from hanoi_asp.spec import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> r = solve(p)
>>> r.result, r.length
('OPTIMUM FOUND', 3)

Why the first satisfiable horizon is minimal: no plan is shorter than the lower
bound L (see :mod:`hanoi_asp.bounds`), and every horizon from L up to it was proven
unsatisfiable.  Pruning constraints keep every minimal plan, so a horizon refuted
with them has no minimal plan, and the first one with a plan is the optimum.
Every plan is replayed by :func:`hanoi_asp.plan.replay` before it is returned.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Literal

from hanoi_asp.bounds import BoundChoice, LowerBound, distance3_facts, lower_bound
from hanoi_asp.encodings import read_encoding
from hanoi_asp.limits import Limits
from hanoi_asp.mirror import MIRROR_THREADS, half_plan, unfold
from hanoi_asp.mirror import applies as mirror_applies
from hanoi_asp.plan import Move, replay
from hanoi_asp.solver import HorizonRun, HorizonSolver, IncrementalSolver, OneShotSolver
from hanoi_asp.spec import Puzzle

Verdict = Literal["OPTIMUM FOUND", "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"]
Mode = Literal["incremental", "oneshot"]
Method = Literal["asp", "recursive", "frame-stewart", "bfs"]
METHODS: tuple[Method, ...] = ("asp", "recursive", "frame-stewart", "bfs")

DEFAULT_MAX_MOVES = 1000


@dataclass(frozen=True)
class Result:
    """The answer for one puzzle, as data; the CLI turns it into text or JSON."""

    puzzle: Puzzle
    result: Verdict
    plan: tuple[Move, ...] | None
    lower_bound: LowerBound
    max_moves: int
    proof: str
    mode: str
    time_s: float
    exact_moves: int | None = None
    stopped: str | None = None
    horizons: tuple[HorizonRun, ...] = field(default=())
    method: Method = "asp"
    unreachable: bool = False
    """Proven: no plan of any length exists (not only none within ``max_moves``)."""
    threads: int | None = None
    """clingo's search threads (None: no clingo search, e.g. a reference method)."""

    @property
    def length(self) -> int | None:
        return None if self.plan is None else len(self.plan)

    def _repr_svg_(self) -> str:
        """Jupyter shows a result as its plan, frame by frame (long plans shortened)."""
        from hanoi_asp.pictures import NOTEBOOK_FRAMES, plan_svg, puzzle_svg

        if self.plan is None:
            return puzzle_svg(self.puzzle)
        return plan_svg(self.puzzle, self.plan, limit=NOTEBOOK_FRAMES)


@dataclass(frozen=True)
class SolveOptions:
    """How to search; the defaults are what ``hanoi-asp solve FILE`` does."""

    method: Method = "asp"
    """``asp``, or a reference method (:mod:`hanoi_asp.methods`)."""
    mode: Mode = "incremental"
    max_moves: int | None = None
    exact_moves: int | None = None
    timeout: float | None = None
    encoding: str | None = None
    encoding_path: str = "encoding"
    clingo_options: tuple[str, ...] = ()
    bound: BoundChoice = "auto"
    distance: bool = True
    """With 3 pegs, add the redundant distance constraints of ``distance3.lp``."""
    mirror: bool = True
    """For a whole tower with an exact bound, first look for a mirrored plan
    (:mod:`hanoi_asp.mirror`); off, the full horizon is searched directly."""
    threads: int | None = None
    """clingo's search threads; None: :func:`solver_threads` decides."""
    limits: Limits = field(default_factory=Limits)
    source: str = "<puzzle>"
    """Where the puzzle came from, for error messages."""


def uses_distance3(puzzle: Puzzle, options: SolveOptions) -> bool:
    """The incremental engine adds ``distance3.lp`` for classic 3-peg puzzles.  On a
    restricted move graph it stays sound but misleads the heuristic (measured, cyclic
    3 pegs, 6 disks: 27 s with it, 15 s without), so it is left out there."""
    return (
        options.mode == "incremental"
        and options.encoding is None
        and options.distance
        and len(puzzle.pegs) == 3
        and puzzle.edges() is None
    )


def uses_mirror(puzzle: Puzzle, options: SolveOptions, bound: LowerBound) -> bool:
    """The engine first looks for a mirrored plan (:mod:`hanoi_asp.mirror`) for a whole
    tower whose bound is exact, except where ``distance3.lp`` already finds plans fast."""
    return (
        options.mirror
        and options.mode == "incremental"
        and options.encoding is None
        and not uses_distance3(puzzle, options)
        and mirror_applies(puzzle, bound)
    )


DEFAULT_THREADS = 2
"""Threads of the incremental engine unless asked otherwise (clingo's parallel mode:
threads with different configurations race and share learnt clauses).  Measured, one run
each, fresh processes: competition instance 0008 in 22.5 s with two threads, over 90 s
with one; 0007 7.3 s against 16.4 s; 5 pegs 10 disks 3.5 s against 6.0 s; classic
3 pegs unchanged (9 disks 1.4 s either way)."""


def solver_threads(options: SolveOptions) -> int:
    """Threads clingo searches with: as asked; else :data:`DEFAULT_THREADS` (at most
    the machine's cores) for the incremental engine, and one for one-shot mode, which
    is the benchmark's baseline and gives teaching runs the same statistics each time."""
    if options.threads is not None:
        return options.threads
    if options.mode == "oneshot":
        return 1
    return max(1, min(DEFAULT_THREADS, os.cpu_count() or 1))


EXACT_BOUND_OPTIONS = ("--sign-def=pos",)
"""clingo options when the bound is known to be the optimum, so the one horizon solved is
satisfiable and only a model must be found: trying atoms true first.  Measured in fresh
processes: 4 pegs 10 disks 5.0-5.5 s with it, 9.3-10.6 s without (5 runs each); 11 disks
50.8 s in one run (over 60 s with --sign-def=neg, over 120 s before).  Not with
distance3.lp (classic 3 pegs), whose heuristic already orders the search: there it made
a random 8-disk instance 4x slower (2.0 s against 0.5 s).  On the competition instances
(bounds not exact, so not used there) it was mixed: 0013 12.5 -> 7.3 s, 0005 10.3 ->
14.6 s."""


def make_solver(
    puzzle: Puzzle, options: SolveOptions, *, minimal: bool, exact_bound: bool = False
) -> HorizonSolver:
    if options.mode == "oneshot":
        text = options.encoding or read_encoding("quickstart")
        return OneShotSolver(
            puzzle,
            text,
            encoding_path=options.encoding_path,
            options=options.clingo_options,
            threads=solver_threads(options),
        )
    extra, clingo_options = "", options.clingo_options
    if uses_distance3(puzzle, options):
        extra = read_encoding("distance3") + "\n" + distance3_facts(puzzle)
        clingo_options = ("--heuristic=Domain", *clingo_options)
    elif exact_bound:
        clingo_options = (*EXACT_BOUND_OPTIONS, *clingo_options)
    return IncrementalSolver(
        puzzle,
        options.encoding or read_encoding("incremental"),
        prune=minimal,
        encoding_path=options.encoding_path,
        options=clingo_options,
        extra=extra,
        threads=solver_threads(options),
    )


def solve(puzzle: Puzzle, options: SolveOptions | None = None) -> Result:
    """Find a proven-minimal plan, or decide a plan of exactly ``exact_moves`` exists."""
    options = options or SolveOptions()
    if options.method != "asp":
        from hanoi_asp.methods.run import solve_with_method  # it builds on this module

        return solve_with_method(puzzle, options)
    pegs, disks, where = len(puzzle.pegs), puzzle.disks, options.source
    options.limits.check_size(pegs=pegs, disks=disks, where=where)
    started = time.monotonic()
    deadline = None if options.timeout is None else started + options.timeout
    bound = lower_bound(puzzle, options.bound)
    if options.exact_moves is not None:
        return _decide_exact(puzzle, options, bound, started, deadline)
    limit = options.max_moves
    if limit is None:
        limit = puzzle.max_moves if puzzle.max_moves is not None else DEFAULT_MAX_MOVES

    def result(
        verdict: Verdict,
        proof: str,
        plan: tuple[Move, ...] | None = None,
        stopped: str | None = None,
        unreachable: bool = False,
        threads: int = solver_threads(options),
    ) -> Result:
        return Result(
            puzzle,
            verdict,
            plan,
            bound,
            limit,
            proof,
            options.mode,
            time.monotonic() - started,
            None,
            stopped,
            tuple(runs),
            unreachable=unreachable,
            threads=threads,
        )

    runs: list[HorizonRun] = []
    if bound.unreachable:
        return result("UNSATISFIABLE", f"no plan exists at all: {bound.argument}", unreachable=True)
    if bound.value > limit:
        return result(
            "UNSATISFIABLE", f"no plan of at most {limit} moves: the lower bound is {bound.value}"
        )
    if uses_mirror(puzzle, options, bound):
        horizon = bound.value
        options.limits.check_horizon(horizon=horizon, pegs=pegs, disks=disks, where=where)
        try:
            run, half = half_plan(puzzle, horizon, deadline, options.clingo_options)
        except KeyboardInterrupt:
            return result("UNKNOWN", _refuted(bound, horizon), stopped="interrupt")
        runs.append(run)
        if half is not None:
            plan = replay(puzzle, unfold(puzzle, half))
            how = (
                f"; found as {run.horizon} moves by clingo, the largest disk's move, and "
                "those moves backwards with start and goal pegs swapped (mirror phase)"
            )
            return result(
                "OPTIMUM FOUND", _minimal(bound, horizon) + how, plan, threads=MIRROR_THREADS
            )
        if run.status == "UNKNOWN":
            return result("UNKNOWN", _refuted(bound, horizon), stopped="timeout")
    solver = make_solver(puzzle, options, minimal=True, exact_bound=bound.exact)
    for horizon in range(bound.value, limit + 1):
        options.limits.check_horizon(horizon=horizon, pegs=pegs, disks=disks, where=where)
        if deadline is not None and time.monotonic() >= deadline:
            return result("UNKNOWN", _refuted(bound, horizon), stopped="timeout")
        try:
            run, steps = solver.run(horizon, deadline)
        except KeyboardInterrupt:
            return result("UNKNOWN", _refuted(bound, horizon), stopped="interrupt")
        runs.append(run)
        if run.status == "UNKNOWN":
            return result("UNKNOWN", _refuted(bound, horizon), stopped="timeout")
        if steps is not None:
            plan = replay(puzzle, steps)
            return result("OPTIMUM FOUND", _minimal(bound, horizon), plan)
    return result(
        "UNSATISFIABLE", f"no plan of at most {limit} moves: {_refuted(bound, limit + 1)}"
    )


def _refuted(bound: LowerBound, horizon: int) -> str:
    """What is proven once every horizon below ``horizon`` has been refuted."""
    if horizon <= bound.value:
        return f"no plan has fewer than {bound.value} moves (lower bound: {bound.name})"
    return (
        f"no plan has fewer than {horizon} moves: fewer than {bound.value} by the "
        f"lower bound ({bound.name}), {bound.value}..{horizon - 1} proven unsatisfiable"
    )


def _minimal(bound: LowerBound, horizon: int) -> str:
    if horizon == bound.value:
        return (
            f"minimal: the plan meets the lower bound {bound.value} "
            f"({bound.name}: {bound.argument})"
        )
    return (
        f"minimal: horizons {bound.value}..{horizon - 1} proven unsatisfiable by "
        f"clingo, and no plan is shorter than {bound.value} ({bound.name})"
    )


def _decide_exact(
    puzzle: Puzzle, options: SolveOptions, bound: LowerBound, started: float, deadline: float | None
) -> Result:
    """The quickstart's question: is there a plan of exactly M moves?"""
    moves = options.exact_moves
    assert moves is not None
    options.limits.check_horizon(
        horizon=moves, pegs=len(puzzle.pegs), disks=puzzle.disks, where=options.source
    )
    solver = make_solver(puzzle, options, minimal=False)
    plan: tuple[Move, ...] | None = None
    stopped: str | None = None
    runs: list[HorizonRun] = []
    try:
        run, steps = solver.run(moves, deadline)
        runs.append(run)
    except KeyboardInterrupt:
        verdict: Verdict = "UNKNOWN"
        stopped = "interrupt"
    else:
        if steps is not None:
            plan = replay(puzzle, steps)
            verdict = "SATISFIABLE"
        elif run.status == "UNSAT":
            verdict = "UNSATISFIABLE"
        else:
            verdict, stopped = "UNKNOWN", "timeout"
    proof = {
        "SATISFIABLE": f"a plan of exactly {moves} moves (not claimed minimal)",
        "UNSATISFIABLE": f"clingo proved that no plan has exactly {moves} moves",
        "UNKNOWN": f"stopped before deciding whether a plan of exactly {moves} moves exists",
    }[verdict]
    return Result(
        puzzle,
        verdict,
        plan,
        bound,
        moves,
        proof,
        options.mode,
        time.monotonic() - started,
        moves,
        stopped,
        tuple(runs),
        threads=solver_threads(options),
    )
