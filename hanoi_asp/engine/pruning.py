"""Pattern pruning inside clingo's search (4+ pegs): the state after every step must
reach the goal in the steps left, by the pattern databases' count.

For a plan of exactly ``n`` moves, the state after step ``t`` reaches the goal in
``n - t`` moves.  By projection and additivity (:mod:`hanoi_asp.methods.patterns`),
for every partition of the disks into runs, the runs' table values add up to at most
``n - t``.  The check holds for *every* plan of ``n`` moves, minimal or not, so it never
changes an answer; it lets clingo drop a partial plan as soon as the runs it has
placed at some step are too far from the goal.

* **The check** needs only the runs whose disks are all placed: the sum over some of
  a partition's runs is already a bound.  When it fails, the propagator adds the
  nogood "these disks on these pegs after step ``t``" (all true now: a conflict
  clingo learns from).
* **The look-ahead.**  Once the whole state after step ``t`` is known, a move at step
  ``t + 1`` after which some partition's sum exceeds ``n - t - 1`` cannot be in a
  plan: the nogood "this state and this move" makes clingo drop that move before
  trying it, and a disk all of whose moves are dropped is not moved.  Without it an
  exact estimate still left clingo guessing and backjumping (4 pegs, 10 disks, one
  table of every disk: 0.1 s or 15-48 s depending on the order steps were ground in).

The nogoods hold for one horizon only: they are *tagged*, so clingo drops them when
the solve call ends.  The bounds the look-ahead learns about whole states
(:attr:`PatternPruning.learned`) hold for every horizon and are kept.  Only thread
:data:`PRUNING_THREAD` checks; see there why.  Every partition of the tables is checked.
"""

from __future__ import annotations

from collections.abc import Sequence
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

Placed = tuple[int, int, int]
"""(step, disk position counting from 0 = disk 1, peg index)"""


@dataclass
class _Thread:
    """What the pruning thread knows, indexed [step][...]: which disks are placed
    where, and per run its pattern code so far and how many of its disks are placed;
    per partition the sum over its completed runs."""

    peg: list[list[int]]
    by: list[list[int]]
    """The literal that placed the disk (0 for facts, never undone)."""
    code: list[list[int]]
    count: list[list[int]]
    to_goal: list[list[int]]
    placed: list[int]
    """Per step, how many disks are placed."""
    state: list[int]
    """Per step, the placed disks' pegs as one number (digit ``disk`` in base pegs)."""


