"""Pattern databases: exact distances for a run of disks alone, as admissible estimates.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)}, goal={"d": (1, 2, 3)})
>>> table = toward_goal(p, Run(0, 3))
>>> table.lookup(p.initial_state())
5

A *run* is a set of consecutive disks (largest first).  Its table gives, for every way
of placing the run's disks alone on the pegs (a *pattern*), the fewest moves that take
it to the goal's pattern (:func:`toward_goal`, breadth-first search backwards from
every pattern the goal allows).

Why a table value bounds a real plan (Korf and Felner, "Recent progress in heuristic
search: a case study of the four-peg Towers of Hanoi problem", IJCAI 2007):

* **Projection.** Delete from a legal plan every move of the disks outside the run:
  what remains is legal for the run alone (a disk on top stays on top when others
  vanish, it never lands on a smaller disk of the run, and the move graph is the same),
  and it reaches the goal's pattern.  So the rest of any plan moves the run's disks at
  least ``lookup(state)`` times.
* **Additivity.** Every move moves one disk, of exactly one run: for disjoint runs the
  values add up (:func:`estimate`).  The largest of several such sums is a bound too.

The tables are built with numpy, a whole breadth-first layer at a time: 4 pegs and 10
disks (about a million patterns) in well under a second, where plain Python takes tens.
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, product
from time import monotonic
from typing import TYPE_CHECKING

# no linear algebra here: one OpenBLAS thread, not one per core, each reserving tens of
# MiB of address space at import (a batch's --memory-limit counts it: 150 MiB failed)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from hanoi_asp.methods import table_cache
from hanoi_asp.model.puzzle import Puzzle, State

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

UNSEEN = 65535
"""A pattern the search never reached: the goal cannot be reached from it at all.  No
plan passes through it, so it bounds everything."""

TABLE_PATTERNS = 1 << 20
"""Most patterns one table may hold (4 pegs: 10 disks; 5 pegs: 8): about 2 MiB each and
a fraction of a second to build."""

CHUNK = 1 << 15
"""Frontier patterns expanded at once by :func:`breadth_first`."""

Moves = Sequence[Sequence[int]]
"""For each peg, the pegs a disk on top of it may go to."""


@dataclass(frozen=True)
class Run:
    """The disks ``first + 1 .. first + size`` (disk 1 is the largest)."""

    first: int
    size: int

    @property
    def disks(self) -> range:
        return range(self.first + 1, self.first + self.size + 1)


@dataclass(frozen=True)
class PatternTable:
    """Distances for one run; ``distances[code]`` for the pattern numbered ``code``
    (``sum(peg of the run's j-th disk * pegs**j)``), :data:`UNSEEN` if the goal cannot
    be reached from it.  One byte a pattern (``bytes``) where every distance fits,
    else two (``array('H')``): both index as fast as a list, at an eighth or a quarter
    of its memory (4 pegs, 12 disks: 16 MiB, where a list took 128)."""

    pegs: int
    run: Run
    distances: Sequence[int]

    def code(self, state: State) -> int:
        """The pattern of ``state`` (a peg index per disk, disk 1 first)."""
        first, total = self.run.first, 0
        for j in reversed(range(self.run.size)):
            total = total * self.pegs + state[first + j]
        return total

    def lookup(self, state: State) -> int:
        return self.distances[self.code(state)]


Edges = frozenset[tuple[int, int]] | None
"""The allowed moves (source, target) by peg index; None: every move."""


def move_lists(pegs: int, edges: Edges, *, backwards: bool) -> list[list[int]]:
    """Where a top disk may go, by peg: the move graph, reversed for a backward search."""
    if backwards:
        return [
            [a for a in range(pegs) if a != b and (edges is None or (a, b) in edges)]
            for b in range(pegs)
        ]
    return [
        [b for b in range(pegs) if a != b and (edges is None or (a, b) in edges)]
        for a in range(pegs)
    ]


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
        if frontier.size <= FEW:  # a thin layer (restricted graphs): numpy's set-up costs more
            frontier = _expand_few(pegs, size, frontier, moves, distances, unseen, layer)
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
                    distances[reached] = layer
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
    layer: int,
) -> npt.NDArray[np.int32] | npt.NDArray[np.int64]:
    """:func:`breadth_first`'s layer step for a few patterns, one at a time: the same
    moves (the top disk of a peg onto an empty peg or a larger top disk)."""
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
                        distances[reached] = layer
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


Allowed = tuple[tuple[int, ...], ...]
"""Per disk (disk 1 first), the peg indexes where a goal lets it end."""


def goal_allowed(puzzle: Puzzle) -> Allowed:
    """The puzzle's goal as :data:`Allowed`: a named disk's peg, any peg for the rest."""
    goal, every = puzzle.goal_pegs(), tuple(range(len(puzzle.pegs)))
    return tuple((goal[d],) if d in goal else every for d in range(1, puzzle.disks + 1))


def toward_goal(
    puzzle: Puzzle, run: Run, deadline: float | None = None, allowed: Allowed | None = None
) -> PatternTable:
    """The run's :func:`distances_among` its disks' places in the goal (the puzzle's,
    or ``allowed``), on the puzzle's move graph."""
    ends = goal_allowed(puzzle) if allowed is None else allowed
    choices = [ends[d - 1] for d in run.disks]
    pegs, edges = len(puzzle.pegs), puzzle.edges()
    return PatternTable(pegs, run, cached_distances(pegs, choices, edges, deadline))


CACHED_PATTERNS = 1 << 16
"""Tables of at least this many patterns are kept on disk (:mod:`table_cache`):
smaller ones are built in a few milliseconds, less than reading a file."""


def table_key(pegs: int, choices: Sequence[Sequence[int]], edges: Edges) -> str:
    """What a table of :func:`distances_among` is of, as its on-disk cache key."""
    graph = "all" if edges is None else ",".join(f"{a}-{b}" for a, b in sorted(edges))
    ends = ";".join(",".join(map(str, c)) for c in choices)
    return f"distances pegs={pegs} ends={ends} graph={graph} order={sys.byteorder}"


def cached_distances(
    pegs: int, choices: Sequence[Sequence[int]], edges: Edges, deadline: float | None = None
) -> Sequence[int]:
    """:func:`distances_among`, as ``bytes`` or ``array('H')``, read from the on-disk
    cache when it holds the table, else built and stored there.  The key is all the
    table depends on: pegs, each disk's allowed end pegs, the move graph."""
    key = table_key(pegs, choices, edges)
    big = pegs ** len(choices) >= CACHED_PATTERNS
    found = table_cache.load(key) if big else None
    if found is not None:
        payload, width = found
        if width == 1 and len(payload) == pegs ** len(choices):
            return payload
        if width == 2 and len(payload) == 2 * pegs ** len(choices):
            wide = array("H")
            wide.frombytes(payload)
            return wide
    distances = distances_among(pegs, choices, edges, deadline)
    payload = distances.tobytes()
    if big:
        table_cache.store(key, payload, distances.itemsize)
    if distances.itemsize == 1:
        return payload
    wide = array("H")
    wide.frombytes(payload)
    return wide


def largest_run(pegs: int, disks: int, budget: int | None = None) -> int:
    """The most disks one table may cover within ``budget`` patterns (default
    :data:`TABLE_PATTERNS`, read when called, so tests can shrink it)."""
    budget = TABLE_PATTERNS if budget is None else budget
    size = 1
    while size < disks and pegs ** (size + 1) <= budget:
        size += 1
    return size


def partitions(pegs: int, disks: int, budget: int | None = None) -> list[tuple[Run, ...]]:
    """Ways to cut the disks into runs of at most :func:`largest_run` disks: full runs
    from every offset, the largest disks' run first (they move least and matter most).
    Which disks share a run decides how much a sum sees, and no offset wins everywhere.
    Measured on the 20 competition files (4 pegs, runs of 10): the best offset's sum
    was up to 7 above the largest-first cut's (0056: 38 against 31, the optimum), and 8
    files reached their optimum, against 5 with two cuts.  Each partition covers every
    disk exactly once."""
    size = largest_run(pegs, disks, budget)
    if size >= disks:
        return [(Run(0, disks),)]
    cuts = [[0, *range(first, disks, size), disks] for first in range(size, 0, -1)]
    return [tuple(Run(low, high - low) for low, high in pairwise(c)) for c in cuts]


def strongest_partitions(tables: Partitioned, state: State, count: int) -> Partitioned:
    """The ``count`` partitions with the largest sums at ``state`` (ties: the earlier),
    in their order: the bound names the best cut."""
    ranked = sorted(range(len(tables)), key=lambda i: (-sum(t.lookup(state) for t in tables[i]), i))
    return tuple(tables[i] for i in sorted(ranked[:count]))


def estimate(tables: Sequence[Sequence[PatternTable]], state: State) -> int:
    """The largest, over partitions, of the sum of their runs' table values: a lower
    bound on the moves between ``state`` and the tables' end (projection, additivity).
    :data:`UNSEEN` or more means no plan passes through ``state``."""
    return max(sum(t.lookup(state) for t in partition) for partition in tables)


Partitioned = tuple[tuple[PatternTable, ...], ...]
"""One table per run, per partition."""

_CACHE: dict[
    tuple[object, ...], tuple[dict[Run, PatternTable], dict[tuple[int, int | None], Partitioned]]
] = {}
"""Per puzzle (one at a time): every run's table built, and the partitions asked for
(by budget and number of cuts)."""


def _key(puzzle: Puzzle, allowed: Allowed) -> tuple[object, ...]:
    edges = puzzle.edges()
    return (
        len(puzzle.pegs),
        puzzle.initial_state(),
        allowed,
        None if edges is None else tuple(sorted(edges)),
    )


CUTS_BUILT = 3
"""Partitions whose full-size tables are built for the lower bound (of ten on 4 pegs);
the search asks for every cut once it must refute a horizon (see
:func:`hanoi_asp.engine.tables.pattern_tables`)."""


def ranked_partitions(
    puzzle: Puzzle,
    parts: Sequence[tuple[Run, ...]],
    table: Callable[[Run], PatternTable],
    cuts: int,
) -> list[tuple[Run, ...]]:
    """The ``cuts`` partitions most promising at the start, in their order.

    Each is scored by its *proxy*: the same cut with every run split into pieces two
    disks shorter, whose tables are 16 times smaller on 4 pegs (all pieces of ten cuts
    in about 0.15 s, against 1.5 s for the full tables).  A proxy's sum is at most its
    cut's (a split run is a projection of the whole), so this only chooses which sound
    bounds to compute.  Measured on the 20 competition files (17-18 disks): the best
    of the ten cuts is among the three best proxies on all 20, and the tables take
    0.4-1.0 s instead of 1.4-2.3 s.  On random puzzles it is not always (4 pegs, 12
    disks: 27 instead of 29, the whole solve 3.0 s instead of 2.5 s; 5 pegs, 10 disks:
    15 instead of 17, 2.2 s instead of 2.6 s).  ``table`` builds a run's table, or gives
    the one built already: a run no longer than a piece is scored with the table the
    chosen cuts then use."""
    size = max(run.size for part in parts for run in part)
    if len(parts) <= cuts or size <= 2:
        return list(parts)
    piece = size - 2
    start = puzzle.initial_state()

    def proxy(part: tuple[Run, ...]) -> int:
        return sum(
            table(Run(low, min(piece, run.first + run.size - low))).lookup(start)
            for run in part
            for low in range(run.first, run.first + run.size, piece)
        )

    scores = [proxy(part) for part in parts]
    best = sorted(range(len(parts)), key=lambda i: (-scores[i], i))[:cuts]
    return [parts[i] for i in sorted(best)]


STRONG_PATTERNS = 1 << 24
"""Most patterns of one table of the strong database (:func:`goal_database` with
``strong``): 4 pegs 12 disks, 5 pegs 10, 6 pegs 9; 16 MiB and about 2-3 s of numpy
each, so built only where the search has shown it needs them, or read from the
on-disk cache (:mod:`hanoi_asp.methods.table_cache`)."""

STRONG_CUTS = 4
"""Partitions of the strong database (the most promising by their proxies)."""


def strong_budget(pegs: int) -> int:
    """:data:`STRONG_PATTERNS`, or on 3 pegs the bound's budget: there tables serve
    restricted move graphs, whose distances grow like 3^n, so a table of 15 disks
    would take millions of breadth-first layers."""
    return STRONG_PATTERNS if pegs > 3 else TABLE_PATTERNS


def strong_partitions(pegs: int, disks: int, budget: int | None = None) -> list[tuple[Run, ...]]:
    """The cuts of :func:`partitions` at the strong budget that hold a run of the full
    size, i.e. the largest run at every offset (14 disks on 4 pegs: 12+2, 1+12+1,
    2+12): a cut of two shorter runs (11+3) sees far less, for tables nearly as large."""
    budget = strong_budget(pegs) if budget is None else budget
    parts = partitions(pegs, disks, budget)
    size = max(run.size for part in parts for run in part)
    full = [part for part in parts if any(run.size == size for run in part)]
    return full or parts


SECONDS_PER_PATTERN = 0.2e-6
"""About what :func:`breadth_first` takes per pattern of a large table (4 pegs 12 disks:
2.3 s; 5 pegs 10 disks: 1.7 s; 6 pegs 9 disks: 2.4 s; CPU, one core)."""


def strong_exact(puzzle: Puzzle, budget: int | None = None) -> bool:
    """Whether the strong database is one table of every disk: the exact distance."""
    parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    return len(parts) == 1 and len(parts[0]) == 1


def strong_price(puzzle: Puzzle, budget: int | None = None) -> float:
    """Seconds the strong database (:func:`goal_database` with ``strong``) should take to
    build: its largest runs, one per cut it will hold, counted unless built in this
    process already or kept in the on-disk cache (0 when all are)."""
    pegs = len(puzzle.pegs)
    parts = strong_partitions(pegs, puzzle.disks, budget)
    size = max(run.size for part in parts for run in part)
    runs = list(dict.fromkeys(run for part in parts for run in part if run.size == size))
    built = _CACHE.get(_key(puzzle, goal_allowed(puzzle)), ({}, {}))[0]
    ends, edges = goal_allowed(puzzle), puzzle.edges()
    missing = [
        run
        for run in runs[:STRONG_CUTS]
        if run not in built
        and not (
            pegs**size >= CACHED_PATTERNS
            and table_cache.holds(table_key(pegs, [ends[d - 1] for d in run.disks], edges))
        )
    ]
    patterns: int = pegs**size
    return len(missing) * patterns * SECONDS_PER_PATTERN


def goal_database(
    puzzle: Puzzle,
    budget: int | None = None,
    deadline: float | None = None,
    every_cut: bool = False,
    allowed: Allowed | None = None,
    strong: bool = False,
) -> Partitioned:
    """Tables toward the goal (the puzzle's, or ``allowed``) for the :data:`CUTS_BUILT`
    :func:`ranked_partitions` of :func:`partitions` (or every one), built once per
    puzzle: the lower bound, the search's pruning and A* share them, and asking for
    every cut later builds only the tables not built yet.  ``strong``: instead, the
    :data:`STRONG_CUTS` most promising :func:`strong_partitions` (tables of up to
    :data:`STRONG_PATTERNS` patterns; one cut alone when one run holds every disk: the
    exact distance).  Tables of 65,536 patterns and more are read from and kept in the
    on-disk cache.  Raises ``TimeoutError`` if ``deadline`` passes first."""
    if strong:
        budget = strong_budget(len(puzzle.pegs)) if budget is None else budget
        cuts: int | None = STRONG_CUTS
        parts = strong_partitions(len(puzzle.pegs), puzzle.disks, budget)
    else:
        budget = TABLE_PATTERNS if budget is None else budget
        cuts = None if every_cut else CUTS_BUILT
        parts = partitions(len(puzzle.pegs), puzzle.disks, budget)
    allowed = goal_allowed(puzzle) if allowed is None else allowed
    key = _key(puzzle, allowed)
    if key not in _CACHE:
        _CACHE.clear()  # one puzzle at a time: tables can be megabytes
        _CACHE[key] = ({}, {})
    built, chosen = _CACHE[key]
    asked = (budget, cuts)
    if asked not in chosen:

        def table(run: Run) -> PatternTable:
            if run not in built:
                built[run] = toward_goal(puzzle, run, deadline, allowed)
            return built[run]

        ranked = parts if cuts is None else ranked_partitions(puzzle, parts, table, cuts)
        chosen[asked] = tuple(tuple(table(run) for run in part) for part in ranked)
    return chosen[asked]
