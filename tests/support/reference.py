"""Independent references for the tests: a breadth-first search and known counts.

Written from the puzzle's rules alone; shares no code with hanoi_asp's solver or
simulator, so agreement means something.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

# Minimal moves for the whole tower on 4 pegs (Frame-Stewart, proven optimal by Bousch).
FOUR_PEG_TOWER = [
    0,
    1,
    3,
    5,
    9,
    13,
    17,
    25,
    33,
    41,
    49,
    65,
    81,
    97,
    113,
    129,
    161,
    193,
    225,
    257,
    289,
]


# Minimal moves, n = 1..6 disks, 3 pegs with restricted moves (OEIS A000244 - 1 and
# the cyclic Hanoi sequences A005665 / A005666: one and two steps around the cycle).
LINEAR_END_TO_END = [3**n - 1 for n in range(1, 7)]  # 2, 8, 26, 80, 242, 728
CYCLIC_ONE_STEP = [1, 5, 15, 43, 119, 327]
CYCLIC_TWO_STEPS = [2, 7, 21, 59, 163, 447]


def frame_stewart_numbers(pegs: int, count: int) -> list[int]:
    """Frame-Stewart counts for 1..count disks on ``pegs`` >= 3 pegs by the known closed
    pattern (not by dynamic programming): the increments are 2^j, each repeated
    C(j + pegs - 3, pegs - 3) times (OEIS A000225, A007664, A007665, A182058)."""
    from math import comb

    out: list[int] = []
    total, j = 0, 0
    while len(out) < count:
        for _ in range(comb(j + pegs - 3, pegs - 3)):
            total += 2**j
            out.append(total)
        j += 1
    return out[:count]


def bfs_distance(
    pegs: int,
    start: tuple[int, ...],
    goal: dict[int, int],
    edges: frozenset[tuple[int, int]] | None = None,
) -> int | None:
    """Fewest moves from ``start`` (peg index of disk d at d-1; disk 1 largest) to any
    state where disk d is on peg goal[d]; None if no such state is reachable.  Only
    moves in ``edges`` (source, target) are allowed, when given."""

    def done(state: tuple[int, ...]) -> bool:
        return all(state[d - 1] == p for d, p in goal.items())

    return bfs_until(pegs, start, done, edges)


def bfs_until(
    pegs: int,
    start: tuple[int, ...],
    done: Callable[[tuple[int, ...]], bool],
    edges: frozenset[tuple[int, int]] | None = None,
) -> int | None:
    """Fewest moves from ``start`` to any state ``done`` accepts (see :func:`bfs_distance`)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if done(state):
            return seen[state]
        top: dict[int, int] = {}
        for disk, peg in enumerate(state, start=1):
            top[peg] = disk  # later (higher-numbered, smaller) disks overwrite
        for source, disk in top.items():
            for target in range(pegs):
                if target == source or (edges is not None and (source, target) not in edges):
                    continue
                if target in top and top[target] > disk:
                    continue  # would land on a smaller disk
                nxt = (*state[: disk - 1], target, *state[disk:])
                if nxt not in seen:
                    seen[nxt] = seen[state] + 1
                    queue.append(nxt)
    return None


def reaches_in_exactly(
    pegs: int,
    start: tuple[int, ...],
    goal: dict[int, int],
    moves: int,
    edges: frozenset[tuple[int, int]] | None = None,
) -> bool:
    """Whether some plan of exactly ``moves`` legal moves (not the fewest: any, a disk
    may come back) takes ``start`` to a state where disk d is on peg goal[d]: every
    state reachable in exactly k moves, layer by layer, k = 1 .. ``moves``."""
    layer = {start}
    for _ in range(moves):
        following: set[tuple[int, ...]] = set()
        for state in layer:
            top: dict[int, int] = {}
            for disk, peg in enumerate(state, start=1):
                top[peg] = disk
            for source, disk in top.items():
                for target in range(pegs):
                    if target == source or (edges is not None and (source, target) not in edges):
                        continue
                    if target in top and top[target] > disk:
                        continue
                    following.add((*state[: disk - 1], target, *state[disk:]))
        layer = following
    return any(all(state[d - 1] == p for d, p in goal.items()) for state in layer)
