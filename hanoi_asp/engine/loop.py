"""The one horizon loop, in the manner of clingo's ``examples/clingo/multishot/inc.py``:
a solver, the horizons to ask in order, and what a horizon means, as one
:class:`Ladder`; :func:`climb` asks them until one holds a plan.

A horizon refuted with pruning that keeps every minimal plan holds no minimal plan,
so once every horizon below h is refuted no plan is shorter than h's plan length:
each refutation raises the proven lower bound.  Every plan clingo gives is replayed by
the simulator (:func:`hanoi_asp.model.plan.replay`) before the search takes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from hanoi_asp.engine.clingo_calls import Steps
from hanoi_asp.engine.policy import Strategy
from hanoi_asp.engine.solver import HorizonSolver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.model.errors import EncodingPlanError, HanoiError, VerificationError
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.proof import Phase
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import HorizonRun, Result


def _same(horizon: int) -> int:
    return horizon


def _nothing(horizon: int) -> None:
    return None


def _never() -> bool:
    return False


@dataclass(frozen=True)
class Ladder:
    """What :func:`climb` asks: ``solver`` at each of ``horizons`` in turn."""

    solver: HorizonSolver
    horizons: range
    phase: Phase = "full"
    """What a horizon asks, as its records say (``full`` or ``mirror-half``)."""
    moves: Callable[[int], int] = _same
    """The plan length a horizon stands for (a half horizon h: 2h + 1)."""
    unfold: Callable[[Steps], Steps] | None = None
    """The whole plan from a horizon's answer (a half: mirrored)."""
    refuted: Callable[[int], None] = _nothing
    """Told each horizon clingo refuted, once the lower bound has risen past it; it may
    raise the lower bound further (the horizons below it are then skipped)."""
    paused: Callable[[], bool] = _never
    """Asked when a horizon's solve ended unfinished: whether the scheduler stopped it
    (:mod:`hanoi_asp.engine.scheduler`: the search over, or the bound past the horizon),
    rather than the deadline."""
    spent: Callable[[], bool] = _never
    """Whether the work budget is spent (:meth:`hanoi_asp.engine.ledger.Ledger.spent`):
    asked before each horizon and after one stopped unfinished."""


@dataclass(frozen=True)
class Found:
    """The first horizon of a ladder that holds a plan, and the plan (replayed)."""

    horizon: int
    moves: tuple[Move, ...]


def climb(run: SearchState, ladder: Ladder) -> Found | Result | None:
    """Ask the ladder's horizons in order: the first that holds a plan (:class:`Found`);
    the search's answer if it must stop first (its work budget spent, out of time, or
    the next horizon over the grounding limit); None once every horizon was refuted,
    or the lower bound has reached the best plan in hand (which is then minimal).  A
    horizon the scheduler stopped (:attr:`Ladder.paused`) is asked again, unless the
    bound has passed it."""
    for horizon in ladder.horizons:
        while ladder.moves(horizon) >= run.lower:  # else proven meanwhile
            if ladder.spent():
                return run.stop("work")
            if (stopped := run.stopped_before(horizon)) is not None:
                return stopped
            run.report(ladder.moves(horizon))
            record, moves = ask(
                run, ladder.solver, horizon, ladder.phase, ladder.moves, ladder.unfold
            )
            if record.status == "UNKNOWN":
                if ladder.spent() and not run.meets():
                    return run.stop("work")
                if not ladder.paused() or run.out_of_time():
                    return run.stop("timeout")
                if run.meets():
                    return None  # a plan found meanwhile meets the bound: minimal
                continue  # asked again, unless the bound has passed it meanwhile
            if moves is not None:
                return Found(horizon, moves)
            run.raise_lower(ladder.moves(horizon + 1), f"horizon {horizon} refuted")
            ladder.refuted(horizon)
            if run.meets():
                return None  # a plan found meanwhile (the beam, A*) meets the bound
            break
    return None


def ask(
    run: SearchState,
    solver: HorizonSolver,
    horizon: int,
    phase: Phase = "full",
    moves: Callable[[int], int] = _same,
    unfold: Callable[[Steps], Steps] | None = None,
) -> tuple[HorizonRun, tuple[Move, ...] | None]:
    """Solve one horizon: clingo's answer, recorded on the run, and its plan as the
    simulator replays it (None if there is none)."""
    assert run.strategy is not None
    strategy = run.strategy
    record, steps = answer(strategy, horizon, partial(solver.run, horizon, run.deadline))
    run.horizons.append(record.as_phase(phase))
    if steps is not None and unfold is not None:
        steps = unfold(steps)
    return record, verified(run.puzzle, strategy, moves(horizon), steps)


def answer(
    strategy: Strategy, horizon: int, call: Callable[[], tuple[HorizonRun, Steps | None]]
) -> tuple[HorizonRun, Steps | None]:
    """A solver's answer; a malformed one (no move at a step, two at one) is blamed as
    :func:`verified` blames a rejected plan."""
    try:
        return call()
    except VerificationError as error:
        raise _blame(strategy, horizon, error) from None


def verified(
    puzzle: Puzzle, strategy: Strategy, horizon: int, steps: Steps | None
) -> tuple[Move, ...] | None:
    """The simulator's replay of a solver's steps (None if it has none)."""
    if steps is None:
        return None
    try:
        return replay(puzzle, steps)
    except VerificationError as error:
        raise _blame(strategy, horizon, error) from None


def _blame(strategy: Strategy, horizon: int, error: VerificationError) -> HanoiError:
    """A plan the simulator rejects from a user's encoding is the user's error (exit 2,
    naming the first bad step); from the shipped encodings it is ours (exit 4)."""
    if not strategy.user_encoding:
        return error
    return EncodingPlanError(
        f"the encoding's plan of {horizon} moves is illegal or incomplete: {error.message}",
        path=strategy.encoding.name,
    )
