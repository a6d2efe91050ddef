"""The clingo propagator that checks pattern-database estimates (:class:`PatternPruning`):
it follows the moves clingo makes on the pruning thread, and from each whole state
rules out the moves that cannot reach the goal in time (the look-ahead) and steers
clingo to the most promising move (the move order).  Why this never changes an answer:
:mod:`hanoi_asp.engine.pruning`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import clingo

from hanoi_asp.engine.pruning.atoms import PRUNING_THREAD, StepAtoms
from hanoi_asp.engine.pruning.estimates import TableEstimates
from hanoi_asp.engine.pruning.learnt import LearntBounds
from hanoi_asp.engine.pruning.thread import ThreadState
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.puzzle import Puzzle

INIT_TICKS = 100
"""A solve call's set-up (:meth:`PatternPruning.init`: the new steps' atoms read and
watched, clingo's own preparation) counted as this many calls of :meth:`propagate`:
10-50 ms where a call takes 0.1-0.3 ms."""

Checkpoint = Callable[[int, int], bool]
"""The scheduler's checkpoint inside clingo: (the propagator's calls so far, the horizon
being solved) -> whether clingo goes on."""


@dataclass
class PatternPruning:
    """A ``clingo.Propagator`` on the incremental encoding's ``move(D,P,T)`` atoms; its
    nogoods name states by their ``on(D,P,T)`` atoms.  The driver sets :attr:`horizon`
    before each solve call."""

    puzzle: Puzzle
    tables: Partitioned
    horizon: int = 0
    pruned: int = 0
    """Nogoods added so far, all solve calls."""
    thread: ThreadState | None = None
    learned: dict[int, int] = field(default_factory=dict)
    """Whole state (:attr:`ThreadState.state`) -> a lower bound on its distance to the
    goal, learnt by the look-ahead; it holds for every horizon
    (see :meth:`hanoi_asp.engine.pruning.learnt.LearntBounds.backup`)."""
    checkpoint: Checkpoint | None = None
    """Told each call of :meth:`propagate` (the calls so far, the horizon): the
    scheduler's checkpoint inside clingo's search (:mod:`hanoi_asp.engine.scheduler`).
    False stops the solve call there (``stop``); with one thread the calls are the same
    on every run, so where it stops is too."""
    stop: Callable[[], None] | None = None
    """Stops the running solve call (the driver's ``Control.interrupt``)."""
    ticks: int = 0
    """Calls of :meth:`propagate` so far, all solve calls: clingo's work."""

    def __post_init__(self) -> None:
        self.atoms = StepAtoms(self.puzzle)
        self.retable(self.tables)

    def retable(self, tables: Partitioned) -> None:
        """Check ``tables`` from the next solve call on (more cuts: a stronger estimate).
        The learnt bounds stay: each holds whatever tables gave it."""
        self.tables = tables
        self.estimates = TableEstimates(self.puzzle, tables)
        self.bounds = LearntBounds(self.estimates, self.learned)

    # -- clingo's Propagator interface -------------------------------------------------

    def init(self, init: clingo.PropagateInit) -> None:
        """Before each solve call: the start's bound first (a horizon it rules out is
        refuted by one clause, nothing else read), then the atoms of the steps not read
        at an earlier horizon.  A program atom keeps its solver literal from one solve
        call to the next, and a watch stays once added, so each step's atoms are read
        and watched once, not at every horizon (65 ms a horizon at 60 steps)."""
        horizon = self.horizon
        self.ticks += INIT_TICKS
        self.thread = thread = self._fresh()
        if self._start_bound() > horizon:
            self._refute_horizon(init)
            return
        self.atoms.read(init, horizon)
        for step in range(1, horizon):
            for fact in self.atoms.fact_moves[step]:
                thread.move[step] = fact
        for nogood in self._advance(thread):
            if not nogood:
                self._refute_horizon(init)  # the facts alone break the bound
                return

    def _refute_horizon(self, init: clingo.PropagateInit) -> None:
        """No plan of this horizon: a clause on the horizon's query atom, which the
        driver releases afterwards."""
        horizon = clingo.Function("query", [clingo.Number(self.horizon)])
        query = init.symbolic_atoms[horizon]
        if query is not None:
            init.add_clause([-init.solver_literal(query.literal)])

    def _start_bound(self) -> int:
        """A lower bound on the start's distance to the goal: the tables' and the learnt
        one, the larger (0 without tables)."""
        start = self.puzzle.initial_state()
        key = self.estimates.key(start)
        by_tables = max(
            (sum(table.lookup(start) for table in part) for part in self.tables), default=0
        )
        return max(by_tables, self.learned.get(key, 0))

    def propagate(self, control: clingo.PropagateControl, changes: Sequence[int]) -> None:
        thread = self.thread
        assert thread is not None
        self.ticks += 1
        if self.checkpoint is not None and not self.checkpoint(self.ticks, self.horizon):
            assert self.stop is not None
            self.stop()
        last = self.horizon - 1
        for literal in changes:
            for step, disk, target in self.atoms.watches.get(literal, ()):
                if step <= last:  # watches stay from larger horizons
                    thread.move[step] = (literal, disk, target)
        for nogood in self._advance(thread):
            self.pruned += 1
            if not control.add_nogood(nogood, tag=True):
                return

    def decide(self, thread_id: int, assignment: clingo.Assignment, fallback: int) -> int:
        """Steer clingo along the plan's steps in order, trying first the move whose
        successor has the least estimate (best-first move order, as IDA* does): the
        move after the last known state is the decision.  Where that is the goal's
        step, clingo's own choice stands."""
        thread = self.thread
        if thread_id != PRUNING_THREAD or thread is None:
            return fallback
        step = thread.known
        if step >= self.horizon - 1:
            return fallback
        (_, disks_moved, targets, _), estimates = self.bounds.moves(thread, step)
        for _, disk, target in sorted(zip(estimates, disks_moved, targets, strict=True)):
            move = self.atoms.move_literal.get((step + 1, disk, target))
            if move is not None and assignment.value(move) is None:
                return move
        return fallback

    def undo(self, thread_id: int, assignment: clingo.Assignment, changes: Sequence[int]) -> None:
        thread = self.thread
        assert thread is not None
        last = self.horizon - 1
        for literal in changes:
            for step, _, _ in self.atoms.watches.get(literal, ()):
                if step > last:
                    continue
                made = thread.move[step]
                if made is None or made[0] != literal:
                    continue
                thread.move[step] = None
                for later in range(step, thread.known + 1):
                    thread.moves[later] = None
                thread.known = min(thread.known, step - 1)

    # -- the check ---------------------------------------------------------------------

    def _fresh(self) -> ThreadState:
        start = self.puzzle.initial_state()
        return ThreadState.fresh(self.horizon, start, self.estimates.weight)

    def _advance(self, thread: ThreadState) -> Iterator[list[int]]:
        """Extend the known states while the next move is made, with each new state's
        look-ahead nogoods.  Clingo's propagation has placed every disk after a made
        move by then (it runs before propagators), so the ``on`` atoms in a state's
        nogood are true."""
        last = self.horizon - 1
        while thread.known < last and (made := thread.move[thread.known + 1]) is not None:
            step = thread.known + 1
            _, disk, target = made
            pegs = thread.peg[step - 1].copy()
            source, pegs[disk] = pegs[disk], target
            thread.peg[step] = pegs
            weight = self.estimates.weight[disk]
            thread.state[step] = thread.state[step - 1] + (target - source) * weight
            thread.known = step
            if step < last:
                yield from self._look_ahead(thread, step)

    def _state_literals(self, thread: ThreadState, step: int) -> list[int]:
        """The ``on`` literals of the known state after ``step``, facts left out."""
        row, pegs = self.atoms.on_literal[step], len(self.puzzle.pegs)
        found = [row[disk * pegs + peg] for disk, peg in enumerate(thread.peg[step])]
        return [literal for literal in found if literal != 0]

    def _look_ahead(self, thread: ThreadState, step: int) -> list[list[int]]:
        """The whole state after ``step`` is known: rule out the moves at ``step + 1``
        after which the successor's estimate exceeds the moves then left, and learn
        the state's backup (:meth:`LearntBounds.backup`).  When the backup exceeds the
        moves left, the state itself is the nogood, and so may be the states before it
        (:meth:`LearntBounds.refute_upwards`)."""
        state = self._state_literals(thread, step)
        horizon, bounds = self.horizon, self.bounds
        left = horizon - step - 1
        if self.learned.get(thread.state[step], 0) <= left + 1:
            bounds.deepen(thread, step, left, horizon)
        if bounds.out_of_reach(thread, step, horizon):
            # the earliest state first: clingo stops at the first nogood that conflicts
            earlier = bounds.refute_upwards(thread, step, horizon)
            return [*(self._state_literals(thread, e) for e in reversed(earlier)), state]
        (_, disks_moved, targets, _), estimates = bounds.moves(thread, step)
        kept: list[int] = []
        dropped = False
        for estimate, disk, target in zip(estimates, disks_moved, targets, strict=True):
            move = self.atoms.move_literal.get((step + 1, disk, target))
            if estimate > left:
                dropped = True
            elif move is not None:
                kept.append(-move)
        if not dropped:
            return []
        # plans make exactly one move at step + 1 (the encoding's choice), so "one of
        # the kept moves" rules out every other: one clause where a nogood per move
        # was more for clingo to store and watch (4p12: 7.6 s against 9.0 s)
        return [[*state, *kept]]
