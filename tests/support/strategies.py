"""Random puzzles for the property tests: any start, full or partial goal, optional
move graph."""

from __future__ import annotations

from hypothesis import strategies as st

from hanoi_asp import Puzzle


@st.composite
def puzzles(
    draw: st.DrawFn,
    pegs: tuple[int, int] = (3, 5),
    disks: tuple[int, int] = (1, 5),
    graphs: bool = False,
) -> Puzzle:
    """Pegs and disks drawn from the given ranges; with ``graphs``, the move graph is
    complete, a preset, or any non-empty set of moves."""
    peg_count = draw(st.integers(*pegs))
    disk_count = draw(st.integers(*disks))
    names = tuple(f"p{i}" for i in range(peg_count))
    start = draw(st.lists(st.integers(0, peg_count - 1), min_size=disk_count, max_size=disk_count))
    ends = draw(st.lists(st.integers(0, peg_count - 1), min_size=disk_count, max_size=disk_count))
    partial = draw(st.booleans())
    named = [d for d in range(1, disk_count + 1) if not partial or d == 1 or draw(st.booleans())]
    graph: object = None
    if graphs:
        pairs = [(a, b) for a in names for b in names if a != b]
        graph = draw(
            st.one_of(
                st.sampled_from([None, "linear", "cyclic"]),
                st.lists(st.sampled_from(pairs), min_size=1, unique=True).map(tuple),
            )
        )
    init: dict[str, list[int]] = {}
    for disk, peg in enumerate(start, start=1):
        init.setdefault(names[peg], []).append(disk)
    goal: dict[str, list[int]] = {}
    for disk in named:
        goal.setdefault(names[ends[disk - 1]], []).append(disk)
    return Puzzle.model_validate(
        {"pegs": names, "disks": disk_count, "init": init, "goal": goal, "moves_allowed": graph}
    )


@st.composite
def big_puzzles(draw: st.DrawFn, pegs: int, most: int) -> Puzzle:
    """Any start and a full or partial goal on ``pegs`` pegs, up to ``most`` disks."""
    names = tuple(f"p{i}" for i in range(pegs))
    disks = draw(st.integers(1, most))
    start = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    goal = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    named = draw(st.lists(st.booleans(), min_size=disks, max_size=disks))
    if not any(named):
        named[0] = True

    def stacks(where: list[int], keep: list[bool]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for disk, (peg, kept) in enumerate(zip(where, keep, strict=True), start=1):
            if kept:
                out[names[peg]] = (*out.get(names[peg], ()), disk)
        return out

    full = draw(st.booleans())
    return Puzzle(
        pegs=names,
        disks=disks,
        init=stacks(start, [True] * disks),
        goal=stacks(goal, [True] * disks if full else named),
    )
