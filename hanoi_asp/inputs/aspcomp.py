"""The ASP Competition's HanoiTower format -> :class:`~hanoi_asp.model.puzzle.Puzzle`.

The format (potassco/asp-planning-benchmarks, ``HanoiTower/``): ``steps(S)``,
``time(0..S)``, ``disk(1..K)``; "disks" 1-4 are the four **pegs**, 5..K the movable
disks with a larger number for a **smaller** disk; ``on0(X,Y)`` / ``ongoal(X,Y)``:
X lies directly on Y (a disk or a peg) at the start / in the goal.

Mapping: pegs keep their numbers as names ("1".."4"); movable disk d becomes disk
d - 4 (so 5 is disk 1, the largest); a disk's peg is found by following ``on`` down
to a peg; ``steps(S)`` is the move bound.
"""

from __future__ import annotations

from hanoi_asp.inputs.read_facts import parse_facts
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.puzzle import Puzzle, placement

PREDICATES = {"steps": 1, "time": 1, "disk": 1, "on0": 2, "ongoal": 2}
PEGS = 4


def looks_like_aspcomp(text: str) -> bool:
    """Cheap sniff: competition files name ``on0``/``ongoal``, quickstart files do not."""
    return "on0(" in text or "ongoal(" in text


def read_aspcomp(text: str, path: str) -> Puzzle:
    facts = parse_facts(text, path, PREDICATES)
    numbers: dict[str, list[tuple[tuple[int, ...], int]]] = {p: [] for p in PREDICATES}
    for fact in facts:
        name = fact.name
        values = []
        for arg in fact.args:
            if arg.type.name != "Number":
                raise InputError(
                    f"{name}/{len(fact.args)} takes integers: {fact.symbol}",
                    path=path,
                    line=fact.line,
                )
            values.append(int(arg.number))
        numbers[name].append((tuple(values), fact.line))
    disks = sorted({v[0] for v, _ in numbers["disk"]})
    if disks[:PEGS] != list(range(1, PEGS + 1)) or len(disks) <= PEGS:
        raise InputError(
            "disk/1 must list 1..4 (the pegs) and at least one movable disk 5..K", path=path
        )
    if disks != list(range(1, len(disks) + 1)):
        raise InputError("disk/1 must be numbered 1..K without gaps", path=path)
    steps = {v[0] for v, _ in numbers["steps"]}
    if len(steps) != 1 or min(steps) < 0:
        raise InputError("steps/1 must be given once, a non-negative integer", path=path)
    count = len(disks) - PEGS
    init = _pegs_of(numbers["on0"], count, "on0", path)
    goal = _pegs_of(numbers["ongoal"], count, "ongoal", path)

    return Puzzle(
        pegs=tuple(str(p) for p in range(1, PEGS + 1)),
        disks=count,
        init=placement({d: str(p) for d, p in init.items()}),
        goal=placement({d: str(p) for d, p in goal.items()}),
        max_moves=steps.pop(),
    )


def _pegs_of(
    pairs: list[tuple[tuple[int, ...], int]], count: int, name: str, path: str
) -> dict[int, int]:
    """Movable disk (renumbered 1..count) -> peg, following ``name`` down to a peg."""
    below: dict[int, int] = {}
    holder: dict[int, int] = {}
    for (upper, lower), line in pairs:
        if not PEGS < upper <= PEGS + count or not 1 <= lower <= PEGS + count:
            raise InputError(f"{name}({upper},{lower}): no such disk or peg", path=path, line=line)
        if lower > PEGS and lower >= upper:
            raise InputError(
                f"{name}({upper},{lower}): a disk cannot lie on a smaller one", path=path, line=line
            )
        if upper in below and below[upper] != lower:
            raise InputError(f"{name}: disk {upper} lies on two things", path=path, line=line)
        if lower in holder and holder[lower] != upper:
            raise InputError(f"{name}: two disks lie directly on {lower}", path=path, line=line)
        below[upper] = lower
        holder[lower] = upper
    pegs: dict[int, int] = {}
    for disk in range(PEGS + 1, PEGS + count + 1):
        if disk not in below:
            raise InputError(f"{name}: disk {disk} lies on nothing", path=path)
        support = disk
        while support > PEGS:  # strictly decreasing, so this ends
            support = below.get(support, 0)
            if support == 0:
                raise InputError(f"{name}: disk {disk} does not rest on a peg", path=path)
        pegs[disk - PEGS] = support
    return pegs
