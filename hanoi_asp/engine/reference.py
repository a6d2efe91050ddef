"""Run a reference method and report its plan like the ASP planner does.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> r = solve_with_method(p, SolveOptions(method="recursive"))
>>> r.result, r.length, r.method
('OPTIMUM FOUND', 7, 'recursive')
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import cast, get_args

from hanoi_asp.engine.answer import assemble, deadline
from hanoi_asp.engine.astar_driver import astar_budget, run_astar
from hanoi_asp.engine.bounds import lower_bound, misplaced_disks, whole_tower
from hanoi_asp.engine.first_plan import build_first_plan
from hanoi_asp.methods import bfs
from hanoi_asp.methods.frame_stewart import frame_stewart_count, frame_stewart_moves
from hanoi_asp.methods.recursive import tower_moves
from hanoi_asp.model.errors import InputError, LimitError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import MethodRun, PlanOrigin, Proof, ProofKind, ReferenceMethod, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Method, Result, Verdict


@dataclass(frozen=True)
class Answer:
    """What a method found, before the simulator replays it, and its argument."""

    verdict: Verdict
    kind: ProofKind
    run: MethodRun
    """What the method proved (``lower``: no plan has fewer moves) and how."""
    steps: list[tuple[int, str]] | None = None
    plan: PlanOrigin | None = None
    """The plan's origin and length (also a plan over the user's bound, not given)."""
    stopped: Stop | None = None

    @property
    def unreachable(self) -> bool:
        return self.kind == "unreachable"


def solve_with_method(puzzle: Puzzle, options: SolveOptions) -> Result:
    """``options.method`` is ``recursive``, ``frame-stewart``, ``bfs`` or ``astar``.  The
    result's bound is the engine's best (:func:`hanoi_asp.engine.bounds.lower_bound`),
    context beside the method's own argument, computed after it in full: a reference
    run's answer is the same on every run."""
    started = time.monotonic()
    options.limits.check_size(pegs=len(puzzle.pegs), disks=puzzle.disks, where=options.source)
    limit = options.move_limit(puzzle)
    stop = deadline(options, started)
    bound = misplaced_disks(puzzle)
    method = _reference(options.method)
    try:
        if options.method == "bfs":
            answer = _breadth_first(puzzle, options, limit, stop)
        elif options.method == "astar":
            answer = _astar(puzzle, options, limit, stop)
        else:
            answer = _tower(puzzle, options, limit)
        plan = None if answer.steps is None else replay(puzzle, answer.steps)
        bound = lower_bound(puzzle, options.bound, stop)
    except KeyboardInterrupt:
        answer = Answer("UNKNOWN", "stopped", MethodRun(method), stopped="interrupt")
        plan = None
    if answer.unreachable or bound.unreachable:
        lower = None
    elif answer.verdict == "OPTIMUM FOUND" and plan is not None:
        lower = len(plan)
    else:
        lower = max(bound.value, answer.run.lower)
    proof = Proof(
        kind=answer.kind,
        lower=lower,
        bound=bound,
        plan=answer.plan,
        method=answer.run,
        stopped=answer.stopped,
        max_moves=limit,
    )
    return assemble(
        puzzle,
        options,
        started,
        answer.verdict,
        proof,
        plan=plan,
        bound=bound,
        lower=lower,
        upper=None if plan is None else len(plan),
        max_moves=limit,
        method=options.method,
        stopped=answer.stopped,
        unreachable=answer.unreachable,
    )


def _reference(method: Method) -> ReferenceMethod:
    if method == "asp":
        raise ValueError("the ASP engine is not a reference method")
    return method


def _tower(puzzle: Puzzle, options: SolveOptions, limit: int | None) -> Answer:
    """``recursive`` and ``frame-stewart``: a whole tower, every move allowed."""
    method: ReferenceMethod = "recursive" if options.method == "recursive" else "frame-stewart"
    ends = _tower_pegs(puzzle, method, options.source)
    pegs = len(puzzle.pegs)
    if ends is None:
        return Answer("OPTIMUM FOUND", "method", MethodRun(method), [], PlanOrigin(method, 0))
    count = frame_stewart_count(puzzle.disks, pegs)
    proven = pegs <= 4
    if limit is not None and count > limit:
        if proven:
            return Answer("UNSATISFIABLE", "over-limit", MethodRun(method, count, pegs=pegs))
        stop = MethodRun(method, pegs=pegs)
        origin = PlanOrigin(method, count)
        return Answer("UNKNOWN", "stopped", stop, plan=origin, stopped="max_moves")
    if count > options.limits.moves:
        raise LimitError(
            f"the plan has {count} moves, over the limit of {options.limits.moves}",
            limit="moves",
            needed=count,
            path=options.source,
        )
    source, target = ends
    spares = [p for p in puzzle.pegs if p not in ends]
    if method == "recursive":
        steps = list(tower_moves(1, puzzle.disks, source, target, spares[0]))
    else:
        steps = list(frame_stewart_moves(1, puzzle.disks, source, target, spares))
    run = MethodRun(method, count if proven else 0, pegs=pegs)
    verdict: Verdict = "OPTIMUM FOUND" if proven else "SATISFIABLE"
    return Answer(verdict, "method", run, steps, PlanOrigin(method, len(steps)))


