"""Cases: puzzles built here (whole towers, random puzzles from fixed seeds) or read
from the shipped instance files, and generated ones written once as ``.lp`` files.

>>> tower(4, 3).goal
{'d': (1, 2, 3)}
>>> import random
>>> scattered(random.Random(1), 3, 2).disks
2
"""

from __future__ import annotations

import fnmatch
import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from benchmarks.harness.paths import COMPETITION, HARD
from hanoi_asp import Puzzle, to_facts

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def tower(pegs: int, disks: int, *, max_moves: int | None = None) -> Puzzle:
    """The classic puzzle: every disk from the first peg to the last (pegs ``a``, ``b``,
    ...), with the instance's own ``max_moves`` if given."""
    names = tuple(LETTERS[:pegs])
    every = tuple(range(1, disks + 1))
    return Puzzle(
        pegs=names,
        disks=disks,
        init={names[0]: every},
        goal={names[-1]: every},
        max_moves=max_moves,
    )


def scattered(rng: random.Random, pegs: int, disks: int, *, max_moves: int | None = None) -> Puzzle:
    """Every disk on a random peg at the start and in the (full) goal, drawn disk by
    disk (start, then goal), disk 1 the largest at the bottom of its stack.  The speed
    and first-plan benchmarks' random cases: a different stream from
    :func:`hanoi_asp.inputs.generate.random_puzzle`, kept so that their seeds give the
    same puzzles as before."""
    names = [LETTERS[i] for i in range(pegs)]
    init: dict[str, list[int]] = {}
    goal: dict[str, list[int]] = {}
    for disk in range(1, disks + 1):
        init.setdefault(rng.choice(names), []).append(disk)
        goal.setdefault(rng.choice(names), []).append(disk)
    spec = {"pegs": names, "disks": disks, "init": init, "goal": goal, "max_moves": max_moves}
    return Puzzle.model_validate(spec)


def competition_files() -> list[Path]:
    """The 20 ASP Competition instances, by name (``0004-...`` first)."""
    return sorted(COMPETITION.glob("*.asp"))


def hard_files() -> list[Path]:
    """``instances/hard/*.lp``, by name."""
    return sorted(HARD.glob("*.lp"))


def write_instance(path: Path, puzzle: Puzzle, header: str) -> None:
    """``puzzle`` as ``.lp`` facts at ``path``, under a ``%`` comment line saying where it
    came from (so a file found later names its benchmark and seed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"% {header}\n{to_facts(puzzle)}\n", encoding="utf-8")


def matching(names: Iterable[str], patterns: Sequence[str]) -> list[str]:
    """The ``names`` that match any of the shell ``patterns``, in their order."""
    return [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def unmatched(names: Iterable[str], patterns: Sequence[str]) -> list[str]:
    """The ``patterns`` that match none of ``names`` (to refuse a mistyped family)."""
    every = list(names)
    return [p for p in patterns if not any(fnmatch.fnmatchcase(n, p) for n in every)]
