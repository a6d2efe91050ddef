"""Random puzzles for ``grade --random``: small to large, each with its reference answer.

The seven teaching instances are small (at most 4 disks): an encoding that is wrong
only on larger puzzles passes them all.  The random puzzles grow from 1 disk to
``max_disks``, with arbitrary starts, full and partial goals, sometimes a restricted
move graph, and for each the horizons to ask: the optimum (a plan must exist and
replay), one below it (the instance with ``moves/1`` below the optimum: no plan may
exist) and one or two above (any plan given must replay).  The optimum comes from
breadth-first search (:mod:`hanoi_asp.methods.bfs`), which shares no code with the
encodings.  The same seed gives the same puzzles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clingo import ast

from hanoi_asp.methods.bfs import search
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.puzzle import GRAPH_PRESETS, Puzzle, preset_edges

PEG_NAMES = "abcdefghij"
MAX_OPTIMUM = 64
"""Longer optima are re-drawn (3 pegs, 7 disks can need 127 moves): one-shot grounding
of so many steps takes seconds, and the 41-moves-and-up bugs are met below 64."""
MAX_OPTIMUM_HARD = 30
"""The same on more pegs or a restricted move graph."""
DRAWS = 40
"""Draws per puzzle; every tenth without luck takes a disk off."""
UNREACHABLE_HORIZON = 6
"""The horizon asked of a puzzle no plan solves (a one-way move graph)."""


@dataclass(frozen=True)
class Trial:
    """One generated puzzle: its name in reports, the reference answer, the horizons."""

    name: str
    puzzle: Puzzle
    optimum: int | None
    """BFS's shortest plan length; None when no plan exists at all."""
    plan: tuple[tuple[int, str], ...] | None
    """A shortest plan (disk, target peg) per step, from BFS."""
    horizons: tuple[int, ...]


def reference(puzzle: Puzzle) -> tuple[int | None, tuple[tuple[int, str], ...] | None]:
    """BFS's optimum and one shortest plan (None, None when no plan exists)."""
    outcome = search(puzzle, max_moves=None)
    if outcome.steps is None:
        return None, None
    return len(outcome.steps), tuple(outcome.steps)


def horizons_for(optimum: int | None, rng: random.Random) -> tuple[int, ...]:
    """Below, at and above the optimum (ascending); a few for an unreachable goal."""
    if optimum is None:
        return (rng.randint(0, UNREACHABLE_HORIZON),)
    below = (optimum - 1,) if optimum > 0 else ()
    return (*below, optimum, optimum + rng.randint(1, 2))


def random_graph(rng: random.Random, pegs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A preset (linear, cyclic) or a random set of allowed moves, never empty."""
    choice = rng.choice([*GRAPH_PRESETS[1:], "random"])
    if choice != "random":
        return preset_edges(choice, pegs)
    pairs = [(a, b) for a in pegs for b in pegs if a != b]
    chosen = [pair for pair in pairs if rng.random() < 0.6]
    return tuple(chosen or [rng.choice(pairs)])


def random_puzzle(
    rng: random.Random, pegs: int, disks: int, *, graph: bool, partial: bool
) -> Puzzle:
    names = tuple(PEG_NAMES[:pegs])
    init: dict[str, tuple[int, ...]] = {}
    goal: dict[str, tuple[int, ...]] = {}
    towers = rng.random() < 0.25  # the classic shape: one tower to another
    start_peg, goal_peg = rng.sample(names, 2)
    named = [d for d in range(1, disks + 1) if not partial or rng.random() < 0.5]
    named = named or [rng.randint(1, disks)]  # no goal fact at all: clingo would warn
    for disk in range(1, disks + 1):
        peg = start_peg if towers else rng.choice(names)
        init[peg] = (*init.get(peg, ()), disk)
    for disk in named:
        peg = goal_peg if towers else rng.choice(names)
        goal[peg] = (*goal.get(peg, ()), disk)
    edges = random_graph(rng, names) if graph else None
    return Puzzle(pegs=names, disks=disks, init=init, goal=goal, moves_allowed=edges)


def random_trials(
    count: int, seed: int, *, max_disks: int = 7, max_pegs: int = 5, graphs: bool = False
) -> list[Trial]:
    """``count`` puzzles from 1 disk up to ``max_disks`` (3..``max_pegs`` pegs); with
    ``graphs`` about one in three has a restricted move graph."""
    if count and max_pegs**max_disks > Limits.states:
        raise InputError(
            f"--max-pegs {max_pegs} --max-disks {max_disks}: random puzzles are graded "
            f"against breadth-first search, which stores at most {Limits.states:,} states "
            f"({max_pegs}^{max_disks} here); lower --max-disks or --max-pegs"
        )
    rng = random.Random(seed)
    trials: list[Trial] = []
    for index in range(count):
        disks = 1 + index * max_disks // max(count, 1)
        for attempt in range(DRAWS):
            pegs = rng.randint(min(3, max_pegs), max_pegs)
            graph = graphs and rng.random() < 1 / 3
            smaller = max(1, disks - attempt // (DRAWS // 4))  # too long: fewer disks
            puzzle = random_puzzle(rng, pegs, smaller, graph=graph, partial=rng.random() < 0.4)
            optimum, plan = reference(puzzle)
            if optimum is None or optimum <= longest(pegs, graph):
                break
        horizons = horizons_for(optimum, rng)
        name = f"random/{index + 1:03d}-{pegs}p{smaller}d" + ("-graph" if graph else "")
        trials.append(Trial(name, puzzle, optimum, plan, horizons))
    return trials


def longest(pegs: int, graph: bool) -> int:
    """The longest optimum kept: a one-shot encoding grounds pegs x disks x steps, and
    refuting one move less on 4-5 pegs with a move graph took 10-30 s at 50 moves."""
    return MAX_OPTIMUM if pegs == 3 and not graph else MAX_OPTIMUM_HARD


def mentions_edges(text: str) -> bool:
    """Does the encoding read ``edge/2`` (a move graph)?  Then its random puzzles
    include restricted move graphs by default.  Comments do not count."""
    found: list[bool] = []

    class Find(ast.Transformer):
        def visit_Function(self, node: ast.AST) -> ast.AST:
            if node.name == "edge" and len(node.arguments) == 2:
                found.append(True)
            return node

    finder = Find()

    def visit(statement: ast.AST) -> None:
        finder(statement)

    try:
        ast.parse_string(text, visit, logger=lambda _c, _m: None)
    except RuntimeError:
        return False
    return bool(found)
