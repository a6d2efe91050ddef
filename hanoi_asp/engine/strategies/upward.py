"""Up the horizons from the lower bound: clingo refutes each, with pruning that keeps
every minimal plan, until one holds a plan (the optimum) or the lower bound reaches
the best plan in hand (which is then the optimum).

The search's effort is the scheduler's (:mod:`hanoi_asp.engine.scheduler`): beam
searches on the pattern tables bring the best plan down before clingo starts and
while it refutes horizons (:mod:`hanoi_asp.engine.shorten`), stronger tables are bought
as refuting proves costly (:mod:`hanoi_asp.engine.tables`), and A* on the same tables
races clingo on a second core (:mod:`hanoi_asp.engine.astar_race`), every decision
counted in work.
"""

from __future__ import annotations

from hanoi_asp.engine import proofs
from hanoi_asp.engine.loop import Found, Ladder, climb
from hanoi_asp.engine.scheduler import Scheduler
from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.tables import pattern_tables
from hanoi_asp.model.proof import PlanOrigin, Proof
from hanoi_asp.model.result import Result


def upward(run: SearchState) -> Result:
    """The optimum, proven by the horizons refuted below it; or what is known.  The beam
    first (its plan may end the search at once), then clingo up the horizons, the
    scheduler checking in as they go.  (The helpers here take values, not the state:
    the state's changes are its own methods', called from here and the scheduler.)"""
    assert run.strategy is not None and run.bound is not None
    with run.phase("bounds"):
        tables = pattern_tables(run.puzzle, run.strategy, run.deadline)
    with Scheduler(run, tables) as effort:
        effort.upfront()
        if run.meets():
            assert run.best is not None and run.origin is not None
            return run.optimum(run.minimal(run.origin), run.best)
        solver = effort.clingo()
        run.solvers.append(solver)
        horizons = range(run.lower, _top(run.limit, run.upper, run.states) + 1)
        ladder = Ladder(
            solver,
            horizons,
            refuted=effort.after_horizon,
            paused=effort.paused,
            spent=effort.ledger.spent,
        )
        outcome = climb(run, ladder)
    if isinstance(outcome, Found):
        return run.optimum(run.minimal(PlanOrigin("clingo", outcome.horizon)), outcome.moves)
    if outcome is not None:
        return outcome
    return _every_horizon_refuted(run)


def _top(limit: int | None, upper: int | None, states: int) -> int:
    """The last horizon worth solving: within the user's bound ``limit``, below the best
    plan (``upper``), and below the number of states (past that, no plan exists)."""
    tops = [t for t in (limit, None if upper is None else upper - 1) if t is not None]
    return min([*tops, states - 1])


def _every_horizon_refuted(run: SearchState) -> Result:
    """Every horizon up to the top was refuted: the plan in hand is minimal, or no
    plan exists at all, or none within the user's bound."""
    bound = run.known_bound()
    refuted = proofs.refuted(bound, run.lower, run.half_search)
    if run.best is not None and run.origin is not None:
        if run.meets() and run.answers():
            return run.optimum(run.minimal(run.origin), run.best)
    elif run.lower >= run.states:
        space = (len(run.puzzle.pegs), run.puzzle.disks)
        proof = Proof(kind="unreachable", bound=bound, refuted=refuted, state_space=space)
        return run.result("UNSATISFIABLE", proof, unreachable=True)
    proof = Proof(
        kind="over-limit",
        lower=run.lower,
        bound=bound,
        refuted=refuted,
        plan=run.origin,
        max_moves=run.limit,
    )
    return run.result("UNSATISFIABLE", proof)
