"""Text pictures of states, for ``--boards`` and ``explain``.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b"), disks=2, init={"a": (1, 2)}, goal={"b": (1, 2)})
>>> print(draw_board(p, p.initial_state()))
  |      |
 =2=     |
==1==    |
------ ------
  a      b
"""

from __future__ import annotations

from hanoi_asp.model.puzzle import Puzzle, State, stacks


def draw_board(puzzle: Puzzle, state: State) -> str:
    """The pegs side by side, disk 1 (largest) widest, the top of each stack up."""
    n = puzzle.disks
    width = 2 * n + 2
    towers = stacks(puzzle, state)
    height = max(len(t) for t in towers) + 1

    def cell(tower: list[int], level: int) -> str:
        if level >= len(tower):
            return "|".center(width)
        disk = tower[level]
        size = n - disk + 1  # disk 1 is the largest
        label = str(disk)
        return ("=" * size + label + "=" * size).center(width)

    rows = []
    for level in range(height - 1, -1, -1):
        rows.append(" ".join(cell(t, level) for t in towers).rstrip())
    rows.append(" ".join("-" * width for _ in towers))
    rows.append(" ".join(name[:width].center(width) for name in puzzle.pegs).rstrip())
    return "\n".join(rows)