def _tower_pegs(puzzle: Puzzle, method: str, where: str) -> tuple[str, str] | None:
    """Start and goal peg of the whole tower ``method`` moves; None if start = goal;
    an :class:`InputError` naming what the method needs for any other puzzle."""
    pegs = len(puzzle.pegs)
    wanted = "exactly 3 pegs" if method == "recursive" else "at least 3 pegs"
    shape = (
        f"--method {method} moves a whole tower from one peg to another on {wanted} "
        "with every move allowed"
    )
    if (method == "recursive" and pegs != 3) or pegs < 3:
        raise InputError(f"{shape}; this instance has {pegs} pegs (try --method bfs)", path=where)
    if puzzle.edges() is not None:
        raise InputError(
            f"{shape}; this instance restricts moves ({puzzle.graph_name()} move graph) "
            "(try --method bfs)",
            path=where,
        )
    ends = whole_tower(puzzle)
    if ends is not None:
        return puzzle.pegs[ends[0]], puzzle.pegs[ends[1]]
    start = puzzle.initial_state()
    if len(set(start)) == 1 and puzzle.is_full_goal() and puzzle.is_goal(start):
        return None  # the tower already stands on its goal peg
    raise InputError(
        f"{shape}; this instance does not start and end with all disks on one peg "
        "(try --method bfs)",
        path=where,
    )


def _breadth_first(
    puzzle: Puzzle, options: SolveOptions, limit: int | None, deadline: float | None
) -> Answer:
    found = bfs.search(
        puzzle,
        max_moves=limit,
        max_states=options.limits.states,
        deadline=deadline,
        source=options.source,
    )
    if found.steps is not None:
        length = len(found.steps)
        run = MethodRun("bfs", length, found.visited)
        return Answer("OPTIMUM FOUND", "method", run, found.steps, PlanOrigin("bfs", length))
    if found.stopped:
        stopped = _stop(found.stopped)
        run = MethodRun("bfs", found.depth, found.visited, stopped=stopped)
        return Answer("UNKNOWN", "stopped", run, stopped=stopped)
    if found.exhausted:
        return Answer("UNSATISFIABLE", "unreachable", MethodRun("bfs", states=found.visited))
    return Answer("UNSATISFIABLE", "over-limit", MethodRun("bfs", found.depth + 1, found.visited))


def _astar(
    puzzle: Puzzle, options: SolveOptions, limit: int | None, deadline: float | None
) -> Answer:
    """A*'s optimum; stopped by the deadline or its memory budget, the plan built first
    (replayed) with the lower bound A* proved, as the engine's anytime answer."""
    start = build_first_plan(puzzle, options, deadline)
    found = run_astar(puzzle, None, astar_budget(options.limits, puzzle), deadline)
    if found.steps is not None:
        length = len(found.steps)
        run = MethodRun("astar", length, found.expanded)
        if limit is not None and length > limit:
            return Answer("UNSATISFIABLE", "over-limit", run)
        return Answer("OPTIMUM FOUND", "method", run, found.steps, PlanOrigin("astar", length))
    if found.stopped:
        stopped = _stop(found.stopped)
        run = MethodRun("astar", found.lower, found.expanded, stopped=stopped)
        plan = start.moves
        if plan is None or start.first is None or (limit is not None and len(plan) > limit):
            return Answer("UNKNOWN", "stopped", run, stopped=stopped)
        steps = [(move.disk, move.target) for move in plan]
        origin = PlanOrigin(start.first.method, len(plan))
        if len(plan) <= found.lower:  # the plan meets what A* proved: it is minimal
            return Answer("OPTIMUM FOUND", "meets-bound", run, steps, origin)
        return Answer("SATISFIABLE", "stopped", run, steps, origin, stopped=stopped)
    return Answer("UNSATISFIABLE", "unreachable", MethodRun("astar", states=found.expanded))


def _stop(why: str | None) -> Stop:
    """A search's reason for stopping (``timeout`` or ``states``) as a result's."""
    for stop in get_args(Stop):
        if stop == why:
            return cast(Stop, stop)
    raise ValueError(f"a search stopped for an unknown reason: {why}")