@dataclass
class PatternPruning:
    """A ``clingo.Propagator`` on the incremental encoding's ``on(D,P,T)`` atoms.  The
    driver sets :attr:`horizon` before each solve call."""

    puzzle: Puzzle
    tables: Partitioned
    horizon: int = 0
    pruned: int = 0
    """Nogoods added so far, all solve calls."""
    watches: dict[int, list[Placed]] = field(default_factory=dict)
    move_literal: dict[tuple[int, int, int], int] = field(default_factory=dict)
    """(step, disk position, peg index) -> the literal of ``move(D,P,T)``."""
    moved_literal: dict[tuple[int, int], int] = field(default_factory=dict)
    """(step, disk position) -> the literal of ``moved(D,T)``."""
    thread: _Thread | None = None
    learned: dict[int, int] = field(default_factory=dict)
    """Whole state (:attr:`_Thread.state`) -> a lower bound on its distance to the
    goal, learnt by the look-ahead; it holds for every horizon (see :meth:`_look_ahead`)."""

    def __post_init__(self) -> None:
        pegs = len(self.puzzle.pegs)
        self.runs: list[Run] = []
        self.partition_of: list[int] = []
        self.goal: list[list[int]] = []
        for index, partition in enumerate(self.tables):
            for table in partition:
                self.runs.append(table.run)
                self.partition_of.append(index)
                self.goal.append(table.distances)
        # per disk: in each partition, the run holding it and the disk's digit weight
        self.runs_of: list[list[tuple[int, int]]] = [[] for _ in range(self.puzzle.disks)]
        for number, run in enumerate(self.runs):
            for j in range(run.size):
                self.runs_of[run.first + j].append((number, pegs**j))
        self.members = [
            [n for n in range(len(self.runs)) if self.partition_of[n] == p]
            for p in range(len(self.tables))
        ]
        self.targets = move_lists(pegs, self.puzzle.edges(), backwards=False)
        self.weight = [pegs**disk for disk in range(self.puzzle.disks)]

    # -- clingo's Propagator interface -------------------------------------------------

    def init(self, init: clingo.PropagateInit) -> None:
        horizon = self.horizon
        self.watches, self.move_literal, self.moved_literal = {}, {}, {}
        facts: list[Placed] = []
        for atom in init.symbolic_atoms.by_signature("on", 3):
            disk, peg, step = atom.symbol.arguments
            index = self._peg(peg)
            if not 1 <= step.number < horizon or index is None:
                continue
            placed = (step.number, disk.number - 1, index)
            literal = init.solver_literal(atom.literal)
            if init.assignment.is_true(literal):
                facts.append(placed)
            elif init.assignment.value(literal) is None:
                if literal not in self.watches:
                    self.watches[literal] = []
                    init.add_watch(literal, PRUNING_THREAD)
                self.watches[literal].append(placed)
        for atom in init.symbolic_atoms.by_signature("move", 3):
            disk, peg, step = atom.symbol.arguments
            index = self._peg(peg)
            if 1 <= step.number <= horizon and index is not None:
                key = (step.number, disk.number - 1, index)
                self.move_literal[key] = init.solver_literal(atom.literal)
        for atom in init.symbolic_atoms.by_signature("moved", 2):
            disk, step = atom.symbol.arguments
            if 1 <= step.number <= horizon:
                moved = (step.number, disk.number - 1)
                self.moved_literal[moved] = init.solver_literal(atom.literal)
        self.thread = self._fresh()
        for placed in facts:
            for nogood in self._place(self.thread, placed, 0):
                if not nogood:
                    # the facts alone break the bound: no plan of this horizon (a clause
                    # on the horizon's query atom, which the driver releases afterwards)
                    query = init.symbolic_atoms[clingo.Function("query", [clingo.Number(horizon)])]
                    if query is not None:
                        init.add_clause([-init.solver_literal(query.literal)])
                    return

    def propagate(self, control: clingo.PropagateControl, changes: Sequence[int]) -> None:
        thread = self.thread
        assert thread is not None
        for literal in changes:
            for placed in self.watches.get(literal, ()):
                for nogood in self._place(thread, placed, literal):
                    self.pruned += 1
                    if not control.add_nogood(nogood, tag=True) or not control.propagate():
                        return

    def undo(self, thread_id: int, assignment: clingo.Assignment, changes: Sequence[int]) -> None:
        thread = self.thread
        assert thread is not None
        for literal in changes:
            for step, disk, peg in self.watches.get(literal, ()):
                if thread.by[step][disk] != literal:
                    continue  # never placed: propagate stopped at a conflict first
                for run, power in self.runs_of[disk]:
                    count, code = thread.count[step], thread.code[step]
                    if count[run] == self.runs[run].size:
                        thread.to_goal[step][self.partition_of[run]] -= self.goal[run][code[run]]
                    count[run] -= 1
                    code[run] -= peg * power
                thread.peg[step][disk] = -1
                thread.by[step][disk] = 0
                thread.placed[step] -= 1
                thread.state[step] -= peg * self.weight[disk]

    # -- the check ---------------------------------------------------------------------

    def _peg(self, symbol: clingo.Symbol) -> int | None:
        name = peg_name(symbol)
        if name is None or name not in self.puzzle.pegs:
            return None
        return self.puzzle.peg_index(name)

    def _fresh(self) -> _Thread:
        steps, disks, runs = self.horizon + 1, self.puzzle.disks, len(self.runs)
        return _Thread(
            peg=[[-1] * disks for _ in range(steps)],
            by=[[0] * disks for _ in range(steps)],
            code=[[0] * runs for _ in range(steps)],
            count=[[0] * runs for _ in range(steps)],
            to_goal=[[0] * len(self.tables) for _ in range(steps)],
            placed=[0] * steps,
            state=[0] * steps,
        )

    def _place(self, thread: _Thread, placed: Placed, literal: int) -> list[list[int]]:
        """Record a disk's peg after a step; the nogoods to add: the state so far if a
        completed run makes its partition's sum too large for the moves left, else,
        once the whole state is known, the moves it rules out."""
        step, disk, peg = placed
        if thread.peg[step][disk] != -1:
            return []
        thread.peg[step][disk] = peg
        thread.by[step][disk] = literal
        thread.placed[step] += 1
        thread.state[step] += peg * self.weight[disk]
        left = self.horizon - step
        broken = -1
        for run, power in self.runs_of[disk]:
            code, count = thread.code[step], thread.count[step]
            code[run] += peg * power
            count[run] += 1
            if count[run] == self.runs[run].size:
                part = self.partition_of[run]
                thread.to_goal[step][part] += self.goal[run][code[run]]
                if thread.to_goal[step][part] > left:
                    broken = part
        if broken >= 0:
            literals: list[int] = []
            for run in self.members[broken]:
                if thread.count[step][run] == self.runs[run].size:
                    first, size = self.runs[run].first, self.runs[run].size
                    literals.extend(thread.by[step][first : first + size])
            return [[lit for lit in literals if lit != 0]]
        if thread.placed[step] == self.puzzle.disks and step < self.horizon - 1:
            return self._look_ahead(thread, step)
        return []

    def _look_ahead(self, thread: _Thread, step: int) -> list[list[int]]:
        """The whole state after ``step`` is known: rule out each move at ``step + 1``
        after which the successor's estimate exceeds the moves then left.  A move changes
        one disk, so one run per partition: that run's value is looked up afresh.

        The successor's estimate is the larger of the tables' and :attr:`learned`.  What
        is learnt is a one-step backup: a state that is not the goal is at least one
        move further from it than its nearest successor, so ``1 +`` the least estimate
        over every legal move is a lower bound on its distance whenever the estimates
        are (induction on the order the bounds were learnt: the tables' are).  It does
        not depend on the horizon, so it is kept from one horizon to the next: each
        refutation leaves the states it reached with stronger bounds.  When the backup
        exceeds the moves left, the state itself is the nogood."""
        left = self.horizon - step - 1
        top = [-1] * len(self.puzzle.pegs)
        for disk, peg in enumerate(thread.peg[step]):
            top[peg] = disk  # later disks are smaller
        state = [lit for lit in thread.by[step] if lit != 0]
        key, learned = thread.state[step], self.learned
        known = learned.get(key, 0)
        if known > left + 1:
            return [state]
        to_goal, codes = thread.to_goal[step], thread.code[step]
        nogoods: list[list[int]] = []
        nearest = left + 1
        for source, disk in enumerate(top):
            if disk < 0:
                continue
            kept = 0
            for target in self.targets[source]:
                if top[target] > disk:
                    continue  # a smaller disk lies there: not a move
                shift = target - source
                estimate = learned.get(key + shift * self.weight[disk], 0)
                for run, power in self.runs_of[disk]:
                    goal, code, part = self.goal[run], codes[run], self.partition_of[run]
                    after = to_goal[part] - goal[code] + goal[code + shift * power]
                    estimate = max(estimate, after)
                nearest = min(nearest, estimate)
                move = self.move_literal.get((step + 1, disk, target))
                if estimate <= left:
                    kept += 1
                elif move is not None:
                    nogoods.append([*state, move])
            moved = self.moved_literal.get((step + 1, disk))
            if kept == 0 and moved is not None:
                nogoods.append([*state, moved])
        if max(to_goal) > 0 and 1 + nearest > known and len(learned) < LEARNED_STATES:
            learned[key] = 1 + nearest
        if 1 + nearest > left + 1:
            return [state]
        return nogoods
