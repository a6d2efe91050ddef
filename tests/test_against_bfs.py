"""Random start and goal states: the ASP planner's length equals a BFS distance."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reference import bfs_distance
from strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, replay, solve
from hanoi_asp.engine.bounds import best_lower_bound, misplaced_disks, pile_bound
from hanoi_asp.engine.pattern_search import group_distance, run_size, runs_distance
from hanoi_asp.engine.three_pegs import three_pegs


@settings(max_examples=60)
@given(puzzles())
def test_minimal_length_is_the_bfs_distance(puzzle: Puzzle) -> None:
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    result = solve(puzzle)
    assert result.result == "OPTIMUM FOUND"
    assert result.length == expected
    assert result.plan is not None
    # the plan replays from the start and reaches the goal
    assert replay(puzzle, [(m.disk, m.target) for m in result.plan]) == result.plan
    assert result.bound.value <= result.length
    assert result.lower_bound == result.upper_bound == expected


@settings(max_examples=40)
@given(puzzles())
def test_clingo_alone_refutes_every_shorter_horizon(puzzle: Puzzle) -> None:
    """With the bound switched off, minimality rests on clingo's refutations alone:
    with the plan built first, up to it; without, until clingo finds a plan itself."""
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    assert expected is not None
    result = solve(puzzle, SolveOptions(bound="none"))
    assert result.length == expected
    statuses = [run.status for run in result.horizons]
    first = result.first_plan
    assert first is not None and first.length >= expected
    if first.length == expected:  # the built plan is minimal: clingo refutes below it
        assert statuses == ["UNSAT"] * expected
    else:
        assert statuses == ["UNSAT"] * expected + ["SAT"]
    alone = solve(puzzle, SolveOptions(bound="none", first_plan=False))
    assert alone.length == expected and alone.first_plan is None
    assert [run.status for run in alone.horizons] == ["UNSAT"] * expected + ["SAT"]


@settings(max_examples=15)
@given(puzzles())
def test_oneshot_baseline_agrees(puzzle: Puzzle) -> None:
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    result = solve(puzzle, SolveOptions(mode="oneshot", bound="misplaced"))
    assert result.length == expected


@settings(max_examples=200)
@given(puzzles())
def test_lower_bounds_are_sound(puzzle: Puzzle) -> None:
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    assert expected is not None
    assert best_lower_bound(puzzle).value <= expected
    assert misplaced_disks(puzzle).value <= expected
    if len(puzzle.pegs) == 3 and puzzle.is_full_goal():
        assert three_pegs(puzzle).value == expected  # exact, not just a bound


def test_frame_stewart_counts() -> None:
    from reference import FOUR_PEG_TOWER

    from hanoi_asp.methods.frame_stewart import frame_stewart_count

    assert [frame_stewart_count(n, 4) for n in range(len(FOUR_PEG_TOWER))] == FOUR_PEG_TOWER
    assert [frame_stewart_count(n, 3) for n in range(8)] == [2**n - 1 for n in range(8)]


@settings(max_examples=30)
@given(puzzles())
def test_distance_constraints_change_no_answer(puzzle: Puzzle) -> None:
    """The 3-peg distance test is redundant: with and without it, same lengths."""
    with_test = solve(puzzle, SolveOptions(bound="none"))
    without = solve(puzzle, SolveOptions(bound="none", distance=False))
    assert with_test.length == without.length


@st.composite
def piles(draw: st.DrawFn) -> Puzzle:
    """4-5 pegs, up to 7 disks, a bottom disk that starts and ends on the same peg."""
    pegs = draw(st.integers(4, 5))
    disks = draw(st.integers(2, 6))
    names = tuple(f"p{i}" for i in range(pegs))
    start = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    goal = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    pile = draw(st.integers(1, disks))
    goal[pile - 1] = start[pile - 1]
    init: dict[str, tuple[int, ...]] = {}
    end: dict[str, tuple[int, ...]] = {}
    for disk in range(1, disks + 1):
        init[names[start[disk - 1]]] = (*init.get(names[start[disk - 1]], ()), disk)
        end[names[goal[disk - 1]]] = (*end.get(names[goal[disk - 1]], ()), disk)
    return Puzzle(pegs=names, disks=disks, init=init, goal=end)


def largest_disks_bound(puzzle: Puzzle) -> int | None:
    """The breadth-first optimum of the largest disks one search covers, plus one move
    per other misplaced disk: the two parts of the pile-split bound's cases, by
    projection and additivity (None: no disk covered)."""
    everything = list(range(1, puzzle.disks + 1))
    found = group_distance(puzzle, everything, list(range(len(puzzle.pegs))))
    return None if found is None or found[1] == 0 else found[0]


def additive_runs_bound(puzzle: Puzzle) -> int | None:
    """The disks cut into runs of consecutive sizes, every offset tried: the runs'
    optima add up (what pile-split counts for the disks above the pile's disk)."""
    size = run_size(len(puzzle.pegs), puzzle.disks)
    if size < 2 or size >= puzzle.disks:
        return None  # one run: the largest disks' bound itself
    return runs_distance(puzzle, list(range(1, puzzle.disks + 1)))[0]


@settings(max_examples=300)
@given(piles())
def test_pile_and_pattern_bounds_are_sound(puzzle: Puzzle) -> None:
    """The pile-split bound, and the two pattern searches it adds up, against BFS."""
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    assert expected is not None
    pile = pile_bound(puzzle)
    assert pile is None or pile.value <= expected
    for value in (largest_disks_bound(puzzle), additive_runs_bound(puzzle)):
        assert value is None or value <= expected
