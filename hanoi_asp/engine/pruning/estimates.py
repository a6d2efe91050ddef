"""The pattern tables read from a whole state as the propagator sees it, one number:
every legal move's successor with the tables' estimate of it, and the goal test.

A state is coded as one number (:mod:`hanoi_asp.methods.states`); a run's pattern code
is its digits of that number, so a move, which changes one disk's digit, changes one run's
code per partition, and only that run's value is looked up afresh."""

from __future__ import annotations

from collections.abc import Sequence

from hanoi_asp.methods import states
from hanoi_asp.methods.patterns import DiskRun, Partitioned, move_lists
from hanoi_asp.model.puzzle import Puzzle

Moves = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""The legal moves from a whole state, one column each: the tables' estimate of the
successor, the disk position, the target peg index, the successor's state code."""

Estimated = tuple[Moves, list[int]]
"""Moves and each successor's estimate now, which rises as bounds are learnt."""


class TableEstimates:
    """The tables of every partition of ``tables``, indexed for the moves of one puzzle."""

    def __init__(self, puzzle: Puzzle, tables: Partitioned) -> None:
        self.tables = tables
        pegs = len(puzzle.pegs)
        self.pegs = pegs
        self.runs: list[DiskRun] = []
        self.partition_of: list[int] = []
        self.goal: list[Sequence[int]] = []
        for index, partition in enumerate(tables):
            for table in partition:
                self.runs.append(table.run)
                self.partition_of.append(index)
                self.goal.append(table.distances)
        # per disk: in each partition, the run holding it, the disk's digit weight in
        # the run's code, the partition and the run's table
        self.runs_of: list[list[tuple[int, int, int, Sequence[int]]]] = [
            [] for _ in range(puzzle.disks)
        ]
        for number, run in enumerate(self.runs):
            for j in range(run.size):
                entry = (number, pegs**j, self.partition_of[number], self.goal[number])
                self.runs_of[run.first + j].append(entry)
        # a run's pattern code is its digits of the state code: (state // low) % span
        self.digits = [(pegs**run.first, pegs**run.size) for run in self.runs]
        # the first partition's runs, for the goal test (:meth:`at_goal`)
        self.goal_digits = [
            (self.goal[run], low, span)
            for run, (low, span) in enumerate(self.digits)
            if self.partition_of[run] == 0
        ]
        self.targets = move_lists(pegs, puzzle.edges(), backwards=False)
        self.weight = states.weights(pegs, puzzle.disks)
        """Each disk's digit value in a state's number."""
        goal = puzzle.goal_pegs()
        self.goal_key: int | None = None
        """The one goal state's code, when the goal places every disk."""
        if len(goal) == puzzle.disks:
            self.goal_key = states.code(pegs, [goal[d] for d in range(1, puzzle.disks + 1)])

    def key(self, pegs: Sequence[int]) -> int:
        """The number of the state that puts each disk on ``pegs[disk]``."""
        return states.code(self.pegs, pegs)

    def by_tables(self, pegs: list[int], key: int) -> Moves:
        """The legal moves from the state ``pegs`` coded ``key``, with the tables'
        estimates.  A move changes one disk, so one run per partition: that run's value
        is looked up afresh."""
        top = [-1] * self.pegs
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

    def at_goal(self, key: int) -> bool:
        """Whether the state coded ``key`` is a goal: a run is at distance 0 exactly when
        its disks are where the goal wants them, and one partition's runs hold every disk."""
        if self.goal_key is not None:
            return key == self.goal_key
        return all(table[key // low % span] == 0 for table, low, span in self.goal_digits)
