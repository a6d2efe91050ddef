"""Pattern pruning inside clingo's search (4+ pegs): the state after every step must
reach the goal in the steps left, by the pattern databases' count.

For a plan of exactly ``n`` moves, the state after step ``t`` reaches the goal in
``n - t`` moves.  By projection and additivity (:mod:`hanoi_asp.methods.patterns`),
for every partition of the disks into runs, the runs' table values add up to at most
``n - t``.  The check holds for *every* plan of ``n`` moves, minimal or not, so it never
changes an answer; it lets clingo drop a partial plan as soon as a state on it is too
far from the goal.  What the propagator does makes clingo's refutation of a horizon an
IDA* iteration with a transposition table, each step proven by a nogood:

* **The look-ahead.**  Once the whole state after step ``t`` is known, a move at step
  ``t + 1`` after which the successor's estimate exceeds ``n - t - 1`` cannot be in a
  plan: the clause "this state implies one of the moves that fit" makes clingo drop
  those moves before trying them.  Without it an exact estimate still left clingo
  guessing and backjumping (4 pegs, 10 disks, one table of every disk: 0.1 s or
  15-48 s depending on the order steps were ground in).
* **Learnt bounds** (:attr:`PatternPruning.learned`): the look-ahead backs each state's
  bound up from its successors' (:meth:`PatternPruning._backup`); a state whose bound
  exceeds the moves left is itself a nogood, and so, backed up again, may be the
  states before it on the plan (:meth:`PatternPruning._refute_upwards`).  The bounds
  do not depend on the horizon and are kept from one horizon to the next.
* **The move order** (:meth:`PatternPruning.decide`): clingo decides the steps in
  order, the move with the least estimate first.  On a random 4-peg, 12-disk puzzle
  (optimum 47) this took the proof from over 60 s to 22 s, backing refutations up to
  14 s, one clause per state and table estimates kept per state to 7 s, watching the
  moves instead of the disks' places to 6 s (one run each).

The nogoods hold for one horizon only: they are *tagged*, so clingo drops them when
the solve call ends.  Only thread :data:`PRUNING_THREAD` checks; see there why.  Every
partition of the tables is checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import clingo

from hanoi_asp.inputs.facts import peg_name
from hanoi_asp.methods.patterns import Partitioned, Run, move_lists
from hanoi_asp.model.puzzle import Puzzle

PRUNING_THREAD = 0
"""The solver thread that checks the tables.  Other threads, if asked for (``--threads``),
run clingo alone at full speed (this propagator is Python, and only one thread runs
Python at a time): a portfolio of pruned and unpruned search.  By default the engine
runs this thread alone (:data:`hanoi_asp.engine.policy.PATTERN_THREADS`)."""

LEARNED_STATES = 2_000_000
"""At most this many states keep a learnt bound (about 200 MiB)."""

TABLE_MOVES_KEPT = 300_000
"""At most this many states keep their moves' table estimates (about 1 KiB each): each
horizon's refutation visits again most states of the last one, as IDA* does."""

Placed = tuple[int, int, int]
"""(step, disk position counting from 0 = disk 1, peg index)"""

Moves = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""The legal moves from a whole state, one column each: the tables' estimate of the
successor, the disk position, the target peg index, the successor's state code."""

Estimated = tuple[Moves, list[int]]
"""Moves and each successor's estimate now, which rises as bounds are learnt."""


