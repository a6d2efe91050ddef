"""Random instance files (arbitrary start and goal) for experiments.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> isinstance(random_puzzle(__import__("random").Random(1), 3, 4, partial=False), Puzzle)
True
"""

from __future__ import annotations

import random
from pathlib import Path

from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.model.puzzle import Puzzle


def random_puzzle(rng: random.Random, pegs: int, disks: int, *, partial: bool) -> Puzzle:
    """Every disk on a random peg at the start and in the goal; with ``partial``, each
    disk has a goal peg with probability 1/2 (at least one does)."""
    names = (
        tuple("abcdefghijklmnopqrstuvwxyz"[:pegs])
        if pegs <= 26
        else tuple(f"p{i}" for i in range(pegs))
    )
    init: dict[str, tuple[int, ...]] = {}
    goal: dict[str, tuple[int, ...]] = {}
    named = [d for d in range(1, disks + 1) if not partial or rng.random() < 0.5]
    if not named:
        named = [rng.randint(1, disks)]
    for disk in range(1, disks + 1):
        peg = rng.choice(names)
        init[peg] = (*init.get(peg, ()), disk)
    for disk in named:
        peg = rng.choice(names)
        goal[peg] = (*goal.get(peg, ()), disk)
    return Puzzle(pegs=names, disks=disks, init=init, goal=goal)


def write_instances(
    outdir: Path, *, pegs: int, disks: int, count: int, seed: int, partial: bool
) -> list[Path]:
    """Write ``count`` random instances as ``.lp`` files; the same seed, the same files."""
    rng = random.Random(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    kind = "partial" if partial else "full"
    written = []
    for index in range(count):
        puzzle = random_puzzle(rng, pegs, disks, partial=partial)
        path = outdir / f"random-{pegs}p-{disks}d-{kind}-s{seed}-{index:04d}.lp"
        header = f"% random instance: {pegs} pegs, {disks} disks, seed {seed}, #{index}\n"
        path.write_text(header + to_facts(puzzle) + "\n", encoding="utf-8")
        written.append(path)
    return written
