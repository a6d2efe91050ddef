"""The tables' builder: breadth-first search over every pattern of a run, with numpy, a
whole layer at a time: 4 pegs and 10 disks (about a million patterns) in well under a
second, where plain Python takes tens."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import product
from time import monotonic
from typing import TYPE_CHECKING

# no linear algebra here: one OpenBLAS thread, not one per core, each reserving tens of
# MiB of address space at import (a batch's --memory-limit counts it: 150 MiB failed)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from hanoi_asp.methods.patterns.tables import UNSEEN, Edges, move_lists

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CHUNK = 1 << 15
"""Frontier patterns expanded at once by :func:`breadth_first`."""

Moves = Sequence[Sequence[int]]
"""For each peg, the pegs a disk on top of it may go to."""


def breadth_first(
    pegs: int, size: int, sources: Iterable[int], moves: Moves, deadline: float | None = None
) -> npt.NDArray[np.uint8] | npt.NDArray[np.uint16]:
    """Distance of every pattern of ``size`` disks from the nearest of ``sources``,
    moving along ``moves``: one byte a pattern when every distance fits (under 255)
    and every pattern is reached, else two, :data:`UNSEEN` for a pattern never reached.

    One numpy pass per layer, a chunk of the frontier at a time: each pattern's top
    disk per peg (:func:`_top_disks`, two small tables, not one row per pattern), then
    per pair of pegs every legal move at once; an illegal move goes to a sentinel slot
    past the end, which counts as seen, so nothing is compressed before the lookup.
    Each layer's new patterns are marked as they are found (a pattern reached twice in
    one chunk is dropped when the layer is sorted, which also keeps the next layer's
    lookups in memory order).  Raises ``TimeoutError`` between chunks once ``deadline``
    (``time.monotonic()``) passes.  numpy is imported here, not with the module: a
    solve that builds no table (3 pegs, whole 4-peg towers) starts 60 ms sooner."""
    import numpy as np

    count = pegs**size
    index = np.int32 if count < 2**31 - 1 else np.int64
    unseen: int = SMALL_UNSEEN
    distances: npt.NDArray[np.uint8] | npt.NDArray[np.uint16]
    distances = np.full(count + 1, unseen, dtype=np.uint8)
    distances[count] = 0  # the sentinel
    # a disk's shift in a code, by its position + 1 (0: an empty peg, no move)
    shift = np.concatenate([[0], pegs ** np.arange(size, dtype=np.int64)]).astype(index)
    frontier = np.unique(np.fromiter(sources, dtype=index))
    distances[frontier] = 0
    layer = 0
    while frontier.size:
        layer += 1
        if layer == SMALL_UNSEEN:  # too far for a byte: two from here on
            wide = distances.astype(np.uint16)
            wide[wide == SMALL_UNSEEN] = UNSEEN
            distances, unseen = wide, UNSEEN
        value = min(layer, FARTHEST)
        if frontier.size <= FEW:  # a thin layer (restricted graphs): numpy's set-up costs more
            frontier = _expand_few(pegs, size, frontier, moves, distances, unseen, value)
            continue
        found = []
        for low in range(0, frontier.size, CHUNK):
            if deadline is not None and monotonic() > deadline:
                raise TimeoutError
            chunk = frontier[low : low + CHUNK]
            tops = _tops_of(pegs, size, chunk)
            sentinel = np.full(chunk.size, count, dtype=index)
            for source in range(pegs):
                top = tops[source]
                moved = shift[top + 1]
                for target in moves[source]:
                    # the top disk moves unless a smaller one tops the target (an
                    # empty source has top -1, never above a target's)
                    legal = tops[target] < top
                    reached = np.where(legal, chunk + (target - source) * moved, sentinel)
                    reached = reached[distances[reached] == unseen]
                    distances[reached] = value
                    found.append(reached)
        if not found:  # no move at all on this graph
            break
        reached = np.sort(np.concatenate(found))
        keep = np.ones(reached.size, dtype=bool)
        np.not_equal(reached[1:], reached[:-1], out=keep[1:])
        frontier = reached[keep]
    distances = distances[:count]
    if unseen == SMALL_UNSEEN and (distances == SMALL_UNSEEN).any():
        wide = distances.astype(np.uint16)
        wide[wide == SMALL_UNSEEN] = UNSEEN
        return wide
    return distances


SMALL_UNSEEN = 255
"""Not reached yet, while a table is one byte a pattern."""

FARTHEST = UNSEEN - 1
"""The largest distance a table holds: a pattern farther (3 pegs on a line, 11 disks and
more: up to 3**11 - 1 = 177,146 moves) holds this, still a lower bound, and still
consistent (a move changes ``min(distance, FARTHEST)`` by at most one, as it does the
distance).  Stored as it was, the 65,536th layer overflowed two bytes (a crash), and the
65,535th read as never reached."""

FEW = 16
"""Layers of at most this many patterns are expanded in plain Python: 3 pegs on a line,
10 disks, has 59,048 layers of one or two (4.9 s with numpy per layer, 3.7 s before
the chunked search)."""


def _expand_few(
    pegs: int,
    size: int,
    frontier: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    moves: Moves,
    distances: npt.NDArray[np.uint8] | npt.NDArray[np.uint16],
    unseen: int,
    value: int,
) -> npt.NDArray[np.int32] | npt.NDArray[np.int64]:
    """:func:`breadth_first`'s layer step for a few patterns, one at a time: the same
    moves (the top disk of a peg onto an empty peg or a larger top disk), each pattern
    found marked ``value`` (the layer, at most :data:`FARTHEST`)."""
    import numpy as np

    found: set[int] = set()
    for code in frontier.tolist():
        top = [-1] * pegs
        rest = code
        for position in range(size):  # largest first: a smaller disk overwrites
            rest, peg = divmod(rest, pegs)
            top[peg] = position
        for source, disk in enumerate(top):
            if disk < 0:
                continue
            for target in moves[source]:
                if top[target] < disk:
                    reached = code + (target - source) * pegs**disk
                    if distances[reached] == unseen:
                        distances[reached] = value
                        found.add(reached)
    return np.asarray(sorted(found), dtype=np.int64)


TOPS_LOW = 8
"""Disks whose top-disk table :func:`_tops_of` keeps whole (4 pegs: 65,536 rows)."""


def _tops_of(
    pegs: int, size: int, codes: npt.NDArray[np.int32] | npt.NDArray[np.int64]
) -> list[npt.NDArray[np.int8]]:
    """For each peg, the position of the top disk of every pattern in ``codes`` (-1:
    empty).  The code's low digits (the largest :data:`TOPS_LOW` disks) and high
    digits each index a small table; a smaller disk, from the high digits, is on top
    where a peg has one."""
    import numpy as np

    low = min(size, TOPS_LOW)
    below = _top_disks(pegs, low)
    if size == low:
        return [below[peg][codes] for peg in range(pegs)]
    above = _top_disks(pegs, size - low, offset=low)
    high, rest = np.divmod(codes, pegs**low)
    tops = []
    for peg in range(pegs):
        small = above[peg][high]
        tops.append(np.where(small >= 0, small, below[peg][rest]))
    return tops


@lru_cache(maxsize=32)
def _top_disks(pegs: int, size: int, offset: int = 0) -> npt.NDArray[np.int8]:
    """Per peg (rows), for every pattern of ``size`` disks (columns), its top disk's
    position plus ``offset`` (-1: empty).  Built a disk at a time: the smallest disk
    is the highest digit, so the patterns of one more disk are ``pegs`` copies of
    those of one fewer, each with the new disk on top of its own peg."""
    import numpy as np

    tops = np.full((pegs, 1), -1, dtype=np.int8)
    for position in range(size):
        span = tops.shape[1]
        tops = np.tile(tops, (1, pegs))
        for peg in range(pegs):
            tops[peg, peg * span : (peg + 1) * span] = position + offset
    return tops


def _codes(pegs: int, choices: Sequence[Sequence[int]]) -> Iterable[int]:
    """Every pattern code whose j-th disk lies on one of ``choices[j]``."""
    for pattern in product(*choices):
        total = 0
        for peg in reversed(pattern):
            total = total * pegs + peg
        yield total


def distances_to(
    pegs: int, size: int, goal: Mapping[int, int], edges: Edges, deadline: float | None = None
) -> npt.NDArray[np.uint16]:
    """Fewest moves from each pattern of ``size`` disks to one that has the disk at
    position j on peg ``goal[j]`` (a position missing from ``goal`` may end anywhere),
    searched backwards from all of those along ``edges``."""
    choices = [[goal[j]] if j in goal else list(range(pegs)) for j in range(size)]
    import numpy as np

    return distances_among(pegs, choices, edges, deadline).astype(np.uint16, copy=False)


def distances_among(
    pegs: int, choices: Sequence[Sequence[int]], edges: Edges, deadline: float | None = None
) -> npt.NDArray[np.uint8] | npt.NDArray[np.uint16]:
    """Fewest moves from each pattern of ``len(choices)`` disks to one that has the
    disk at position j on one of the pegs ``choices[j]``, along ``edges``."""
    moves = move_lists(pegs, edges, backwards=True)
    return breadth_first(pegs, len(choices), _codes(pegs, choices), moves, deadline)
