"""The one place a :class:`~hanoi_asp.model.result.Result` is made, and the one deadline:
the engine's search, the reference methods and a killed encoding's answer all come
through here.

>>> from hanoi_asp.model.options import SolveOptions
>>> deadline(SolveOptions(timeout=5.0, started=100.0), 101.0)
105.0
>>> deadline(SolveOptions(timeout=5.0), 101.0), deadline(SolveOptions(), 101.0)
(106.0, None)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move
from hanoi_asp.model.proof import Proof, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import (
    FirstPlan,
    HorizonRun,
    LowerBound,
    Method,
    Mode,
    Result,
    Verdict,
)
from hanoi_asp.outputs.proof import proof_sentence


def deadline(options: SolveOptions, started: float) -> float | None:
    """When the time limit ends (a ``time.monotonic()`` value): counted from the command's
    start where the command line set it (``options.started``), else from ``started``;
    None without a limit.  Wall time decides this, and only this: when to stop."""
    if options.timeout is None:
        return None
    return (started if options.started is None else options.started) + options.timeout


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
    method: Method = "asp",
    mode: Mode | None = None,
    exact_moves: int | None = None,
    stopped: Stop | None = None,
    unreachable: bool = False,
    horizons: tuple[HorizonRun, ...] = (),
    threads: int | None = None,
    programs: tuple[str, ...] = (),
    first_plan: FirstPlan | None = None,
    timings: tuple[tuple[str, float], ...] = (),
) -> Result:
    """The result of a solve that began at ``started``: the proof worded from its data
    (:mod:`hanoi_asp.outputs.proof`), the time taken, where the puzzle came from."""
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
        method=method,
        mode=mode,
        exact_moves=exact_moves,
        stopped=stopped,
        first_plan=first_plan,
        horizons=horizons,
        unreachable=unreachable,
        threads=threads,
        programs=programs,
        source=options.source,
        timings=timings,
    )


class Clocked(Protocol):
    """A clingo driver's clocks (:class:`~hanoi_asp.engine.clingo_calls.ClingoCalls`)."""

    grounding: float
    solving: float


class Solver(Protocol):
    @property
    def calls(self) -> Clocked: ...


def phases(timings: dict[str, float], solvers: Sequence[Solver]) -> tuple[tuple[str, float], ...]:
    """Every phase's seconds, clingo's grounding and search (its solvers') included."""
    timings = dict(timings)
    for solver in solvers:
        timings["grounding"] = timings.get("grounding", 0.0) + solver.calls.grounding
        timings["solving"] = timings.get("solving", 0.0) + solver.calls.solving
    order = ("first_plan", "bounds", "grounding", "solving")
    return tuple((phase, timings.get(phase, 0.0)) for phase in order)
