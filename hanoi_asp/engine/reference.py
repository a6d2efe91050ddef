"""Run a reference method and report its plan like the ASP planner does.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> r = solve_with_method(p, SolveOptions(method="recursive"))
>>> r.result, r.length, r.method
('OPTIMUM FOUND', 7, 'recursive')
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from typing import cast, get_args

from hanoi_asp.engine.bounds import lower_bound, misplaced_disks, whole_tower
from hanoi_asp.engine.first_plan import build_first_plan
from hanoi_asp.methods import astar, bfs
from hanoi_asp.methods.frame_stewart import frame_stewart_count, frame_stewart_moves
from hanoi_asp.methods.recursive import tower_moves
from hanoi_asp.model.errors import InputError, LimitError
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import MethodRun, PlanOrigin, Proof, ProofKind, ReferenceMethod, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Method, Result, Verdict
from hanoi_asp.outputs.proof import proof_sentence

BOUND_SECONDS = 1.0
"""Most time spent on the lower bound a reference method's result reports."""
ASTAR_MEMORY = 3 * 2**30
"""Most memory A*'s states take by default (the engine's peak stays under 4 GiB)."""


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
    """``options.method`` is ``recursive``, ``frame-stewart``, ``bfs`` or ``astar``."""
    started = time.monotonic()
    options.limits.check_size(pegs=len(puzzle.pegs), disks=puzzle.disks, where=options.source)
    limit = options.move_limit(puzzle)
    origin = started if options.started is None else options.started
    deadline = None if options.timeout is None else origin + options.timeout
    bound = misplaced_disks(puzzle)
    method = _reference(options.method)
    try:
        if options.method == "bfs":
            answer = _breadth_first(puzzle, options, limit, deadline)
        elif options.method == "astar":
            answer = _astar(puzzle, options, limit, deadline)
        else:
            answer = _tower(puzzle, options, limit)
        plan = None if answer.steps is None else replay(puzzle, answer.steps)
        # after the method, briefly: the bound is context here, not the answer
        budget = time.monotonic() + BOUND_SECONDS
        bound = lower_bound(puzzle, options.bound, min(budget, deadline or budget))
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
    return Result(
        puzzle=puzzle,
        result=answer.verdict,
        plan=plan,
        bound=bound,
        lower_bound=lower,
        upper_bound=None if plan is None else len(plan),
        max_moves=limit,
        proof=proof_sentence(proof),
        proof_data=proof,
        time_s=time.monotonic() - started,
        method=options.method,
        stopped=answer.stopped,
        unreachable=answer.unreachable,
        source=options.source,
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
            f"the plan has {count} moves, over the limit of {options.limits.moves} "
            f"(raise it with --limit moves={count})",
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


def astar_budget(limits: Limits, puzzle: Puzzle) -> int:
    """How many states A* may store on the puzzle: ``--limit states=N`` when given, else
    as many as half the memory available now holds, at most :data:`ASTAR_MEMORY`
    (:func:`hanoi_asp.methods.astar.states_within`; never fewer than the default
    limit).  A* stopped by its budget still answers with the plan built first and its
    proven bound, so the budget decides how much it can prove, not whether it
    answers."""
    if limits.states_given:
        return limits.states
    room = min(available_memory() // 2, ASTAR_MEMORY)
    return max(limits.states, astar.states_within(puzzle, room))


def available_memory() -> int:
    """Bytes this process could still take: the kernel's MemAvailable, within the
    address-space limit (``ulimit -v``) if one is set; 0 where neither can be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            fields = dict(line.split(":", 1) for line in meminfo)
        free = int(fields["MemAvailable"].split()[0]) * 1024
    except (OSError, KeyError, ValueError):
        return 0
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return free if soft == resource.RLIM_INFINITY else min(free, soft)


def _astar(
    puzzle: Puzzle, options: SolveOptions, limit: int | None, deadline: float | None
) -> Answer:
    """A*'s optimum; stopped by the deadline or its memory budget, the plan built first
    (replayed) with the lower bound A* proved, as the engine's anytime answer."""
    start = build_first_plan(puzzle, options, deadline)
    budget = astar_budget(options.limits, puzzle)
    found, _ = astar.search_buying_tables(puzzle, None, max_states=budget, deadline=deadline)
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
