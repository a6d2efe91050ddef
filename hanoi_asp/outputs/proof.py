"""A proof in words: the ``proof`` sentence of a result, worded from its data.

>>> from hanoi_asp.model.proof import Horizons, LowerBound, PlanOrigin, Proof
>>> bound = LowerBound(4, "misplaced-disks", "4 disk(s) start off their goal peg; ...")
>>> proof = Proof(kind="refuted-horizons", lower=15, bound=bound, refuted=Horizons(4, 14),
...               plan=PlanOrigin("constructive", 15))
>>> print(proof_sentence(proof))  # doctest: +NORMALIZE_WHITESPACE
minimal: horizons 4..14 proven unsatisfiable by clingo, and no plan is shorter than 4
(misplaced-disks); the plan is the constructive plan built before the search

The engine and the reference methods build a :class:`~hanoi_asp.model.proof.Proof`;
this module is the only place that says it in English.  One function per kind.
"""

from __future__ import annotations

from collections.abc import Callable

from hanoi_asp.model.proof import LowerBound, MethodRun, PlanOrigin, Proof, ProofKind

HALVES_ARGUMENT = (
    "every plan of a whole tower has at least 2H + 1 moves, H the fewest moves taking "
    "the smaller disks off the start peg and one other: they are off the start peg and "
    "the largest disk's target before its first move, and likewise after its last move "
    "backwards (hanoi_asp/engine/mirror.py)"
)
MIRRORED = (
    "the largest disk's move, and those moves backwards with start and goal pegs swapped "
    "(mirror phase)"
)
STOPPED_REASONS = {
    "limit": "stopped: the next horizon is over the grounding limit",
    "interrupt": "interrupted",
}


def proof_sentence(proof: Proof) -> str:
    """The sentence ``solve`` prints after ``proof:`` and ``--json`` gives as ``proof``."""
    return _WORDS[proof.kind](proof) + _method_bound(proof)


def plan_origin(plan: PlanOrigin) -> str:
    """Where a plan came from, e.g. ``the constructive plan built before the search``."""
    if plan.source == "beam":
        return f"found by a beam search of width {plan.width}"
    if plan.source == "astar":
        return "found by A* racing clingo on the same tables"
    if plan.source == "planner":
        return "found by a classical planner"
    if plan.source == "mirror":
        return f"found as {plan.half} moves by clingo, {MIRRORED}"
    return f"the {plan.source} plan built before the search"


def refuted(bound: LowerBound, lower: int) -> str:
    """What is proven once every horizon below ``lower`` has been refuted (those below
    the bound by the bound)."""
    if lower <= bound.value:
        if bound.value == 0:
            return "no horizon was refuted yet (no lower bound was used)"
        return f"no plan has fewer than {bound.value} moves (lower bound: {bound.name})"
    if bound.value == 0:
        return f"no plan has fewer than {lower} moves: 0..{lower - 1} proven unsatisfiable"
    return (
        f"no plan has fewer than {lower} moves: fewer than {bound.value} by the "
        f"lower bound ({bound.name}), {bound.value}..{lower - 1} proven unsatisfiable"
    )


def _minimal(proof: Proof) -> str:
    """``meets-bound`` and ``refuted-horizons``: the plan's length is proven minimal."""
    bound, plan = _bound(proof), proof.plan
    if proof.method is not None:  # A* stopped, and the plan built first meets its bound
        assert plan is not None
        return f"minimal: the plan built first ({plan.source}) meets the bound; " + _astar_stop(
            proof.method
        )
    if proof.refuted is None:
        text = (
            f"minimal: the plan meets the lower bound {bound.value} "
            f"({bound.name}: {bound.argument})"
        )
    elif bound.value == 0:
        text = f"minimal: horizons 0..{proof.refuted.last} proven unsatisfiable by clingo"
    else:
        text = (
            f"minimal: horizons {bound.value}..{proof.refuted.last} proven unsatisfiable by "
            f"clingo, and no plan is shorter than {bound.value} ({bound.name})"
        )
    if plan is None or plan.source == "clingo":
        return text
    if plan.source == "planner":
        return "found by a classical planner"
    if plan.source == "mirror":
        return f"{text}; {plan_origin(plan)}"
    return f"{text}; the plan is {plan_origin(plan)}"


def _half_search(proof: Proof) -> str:
    """``half-search``: minimal by the half search, the plan its mirror or one in hand."""
    assert proof.half_search is not None and proof.plan is not None
    half = proof.half_search.reached
    if proof.plan.source == "mirror":
        return (
            f"minimal: {_halves_proven(proof)}; a half of {half} moves exists, so H = {half}: "
            f"its mirror, {2 * half + 1} moves, is the plan"
        )
    return f"minimal: {_halves_proven(proof)}; the plan is {plan_origin(proof.plan)}"


