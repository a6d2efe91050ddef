"""The one place a :class:`~hanoi_asp.model.result.Result` is made: its proof worded from
its data (:mod:`hanoi_asp.outputs.proof`), the time taken, where the puzzle came from.

The engine (its search, the reference methods, a killed encoding's answer, through
:mod:`hanoi_asp.engine.answer`) and the batch's classical planners
(:mod:`hanoi_asp.batch.planners`) both answer through :func:`assemble`; it lives here,
below both layers, because the proof's words are an output's.
"""

from __future__ import annotations

import time

from typing_extensions import TypedDict, Unpack

from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move
from hanoi_asp.model.proof import Proof, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import (
    AnswerMethod,
    FirstPlan,
    HorizonRun,
    LowerBound,
    Mode,
    Result,
    Verdict,
)
from hanoi_asp.outputs.proof import proof_sentence


class Details(TypedDict, total=False):
    """What a result may say beyond its verdict, bounds and proof, by the name of its
    field; one not given is the :class:`~hanoi_asp.model.result.Result`'s default."""

    method: AnswerMethod
    mode: Mode | None
    exact_moves: int | None
    stopped: Stop | None
    unreachable: bool
    horizons: tuple[HorizonRun, ...]
    threads: int | None
    programs: tuple[str, ...]
    first_plan: FirstPlan | None
    timings: tuple[tuple[str, float], ...]


def assemble(
    puzzle: Puzzle,
    options: SolveOptions,
    started: float,
    verdict: Verdict,
    proof: Proof,
    *,
    plan: tuple[Move, ...] | None = None,
    bound: LowerBound,
    lower: int | None,
    upper: int | None = None,
    max_moves: int | None = None,
    **details: Unpack[Details],
) -> Result:
    """The result of a solve that began at ``started`` (a ``time.monotonic()`` reading):
    the proof worded from its data, the time taken, where the puzzle came from."""
    return Result(
        puzzle=puzzle,
        result=verdict,
        plan=plan,
        bound=bound,
        lower_bound=lower,
        upper_bound=upper,
        max_moves=max_moves,
        proof=proof_sentence(proof),
        proof_data=proof,
        time_s=time.monotonic() - started,
        source=options.source,
        **details,
    )
