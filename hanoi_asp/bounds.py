"""Sound lower bounds on the length of any plan, each with its argument.

>>> from hanoi_asp.spec import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> best_lower_bound(p).value
7

The upward search starts at the bound and never solves the horizons below it, so
each bound here must hold for *every* plan; its docstring is the proof and its
``argument`` says it to the user.

Two facts carry most of the arguments:

* **Projection.** Delete from a legal plan every move of the disks outside a set S:
  what remains is a legal plan for the disks of S alone (a disk on top stays on top
  when other disks vanish, and it still never lands on a smaller disk of S), and it
  reaches the goal restricted to S.  So the optimum for S alone is a lower bound.
* **Additivity.** Every move moves one disk, so for disjoint sets S1, S2 the moves of
  S1-disks and S2-disks add up: the S1- and S2-optima add up to a lower bound.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from hanoi_asp.spec import Puzzle, State

PATTERN_STATES = 300_000
"""Most abstract states one pattern search may visit (a few seconds of Python at most)."""


@dataclass(frozen=True)
class LowerBound:
    value: int
    name: str
    argument: str

    def as_dict(self) -> dict[str, object]:
        return {"value": self.value, "name": self.name, "argument": self.argument}


def misplaced_disks(puzzle: Puzzle) -> LowerBound:
    """Every disk the goal puts on another peg than its start peg moves at least once,
    and every move moves one disk: so a plan has at least that many moves."""
    start = puzzle.initial_state()
    count = sum(1 for disk, peg in puzzle.goal_pegs().items() if start[disk - 1] != peg)
    return LowerBound(
        count,
        "misplaced-disks",
        f"{count} disk(s) start off their goal peg; each moves at least once, one per move",
    )


# -- three pegs: the exact distance -----------------------------------------------------


def _to_perfect(state: State, disks: Sequence[int], target: int) -> int:
    """Moves to gather ``disks`` (largest first) as a tower on ``target``, 3 pegs.

    Classic: the largest disk not on its target needs every smaller one on the third
    peg first (2^k - 1 moves for k smaller disks, plus its own move); the smaller
    disks then aim at that third peg.  This is exact (Hinz 1989).
    """
    total = 0
    for rank, disk in enumerate(disks):
        here = state[disk - 1]
        if here != target:
            total += 1 << (len(disks) - rank - 1)
            target = 3 - here - target
    return total


def three_peg_distance(start: State, goal: State, disks: Sequence[int]) -> int:
    """Fewest moves between two states of ``disks`` (largest first) on 3 pegs.

    The largest disk D that differs moves once or twice in an optimal plan (Hinz
    1989, "The Tower of Hanoi", L'Enseignement Math. 35): once from a to b with all
    smaller disks on the third peg c in between; or twice, a -> c -> b, with the
    smaller disks on b, then moved as a tower to a, then to their goal.  Take the
    better of the two; disks larger than D never move in an optimal plan.
    """
    for index, disk in enumerate(disks):
        a, b = start[disk - 1], goal[disk - 1]
        if a != b:
            rest = disks[index + 1 :]
            c = 3 - a - b
            once = _to_perfect(start, rest, c) + 1 + _to_perfect(goal, rest, c)
            twice = _to_perfect(start, rest, b) + 1 + ((1 << len(rest)) - 1) + 1
            twice += _to_perfect(goal, rest, a)
            return min(once, twice)
    return 0


def three_pegs(puzzle: Puzzle) -> LowerBound:
    """Exact 3-peg distance for the disks the goal names (all of them for a full goal).

    For a partial goal it is the optimum of the named disks alone, a bound by
    projection; for a full goal it is the optimum itself.
    """
    goal = puzzle.goal_pegs()
    named = sorted(goal)
    start = puzzle.initial_state()
    target = tuple(goal.get(d, start[d - 1]) for d in range(1, puzzle.disks + 1))
    value = three_peg_distance(start, target, named)
    scope = "all disks" if len(named) == puzzle.disks else "the disks the goal names"
    return LowerBound(
        value,
        "three-peg-distance",
        f"exact 3-peg distance of {scope} (largest differing disk moves once or twice, "
        "Hinz 1989); a lower bound by projection",
    )


def distance3_facts(puzzle: Puzzle) -> str:
    """Facts for ``encodings/distance3.lp``: the goal-side constants of the 3-peg formula.

    ``third/3`` names the third peg, ``gnext/2`` orders the goal's disks, ``weight/2``
    is 2^(goal disks below), ``gcost(D,Z,V)``: V moves take a tower of the goal disks
    smaller than D on peg Z to their goal places (:func:`_to_perfect`, read backwards).
    """
    from hanoi_asp.facts import peg_term  # local: facts imports nothing from here

    pegs = [peg_term(p) for p in puzzle.pegs]
    goal = puzzle.goal_pegs()
    named = sorted(goal)
    target = tuple(goal.get(d, 0) for d in range(1, puzzle.disks + 1))
    lines = [
        f"third({pegs[a]},{pegs[b]},{pegs[3 - a - b]})."
        for a in range(3)
        for b in range(3)
        if a != b
    ]
    lines += [f"gnext({d},{e})." for d, e in itertools.pairwise(named)]
    for index, disk in enumerate(named):
        rest = named[index + 1 :]
        lines.append(f"weight({disk},{1 << len(rest)}).")
        lines += [f"gcost({disk},{pegs[z]},{_to_perfect(target, rest, z)})." for z in range(3)]
    return "\n".join(lines)


# -- any pegs: pattern search over the largest disks ---------------------------------------


def pattern_distance(
    pegs: int, start: State, goal: dict[int, int], disks: Sequence[int]
) -> int | None:
    """Breadth-first distance for ``disks`` alone (others deleted), or None if the
    search would visit more than :data:`PATTERN_STATES` states.  An unreachable goal
    gives a huge number (no plan exists: any bound holds)."""
    if pegs ** len(disks) > 4 * PATTERN_STATES:
        return None
    here = tuple(start[d - 1] for d in disks)
    wanted = [(i, goal[d]) for i, d in enumerate(disks) if d in goal]
    seen = {here: 0}
    queue = deque([here])
    while queue:
        state = queue.popleft()
        if all(state[i] == p for i, p in wanted):
            return seen[state]
        if len(seen) > PATTERN_STATES:
            return None
        tops: dict[int, int] = {}
        for index, peg in enumerate(state):
            tops[peg] = index  # later entries are smaller disks
        for source, index in tops.items():
            for target in range(pegs):
                if target == source or tops.get(target, -1) > index:
                    continue
                nxt = (*state[:index], target, *state[index + 1 :])
                if nxt not in seen:
                    seen[nxt] = seen[state] + 1
                    queue.append(nxt)
    return 10**9


def pattern_bound(puzzle: Puzzle) -> LowerBound | None:
    """Exact optimum of the largest disks that matter, plus 1 per other misplaced disk.

    S = the largest disks up to a search budget; by projection the optimum for S alone
    bounds the plan's S-moves, and each misplaced disk outside S adds at least one
    move of its own (additivity).
    """
    goal = puzzle.goal_pegs()
    start = puzzle.initial_state()
    pegs = len(puzzle.pegs)
    best: tuple[int, int] | None = None
    for size in range(1, puzzle.disks + 1):
        group = list(range(1, size + 1))
        found = pattern_distance(pegs, start, goal, group)
        if found is None:
            break
        rest = sum(1 for d, p in goal.items() if d > size and start[d - 1] != p)
        best = (found + rest, size)
    if best is None:
        return None
    value, size = best
    return LowerBound(
        value,
        "pattern-search",
        f"breadth-first optimum of the {size} largest disks alone (a bound by projection) "
        "plus one move per other misplaced disk",
    )


def frame_stewart_count(disks: int, pegs: int) -> int:
    """Frame-Stewart moves for a whole tower: move m disks aside on all pegs, the other
    n - m on the pegs left, the m back; the split m chosen by dynamic programming."""
    table = [[0] * (disks + 1) for _ in range(pegs + 1)]
    for n in range(1, disks + 1):
        table[3][n] = (1 << n) - 1
        for k in range(4, pegs + 1):
            table[k][n] = min(2 * table[k][m] + table[k - 1][n - m] for m in range(n))
    return table[max(3, pegs)][disks] if pegs >= 3 else 0


def whole_tower(puzzle: Puzzle) -> tuple[int, int] | None:
    """(source, target) peg indexes if the puzzle moves all disks from one peg to another."""
    start = set(puzzle.initial_state())
    goal = puzzle.goal_pegs()
    end = set(goal.values())
    if len(start) == 1 and len(end) == 1 and len(goal) == puzzle.disks and start != end:
        return start.pop(), end.pop()
    return None


def four_peg_tower(puzzle: Puzzle) -> LowerBound | None:
    """A whole tower between two of 4 pegs needs the Frame-Stewart count of moves:
    Bousch proved the Frame-Stewart algorithm optimal for 4 pegs ("La quatrième tour
    de Hanoï", Bull. Belg. Math. Soc. 21, 2014).  For 5+ pegs this is unproven: no
    bound is claimed there."""
    if len(puzzle.pegs) != 4 or whole_tower(puzzle) is None:
        return None
    value = frame_stewart_count(puzzle.disks, 4)
    return LowerBound(
        value,
        "four-peg-tower",
        "a whole tower on 4 pegs needs the Frame-Stewart count (proven optimal, Bousch 2014)",
    )


BoundChoice = Literal["auto", "misplaced", "none"]


def zero_bound(puzzle: Puzzle) -> LowerBound:
    """No plan has fewer than 0 moves: every horizon is left to clingo to refute."""
    return LowerBound(0, "none", "no bound used: every shorter horizon refuted by clingo")


def lower_bound(puzzle: Puzzle, choice: BoundChoice = "auto") -> LowerBound:
    """The bound the search starts from: the best known (``auto``) or a weaker one."""
    if choice == "none":
        return zero_bound(puzzle)
    if choice == "misplaced":
        return misplaced_disks(puzzle)
    return best_lower_bound(puzzle)


def best_lower_bound(puzzle: Puzzle) -> LowerBound:
    """The strongest sound bound known for this puzzle."""
    candidates = [misplaced_disks(puzzle)]
    if len(puzzle.pegs) == 3:
        candidates.append(three_pegs(puzzle))
    else:
        tower = four_peg_tower(puzzle)
        if tower is not None:
            return max([*candidates, tower], key=lambda bound: bound.value)
        pattern = pattern_bound(puzzle)
        if pattern is not None:
            candidates.append(pattern)
    return max(candidates, key=lambda bound: bound.value)