def _halves_proven(proof: Proof) -> str:
    """What the half search has proven so far."""
    assert proof.half_search is not None
    bound, first, half = _bound(proof), proof.half_search.first, proof.half_search.reached
    tables = proof.half_search.tables
    if tables >= bound.value // 2:
        why = f"the half's pattern tables give {tables}"
    else:
        why = f"2H + 1 is at least the lower bound {bound.value} ({bound.name})"
    done = ""
    if half == first + 1:
        done = f"; clingo refuted half horizon {first}"
    elif half > first + 1:
        done = f"; clingo refuted half horizons {first}..{half - 1}"
    return (
        f"no plan has fewer than {2 * half + 1} moves: {HALVES_ARGUMENT}; H >= {first} "
        f"({why}){done}, so H >= {half}"
    )


def _over_limit(proof: Proof) -> str:
    """``over-limit``: no plan within the user's bound."""
    limit, method = proof.max_moves, proof.method
    head = f"no plan of at most {limit} moves"
    if method is not None:
        if method.method == "bfs":
            states = method.states
            return f"{head}: breadth-first search to depth {limit} ({states} states) found none"
        if method.method == "astar":
            return f"{head}: A* proved the optimum is {method.lower}"
        return f"{head}: the optimum for this tower is {method.lower}"
    bound = _bound(proof)
    if proof.refuted is None:
        return f"{head}: the lower bound is {bound.value} ({bound.name})"
    assert proof.lower is not None
    text = f"{head}: {refuted(bound, proof.lower)}"
    if proof.plan is not None:
        text += f"; a plan of {proof.plan.length} moves exists"
    return text


def _unreachable(proof: Proof) -> str:
    """``unreachable``: no plan of any length."""
    method = proof.method
    if method is not None and method.method == "astar":
        return (
            f"no plan exists at all: A* expanded all {method.states} reachable states "
            "and none meets the goal"
        )
    if method is not None:
        return (
            f"no plan exists at all: breadth-first search visited all {method.states} "
            "reachable states and none meets the goal"
        )
    bound = _bound(proof)
    if proof.state_space is None:
        return f"no plan exists at all: {bound.argument}"
    pegs, disks = proof.state_space
    below = bound.value if proof.refuted is None else proof.refuted.last + 1
    return (
        f"no plan exists at all: horizons up to {below - 1} proven unsatisfiable, and a "
        f"shortest plan visits each of the {pegs}^{disks} states at most once"
    )


def _exact_moves(proof: Proof) -> str:
    """``exact-moves``: the answer to "is there a plan of exactly M moves?"."""
    moves = proof.exact_moves
    if proof.plan is not None:
        return f"a plan of exactly {moves} moves (not claimed minimal)"
    if proof.stopped == "interrupt":
        return f"interrupted before deciding whether a plan of exactly {moves} moves exists"
    if proof.stopped is not None:
        return f"stopped before deciding whether a plan of exactly {moves} moves exists"
    return f"clingo proved that no plan has exactly {moves} moves"


def _stopped(proof: Proof) -> str:
    """``stopped``: what was proven before the stop, and the best plan with its gap."""
    if proof.method is not None:
        return _method_stopped(proof, proof.method)
    assert proof.stopped is not None and proof.lower is not None
    if proof.stopped == "timeout":
        reason = f"stopped at the time limit ({proof.time_limit} s)"
    elif proof.stopped == "work":
        reason = f"stopped at its work budget ({proof.work_limit} units of work)"
    else:
        reason = STOPPED_REASONS[proof.stopped]
    if proof.half_search is not None:
        known = _halves_proven(proof)
    else:
        known = refuted(_bound(proof), proof.lower)
    text, plan, limit = f"{reason}: {known}", proof.plan, proof.max_moves
    if plan is None:
        return text
    if limit is None or plan.length <= limit:
        gap = plan.length - proof.lower
        return (
            f"{text}; the best plan found has {plan.length} moves ({plan_origin(plan)}), "
            f"not proven minimal: the optimum is {proof.lower}..{plan.length} (gap {gap})"
        )
    return f"{text}; a plan of {plan.length} moves exists, over the bound of {limit}"


def _killed(proof: Proof) -> str:
    """``killed``: the process running a user's encoding was ended."""
    if proof.stopped == "memory":
        limit = f"over the memory limit of {proof.memory_limit} bytes"
    else:
        limit = f"killed at the hard time limit of {proof.time_limit:g} s"
    return (
        f"stopped, {limit}, before any plan was found (clingo cannot interrupt "
        "the grounding of an encoding, so its process was ended)"
    )


