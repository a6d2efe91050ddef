"""The plan built before the search (``hanoi_asp/engine/first_plan.py``): for every shipped
instance, at once for big puzzles, by breadth-first search on restricted graphs."""

from __future__ import annotations

from support.files import INSTANCES

from hanoi_asp import HanoiError, Puzzle, SolveOptions, load_puzzle
from hanoi_asp.engine.bounds import lower_bound, misplaced_disks
from hanoi_asp.engine.first_plan import build_first_plan


def test_every_shipped_instance_gets_a_verified_first_plan() -> None:
    files = sorted(p for p in INSTANCES.rglob("*") if p.suffix in (".lp", ".asp", ".json", ".toml"))
    assert len(files) > 20
    checked = 0
    for path in files:
        try:
            puzzle = load_puzzle(str(path))
        except HanoiError:  # instances of bad input are shipped on purpose
            continue
        start = build_first_plan(puzzle, SolveOptions(), None)
        if start.moves is None or start.first is None:
            assert puzzle.edges() is not None or lower_bound(puzzle).unreachable, path
            continue
        assert len(start.moves) == start.first.length >= misplaced_disks(puzzle).value, path
        checked += 1
    assert checked > 20


def test_the_first_plan_is_quick_for_big_puzzles() -> None:
    for pegs, disks in ((4, 30), (5, 20)):
        names = tuple("abcdef"[:pegs])
        init: dict[str, tuple[int, ...]] = {names[d % pegs]: () for d in range(disks)}
        for d in range(1, disks + 1):
            init[names[(d * 7) % pegs]] += (d,)
        goal = {names[-1]: tuple(range(1, disks + 1))}
        puzzle = Puzzle(
            pegs=names, disks=disks, init={k: v for k, v in init.items() if v}, goal=goal
        )
        first = build_first_plan(puzzle, SolveOptions(), None).first
        assert first is not None and first.seconds < 5  # "well under a second": benchmarks/


def test_restricted_graphs_get_a_breadth_first_plan() -> None:
    puzzle = Puzzle(
        pegs=("a", "b", "c"),
        disks=3,
        init={"a": (1, 2, 3)},
        goal={"c": (1, 2, 3)},
        moves_allowed="linear",
    )
    first = build_first_plan(puzzle, SolveOptions(), None).first
    assert first is not None and first.method == "breadth-first" and first.length == 26
