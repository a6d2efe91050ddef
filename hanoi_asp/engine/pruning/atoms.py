"""The incremental encoding's atoms as the pattern propagator reads them, step by step:
each step's ``on(D,P,T)`` and ``move(D,P,T)`` literals, and the watches on its moves.

A program atom keeps its solver literal from one solve call to the next, and a watch
stays once added, so each step's atoms are read and watched once, not at every horizon.
"""

from __future__ import annotations

import clingo

from hanoi_asp.inputs.facts import peg_name
from hanoi_asp.model.puzzle import Puzzle

PRUNING_THREAD = 0
"""The solver thread that checks the tables.  Other threads, if asked for (``--threads``),
run clingo alone at full speed (the propagator is Python, and only one thread runs
Python at a time): a portfolio of pruned and unpruned search.  By default the engine
runs this thread alone (:data:`hanoi_asp.engine.policy.PATTERN_THREADS`)."""

Placed = tuple[int, int, int]
"""(step, disk position counting from 0 = disk 1, peg index)"""


class StepAtoms:
    """The atoms of the steps read so far, for one puzzle."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.watches: dict[int, list[Placed]] = {}
        """A ``move(D,P,T)`` literal -> (step, disk position, peg index)."""
        self.move_literal: dict[tuple[int, int, int], int] = {}
        """(step, disk position, peg index) -> the literal of ``move(D,P,T)``."""
        self.on_literal = [[0] * (puzzle.disks * len(puzzle.pegs))]  # step 0: the start
        """Per step, ``[disk position * pegs + peg index]`` -> the literal of
        ``on(D,P,T)``, 0 where it is a fact (true whatever clingo decides, so left out of
        nogoods)."""
        self.step_moves: list[list[tuple[int, int, int]]] = [[]]
        """Per step read, its ``move`` atoms as (solver literal, disk position, peg index)."""
        self.fact_moves: list[list[tuple[int, int, int]]] = [[]]
        """Per step watched, the move that is a fact, if any (literal 0)."""
        self.watched_steps = 0
        self.peg_symbols: dict[int, clingo.Symbol] = {}

    def read(self, init: clingo.PropagateInit, horizon: int) -> None:
        """Map and watch the ``on`` and ``move`` atoms of the steps up to ``horizon`` not
        read yet (found by their symbols: iterating every atom of a signature at each
        horizon was most of its set-up), and watch the moves of every step before the
        horizon's last (the last move ends at the goal: no state to check after it)."""
        pegs, disks = len(self.puzzle.pegs), self.puzzle.disks
        if not self.peg_symbols:
            for atom in init.symbolic_atoms.by_signature("peg", 1):
                index = self.peg(atom.symbol.arguments[0])
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

    def peg(self, symbol: clingo.Symbol) -> int | None:
        name = peg_name(symbol)
        if name is None or name not in self.puzzle.pegs:
            return None
        return self.puzzle.peg_index(name)
