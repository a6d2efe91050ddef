"""The state of one search: what is proven and found so far, and the answer it gives
however the search ends (:class:`SearchState`).

Two numbers close in on the optimum.  The upper bound U is the length of the best
verified plan (:meth:`SearchState.offer`); the lower bound L starts at a sound bound
and rises as the strategies prove more.  A plan of length L is the optimum; stopped
early (timeout, work budget, Ctrl-C, grounding limit), the answer is the best plan
with its gap U - L (:meth:`SearchState.stop`).  Every answer carries its proof as data
(:class:`~hanoi_asp.model.proof.Proof`), worded by :mod:`hanoi_asp.outputs.proof`.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from hanoi_asp.engine import proofs
from hanoi_asp.engine.answer import assemble, phases
from hanoi_asp.engine.answer import deadline as limit_ends
from hanoi_asp.engine.bounds import misplaced_disks, strongest
from hanoi_asp.engine.policy import Strategy
from hanoi_asp.engine.solver import HorizonSolver
from hanoi_asp.model.errors import LimitError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import Move
from hanoi_asp.model.proof import HalfSearch, PlanOrigin, Proof, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import FirstPlan, HorizonRun, LowerBound, Progress, Result, Verdict

OnProgress = Callable[[Progress], None]


def past(deadline: float | None) -> bool:
    """Whether the time limit ``deadline`` (None: none) has passed, on the search's clock."""
    return deadline is not None and time.monotonic() >= deadline


