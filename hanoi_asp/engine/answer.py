"""The one deadline, and the engine's way to a :class:`~hanoi_asp.model.result.Result`:
the engine's search, the reference methods and a killed encoding's answer all come
through :func:`assemble` (made in :mod:`hanoi_asp.outputs.answer`, where the batch's
planners answer too).

>>> from hanoi_asp.model.options import SolveOptions
>>> deadline(SolveOptions(timeout=5.0, started=100.0), 101.0)
105.0
>>> deadline(SolveOptions(timeout=5.0), 101.0), deadline(SolveOptions(), 101.0)
(106.0, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from hanoi_asp.model.options import SolveOptions
from hanoi_asp.outputs.answer import assemble as assemble


def deadline(options: SolveOptions, started: float) -> float | None:
    """When the time limit ends (a ``time.monotonic()`` value): counted from the command's
    start where the command line set it (``options.started``), else from ``started``;
    None without a limit.  Wall time decides this, and only this: when to stop."""
    if options.timeout is None:
        return None
    return (started if options.started is None else options.started) + options.timeout


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
