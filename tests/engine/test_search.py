"""The search (``hanoi_asp/engine/search.py`` and the strategies around its loop): minimal
lengths against breadth-first search on random puzzles and against the known counts of
whole towers, with clingo alone refuting the horizons below."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.puzzles import tower
from support.reference import (
    CYCLIC_ONE_STEP,
    CYCLIC_TWO_STEPS,
    FOUR_PEG_TOWER,
    LINEAR_END_TO_END,
    bfs_distance,
)
from support.strategies import big_puzzles, puzzles

from hanoi_asp import Puzzle, SolveOptions, replay, solve
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.model.result import Method


@settings(max_examples=60)
@given(puzzles())
def test_minimal_length_is_the_bfs_distance(puzzle: Puzzle) -> None:
    expected = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    result = solve(puzzle)
    assert result.result == "OPTIMUM FOUND"
    assert result.length == expected
    assert result.plan is not None and result.length is not None
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


@settings(max_examples=30)
@given(puzzles())
def test_distance_constraints_change_no_answer(puzzle: Puzzle) -> None:
    """The 3-peg distance test is redundant: with and without it, same lengths."""
    with_test = solve(puzzle, SolveOptions(bound="none"))
    without = solve(puzzle, SolveOptions(bound="none", distance=False))
    assert with_test.length == without.length


@pytest.mark.parametrize("disks", range(1, 7))
def test_three_pegs_take_two_to_the_n_minus_one(disks: int) -> None:
    result = solve(tower(3, disks))
    assert result.result == "OPTIMUM FOUND"
    assert result.length == 2**disks - 1


@pytest.mark.parametrize("disks", range(1, 9))
def test_four_pegs_match_frame_stewart(disks: int) -> None:
    result = solve(tower(4, disks))
    assert result.result == "OPTIMUM FOUND"
    assert result.length == FOUR_PEG_TOWER[disks]


@pytest.mark.parametrize("disks", range(1, 5))
def test_oneshot_and_incremental_agree(disks: int) -> None:
    for pegs in (3, 4):
        puzzle = tower(pegs, disks)
        oneshot = solve(puzzle, SolveOptions(mode="oneshot"))
        incremental = solve(puzzle, SolveOptions(mode="incremental"))
        assert oneshot.length == incremental.length
        assert oneshot.result == incremental.result == "OPTIMUM FOUND"


def test_proof_names_the_refuted_horizons_or_the_bound() -> None:
    result = solve(tower(3, 3), SolveOptions(first_plan=False))
    assert result.bound.value <= 7
    proof = result.proof_data
    refuted = [run.horizon for run in result.horizons if run.status == "UNSAT"]
    assert refuted == list(range(result.bound.value, 7))
    if refuted:
        assert proof.kind == "refuted-horizons"
        assert proof.refuted is not None and (proof.refuted.first, proof.refuted.last) == (
            refuted[0],
            refuted[-1],
        )
    else:
        assert proof.kind == "meets-bound" and proof.refuted is None
    assert proof.lower == 7 and proof.plan is not None and proof.plan.source == "clingo"
    assert result.horizons[-1].status == "SAT"
    settled = solve(tower(3, 3))  # the plan built first meets the bound: no clingo call
    assert settled.horizons == () and settled.length == 7
    proof = settled.proof_data
    assert proof.kind == "meets-bound" and proof.plan is not None and proof.bound is not None
    assert proof.plan.source == "constructive" and proof.bound.name == "three-peg-distance"


@pytest.mark.parametrize("disks", range(1, 6))
def test_three_pegs_from_zero_with_clingo_refuting_everything(disks: int) -> None:
    result = solve(tower(3, disks), SolveOptions(bound="none"))
    assert result.length == 2**disks - 1
    assert sum(run.status == "UNSAT" for run in result.horizons) == 2**disks - 1


def lengths(method: Method, puzzles: list[Puzzle], **options: object) -> list[int | None]:
    out = []
    for puzzle in puzzles:
        result = solve(puzzle, SolveOptions(method=method, **options))  # type: ignore[arg-type]
        assert result.result == "OPTIMUM FOUND", (puzzle, result.proof)
        out.append(result.length)
    return out


def test_clingo_refutes_every_shorter_horizon_on_restricted_graphs() -> None:
    """Without the move-graph bound, minimality rests on clingo and the weakened pruning."""
    for graph, target, expected in (
        ("linear", 2, LINEAR_END_TO_END),
        ("cyclic", 1, CYCLIC_ONE_STEP),
        ("cyclic", 2, CYCLIC_TWO_STEPS),
    ):
        puzzles = [tower(3, n, target, graph=graph) for n in range(1, 4)]
        assert lengths("asp", puzzles, bound="misplaced") == expected[:3]
        assert lengths("asp", puzzles, bound="misplaced", mode="oneshot") == expected[:3]


@settings(max_examples=60)
@given(puzzles(pegs=(2, 4), disks=(1, 4), graphs=True))
def test_asp_and_bfs_agree_with_the_reference_on_any_move_graph(puzzle: Puzzle) -> None:
    expected = bfs_distance(
        len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs(), puzzle.edges()
    )
    limit = 30
    by_bfs = solve(puzzle, SolveOptions(method="bfs", max_moves=limit))
    # clingo refutes every horizon below the misplaced-disk count on its own
    by_asp = solve(puzzle, SolveOptions(bound="misplaced", max_moves=limit))
    if expected is None or expected > limit:
        assert by_bfs.result == by_asp.result == "UNSATISFIABLE"
        assert by_bfs.unreachable == (expected is None)
    else:
        assert by_bfs.result == by_asp.result == "OPTIMUM FOUND"
        assert by_bfs.length == by_asp.length == expected
    by_default = solve(puzzle, SolveOptions(max_moves=limit))
    assert by_default.length == by_bfs.length
    if by_default.result == "OPTIMUM FOUND":
        assert by_default.bound.value <= expected  # type: ignore[operator]
    if by_default.unreachable:
        assert expected is None


@settings(max_examples=80, deadline=None)
@given(st.one_of(big_puzzles(3, 6), big_puzzles(4, 5), big_puzzles(5, 4)))
def test_bounds_enclose_the_breadth_first_optimum(puzzle: Puzzle) -> None:
    optimum = bfs_distance(len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs())
    assert optimum is not None
    steps = first_plan(puzzle)
    assert steps is not None and len(steps) >= optimum
    if len(puzzle.pegs) == 3 and puzzle.is_full_goal():
        assert len(steps) == optimum  # Hinz's better of two ways is the optimum
    result = solve(puzzle, SolveOptions(timeout=30))
    assert result.lower_bound is not None and result.upper_bound is not None
    assert result.bound.value <= result.lower_bound <= optimum <= result.upper_bound
    assert result.result == "OPTIMUM FOUND" and result.length == optimum
