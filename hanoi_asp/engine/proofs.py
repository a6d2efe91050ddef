"""The proofs a search's answers carry, built from what it has proven (the search's bound,
the lower bound reached, the half search's progress, where the plan came from).

>>> from hanoi_asp.model.proof import LowerBound, PlanOrigin
>>> bound = LowerBound(4, "misplaced-disks", "...")
>>> minimal(bound, PlanOrigin("clingo", 7), None, None).refuted
Horizons(first=4, last=6, phase='full')
"""

from __future__ import annotations

from hanoi_asp.model.proof import (
    HalfSearch,
    Horizons,
    LowerBound,
    PlanOrigin,
    Proof,
    ProofKind,
    Stop,
)


def refuted(bound: LowerBound, lower: int, half: HalfSearch | None) -> Horizons | None:
    """The horizons clingo refuted on the way from ``bound`` up to ``lower`` (the half
    horizons, where the half search ran)."""
    if half is not None:
        first, reached = half.first, half.reached
        return Horizons(first, reached - 1, "mirror-half") if reached > first else None
    return Horizons(bound.value, lower - 1) if lower > bound.value else None


def minimal(
    bound: LowerBound, origin: PlanOrigin, half: HalfSearch | None, limit: int | None
) -> Proof:
    """A plan of the proven lower bound's length, from ``origin``: it meets the bound, or
    every shorter horizon was refuted (by the half search, where it ran)."""
    horizons = refuted(bound, origin.length, half)
    kind: ProofKind = "meets-bound" if horizons is None else "refuted-horizons"
    return Proof(
        kind="half-search" if half is not None else kind,
        lower=origin.length,
        bound=bound,
        refuted=horizons,
        half_search=half,
        plan=origin,
        max_moves=limit,
    )


def stopped(
    bound: LowerBound,
    lower: int,
    half: HalfSearch | None,
    plan: PlanOrigin | None,
    why: Stop,
    timeout: float | None,
    limit: int | None,
    exact_moves: int | None,
    work: int | None = None,
) -> Proof:
    """A search stopped before its proof (``why``): what it proved, and its best plan;
    for the question of a plan of exactly ``exact_moves`` moves, that it has no answer."""
    if exact_moves is not None:
        return Proof(
            kind="exact-moves", lower=lower, bound=bound, stopped=why, exact_moves=exact_moves
        )
    return Proof(
        kind="stopped",
        lower=lower,
        bound=bound,
        refuted=refuted(bound, lower, half),
        half_search=half,
        plan=plan,
        stopped=why,
        time_limit=timeout if why == "timeout" else None,
        work_limit=work if why == "work" else None,
        max_moves=limit,
    )
