"""The quickstart's question: is there a plan of exactly M moves?  One horizon, asked
without the pruning that keeps only minimal plans (a plan of M moves need not be
minimal), so clingo's UNSAT there proves that no plan has exactly M moves.
"""

from __future__ import annotations

from hanoi_asp.engine.bounds import lower_bound
from hanoi_asp.engine.loop import ask
from hanoi_asp.engine.policy import choose_strategy
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.tables import pattern_tables
from hanoi_asp.model.proof import PlanOrigin, Proof
from hanoi_asp.model.result import Result, Verdict


def exact(run: SearchState) -> Result:
    """SATISFIABLE with a plan of exactly ``options.exact_moves`` moves, UNSATISFIABLE,
    or (stopped) UNKNOWN."""
    puzzle, options, moves = run.puzzle, run.options, run.options.exact_moves
    assert moves is not None
    pegs, disks = len(puzzle.pegs), puzzle.disks
    options.limits.check_horizon(horizon=moves, pegs=pegs, disks=disks, where=options.source)
    with run.phase("bounds"):
        bound = lower_bound(puzzle, options.bound, run.deadline)
    run.start_from(bound)
    strategy = run.strategy = choose_strategy(puzzle, options, None)
    if bound.unreachable:
        proof = Proof(kind="unreachable", bound=bound, exact_moves=moves)
        return run.result("UNSATISFIABLE", proof, unreachable=True, exact_moves=moves)
    with run.phase("bounds"):
        tables = pattern_tables(puzzle, strategy, run.deadline)
    solver = make_solver(puzzle, strategy, minimal=False, tables=tables)
    run.solvers.append(solver)
    record, found = ask(run, solver, moves)
    if found is None and record.status != "UNSAT":
        return run.stop("timeout")
    verdict: Verdict = "UNSATISFIABLE" if found is None else "SATISFIABLE"
    origin = None if found is None else PlanOrigin("clingo", moves)
    if found is not None and origin is not None:
        run.offer(found, origin)
    proof = Proof(kind="exact-moves", lower=run.lower, bound=bound, plan=origin, exact_moves=moves)
    return run.result(verdict, proof, found, exact_moves=moves)
