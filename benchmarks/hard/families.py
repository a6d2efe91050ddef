"""The hard benchmark's families and cases: random puzzles from fixed seeds (written
once as ``.lp`` files), whole towers, and the competition's instances."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.harness.cases import competition_files, matching, tower, unmatched, write_instance
from hanoi_asp import Puzzle, load_puzzle
from hanoi_asp.inputs.generate import random_puzzle


@dataclass(frozen=True)
class Family:
    name: str
    kind: str  # random, tower or aspcomp
    pegs: int
    disks: int
    partial: bool = False
    default: bool = True  # smoke families run only when named

    @property
    def series(self) -> str:
        """Families that differ only in their disk count (for skipping larger ones)."""
        return f"{self.kind}{self.pegs}-{'partial' if self.partial else 'full'}"


FAMILIES = (
    Family("random3-n11", "random", 3, 11),
    Family("random3-n12", "random", 3, 12),
    Family("tower3-n10", "tower", 3, 10),
    Family("random4-n10-full", "random", 4, 10),
    Family("random4-n10-partial", "random", 4, 10, partial=True),
    Family("random4-n12-full", "random", 4, 12),
    Family("random4-n12-partial", "random", 4, 12, partial=True),
    Family("random4-n13-full", "random", 4, 13),
    Family("random4-n14-full", "random", 4, 14),
    Family("random4-n14-partial", "random", 4, 14, partial=True),
    Family("random4-n15-full", "random", 4, 15),
    Family("tower4-n12", "tower", 4, 12),
    Family("tower4-n13", "tower", 4, 13),
    Family("random5-n10-full", "random", 5, 10),
    Family("random5-n10-partial", "random", 5, 10, partial=True),
    Family("random5-n12-full", "random", 5, 12),
    Family("random5-n12-partial", "random", 5, 12, partial=True),
    Family("random5-n13-full", "random", 5, 13),
    Family("tower5-n12", "tower", 5, 12),
    Family("random6-n11-full", "random", 6, 11),
    Family("aspcomp", "aspcomp", 4, 0),
    Family("smoke4-n5-full", "random", 4, 5, default=False),
    Family("smoke4-n5-partial", "random", 4, 5, partial=True, default=False),
    Family("smoke3-n6", "random", 3, 6, default=False),
)


@dataclass(frozen=True)
class Case:
    family: Family
    name: str
    path: Path
    puzzle: Puzzle
    generated: bool = True  # written to ``path`` by this benchmark (else a shipped file)


def select_families(patterns: Sequence[str] | None) -> list[Family]:
    """The families named (shell patterns); every default one for none; SystemExit for
    a pattern that names no family."""
    if not patterns:
        return [f for f in FAMILIES if f.default]
    names = [f.name for f in FAMILIES]
    unknown = unmatched(names, patterns)
    if unknown:
        raise SystemExit(f"unknown family {', '.join(unknown)} (families: {', '.join(names)})")
    chosen = matching(names, patterns)
    return [f for f in FAMILIES if f.name in chosen]


def cases_of(family: Family, count: int, seed: int, folder: Path) -> list[Case]:
    """A family's cases; random ones from ``Random(f"hard-{seed}-{family}")``, so a
    larger ``--count`` keeps the first instances and families do not share a stream."""
    if family.kind == "aspcomp":
        return [
            Case(family, p.name[:4], p, load_puzzle(str(p)), generated=False)
            for p in competition_files()
        ]
    if family.kind == "tower":
        puzzle = tower(family.pegs, family.disks)
        return [Case(family, family.name, folder / f"{family.name}.lp", puzzle)]
    rng = random.Random(f"hard-{seed}-{family.name}")
    cases = []
    for index in range(count):
        puzzle = random_puzzle(rng, family.pegs, family.disks, partial=family.partial)
        name = f"{family.name}-{index}"
        cases.append(Case(family, name, folder / f"{name}.lp", puzzle))
    return cases


def write_case(case: Case, seed: int) -> None:
    """A generated case's ``.lp`` file (shipped ones are left alone)."""
    if case.generated:
        write_instance(case.path, case.puzzle, f"benchmarks/hard: {case.name} (seed {seed})")
