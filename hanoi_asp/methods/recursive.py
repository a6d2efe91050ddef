"""The classic 3-peg recursion: to move disks d..n from A to C, move d+1..n to B, d to
C, and d+1..n onto it.  2^k - 1 moves for k disks, known to be optimal (the largest
disk must move at least once, and before it does the rest must sit on the third peg).

>>> list(tower_moves(1, 2, "a", "c", "b"))
[(2, 'b'), (1, 'c'), (2, 'c')]
"""

from __future__ import annotations

from collections.abc import Iterator


def tower_moves(
    first: int, last: int, source: str, target: str, spare: str
) -> Iterator[tuple[int, str]]:
    """(disk, target peg) moves taking disks ``first..last`` (first is the largest)
    from ``source`` to ``target``.  Iterative over the stack, so depth is no limit."""
    stack: list[tuple[int, int, str, str, str, bool]] = [
        (first, last, source, target, spare, False)
    ]
    while stack:
        low, high, src, dst, via, expanded = stack.pop()
        if low > high:
            continue
        if expanded:
            yield (low, dst)
            continue
        # pushed in reverse: the small tower aside, the largest disk, the small tower back
        stack.append((low + 1, high, via, dst, src, False))
        stack.append((low, high, src, dst, via, True))
        stack.append((low + 1, high, src, via, dst, False))
