"""Frame-Stewart for a whole tower on k >= 3 pegs, the split chosen by dynamic programming.

To move n disks with k pegs: move the m smallest aside to a free peg using all k pegs,
the n - m largest to the target using the k - 1 pegs left, then the m back on top.
The best m is found by dynamic programming over (n, k), not by the closed sqrt
formula (which is not always best).  Optimal for 3 pegs (the classic recursion) and
for 4 pegs (Bousch 2014); for 5 or more pegs optimality is a conjecture.

>>> frame_stewart_table(4, 4)[4][4]
(9, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from hanoi_asp.methods.recursive import tower_moves


@lru_cache(maxsize=64)
def frame_stewart_table(disks: int, pegs: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``table[k][n] = (moves, m)``: fewest Frame-Stewart moves for n disks on k pegs,
    and the number m of small disks set aside first (0 for 3 pegs: the recursion)."""
    table = [[(0, 0)] * (disks + 1) for _ in range(pegs + 1)]
    for n in range(1, disks + 1):
        table[3][n] = ((1 << n) - 1, 0)
        for k in range(4, pegs + 1):
            table[k][n] = min((2 * table[k][m][0] + table[k - 1][n - m][0], m) for m in range(n))
    return tuple(tuple(row) for row in table)


def frame_stewart_count(disks: int, pegs: int) -> int:
    """Frame-Stewart moves for a whole tower of ``disks`` on ``pegs`` (0 below 3 pegs).

    >>> [frame_stewart_count(n, 4) for n in range(1, 8)]
    [1, 3, 5, 9, 13, 17, 25]
    """
    if pegs < 3:
        return 0
    return frame_stewart_table(disks, pegs)[pegs][disks][0]


def frame_stewart_moves(
    first: int, last: int, source: str, target: str, spares: Sequence[str]
) -> Iterator[tuple[int, str]]:
    """(disk, target peg) moves taking disks ``first..last`` (first is the largest)
    from ``source`` to ``target`` with the ``spares`` pegs free."""
    count = last - first + 1
    if count <= 0:
        return
    pegs = len(spares) + 2
    if pegs == 3:
        yield from tower_moves(first, last, source, target, spares[0])
        return
    aside = frame_stewart_table(count, pegs)[pegs][count][1]
    if aside == 0:  # the k - 1 pegs alone are as good: leave one spare unused
        yield from frame_stewart_moves(first, last, source, target, spares[1:])
        return
    parking, others = spares[0], spares[1:]
    small = last - aside + 1
    yield from frame_stewart_moves(small, last, source, parking, [target, *others])
    yield from frame_stewart_moves(first, small - 1, source, target, others)
    yield from frame_stewart_moves(small, last, parking, target, [source, *others])