@dataclass
class SearchState:
    """One search in progress: what is proven and found so far, turned into a
    :class:`Result` however the search ends.  The bounds change only through its
    methods, which keep ``lower <= upper`` (a sound bound never passes a verified plan:
    if one did, the engine has a bug, and it says so rather than answer) and record
    why (:attr:`raised`): :meth:`start_from`, :meth:`raise_lower`, :meth:`prove`,
    :meth:`offer`."""

    puzzle: Puzzle
    options: SolveOptions
    on_progress: OnProgress | None = None
    started: float = field(default_factory=time.monotonic)
    finished: list[LowerBound] = field(default_factory=list)
    """Bounds computed so far (the best stands in for ``bound`` if interrupted)."""
    strategy: Strategy | None = None
    first: FirstPlan | None = None
    horizons: list[HorizonRun] = field(default_factory=list)
    """One record per horizon asked, in order."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per phase so far (see :attr:`Result.timings`)."""
    solvers: list[HorizonSolver] = field(default_factory=list)
    """Every solver the search made (their clingo time is the grounding and solving)."""
    half_search: HalfSearch | None = None
    """What the half search has proven so far (None: the horizons below the lower bound
    were refuted, the upward search's argument)."""
    raised: list[tuple[int, str]] = field(default_factory=list)
    """Every rise of the lower bound, with what proved it, in order."""
    bound: LowerBound | None = field(default=None, init=False)
    """The search's bound: where it started, or a stronger one proven on the way."""
    best: tuple[Move, ...] | None = field(default=None, init=False)
    origin: PlanOrigin | None = field(default=None, init=False)
    """Where the best plan came from."""
    _lower: int = field(default=0, init=False)

    @functools.cached_property
    def deadline(self) -> float | None:
        """When the time limit ends (:func:`~hanoi_asp.engine.answer.deadline`)."""
        return limit_ends(self.options, self.started)

    @property
    def lower(self) -> int:
        """Proven: no plan has fewer moves."""
        return self._lower

    def spend(self, phase: str, seconds: float) -> None:
        self.timings[phase] = self.timings.get(phase, 0.0) + seconds

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time the block as ``name``'s, also when it raises (a stopped search tells)."""
        began = time.monotonic()
        try:
            yield
        finally:
            self.spend(name, time.monotonic() - began)

    @property
    def limit(self) -> int | None:
        return self.options.move_limit(self.puzzle)

    @property
    def upper(self) -> int | None:
        return None if self.best is None else len(self.best)

    @property
    def states(self) -> int:
        """How many states the puzzle has: each disk on any peg.  A shortest plan never
        visits a state twice, so it has fewer moves than that."""
        return int(len(self.puzzle.pegs) ** self.puzzle.disks)

    def start_from(self, bound: LowerBound) -> None:
        """The bound the search starts from (no plan has fewer moves: its argument)."""
        self.bound = bound
        self.raise_lower(bound.value, bound.name)

    def prove(self, bound: LowerBound) -> None:
        """A sound bound proven on the way (A*'s): the search's bound from now on, if it
        raises the lower bound."""
        if bound.value > self._lower:
            self.bound = bound
            self.raise_lower(bound.value, bound.name)

    def raise_lower(self, value: int, why: str) -> None:
        """No plan has fewer than ``value`` moves, because of ``why``."""
        if value <= self._lower:
            return
        upper = self.upper
        if upper is not None and value > upper:
            raise AssertionError(
                f"unsound: {why} claims no plan under {value} moves, but one of {upper} "
                "was verified"
            )
        self._lower = value
        self.raised.append((value, why))
        self.report()

    def meets(self) -> bool:
        """The best plan's length is the proven lower bound: it is minimal."""
        return self.best is not None and self.origin is not None and len(self.best) == self.lower

    def answers(self) -> bool:
        """The best plan answers the question: it is within the user's bound."""
        return self.best is not None and (self.limit is None or len(self.best) <= self.limit)

    def offer(self, moves: tuple[Move, ...], origin: PlanOrigin) -> None:
        """A verified plan: the best one if shorter (never shorter than the proven
        lower bound: that would make the bound unsound)."""
        if len(moves) < self._lower:
            raise AssertionError(
                f"unsound: no plan under {self._lower} moves was proven, but the "
                f"{origin.source} plan of {len(moves)} was verified"
            )
        if self.best is None or len(moves) < len(self.best):
            self.best, self.origin = moves, origin
        self.report()

    def report(self, horizon: int | None = None) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(self.lower, self.upper, horizon))

    def known_bound(self) -> LowerBound:
        """The search's bound, or the best finished before it was stopped."""
        if self.bound is not None:
            return self.bound
        return strongest(self.finished) if self.finished else misplaced_disks(self.puzzle)

    def stopped_before(self, horizon: int) -> Result | None:
        """None if ``horizon`` may be solved now; else the answer: stopped at the time
        limit, or at the grounding limit with the best plan (with no plan to give, the
        limit's error is raised: the user must raise it)."""
        if self.out_of_time():
            return self.stop("timeout")
        puzzle, options = self.puzzle, self.options
        try:
            check = options.limits.check_horizon
            check(horizon=horizon, pegs=len(puzzle.pegs), disks=puzzle.disks, where=options.source)
        except LimitError as error:
            if self.answers():
                return self.stop("limit")
            if self.best is None and horizon > options.limits.moves:
                raise options.limits.plans_over_moves(horizon, error, options.source) from None
            raise
        return None

    def out_of_time(self) -> bool:
        return past(self.deadline)

    def minimal(self, origin: PlanOrigin) -> Proof:
        """The proof for a plan of the proven lower bound's length, from ``origin`` (by
        the half search where it ran)."""
        return proofs.minimal(self.known_bound(), origin, self.half_search, self.limit)

    def result(
        self,
        verdict: Verdict,
        proof: Proof,
        moves: tuple[Move, ...] | None = None,
        *,
        stopped: Stop | None = None,
        unreachable: bool = False,
        threads: int | None = None,
        exact_moves: int | None = None,
    ) -> Result:
        """The answer, as the search stands (:func:`hanoi_asp.engine.answer.assemble`)."""
        bound, strategy = self.known_bound(), self.strategy
        if threads is None and strategy is not None:
            threads = strategy.threads
        gone = unreachable or bound.unreachable
        return assemble(
            self.puzzle,
            self.options,
            self.started,
            verdict,
            proof,
            plan=moves,
            bound=bound,
            lower=None if gone else max(self._lower, bound.value),
            upper=self.upper,
            max_moves=self.limit if exact_moves is None else exact_moves,
            mode=None if strategy is None else strategy.mode,
            exact_moves=exact_moves,
            stopped=stopped,
            unreachable=unreachable,
            horizons=tuple(self.horizons),
            threads=threads,
            programs=() if strategy is None else strategy.program_names,
            first_plan=self.first,
            timings=phases(self.timings, self.solvers),
        )

    def optimum(self, proof: Proof, moves: tuple[Move, ...], threads: int | None = None) -> Result:
        """The answer with ``moves``, minimal by ``proof``."""
        self.best = moves
        self.raise_lower(len(moves), proof.kind)
        return self.result("OPTIMUM FOUND", proof, moves, threads=threads)

    def stop(self, why: Stop) -> Result:
        """The answer when the search stops before its proof: the best plan and its gap."""
        bound, options = self.known_bound(), self.options
        if not bound.unreachable:
            self.raise_lower(bound.value, bound.name)
        plan = self.origin if self.best is not None else None
        limits = (options.timeout, self.limit, options.exact_moves, options.work)
        proof = proofs.stopped(bound, self.lower, self.half_search, plan, why, *limits)
        if options.exact_moves is not None:
            return self.result("UNKNOWN", proof, stopped=why, exact_moves=options.exact_moves)
        if self.best is not None and self.answers():
            return self.result("SATISFIABLE", proof, self.best, stopped=why)
        return self.result("UNKNOWN", proof, stopped=why)