@dataclass
class _Thread:
    """What the pruning thread knows, indexed by step: the moves made, and the states
    after steps ``0 .. known`` (a prefix: a state follows from the one before and its
    move, the start from the puzzle)."""

    known: int
    """The last step whose state is known."""
    move: list[tuple[int, int, int] | None]
    """Per step, its move as (literal, disk position, target peg index) once made."""
    peg: list[list[int]]
    """Per known step, each disk's peg index."""
    state: list[int]
    """Per known step, the state as one number (digit ``disk`` in base pegs)."""
    moves: list[Estimated | None]
    """Per known step, its legal moves once estimated (:meth:`PatternPruning._estimates`)."""


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
    watches: dict[int, list[Placed]] = field(default_factory=dict)
    """A ``move(D,P,T)`` literal -> (step, disk position, peg index)."""
    move_literal: dict[tuple[int, int, int], int] = field(default_factory=dict)
    """(step, disk position, peg index) -> the literal of ``move(D,P,T)``."""
    on_literal: list[list[int]] = field(default_factory=list)
    """Per step, ``[disk position * pegs + peg index]`` -> the literal of ``on(D,P,T)``,
    0 where it is a fact (true whatever clingo decides, so left out of nogoods)."""
    thread: _Thread | None = None
    learned: dict[int, int] = field(default_factory=dict)
    """Whole state (:attr:`_Thread.state`) -> a lower bound on its distance to the
    goal, learnt by the look-ahead; it holds for every horizon (see :meth:`_backup`)."""
    widened: bool = False
    """Whether the driver has handed over every cut of the bound's tables already
    (:func:`hanoi_asp.engine.tables.check_every_cut`; the strong ones come next)."""

    def __post_init__(self) -> None:
        pegs = len(self.puzzle.pegs)
        self.on_literal = [[0] * (self.puzzle.disks * pegs)]  # step 0: the start, facts
        self.step_moves: list[list[tuple[int, int, int]]] = [[]]
        """Per step read, its ``move`` atoms as (solver literal, disk position, peg index)."""
        self.fact_moves: list[list[tuple[int, int, int]]] = [[]]
        """Per step watched, the move that is a fact, if any, as :attr:`_Thread.move`."""
        self.watched_steps = 0
        self.peg_symbols: dict[int, clingo.Symbol] = {}
        self.retable(self.tables)

    def retable(self, tables: Partitioned) -> None:
        """Check ``tables`` from the next solve call on (more cuts: a stronger estimate).
        The learnt bounds stay: each holds whatever tables gave it."""
        self.tables = tables
        pegs = len(self.puzzle.pegs)
        self.runs: list[Run] = []
        self.partition_of: list[int] = []
        self.goal: list[Sequence[int]] = []
        for index, partition in enumerate(self.tables):
            for table in partition:
                self.runs.append(table.run)
                self.partition_of.append(index)
                self.goal.append(table.distances)
        # per disk: in each partition, the run holding it, the disk's digit weight in
        # the run's code, the partition and the run's table
        self.runs_of: list[list[tuple[int, int, int, Sequence[int]]]] = [
            [] for _ in range(self.puzzle.disks)
        ]
        for number, run in enumerate(self.runs):
            for j in range(run.size):
                entry = (number, pegs**j, self.partition_of[number], self.goal[number])
                self.runs_of[run.first + j].append(entry)
        # a run's pattern code is its digits of the state code: (state // low) % span
        self.digits = [(pegs**run.first, pegs**run.size) for run in self.runs]
        # the first partition's runs, for the goal test (:meth:`_at_goal`)
        self.goal_digits = [
            (self.goal[run], low, span)
            for run, (low, span) in enumerate(self.digits)
            if self.partition_of[run] == 0
        ]
        self.targets = move_lists(pegs, self.puzzle.edges(), backwards=False)
        self.weight = [pegs**disk for disk in range(self.puzzle.disks)]
        goal = self.puzzle.goal_pegs()
        self.goal_key: int | None = None
        """The one goal state's code, when the goal places every disk."""
        if len(goal) == self.puzzle.disks:
            self.goal_key = sum(goal[disk + 1] * w for disk, w in enumerate(self.weight))
        self._table_moves: dict[int, Moves] = {}

    # -- clingo's Propagator interface -------------------------------------------------

    def init(self, init: clingo.PropagateInit) -> None:
        """Before each solve call: the start's bound first (a horizon it rules out is
        refuted by one clause, nothing else read), then the atoms of the steps not read
        at an earlier horizon.  A program atom keeps its solver literal from one solve
        call to the next, and a watch stays once added, so each step's atoms are read
        and watched once, not at every horizon (65 ms a horizon at 60 steps)."""
        horizon = self.horizon
        self.thread = thread = self._fresh()
        if self._start_bound() > horizon:
            self._refute_horizon(init)
            return
        self._read_steps(init, horizon)
        for step in range(1, horizon):
            for fact in self.fact_moves[step]:
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
        key = sum(peg * weight for peg, weight in zip(start, self.weight, strict=True))
        by_tables = max(
            (sum(table.lookup(start) for table in part) for part in self.tables), default=0
        )
        return max(by_tables, self.learned.get(key, 0))

    def _read_steps(self, init: clingo.PropagateInit, horizon: int) -> None:
        """Map and watch the ``on`` and ``move`` atoms of the steps up to ``horizon`` not
        read yet (found by their symbols: iterating every atom of a signature at each
        horizon was most of its set-up), and watch the moves of every step before the
        horizon's last (the last move ends at the goal: no state to check after it)."""
        pegs, disks = len(self.puzzle.pegs), self.puzzle.disks
        if not self.peg_symbols:
            for atom in init.symbolic_atoms.by_signature("peg", 1):
                index = self._peg(atom.symbol.arguments[0])
                if index is not None:
                    self.peg_symbols[index] = atom.symbol.arguments[0]
        atoms, value = init.symbolic_atoms, init.assignment.value
        for step in range(len(self.on_literal), horizon + 1):
            number = clingo.Number(step)
            row, moves = [0] * (disks * pegs), []
            for disk in range(disks):
                for index, peg in self.peg_symbols.items():
                    place = (clingo.Number(disk + 1), peg, number)
                    on = atoms[clingo.Function("on", place)]
                    if on is not None:
                        literal = init.solver_literal(on.literal)
                        if value(literal) is None:
                            row[disk * pegs + index] = literal
                    move = atoms[clingo.Function("move", place)]
                    if move is not None:
                        literal = init.solver_literal(move.literal)
                        self.move_literal[(step, disk, index)] = literal
                        moves.append((literal, disk, index))
            self.on_literal.append(row)
            self.step_moves.append(moves)
            self.fact_moves.append([])
        for step in range(self.watched_steps + 1, horizon):
            for literal, disk, index in self.step_moves[step]:
                if init.assignment.is_true(literal):
                    self.fact_moves[step].append((0, disk, index))
                elif value(literal) is None:
                    if literal not in self.watches:
                        self.watches[literal] = []
                        init.add_watch(literal, PRUNING_THREAD)
                    self.watches[literal].append((step, disk, index))
        self.watched_steps = max(self.watched_steps, horizon - 1)

    def propagate(self, control: clingo.PropagateControl, changes: Sequence[int]) -> None:
        thread = self.thread
        assert thread is not None
        last = self.horizon - 1
        for literal in changes:
            for step, disk, target in self.watches.get(literal, ()):
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
        (_, disks_moved, targets, _), estimates = self._moves(thread, step)
        for _, disk, target in sorted(zip(estimates, disks_moved, targets, strict=True)):
            move = self.move_literal.get((step + 1, disk, target))
            if move is not None and assignment.value(move) is None:
                return move
        return fallback

    def undo(self, thread_id: int, assignment: clingo.Assignment, changes: Sequence[int]) -> None:
        thread = self.thread
        assert thread is not None
        last = self.horizon - 1
        for literal in changes:
            for step, _, _ in self.watches.get(literal, ()):
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

    def _peg(self, symbol: clingo.Symbol) -> int | None:
        name = peg_name(symbol)
        if name is None or name not in self.puzzle.pegs:
            return None
        return self.puzzle.peg_index(name)

    def _fresh(self) -> _Thread:
        steps, start = self.horizon + 1, list(self.puzzle.initial_state())
        return _Thread(
            known=0,
            move=[None] * steps,
            peg=[start] + [[] for _ in range(steps - 1)],
            state=[sum(peg * weight for peg, weight in zip(start, self.weight, strict=True))]
            + [0] * (steps - 1),
            moves=[None] * steps,
        )

    def _advance(self, thread: _Thread) -> Iterator[list[int]]:
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
            thread.state[step] = thread.state[step - 1] + (target - source) * self.weight[disk]
            thread.known = step
            if step < last:
                yield from self._look_ahead(thread, step)

    def _state_literals(self, thread: _Thread, step: int) -> list[int]:
        """The ``on`` literals of the known state after ``step``, facts left out."""
        row, pegs = self.on_literal[step], len(self.puzzle.pegs)
        found = [row[disk * pegs + peg] for disk, peg in enumerate(thread.peg[step])]
        return [literal for literal in found if literal != 0]

    def _look_ahead(self, thread: _Thread, step: int) -> list[list[int]]:
        """The whole state after ``step`` is known: rule out the moves at ``step + 1``
        after which the successor's estimate exceeds the moves then left, and learn
        the state's backup (:meth:`_backup`).  When the backup exceeds the moves left,
        the state itself is the nogood, and so may be the states before it
        (:meth:`_refute_upwards`)."""
        state = self._state_literals(thread, step)
        left = self.horizon - step - 1
        if self.learned.get(thread.state[step], 0) <= left + 1:
            self._deepen(thread, step, left)
        if self._out_of_reach(thread, step):
            # the earliest state first: clingo stops at the first nogood that conflicts
            return [*reversed(self._refute_upwards(thread, step)), state]
        (_, disks_moved, targets, _), estimates = self._moves(thread, step)
        kept: list[int] = []
        dropped = False
        for estimate, disk, target in zip(estimates, disks_moved, targets, strict=True):
            move = self.move_literal.get((step + 1, disk, target))
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

    def _deepen(self, thread: _Thread, step: int, left: int) -> None:
        """Back up, from its own successors, the bound of every successor of the state
        after ``step`` that its estimate still lets reach the goal in the ``left`` moves
        after it: the successor's estimate is raised to that bound, which is learnt.

        The bound is :meth:`_backup`'s, taken one step ahead: a successor that is not
        the goal is one move further from it than its nearest successor, so ``1 +`` the
        least estimate over its moves bounds its distance (the estimates are lower
        bounds: the tables', or learnt ones).  These are exactly the successors clingo
        would try next, each then refuted on its own look-ahead in a decision, a
        conflict and a backjump; here the same estimates are computed (and kept for
        when it goes there) without them, the state's clause drops the moves at once,
        and its own backup sees the raised values."""
        (_, disks_moved, targets, successors), estimates = self._moves(thread, step)
        pegs, learned, kept = thread.peg[step], self.learned, self._table_moves
        get = learned.get
        for move, estimate in enumerate(estimates):
            child = successors[move]
            if estimate > left or self._at_goal(child):
                continue
            moves = kept.get(child)
            if moves is None:
                after = pegs.copy()
                after[disks_moved[move]] = targets[move]
                moves = self._by_tables(after, child)
                if len(kept) < TABLE_MOVES_KEPT:
                    kept[child] = moves
            nearest = min(
                (
                    e if (b := get(s, 0)) <= e else b
                    for e, s in zip(moves[0], moves[3], strict=True)
                ),
                default=self.horizon,
            )
            if nearest + 1 > estimate:
                estimates[move] = nearest + 1
                if nearest + 1 > get(child, 0) and len(learned) < LEARNED_STATES:
                    learned[child] = nearest + 1

    def _moves(self, thread: _Thread, step: int) -> Estimated:
        """The legal moves from the known state after ``step``, estimated once while the
        state stays known (:attr:`_Thread.moves`; undo forgets them)."""
        known = thread.moves[step]
        if known is None:
            known = thread.moves[step] = self._estimates(thread, step)
        return known

    def _estimates(self, thread: _Thread, step: int) -> Estimated:
        """Every legal move from the whole state after ``step``; the estimate is the
        larger of the tables' (:meth:`_by_tables`) and :attr:`learned`."""
        key = thread.state[step]
        moves = self._table_moves.get(key)
        if moves is None:
            moves = self._by_tables(thread.peg[step], key)
            if len(self._table_moves) < TABLE_MOVES_KEPT:
                self._table_moves[key] = moves
        get = self.learned.get
        estimates = [
            estimate if (bound := get(successor, 0)) <= estimate else bound
            for estimate, successor in zip(moves[0], moves[3], strict=True)
        ]
        return moves, estimates

    def _by_tables(self, pegs: list[int], key: int) -> Moves:
        """The legal moves from the state ``pegs`` coded ``key``, with the tables'
        estimates.  A move changes one disk, so one run per partition: that run's value
        is looked up afresh."""
        top = [-1] * len(self.puzzle.pegs)
        for disk, peg in enumerate(pegs):
            top[peg] = disk  # later disks are smaller
        codes = [key // low % span for low, span in self.digits]
        to_goal = [0] * len(self.tables)
        for run, code in enumerate(codes):
            to_goal[self.partition_of[run]] += self.goal[run][code]
        estimates: list[int] = []
        disks: list[int] = []
        targets: list[int] = []
        successors: list[int] = []
        for source, disk in enumerate(top):
            if disk < 0:
                continue
            # per partition: the sum without the disk's run, that run's table and code
            rest = [
                (to_goal[part] - table[codes[run]], table, codes[run], power)
                for run, power, part, table in self.runs_of[disk]
            ]
            for target in self.targets[source]:
                if top[target] > disk:
                    continue  # a smaller disk lies there: not a move
                shift = target - source
                estimate = 0
                for others, table, code, power in rest:
                    after = others + table[code + shift * power]
                    if after > estimate:
                        estimate = after
                estimates.append(estimate)
                disks.append(disk)
                targets.append(target)
                successors.append(key + shift * self.weight[disk])
        return tuple(estimates), tuple(disks), tuple(targets), tuple(successors)

    def _out_of_reach(self, thread: _Thread, step: int) -> bool:
        """Whether the whole state after ``step`` is farther from the goal than the moves
        left, by its learnt bound or its backup (:meth:`_backup`, learnt on the way)."""
        left = self.horizon - step
        if self.learned.get(thread.state[step], 0) > left:
            return True
        return self._backup(thread, step) > left

    def _at_goal(self, key: int) -> bool:
        """Whether the state coded ``key`` is a goal: a run is at distance 0 exactly when
        its disks are where the goal wants them, and one partition's runs hold every disk."""
        if self.goal_key is not None:
            return key == self.goal_key
        return all(table[key // low % span] == 0 for table, low, span in self.goal_digits)

    def _backup(self, thread: _Thread, step: int) -> int:
        """``1 +`` the least estimate over the legal moves from the state after ``step``
        (:meth:`_moves`), learnt as a bound on that state's distance; returned,
        or what was known if larger.

        A state that is not the goal is at least one move further from it than its
        nearest successor, so this is a lower bound on its distance whenever the
        estimates are (induction on the order the bounds were learnt: the tables' are).
        It does not depend on the horizon, so it is kept from one horizon to the next:
        each refutation leaves the states it reached with stronger bounds.  A state
        with no legal move and not the goal never reaches it: any bound holds."""
        key, learned = thread.state[step], self.learned
        known = learned.get(key, 0)
        if self._at_goal(key):
            return known  # nothing to learn
        estimates = self._moves(thread, step)[1]
        value = 1 + (min(estimates) if estimates else self.horizon)
        if value > known and len(learned) < LEARNED_STATES:
            learned[key] = value
        return max(value, known)

    def _refute_upwards(self, thread: _Thread, step: int) -> list[list[int]]:
        """The state after ``step`` is out of reach: back its bound up the states
        before it, as IDA* backs up a failed subtree.  The state before, whole and
        known, has its move here re-estimated with the bound just learnt (its other
        moves keep their estimates, which stay lower bounds) and is backed up afresh;
        while the backup exceeds the moves left, that state is a nogood too, and the
        one before it is next.  Without this a state learnt from its refuted
        successors only when clingo reached it again."""
        nogoods: list[list[int]] = []
        learned = self.learned
        for earlier in range(step - 1, 0, -1):
            reached = thread.state[earlier + 1]
            known = thread.moves[earlier]
            if known is not None:
                (*_, successors), estimates = known
                move = successors.index(reached)
                estimates[move] = max(estimates[move], learned.get(reached, 0))
            if not self._out_of_reach(thread, earlier):
                break
            nogoods.append(self._state_literals(thread, earlier))
        return nogoods
