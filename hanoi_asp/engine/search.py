"""The anytime search: a plan at once, then a proven lower bound that rises to meet it.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (3,), "b": (1, 2)},
...            goal={"c": (1, 2, 3)})
>>> r = search(p, SolveOptions())
>>> r.result, r.length, r.lower_bound, r.upper_bound
('OPTIMUM FOUND', 4, 4, 4)

Every strategy (:mod:`hanoi_asp.engine.strategies`) starts the same way, here: a plan
built before the search (:mod:`hanoi_asp.engine.first_plan`), its length the first
upper bound; a sound lower bound (:mod:`hanoi_asp.engine.bounds`); the strategy the
policy chooses for them (:mod:`hanoi_asp.engine.policy`); and the answers they give
already (no plan at all, none within the user's bound, or a plan that meets the bound).
Then the strategy raises the lower bound until it meets the best plan.  A work budget
(``--work``) counts the search on pattern tables; where clingo would search without
them (3 pegs, ``distance3.lp``), or the mirror phase would come first, it is refused
here, not ignored.  The question
"a plan of exactly M moves?" has its own strategy
(:mod:`hanoi_asp.engine.strategies.exact`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from hanoi_asp.engine.bounds import lower_bound
from hanoi_asp.engine.first_plan import build_first_plan
from hanoi_asp.engine.policy import Strategy, StrategyName, choose_strategy, uses_first_plan
from hanoi_asp.engine.small_space import space_plan
from hanoi_asp.engine.state import OnProgress, SearchState
from hanoi_asp.model.option_checks import uncounted_work
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin, Proof
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import UNREACHABLE, LowerBound, Result


def _strategy(name: StrategyName) -> Callable[[SearchState], Result]:
    """The strategy the policy names: the function of that name in its module of
    :mod:`hanoi_asp.engine.strategies`, imported when it runs (a plan that meets its
    bound runs none, and needs neither the scheduler nor A*'s numpy)."""
    strategy: Callable[[SearchState], Result] = getattr(
        import_module(f"hanoi_asp.engine.strategies.{name}"), name
    )
    return strategy


def search(puzzle: Puzzle, options: SolveOptions, on_progress: OnProgress | None = None) -> Result:
    """Find a proven-minimal plan with clingo (the best plan and its gap if stopped
    early), or decide whether a plan of exactly ``options.exact_moves`` moves exists.
    ``on_progress`` hears of every new bound and plan; Ctrl-C answers with what is
    known (:meth:`SearchState.stop`)."""
    pegs, disks, where = len(puzzle.pegs), puzzle.disks, options.source
    options.limits.check_size(pegs=pegs, disks=disks, where=where)
    run = SearchState(puzzle, options, on_progress)
    try:
        if options.exact_moves is not None:
            return _strategy("exact")(run)
        return _minimal_plan(run)
    except KeyboardInterrupt:
        return run.stop("interrupt")


def _minimal_plan(run: SearchState) -> Result:
    """What every strategy for a minimal plan starts with, then the chosen strategy."""
    puzzle, options = run.puzzle, run.options
    if uses_first_plan(options):
        with run.phase("first_plan"):
            start = build_first_plan(puzzle, options, run.deadline)
        if start.unreachable is not None:
            run.start_from(LowerBound(UNREACHABLE, "breadth-first", start.unreachable))
            run.strategy = choose_strategy(puzzle, options, None)
            proof = Proof(kind="unreachable", bound=run.bound, max_moves=run.limit)
            return run.result("UNSATISFIABLE", proof, unreachable=True)
        if start.moves is not None and start.first is not None:
            run.first = start.first
            run.offer(start.moves, PlanOrigin(start.first.method, start.first.length))
    with run.phase("bounds"):
        bound = lower_bound(puzzle, options.bound, run.deadline, run.finished, upper=run.upper)
    run.start_from(bound)
    strategy = run.strategy = choose_strategy(puzzle, options, bound)
    limit = run.limit
    if bound.unreachable:
        proof = Proof(kind="unreachable", bound=bound, max_moves=limit)
        return run.result("UNSATISFIABLE", proof, unreachable=True)
    run.report()
    if limit is not None and bound.value > limit:
        proof = Proof(
            kind="over-limit", lower=bound.value, bound=bound, plan=run.origin, max_moves=limit
        )
        return run.result("UNSATISFIABLE", proof)
    if bound.exact and not run.meets() and uses_first_plan(options):
        _walk_down(run)
    if run.meets():
        assert run.best is not None and run.origin is not None
        return run.optimum(run.minimal(run.origin), run.best)
    if run.out_of_time():
        return run.stop("timeout")
    if options.work is not None:
        _refuse_uncounted(strategy, options.source)
    return _strategy(strategy.name)(run)


def _refuse_uncounted(strategy: Strategy, source: str) -> None:
    """A work budget counts the search on pattern tables: refused, not ignored, where
    this puzzle's search runs without them (3 pegs: ``distance3.lp``), or starts with a
    whole tower's mirror phase (one solve call, not counted: ``--no-first-plan``)."""
    if not strategy.patterns:
        why = "this 3-peg puzzle's search does not run (distance3.lp): give --timeout"
    elif strategy.name == "mirror":
        why = "a whole tower's mirror phase does not count: give --no-mirror or --timeout"
    else:
        return
    raise uncounted_work(why, source)


def _walk_down(run: SearchState) -> None:
    """Where the exact bound is a table of the whole state space
    (:mod:`hanoi_asp.engine.small_space`), the plan walked down it, replayed and offered:
    it meets the bound."""
    with run.phase("first_plan"):
        try:
            steps = space_plan(run.puzzle, run.deadline)
        except TimeoutError:
            steps = None
    if steps is not None:
        moves = replay(run.puzzle, steps)
        run.offer(moves, PlanOrigin("breadth-first", len(moves)))
