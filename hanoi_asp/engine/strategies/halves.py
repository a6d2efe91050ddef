"""A whole tower without an exact bound: up the half horizons (:mod:`hanoi_asp.engine.mirror`).

Every plan of a whole tower has at least 2H + 1 moves, H the fewest moves that clear
the smaller disks off the start peg and one other, and the mirror of such a half is a
plan of 2H + 1 moves.  So clingo refutes half horizons upward, each raising the lower
bound by two, with the pattern propagator on tables toward the half's end: the first
half horizon that holds a half gives the optimum (its mirror), and reaching the best
plan in hand proves that plan.  Nothing is scheduled here (no beam, no race, no
purchase): a work budget (``--work``) counts the half's tables and the propagator's
calls in a ledger of its own (:mod:`hanoi_asp.engine.ledger`), checked at every call.
"""

from __future__ import annotations

from functools import partial

from hanoi_asp.engine.ledger import Ledger
from hanoi_asp.engine.loop import Found, Ladder, climb
from hanoi_asp.engine.mirror import half_puzzle, half_tables, mirrored_length, unfold
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods.patterns import estimate, tables_price
from hanoi_asp.model.proof import HalfSearch, PlanOrigin
from hanoi_asp.model.result import Result


def halves(run: SearchState) -> Result:
    """The optimum 2H + 1 of a whole tower; or what is known."""
    assert run.strategy is not None and run.bound is not None
    strategy, puzzle, bound = run.strategy, run.puzzle, run.bound
    try:
        with run.phase("bounds"):
            tables = half_tables(puzzle, run.deadline)
    except TimeoutError:
        return run.stop("timeout")
    by_tables = estimate(tables, puzzle.initial_state())
    first = max(bound.value // 2, by_tables)
    ledger = Ledger(tables_price(half_puzzle(puzzle), tables), budget=run.options.work)
    counted = None if ledger.budget is None else ledger.in_clingo
    solver = make_solver(
        puzzle, strategy, minimal=True, phase="mirror-half", tables=tables, checkpoint=counted
    )
    run.solvers.append(solver)
    run.raise_lower(2 * first + 1, "half-search")
    run.half_search = HalfSearch(first, by_tables, first)

    def refuted(half: int) -> None:
        run.half_search = HalfSearch(first, by_tables, half + 1)

    top = run.upper if run.upper is not None else 2 * run.states
    ladder = Ladder(
        solver,
        range(first, top // 2),  # the half horizons h with 2h + 1 < top
        phase="mirror-half",
        moves=mirrored_length,
        unfold=partial(unfold, puzzle),
        refuted=refuted,
        spent=ledger.spent,
    )
    outcome = climb(run, ladder)
    if isinstance(outcome, Found):
        origin = PlanOrigin("mirror", len(outcome.moves), half=outcome.horizon)
        return run.optimum(run.minimal(origin), outcome.moves)
    if outcome is not None:
        return outcome
    assert run.best is not None and run.origin is not None
    return run.optimum(run.minimal(run.origin), run.best)
