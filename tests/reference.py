"""Independent references for the tests: a breadth-first search and known counts.

Written from the puzzle's rules alone; shares no code with hanoi_asp's solver or
simulator, so agreement means something.
"""

from __future__ import annotations

from collections import deque

# Minimal moves for the whole tower on 4 pegs (Frame-Stewart, proven optimal by Bousch).
FOUR_PEG_TOWER = [0, 1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81]


def bfs_distance(pegs: int, start: tuple[int, ...], goal: dict[int, int]) -> int | None:
    """Fewest moves from ``start`` (peg index of disk d at d-1; disk 1 largest) to any
    state where disk d is on peg goal[d]; None if no such state is reachable."""

    def done(state: tuple[int, ...]) -> bool:
        return all(state[d - 1] == p for d, p in goal.items())

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
                if target == source:
                    continue
                if target in top and top[target] > disk:
                    continue  # would land on a smaller disk
                nxt = (*state[: disk - 1], target, *state[disk:])
                if nxt not in seen:
                    seen[nxt] = seen[state] + 1
                    queue.append(nxt)
    return None
