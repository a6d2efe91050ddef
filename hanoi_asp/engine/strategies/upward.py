"""Up the horizons from the lower bound: clingo refutes each, with pruning that keeps
every minimal plan, until one holds a plan (the optimum) or the lower bound reaches
the best plan in hand (which is then the optimum).

Before clingo starts, and then as it pays while clingo refutes horizons, beam searches
on the pattern tables bring the best plan down (:mod:`hanoi_asp.engine.shorten`); the
propagator is handed every cut once that pays
(:func:`~hanoi_asp.engine.tables.check_every_cut`).  A* on the same tables races both
on a spare core once the search has run a moment (:mod:`hanoi_asp.engine.astar_race`).
"""

from __future__ import annotations

from hanoi_asp.engine.astar_race import AstarRival
from hanoi_asp.engine.loop import Found, Ladder, climb
from hanoi_asp.engine.policy import make_solver
from hanoi_asp.engine.shorten import Shortener
from hanoi_asp.engine.solver import HorizonSolver
from hanoi_asp.engine.state import SearchState
from hanoi_asp.engine.tables import check_every_cut, timed_tables
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.proof import PlanOrigin, Proof
from hanoi_asp.model.result import Result


def upward(run: SearchState) -> Result:
    """The optimum, proven by the horizons refuted below it; or what is known."""
    assert run.strategy is not None and run.bound is not None
    strategy = run.strategy
    tables = timed_tables(run, strategy)
    rival = AstarRival(run, tables)
    try:
        rival.start_if_due()
        outcome = _climb(run, tables, rival)
    finally:
        rival.close()
    if isinstance(outcome, Found):
        return run.optimum(run.minimal(PlanOrigin("clingo", outcome.horizon)), outcome.moves)
    if outcome is not None:
        return outcome
    return _every_horizon_refuted(run)


def _climb(
    run: SearchState, tables: Partitioned | None, rival: AstarRival
) -> Found | Result | None:
    """The beam first (its plan may end the search at once), then clingo up the
    horizons, the rival's answer and the beam's next plans taken in as they come."""
    assert run.strategy is not None
    strategy = run.strategy
    shortener = Shortener(run, tables)
    shortener.interrupt = lambda: _search_over(run, rival)
    shortener.upfront()
    rival.take()
    if run.meets():
        assert run.best is not None and run.origin is not None
        return run.optimum(run.minimal(run.origin), run.best)
    solver = make_solver(run.puzzle, strategy, minimal=True, tables=tables)
    run.solvers.append(solver)
    widen = _Widen(run, solver, rival, shortener)
    solver.calls.interrupt = widen.interrupt
    horizons = range(run.lower, _top(run) + 1)
    return climb(run, Ladder(solver, horizons, refuted=widen, rival_answered=widen.cancelled))


def _search_over(run: SearchState, rival: AstarRival) -> bool:
    """Asked by the beam after each layer: A* started if due (the beam runs with no
    clingo thread, as A*'s fork needs; else, where the tables came from the cache in
    a few milliseconds, A* waited for the widths up front, up to 1.5 s under a time
    limit: random4-n12-full-2's warm solve took 1.9 s against 0.7 s cold), A*'s
    answer taken in if it has come, and whether the search is over so (its plan meets
    its bound).  A* stopped at the time limit only raises the bound: a beam given up
    then lost the plan at the limit (on random4-n14-full-6 under ``--timeout 5``, its
    70 moves: the answer stayed at 78)."""
    rival.start_if_due()
    rival.take()
    return run.meets()


class _Widen:
    """After each refuted horizon: A*'s answer taken in if it has come (and if it proved
    the plan in hand, nothing else), A* started once due (:class:`AstarRival`), the
    beam's next width if due (:class:`Shortener`), and until it is done,
    :func:`check_every_cut`.  (Before A*'s proof ended it, the purchase went on with A*
    no longer racing, so free to buy the strong tables: on 4 pegs with 12 disks, one
    exact table, 2.2 s, built after the search was over.)"""

    def __init__(
        self, run: SearchState, solver: HorizonSolver, rival: AstarRival, shortener: Shortener
    ) -> None:
        self.run, self.solver, self.rival, self.shortener = run, solver, rival, shortener
        self.done = False
        self.beam_due = False
        """The last cancel was for the beam's next width."""

    def __call__(self, horizon: int) -> None:
        assert self.run.strategy is not None
        if self.rival.take() and self.run.meets():
            return  # A*'s answer proved the plan: the search ends, nothing is worth buying
        self.rival.start_if_due()
        self.shortener.step_if_due()
        if not self.done:
            buy_strong = not self.rival.racing()  # else A* builds them: wait till they are free
            shortener = self.shortener
            self.done = check_every_cut(
                self.run,
                self.run.strategy,
                self.solver,
                buy_strong,
                on_tables=shortener.retable,
                beam_time=shortener.spent,
            )

    def interrupt(self) -> bool:
        """Polled while clingo solves: cancel its horizon for A*'s answer or the beam's
        next width (remembered for :meth:`cancelled`)."""
        if self.rival.finished():
            return True
        self.beam_due = self.shortener.due()
        return self.beam_due

    def cancelled(self) -> bool:
        """A horizon's solve was cancelled before the deadline: whether by
        :meth:`interrupt` (A*'s answer taken in, the beam's width run here; the horizon
        is then asked again), as it was asked: a width due then is due still, though
        the time limit's last call may have passed meanwhile."""
        answered = self.rival.take()
        beam, self.beam_due = self.beam_due, False
        if beam and self.shortener.active():  # (a solve may end before its cancel is seen)
            self.shortener.step()  # skipped if A*'s answer, taken in above, ended the search
        return answered or beam


def _top(run: SearchState) -> int:
    """The last horizon worth solving: within the user's bound, below the best plan,
    and below the number of states (past that, no plan exists at all)."""
    upper = run.upper
    tops = [t for t in (run.limit, None if upper is None else upper - 1) if t is not None]
    return min([*tops, run.states - 1])


def _every_horizon_refuted(run: SearchState) -> Result:
    """Every horizon up to the top was refuted: the plan in hand is minimal, or no
    plan exists at all, or none within the user's bound."""
    bound = run.known_bound()
    refuted = run.refuted(bound, run.lower)
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
