"""A plan for any start and any (full or partial) goal on 3 or more pegs, built at once.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1,), "c": (2,)}, goal={"c": (1, 2)})
>>> first_plan(p)
[(2, 'b'), (1, 'c'), (2, 'c')]

This plan is the search's first upper bound, not a claim of minimality.  It places the
disks largest first: a disk that is off its goal peg waits until every smaller disk
has been gathered as one tower on a spare peg (clearing both its own peg and its goal
peg), then moves there; larger disks never move again, and smaller disks may rest on
them, so every peg stays usable.  Gathering is recursive in the same way, and a
tower that is already stacked moves by Frame-Stewart with every other peg free.

On more pegs (and for a partial goal on 3) two more constructions compete: one that
clears the smaller disks off both pegs onto several free pegs (a disk's own goal peg
first) instead of one tower, and one that moves the largest disks as a breadth-first
optimum for them alone says (:meth:`_Builder.refine`), clearing the smaller disks off
each move's two pegs.

Why it is legal and complete: a disk only moves when every smaller disk sits on the
spare peg, so it is on top and lands on a peg whose disks are all larger; once a disk
is placed only smaller disks move.  On 3 pegs this is the classic algorithm: with
the better of Hinz's two ways to move the largest differing disk (once, or twice via
the third peg) it is the optimum for a full goal.  A whole tower on more pegs moves
by Frame-Stewart, optimal on 4 pegs (Bousch 2014).  Loops (a state seen before) and
moves after the goal first holds are cut out (:func:`shortcut`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from hanoi_asp.methods import bfs
from hanoi_asp.methods.frame_stewart import frame_stewart_count, frame_stewart_moves
from hanoi_asp.methods.states import code, weights
from hanoi_asp.model.puzzle import Puzzle

Steps = list[tuple[int, str]]

REFINE_STATES = 20_000
"""The largest disks whose optimum :meth:`_Builder.refine` follows: as many as fit in
this many states (7 on 4 pegs, 6 on 5 pegs)."""


class TooLong(Exception):
    """The plan would have more moves, or take more time, than the caller allows."""


class _Builder:
    """The plan so far, and where each disk is after it (disk d at ``at[d - 1]``)."""

    def __init__(self, puzzle: Puzzle, cap: int, deadline: float | None = None) -> None:
        self.pegs = puzzle.pegs
        self.disks = puzzle.disks
        self.at = [puzzle.pegs[i] for i in puzzle.initial_state()]
        self.steps: Steps = []
        self.cap = cap
        self.deadline = deadline

    def move(self, disk: int, peg: str) -> None:
        self.steps.append((disk, peg))
        self.at[disk - 1] = peg
        if len(self.steps) > self.cap:
            raise TooLong
        late = self.deadline is not None and len(self.steps) % 1024 == 0
        if late and time.monotonic() > (self.deadline or 0):
            raise TooLong

    def tower(self, first: int, source: str, target: str) -> None:
        """Disks ``first..n``, stacked on ``source``, to ``target`` by Frame-Stewart."""
        spares = [p for p in self.pegs if p not in (source, target)]
        for disk, peg in frame_stewart_moves(first, self.disks, source, target, spares):
            self.move(disk, peg)

    def count_on(self, first: int, pegs: Sequence[str]) -> dict[str, int]:
        """How many of disks ``first..n`` lie on each of ``pegs``."""
        counts = {p: 0 for p in pegs}
        for disk in range(first, self.disks + 1):
            if self.at[disk - 1] in counts:
                counts[self.at[disk - 1]] += 1
        return counts

    def spare(self, first: int, avoid: Sequence[str]) -> str:
        """A peg outside ``avoid`` for disks ``first..n``: where most of them already are."""
        counts = self.count_on(first, [p for p in self.pegs if p not in avoid])
        return max(counts, key=lambda p: counts[p])

    def gather(self, first: int, target: str) -> None:
        """Stack disks ``first..n`` as one tower on ``target``."""
        while first <= self.disks:
            here = self.at[first - 1]
            if all(self.at[d - 1] == here for d in range(first + 1, self.disks + 1)):
                if here != target:
                    self.tower(first, here, target)
                return
            if here == target:
                first += 1
                continue
            aside = self.spare(first + 1, (here, target))
            self.gather(first + 1, aside)
            self.move(first, target)
            self.tower(first + 1, aside, target)
            return

    def clear(self, first: int, avoid: set[str], goal: dict[int, str]) -> None:
        """Move disks ``first..n`` off the pegs in ``avoid`` (at least one peg is left):
        the largest one there moves to a free peg (its goal peg if that is free) once
        the smaller disks have left both pegs; a single free peg takes them as a tower."""
        free = [p for p in self.pegs if p not in avoid]
        if len(free) == 1:
            self.gather(first, free[0])
            return
        for disk in range(first, self.disks + 1):
            here = self.at[disk - 1]
            if here not in avoid:
                continue
            wanted = goal.get(disk)
            to = wanted if wanted in free else self.spare_of(disk + 1, free)
            self.clear(disk + 1, avoid | {here, to}, goal)
            self.move(disk, to)
            return

    def spare_of(self, first: int, free: Sequence[str]) -> str:
        """The free peg with the fewest of disks ``first..n`` on it."""
        counts = self.count_on(first, free)
        return min(free, key=lambda p: counts[p])

    def place(self, goal: dict[int, str], first: int = 1, spread: bool = False) -> None:
        """Put each goal disk from ``first`` on, largest first, on its goal peg."""
        for disk in range(first, self.disks + 1):
            here, there = self.at[disk - 1], goal.get(disk)
            if there is None or here == there:
                continue
            if spread:
                self.clear(disk + 1, {here, there}, goal)
            else:
                self.gather(disk + 1, self.spare(disk + 1, (here, there)))
            self.move(disk, there)

    def refine(self, puzzle: Puzzle, goal: dict[int, str]) -> None:
        """Move the largest disks as a breadth-first optimum for them alone says, each
        move once the smaller disks have left its two pegs; then place the rest."""
        top = 1
        while top < self.disks and len(self.pegs) ** (top + 1) <= REFINE_STATES:
            top += 1
        start = puzzle.initial_state()
        stacks: dict[str, tuple[int, ...]] = {}
        for disk in range(1, top + 1):
            name = self.pegs[start[disk - 1]]
            stacks[name] = (*stacks.get(name, ()), disk)
        wanted: dict[str, tuple[int, ...]] = {}
        for disk in sorted(d for d in goal if d <= top):
            wanted[goal[disk]] = (*wanted.get(goal[disk], ()), disk)
        large = Puzzle(pegs=self.pegs, disks=top, init=stacks, goal=wanted)
        found = bfs.search(large, max_moves=None, max_states=REFINE_STATES)
        for disk, peg in found.steps or ():
            self.clear(top + 1, {self.at[disk - 1], peg}, goal)
            self.move(disk, peg)
        self.place(goal, top + 1, spread=True)

    def place_twice(self, goal: dict[int, str]) -> None:
        """Hinz's other way for the largest differing disk: via a third peg, with the
        smaller disks on its goal peg first and then on its start peg; then place the
        rest.  Nothing if every goal disk is already in place."""
        for disk in range(1, self.disks + 1):
            here, there = self.at[disk - 1], goal.get(disk)
            if there is None or here == there:
                continue
            via = self.spare(disk + 1, (here, there))
            self.gather(disk + 1, there)
            self.move(disk, via)
            self.gather(disk + 1, here)
            self.move(disk, there)
            self.place(goal, disk + 1)
            return


def first_plan(puzzle: Puzzle, cap: int = 10**6, deadline: float | None = None) -> Steps | None:
    """The shortest of the constructions above, loops cut out; None on a restricted move
    graph or below 3 pegs (the constructions need every move), if longer than ``cap``,
    or if none is done by ``deadline`` (a ``time.monotonic()`` value)."""
    if puzzle.edges() is not None or len(puzzle.pegs) < 3:
        return None
    goal = {disk: puzzle.pegs[peg] for disk, peg in puzzle.goal_pegs().items()}
    start = puzzle.initial_state()
    plans: list[Steps] = []
    if len(set(start)) == 1 and len(goal) == puzzle.disks and len(set(goal.values())) == 1:
        source, target = puzzle.pegs[start[0]], goal[1]
        if source != target:
            spares = [p for p in puzzle.pegs if p not in (source, target)]
            if frame_stewart_count(puzzle.disks, len(puzzle.pegs)) <= cap:
                plans.append(list(frame_stewart_moves(1, puzzle.disks, source, target, spares)))
    ways = ["once", "twice", "spread"]
    if len(puzzle.pegs) > 3 or not puzzle.is_full_goal():
        ways.append("refine")  # on 3 pegs "once" or "twice" is already the optimum
    for way in ways:
        builder = _Builder(puzzle, cap, deadline)
        try:
            if way == "twice":
                builder.place_twice(goal)
            elif way == "refine":
                builder.refine(puzzle, goal)
            else:
                builder.place(goal, spread=way == "spread")
        except TooLong:
            continue
        plans.append(shortcut(puzzle, builder.steps))
    return min(plans, key=len) if plans else None


def shortcut(puzzle: Puzzle, steps: Steps) -> Steps:
    """``steps`` without loops (from a state back to the same state) and without the moves
    after the goal first holds: a legal plan stays legal, since what follows a cut-out
    loop starts from the very state it started from before."""
    pegs = len(puzzle.pegs)
    index = {name: i for i, name in enumerate(puzzle.pegs)}
    weight = weights(pegs, puzzle.disks)
    at = list(puzzle.initial_state())
    key = code(pegs, at)
    goal = puzzle.goal_pegs()
    placed = sum(1 for disk, peg in goal.items() if at[disk - 1] == peg)
    seen = {key: 0}
    trail = [key]  # trail[i]: the state after the first i kept steps
    kept: Steps = []
    for disk, name in steps:
        if placed == len(goal):
            break
        old, new = at[disk - 1], index[name]
        placed += (goal.get(disk) == new) - (goal.get(disk) == old)
        at[disk - 1] = new
        key += (new - old) * weight[disk - 1]
        if key in seen:
            back = seen[key]
            for state in trail[back + 1 :]:
                del seen[state]
            del trail[back + 1 :], kept[back:]
            continue
        kept.append((disk, name))
        seen[key] = len(kept)
        trail.append(key)
    return kept