def _method(proof: Proof) -> str:
    """``method``: a reference method's own argument for its plan."""
    assert proof.method is not None and proof.plan is not None
    method, length = proof.method, proof.plan.length
    if method.method == "bfs":
        return (
            f"minimal: breadth-first search reaches the goal first at depth {length} "
            f"({method.states} states stored)"
        )
    if method.method == "astar":
        return (
            f"minimal: A* with pattern-database estimates (admissible and consistent) "
            f"reaches the goal first at {length} moves ({method.states} states expanded)"
        )
    if length == 0:
        return "minimal: the start already meets the goal"
    if method.method == "recursive":
        return "minimal: the classic recursion's 2^n - 1 moves"
    if method.pegs == 3:
        return "minimal: on 3 pegs Frame-Stewart is the classic recursion, 2^n - 1 moves"
    if method.pegs == 4:
        return "minimal: Frame-Stewart is optimal for 4 pegs (Bousch 2014)"
    return (
        f"Frame-Stewart plan; its optimality for {method.pegs} pegs is the unproven "
        "Frame-Stewart conjecture: not claimed minimal"
    )


def _planner(proof: Proof) -> str:
    """``planner``: whose claim the answer is (a classical planner's), and what
    hanoi-asp checked (the plan, replayed)."""
    assert proof.planner is not None
    run, plan, limit = proof.planner, proof.plan, proof.max_moves
    who = f"{run.name} ({run.planner})"
    if proof.stopped == "timeout":
        return f"stopped at the time limit ({proof.time_limit:g} s) before {who} answered"
    if proof.stopped == "memory":
        return f"stopped: {who} went over the memory limit of {proof.memory_limit} bytes"
    if plan is None:
        if proof.bound is not None and proof.bound.unreachable:
            return f"no plan exists at all, by {run.name}'s claim: {run.planner} searched it all"
        return f"{who} ended without a plan and without proving there is none"
    replayed = "its plan was replayed by hanoi-asp's simulator"
    if limit is not None and plan.length > limit:
        if run.optimal:
            return (
                f"no plan of at most {limit} moves, by {run.name}'s claim: its optimal "
                f"search's plan has {plan.length} moves ({replayed})"
            )
        return f"{who} found a plan of {plan.length} moves, over the bound of {limit}"
    if run.optimal:
        return (
            f"minimal by {run.name}'s claim (planner:{run.planner}, an optimal search); "
            f"{replayed}, which does not prove it minimal"
        )
    return f"a plan found by {who}, {replayed}; not claimed minimal (not an optimal search)"


def _method_stopped(proof: Proof, method: MethodRun) -> str:
    """A reference method stopped before its proof."""
    if proof.stopped == "interrupt":
        return f"{method.method} interrupted"
    if proof.stopped == "max_moves":
        assert proof.plan is not None
        return (
            f"the Frame-Stewart plan has {proof.plan.length} moves, over the limit of "
            f"{proof.max_moves}"
        )
    if method.method == "bfs":
        return (
            f"no plan has fewer than {method.lower} moves (breadth-first search, "
            f"{method.states} states), then stopped"
        )
    text = _astar_stop(method)
    if proof.plan is not None:
        text += f"; the plan built first ({proof.plan.source}) has {proof.plan.length} moves"
    return text


def _astar_stop(method: MethodRun) -> str:
    """What A* proved before it stopped."""
    why = "out of time" if method.stopped == "timeout" else "its memory budget is full"
    return (
        f"no plan has fewer than {method.lower} moves (A*: every state with a smaller "
        f"estimate expanded, {method.states} states), then stopped: {why}"
    )


def _method_bound(proof: Proof) -> str:
    """A reference method's answer short of a minimal plan names the engine's lower
    bound where it proves more than the method did."""
    method, bound = proof.method, proof.bound
    if method is None or bound is None or proof.lower is None:
        return ""
    if proof.kind not in ("stopped", "over-limit", "method") or bound.value <= method.lower:
        return ""
    return f"; no plan has fewer than {bound.value} moves (lower bound: {bound.name})"


def _bound(proof: Proof) -> LowerBound:
    assert proof.bound is not None
    return proof.bound


_WORDS: dict[ProofKind, Callable[[Proof], str]] = {
    "meets-bound": _minimal,
    "refuted-horizons": _minimal,
    "half-search": _half_search,
    "over-limit": _over_limit,
    "unreachable": _unreachable,
    "exact-moves": _exact_moves,
    "stopped": _stopped,
    "killed": _killed,
    "method": _method,
    "planner": _planner,
}
