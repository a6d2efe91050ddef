"""The anytime search: a plan at once, then a proven lower bound that rises to meet it.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (3,), "b": (1, 2)},
...            goal={"c": (1, 2, 3)})
>>> r = search(p, SolveOptions())
>>> r.result, r.length, r.lower_bound, r.upper_bound
('OPTIMUM FOUND', 4, 4, 4)

Two numbers close in on the optimum.  The upper bound U is the length of the best
verified plan: first the one built before the search
(:mod:`hanoi_asp.engine.first_plan`).  The lower bound L starts at a sound bound
(:mod:`hanoi_asp.engine.bounds`) and rises by one with every horizon clingo refutes:
pruning constraints keep every minimal plan, so a horizon refuted with them holds no
minimal plan, and once every horizon below h is refuted no plan is shorter than h.
A horizon with a plan is therefore the optimum; so is U once L reaches it.  Stopped
early (timeout, Ctrl-C, the grounding limit), the answer is the best plan with its
gap U - L.  Every plan is replayed by :func:`hanoi_asp.model.plan.replay` first.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from hanoi_asp.engine.bounds import lower_bound, misplaced_disks, strongest
from hanoi_asp.engine.distance3 import distance3_facts
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.engine.first_plan import build_first_plan
from hanoi_asp.engine.mirror import half_plan, half_solver, half_tables, unfold
from hanoi_asp.engine.policy import MIRROR_THREADS, EnginePlan, plan_engine, uses_first_plan
from hanoi_asp.engine.pruning import PatternPruning
from hanoi_asp.engine.solver import HorizonSolver, IncrementalSolver, OneShotSolver, Steps
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import (
    Partitioned,
    estimate,
    goal_database,
    strong_exact,
    strong_price,
)
from hanoi_asp.model.errors import EncodingPlanError, HanoiError, LimitError, VerificationError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import (
    UNREACHABLE,
    FirstPlan,
    HorizonRun,
    LowerBound,
    Progress,
    Result,
    Verdict,
)

OnProgress = Callable[[Progress], None]


def pattern_tables(
    puzzle: Puzzle,
    plan: EnginePlan,
    deadline: float | None,
    every_cut: bool = False,
    strong: bool = False,
) -> Partitioned | None:
    """The tables the pattern propagator checks, if the plan uses it: the lower bound's
    cuts, built already unless it ran out of time, or every cut; the strong tables if
    asked for or free (built, or in the on-disk cache); None if ``deadline`` passes
    first: the search then goes on without the propagator."""
    if not plan.patterns:
        return None
    try:
        strong = strong or strong_price(puzzle) == 0
        return goal_database(puzzle, deadline=deadline, every_cut=every_cut, strong=strong)
    except TimeoutError:
        return None


def check_every_cut(run: _Run, plan: EnginePlan, solver: HorizonSolver) -> bool:
    """Hand the propagator stronger tables as refuting horizons proves costly: a
    ski-rental rule, each purchase once the rent paid (clingo's search time) reaches
    its price.  First every cut of the bound's tables, not only the
    :data:`~hanoi_asp.methods.patterns.CUTS_BUILT` it chose, once clingo has spent as
    long as the bounds took (the rest cost about that again); then the strong tables
    (:func:`~hanoi_asp.methods.patterns.strong_price`, 0 when cached), once it has
    spent their price too; or at once, instead of the first purchase, when they are
    one table of every disk (:func:`~hanoi_asp.methods.patterns.strong_exact`): the
    exact distance, after which no horizon is left to refute (random 4 pegs 12 disks
    49 and 51 moves: 9.9 and 11.0 s waiting for the price, one run each, loaded).
    Where the first horizons hold a plan neither is worth building (competition
    files 0008, 0059, 0060: 0.8-1 s of tables against 0.5 s of search).  True once
    done (or if there is nothing to do)."""
    propagator = getattr(solver, "propagator", None)
    if not isinstance(propagator, PatternPruning):
        return True
    spent = solver.calls.solving
    if spent < run.timings.get("bounds", 0.0):
        return False
    price, exact = strong_price(run.puzzle), strong_exact(run.puzzle)
    strong = propagator.widened or price == 0 or exact
    if strong and spent < price and not exact:
        return False
    began = time.monotonic()
    tables = pattern_tables(run.puzzle, plan, run.deadline, every_cut=True, strong=strong)
    run.timed("bounds", began)
    if tables is not None and tables is not propagator.tables:
        propagator.retable(tables)
        if strong and not plan.user_encoding:
            # the strong tables bring the best plan down further, often to the optimum
            # (random 4p14-4: weighted A* 75 moves in 0.03 s), which then ends the
            # search as soon as the lower bound meets it, without the optimum's horizon
            shorten_best(run, tables, close=1.0)
    propagator.widened = True
    return strong


SHORTEN_SECONDS = 0.5
"""Most time :func:`shorten_best` takes (less when the user's time limit is near)."""
SHORTEN_WEIGHTS = (5.0, 2.0, 1.5)
"""Weighted A*'s weights, tried in turn while time is left: 5 reaches a goal soonest
(random 4 pegs 14 disks: 102 moves in 0.2 s where 2 needs 1.2 s, the plan built first
138), 2 and 1.5 often give shorter plans (random 4 pegs 13 disks: 70 against 58)."""


def shorten_best(run: _Run, tables: Partitioned, close: float = 1.1) -> None:
    """Bring the best plan down before clingo raises the lower bound: weighted A* on the
    pattern tables (:func:`hanoi_asp.methods.astar.search`) gives a plan at most w times
    the optimum's length, in practice near it; it is replayed and offered like every
    plan.  It proves nothing, so no proof changes; but a stopped search answers with a
    far better plan, and a plan that meets the rising lower bound ends the search one
    horizon sooner (clingo need not solve the optimum's horizon).  Skipped where the
    plan in hand is within ``close`` times the lower bound (10%).  Measured by
    ``python -m benchmarks.anytime``."""
    began = time.monotonic()
    stop = began + SHORTEN_SECONDS
    deadline = stop if run.deadline is None else min(stop, run.deadline)
    for weight in SHORTEN_WEIGHTS:
        if run.best is None or len(run.best) <= run.lower * close:
            break
        found = astar.search(run.puzzle, tables, deadline=deadline, weight=weight)
        if found.steps is None:
            break  # out of time: a smaller weight would take longer still
        if len(found.steps) < len(run.best):
            run.offer(replay(run.puzzle, found.steps), f"found by weighted A* (w = {weight:g})")
    run.timed("first_plan", began)


def make_solver(
    puzzle: Puzzle,
    plan: EnginePlan,
    *,
    minimal: bool,
    warnings: bool = False,
    tables: Partitioned | None = None,
) -> HorizonSolver:
    """The driver the plan asks for; ``minimal`` adds the pruning that keeps only
    minimal plans (never for a fixed-horizon question).  The pattern propagator
    (when the plan asks for it and ``tables`` are given) checks what holds for every
    plan of the horizon's length, so it serves both."""
    encoding = plan.encoding
    if plan.mode == "oneshot":
        return OneShotSolver(
            puzzle,
            encoding.text,
            encoding_path=encoding.name,
            options=plan.clingo_options,
            threads=plan.threads,
            warnings=warnings,
        )
    extra = ""
    propagator = None
    if plan.distance3:
        extra = read_encoding("distance3") + "\n" + distance3_facts(puzzle)
    if plan.forward:
        extra = read_encoding("patterns")
    if plan.patterns and tables is not None:
        propagator = PatternPruning(puzzle, tables)
    return IncrementalSolver(
        puzzle,
        encoding.text,
        prune=minimal,
        encoding_path=encoding.name,
        options=plan.clingo_options,
        extra=extra,
        threads=plan.threads,
        warnings=warnings,
        propagator=propagator,
    )


def answer(
    plan: EnginePlan, horizon: int, call: Callable[[], tuple[HorizonRun, Steps | None]]
) -> tuple[HorizonRun, Steps | None]:
    """A solver's answer; a malformed one (no move at a step, two at one) is blamed as
    :func:`verified` blames a rejected plan."""
    try:
        return call()
    except VerificationError as error:
        raise _blame(plan, horizon, error) from None


def verified(
    puzzle: Puzzle, plan: EnginePlan, horizon: int, steps: Steps | None
) -> tuple[Move, ...] | None:
    """The simulator's replay of a solver's steps (None if it has none)."""
    if steps is None:
        return None
    try:
        return replay(puzzle, steps)
    except VerificationError as error:
        raise _blame(plan, horizon, error) from None


def _blame(plan: EnginePlan, horizon: int, error: VerificationError) -> HanoiError:
    """A plan the simulator rejects from a user's encoding is the user's error (exit 2,
    naming the first bad step); from the shipped encodings it is ours (exit 4)."""
    if not plan.user_encoding:
        return error
    return EncodingPlanError(
        f"the encoding's plan of {horizon} moves is illegal or incomplete: {error.message}",
        path=plan.encoding.name,
    )


@dataclass
class _Run:
    """One search in progress: what is proven and found so far, turned into a
    :class:`Result` however the search ends."""

    puzzle: Puzzle
    options: SolveOptions
    on_progress: OnProgress | None = None
    started: float = field(default_factory=time.monotonic)
    bound: LowerBound | None = None
    finished: list[LowerBound] = field(default_factory=list)
    """Bounds computed so far (the best stands in for ``bound`` if interrupted)."""
    plan: EnginePlan | None = None
    lower: int = 0
    """Proven: no plan has fewer moves."""
    best: tuple[Move, ...] | None = None
    how: str = ""
    """Where the best plan came from, in words."""
    first: FirstPlan | None = None
    runs: list[HorizonRun] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per phase so far (see :attr:`Result.timings`)."""
    solver: HorizonSolver | None = None
    proven: str = ""
    """What is proven of the lower bound, where it is not "the horizons below it were
    refuted" (the half search); empty: that."""

    def timed(self, phase: str, began: float) -> None:
        """Add the time since ``began`` to ``phase``."""
        self.timings[phase] = self.timings.get(phase, 0.0) + time.monotonic() - began

    @property
    def limit(self) -> int | None:
        return self.options.move_limit(self.puzzle)

    @property
    def deadline(self) -> float | None:
        timeout = self.options.timeout
        return None if timeout is None else self.started + timeout

    @property
    def upper(self) -> int | None:
        return None if self.best is None else len(self.best)

    def answers(self) -> bool:
        """The best plan answers the question: it is within the user's bound."""
        return self.best is not None and (self.limit is None or len(self.best) <= self.limit)

    def offer(self, moves: tuple[Move, ...], how: str) -> None:
        if self.best is None or len(moves) < len(self.best):
            self.best, self.how = moves, how
        self.report()

    def report(self, horizon: int | None = None) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(self.lower, self.upper, horizon))

    def known_bound(self) -> LowerBound:
        """The search's bound, or the best finished before it was stopped."""
        if self.bound is not None:
            return self.bound
        return strongest(self.finished) if self.finished else misplaced_disks(self.puzzle)

    def stopped_before(self, horizon: int) -> Result | None:
        """None if ``horizon`` may be solved now; else the answer: stopped at the time
        limit, or at the grounding limit with the best plan (with no plan to give, the
        limit's error is raised: the user must raise it)."""
        if self.out_of_time():
            return self.stop("timeout")
        puzzle, options = self.puzzle, self.options
        try:
            check = options.limits.check_horizon
            check(horizon=horizon, pegs=len(puzzle.pegs), disks=puzzle.disks, where=options.source)
        except LimitError:
            if self.answers():
                return self.stop("limit")
            raise
        return None

    def out_of_time(self) -> bool:
        deadline = self.deadline
        return deadline is not None and time.monotonic() >= deadline

    def result(
        self,
        verdict: Verdict,
        proof: str,
        moves: tuple[Move, ...] | None = None,
        *,
        stopped: str | None = None,
        unreachable: bool = False,
        threads: int | None = None,
        exact_moves: int | None = None,
    ) -> Result:
        bound = self.known_bound()
        plan = self.plan
        return Result(
            puzzle=self.puzzle,
            result=verdict,
            plan=moves,
            bound=bound,
            lower_bound=None if unreachable or bound.unreachable else max(self.lower, bound.value),
            upper_bound=self.upper,
            max_moves=self.limit if exact_moves is None else exact_moves,
            proof=proof,
            time_s=time.monotonic() - self.started,
            mode=None if plan is None else plan.mode,
            exact_moves=exact_moves,
            stopped=stopped,
            horizons=tuple(self.runs),
            unreachable=unreachable,
            threads=(None if plan is None else plan.threads) if threads is None else threads,
            programs=() if plan is None else plan.programs,
            source=self.options.source,
            first_plan=self.first,
            timings=self.phases(),
        )

    def phases(self) -> tuple[tuple[str, float], ...]:
        """Every phase's seconds, clingo's grounding and search included."""
        timings = dict(self.timings)
        if self.solver is not None:
            calls = self.solver.calls
            timings["grounding"] = timings.get("grounding", 0.0) + calls.grounding
            timings["solving"] = timings.get("solving", 0.0) + calls.solving
        order = ("first_plan", "bounds", "grounding", "solving")
        return tuple((phase, timings.get(phase, 0.0)) for phase in order)

    def optimum(self, proof: str, moves: tuple[Move, ...], threads: int | None = None) -> Result:
        self.best = moves
        self.lower = len(moves)
        return self.result("OPTIMUM FOUND", proof, moves, threads=threads)

    def stop(self, why: str) -> Result:
        """The answer when the search stops before its proof: the best plan and its gap."""
        bound = self.known_bound()
        self.lower = max(self.lower, bound.value)
        if why == "timeout":
            reason = f"stopped at the time limit ({self.options.timeout} s)"
        elif why == "limit":
            reason = "stopped: the next horizon is over the grounding limit"
        else:
            reason = "interrupted"
        known = f"{reason}: {self.proven or _refuted(bound, self.lower)}"
        if self.best is not None and self.answers():
            gap = len(self.best) - self.lower
            proof = (
                f"{known}; the best plan found has {len(self.best)} moves ({self.how}), "
                f"not proven minimal: the optimum is {self.lower}..{len(self.best)} (gap {gap})"
            )
            return self.result("SATISFIABLE", proof, self.best, stopped=why)
        if self.best is not None:
            known += f"; a plan of {len(self.best)} moves exists, over the bound of {self.limit}"
        return self.result("UNKNOWN", known, stopped=why)


def search(puzzle: Puzzle, options: SolveOptions, on_progress: OnProgress | None = None) -> Result:
    """Find a proven-minimal plan with clingo (the best plan and its gap if stopped
    early), or decide whether a plan of exactly ``options.exact_moves`` moves exists.
    ``on_progress`` hears of every new bound and plan."""
    pegs, disks, where = len(puzzle.pegs), puzzle.disks, options.source
    options.limits.check_size(pegs=pegs, disks=disks, where=where)
    run = _Run(puzzle, options, on_progress)
    try:
        if options.exact_moves is not None:
            return _decide_exact(run, options.exact_moves)
        return _narrow(run)
    except KeyboardInterrupt:
        if options.exact_moves is None:
            return run.stop("interrupt")
        moves = options.exact_moves
        proof = f"interrupted before deciding whether a plan of exactly {moves} moves exists"
        return run.result("UNKNOWN", proof, stopped="interrupt", exact_moves=moves)


def _narrow(run: _Run) -> Result:
    """Raise the lower bound until it meets the best plan (or a horizon has a plan)."""
    puzzle, options = run.puzzle, run.options
    if uses_first_plan(options):
        began = time.monotonic()
        start = build_first_plan(puzzle, options, run.deadline)
        run.timed("first_plan", began)
        if start.unreachable is not None:
            run.bound = LowerBound(UNREACHABLE, "breadth-first", start.unreachable)
            run.plan = plan_engine(puzzle, options, None)
            proof = f"no plan exists at all: {start.unreachable}"
            return run.result("UNSATISFIABLE", proof, unreachable=True)
        if start.moves is not None and start.first is not None:
            run.first = start.first
            run.offer(start.moves, f"the {start.first.method} plan built before the search")
    began = time.monotonic()
    bound = run.bound = lower_bound(
        puzzle, options.bound, run.deadline, run.finished, upper=run.upper
    )
    run.timed("bounds", began)
    run.lower = bound.value
    run.plan = plan = plan_engine(puzzle, options, bound)
    limit = run.limit
    if bound.unreachable:
        return run.result(
            "UNSATISFIABLE", f"no plan exists at all: {bound.argument}", unreachable=True
        )
    run.report()
    if limit is not None and bound.value > limit:
        return run.result(
            "UNSATISFIABLE",
            f"no plan of at most {limit} moves: the lower bound is {bound.value} ({bound.name})",
        )
    if run.best is not None and len(run.best) == run.lower:
        return run.optimum(_minimal(bound, run.lower) + f"; the plan is {run.how}", run.best)
    if run.out_of_time():
        return run.stop("timeout")
    if plan.mirror:
        mirrored = _mirror_phase(run, plan, bound)
        if mirrored is not None:
            return mirrored
    if plan.halves:
        return _halves(run, plan, bound)
    began = time.monotonic()
    tables = pattern_tables(puzzle, plan, run.deadline)
    run.timed("bounds", began)
    if tables is not None and not plan.user_encoding:
        shorten_best(run, tables)
        if run.best is not None and len(run.best) == run.lower:
            return run.optimum(_minimal(bound, run.lower) + f"; the plan is {run.how}", run.best)
    solver = run.solver = make_solver(puzzle, plan, minimal=True, tables=tables)
    top = _top(puzzle, limit, run.upper)
    horizon = run.lower
    every_cut = False
    while horizon <= top:
        if (stopped := run.stopped_before(horizon)) is not None:
            return stopped
        run.report(horizon)
        horizon_run, steps = answer(plan, horizon, partial(solver.run, horizon, run.deadline))
        run.runs.append(horizon_run)
        if horizon_run.status == "UNKNOWN":
            return run.stop("timeout")
        moves = verified(puzzle, plan, horizon, steps)
        if moves is not None:
            return run.optimum(_minimal(bound, horizon), moves)
        every_cut = every_cut or check_every_cut(run, plan, solver)
        run.lower = horizon + 1
        run.report()
        if run.best is not None and len(run.best) <= run.lower:
            break  # a plan found meanwhile (shorten_best) meets the bound: it is minimal
        horizon += 1
    if run.best is not None and len(run.best) == run.lower and run.answers():
        proof = _minimal(bound, run.lower) + f"; the plan is {run.how}"
        return run.optimum(proof, run.best)
    if run.best is None and run.lower >= _states(puzzle):
        return run.result("UNSATISFIABLE", _no_state_left(puzzle, run.lower), unreachable=True)
    proof = f"no plan of at most {limit} moves: {_refuted(bound, run.lower)}"
    if run.best is not None:
        proof += f"; a plan of {len(run.best)} moves exists"
    return run.result("UNSATISFIABLE", proof)


def _top(puzzle: Puzzle, limit: int | None, upper: int | None) -> int:
    """The last horizon worth solving: within the user's bound, below the best plan,
    and below the number of states (a shortest plan never visits a state twice, so
    it has fewer moves than there are states: past that, no plan exists at all)."""
    tops = [t for t in (limit, None if upper is None else upper - 1) if t is not None]
    return min([*tops, _states(puzzle) - 1])


def _states(puzzle: Puzzle) -> int:
    """How many states the puzzle has: each disk on any peg."""
    count: int = len(puzzle.pegs) ** puzzle.disks
    return count


def _no_state_left(puzzle: Puzzle, horizon: int) -> str:
    return (
        f"no plan exists at all: horizons up to {horizon - 1} proven unsatisfiable, and a "
        f"shortest plan visits each of the {len(puzzle.pegs)}^{puzzle.disks} states at "
        "most once"
    )


def _mirror_phase(run: _Run, plan: EnginePlan, bound: LowerBound) -> Result | None:
    """A whole tower with an exact bound: half a plan, mirrored (None: not found)."""
    puzzle, options = run.puzzle, run.options
    horizon = bound.value
    options.limits.check_horizon(
        horizon=horizon, pegs=len(puzzle.pegs), disks=puzzle.disks, where=options.source
    )
    run.report(horizon)
    half_run, half = half_plan(
        puzzle, horizon, run.deadline, options.clingo_options, MIRROR_THREADS
    )
    run.runs.append(half_run)
    run.timings["solving"] = run.timings.get("solving", 0.0) + half_run.seconds
    if half is not None:
        mirrored = replay(puzzle, unfold(puzzle, half))
        how = (
            f"; found as {half_run.horizon} moves by clingo, the largest disk's move, and "
            "those moves backwards with start and goal pegs swapped (mirror phase)"
        )
        return run.optimum(_minimal(bound, horizon) + how, mirrored, threads=MIRROR_THREADS)
    if half_run.status == "UNKNOWN":
        return run.stop("timeout")
    return None


HALVES_ARGUMENT = (
    "every plan of a whole tower has at least 2H + 1 moves, H the fewest moves taking "
    "the smaller disks off the start peg and one other: they are off the start peg and "
    "the largest disk's target before its first move, and likewise after its last move "
    "backwards (hanoi_asp/engine/mirror.py)"
)


def _halves(run: _Run, plan: EnginePlan, bound: LowerBound) -> Result:
    """A whole tower without an exact bound: clingo refutes half horizons upward
    (:func:`~hanoi_asp.engine.mirror.half_solver`) until one holds a half, whose mirror
    is minimal; or until the best plan's length is reached, which proves that plan."""
    puzzle = run.puzzle
    began = time.monotonic()
    try:
        tables = half_tables(puzzle, run.deadline)
    except TimeoutError:
        run.timed("bounds", began)
        return run.stop("timeout")
    run.timed("bounds", began)
    by_tables = estimate(tables, puzzle.initial_state())
    half = max(bound.value // 2, by_tables)
    why = (
        f"the half's pattern tables give {by_tables}"
        if by_tables >= bound.value // 2
        else f"2H + 1 is at least the lower bound {bound.value} ({bound.name})"
    )
    first = half
    solver = run.solver = half_solver(puzzle, tables, plan.clingo_options, plan.threads)
    run.lower = max(run.lower, 2 * half + 1)
    top = run.upper if run.upper is not None else 2 * _states(puzzle)
    while 2 * half + 1 < top:
        run.proven = _halves_proven(first, half, why)
        if (stopped := run.stopped_before(half)) is not None:
            return stopped
        run.report(2 * half + 1)
        half_run, steps = answer(plan, half, partial(solver.run, half, run.deadline))
        run.runs.append(half_run.as_phase("mirror-half"))
        if half_run.status == "UNKNOWN":
            return run.stop("timeout")
        if steps is not None:
            moves = verified(puzzle, plan, 2 * half + 1, unfold(puzzle, steps))
            assert moves is not None
            proof = (
                f"minimal: {_halves_proven(first, half, why)}; a half of {half} moves "
                f"exists, so H = {half}: its mirror, {2 * half + 1} moves, is the plan"
            )
            return run.optimum(proof, moves)
        half += 1
        run.lower = 2 * half + 1
        run.report()
    run.proven = _halves_proven(first, half, why)
    assert run.best is not None
    return run.optimum(f"minimal: {run.proven}; the plan is {run.how}", run.best)


def _halves_proven(first: int, half: int, why: str) -> str:
    """What refuting half horizons ``first .. half - 1`` proves."""
    refuted = ""
    if half == first + 1:
        refuted = f"; clingo refuted half horizon {first}"
    elif half > first + 1:
        refuted = f"; clingo refuted half horizons {first}..{half - 1}"
    return (
        f"no plan has fewer than {2 * half + 1} moves: {HALVES_ARGUMENT}; H >= {first} "
        f"({why}){refuted}, so H >= {half}"
    )


def _refuted(bound: LowerBound, horizon: int) -> str:
    """What is proven once every horizon below ``horizon`` has been refuted."""
    if horizon <= bound.value:
        if bound.value == 0:
            return "no horizon was refuted yet (no lower bound was used)"
        return f"no plan has fewer than {bound.value} moves (lower bound: {bound.name})"
    if bound.value == 0:
        return f"no plan has fewer than {horizon} moves: 0..{horizon - 1} proven unsatisfiable"
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
    if bound.value == 0:
        return f"minimal: horizons 0..{horizon - 1} proven unsatisfiable by clingo"
    return (
        f"minimal: horizons {bound.value}..{horizon - 1} proven unsatisfiable by "
        f"clingo, and no plan is shorter than {bound.value} ({bound.name})"
    )


def _decide_exact(run: _Run, moves: int) -> Result:
    """The quickstart's question: is there a plan of exactly ``moves`` moves?"""
    puzzle = run.puzzle
    run.options.limits.check_horizon(
        horizon=moves, pegs=len(puzzle.pegs), disks=puzzle.disks, where=run.options.source
    )
    began = time.monotonic()
    run.bound = lower_bound(puzzle, run.options.bound, run.deadline)
    run.timed("bounds", began)
    run.lower = run.bound.value
    run.plan = plan = plan_engine(puzzle, run.options, None)
    if run.bound.unreachable:
        proof = f"no plan exists at all: {run.bound.argument}"
        return run.result("UNSATISFIABLE", proof, unreachable=True, exact_moves=moves)
    began = time.monotonic()
    tables = pattern_tables(puzzle, plan, run.deadline)
    run.timed("bounds", began)
    solver = run.solver = make_solver(puzzle, plan, minimal=False, tables=tables)
    found: tuple[Move, ...] | None = None
    stopped: str | None = None
    horizon_run, steps = answer(plan, moves, partial(solver.run, moves, run.deadline))
    run.runs.append(horizon_run)
    found = verified(puzzle, plan, moves, steps)
    verdict: Verdict
    if found is not None:
        verdict = "SATISFIABLE"
        run.best = found
    elif horizon_run.status == "UNSAT":
        verdict = "UNSATISFIABLE"
    else:
        verdict, stopped = "UNKNOWN", "timeout"
    proof = {
        "SATISFIABLE": f"a plan of exactly {moves} moves (not claimed minimal)",
        "UNSATISFIABLE": f"clingo proved that no plan has exactly {moves} moves",
        "UNKNOWN": f"stopped before deciding whether a plan of exactly {moves} moves exists",
    }[verdict]
    return run.result(verdict, proof, found, stopped=stopped, exact_moves=moves)
