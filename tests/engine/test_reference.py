"""The reference methods as the engine runs them (``hanoi_asp/engine/reference.py``):
recursive, Frame-Stewart, BFS and A* against the known counts (2^n - 1, Frame-Stewart),
the tests' own breadth-first search and each other; a user's bound; A*'s budget and
stops."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.files import INSTANCES
from support.puzzles import bfs_optimum, tower
from support.reference import (
    CYCLIC_ONE_STEP,
    CYCLIC_TWO_STEPS,
    FOUR_PEG_TOWER,
    LINEAR_END_TO_END,
    frame_stewart_numbers,
)
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, load_puzzle, solve
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.plan import replay
from hanoi_asp.model.result import Method


def lengths(method: Method, puzzles: list[Puzzle], **options: object) -> list[int | None]:
    out = []
    for puzzle in puzzles:
        result = solve(puzzle, SolveOptions(method=method, **options))  # type: ignore[arg-type]
        assert result.result == "OPTIMUM FOUND", (puzzle, result.proof)
        out.append(result.length)
    return out


@pytest.mark.parametrize("method", ["asp", "bfs"])
def test_linear_tower_end_to_end_is_3_to_the_n_minus_1(method: Method) -> None:
    puzzles = [tower(3, n, graph="linear") for n in range(1, 7)]
    assert lengths(method, puzzles) == LINEAR_END_TO_END


@pytest.mark.parametrize("method", ["asp", "bfs"])
@pytest.mark.parametrize(("target", "expected"), [(1, CYCLIC_ONE_STEP), (2, CYCLIC_TWO_STEPS)])
def test_cyclic_tower_counts(method: Method, target: int, expected: list[int]) -> None:
    # clingo needs 10-15 s for 6 disks (a plan of exactly 327 or 447 moves): 5 here
    disks = 6 if method == "bfs" else 5
    puzzles = [tower(3, n, target, graph="cyclic") for n in range(1, disks + 1)]
    assert lengths(method, puzzles) == expected[:disks]


@pytest.mark.parametrize("method", ["recursive", "frame-stewart", "bfs", "asp"])
def test_three_peg_tower_is_2_to_the_n_minus_1(method: Method) -> None:
    puzzles = [tower(3, n) for n in range(1, 9)]
    assert lengths(method, puzzles) == [2**n - 1 for n in range(1, 9)]


def test_frame_stewart_on_four_pegs_is_the_proven_optimum() -> None:
    puzzles = [tower(4, n) for n in range(1, 13)]
    assert lengths("frame-stewart", puzzles) == FOUR_PEG_TOWER[1:13]
    assert lengths("bfs", puzzles[:7]) == FOUR_PEG_TOWER[1:8]


def test_frame_stewart_on_five_pegs_is_not_claimed_minimal() -> None:
    result = solve(tower(5, 10), SolveOptions(method="frame-stewart"))
    assert result.result == "SATISFIABLE"
    assert result.length == 31
    assert result.proof_data.kind == "method" and result.proof_data.method is not None
    assert result.proof_data.method.pegs == 5 and result.proof_data.method.lower == 0


def test_frame_stewart_and_bfs_agree_on_five_pegs_where_bfs_fits() -> None:
    puzzles = [tower(5, n) for n in range(1, 7)]
    frame = [solve(p, SolveOptions(method="frame-stewart")).length for p in puzzles]
    assert frame == lengths("bfs", puzzles) == [1, 3, 5, 7, 11, 15]


@settings(max_examples=25)
@given(st.integers(3, 5), st.integers(1, 6), st.integers(0, 4))
def test_tower_methods_agree(pegs: int, disks: int, target: int) -> None:
    target = 1 + target % (pegs - 1)
    puzzle = tower(pegs, disks, target)
    frame = solve(puzzle, SolveOptions(method="frame-stewart"))
    by_bfs = solve(puzzle, SolveOptions(method="bfs"))
    assert frame.plan is not None and by_bfs.length is not None
    assert replay(puzzle, [(m.disk, m.target) for m in frame.plan]) == frame.plan
    if pegs <= 4:
        assert frame.length == by_bfs.length
    else:
        assert frame.length is not None and frame.length >= by_bfs.length
    if pegs == 3:
        assert solve(puzzle, SolveOptions(method="recursive")).plan == frame.plan


HARD = str(INSTANCES / "hard" / "4pegs-12disks-arbitrary.lp")
"""Optimum 58 (A* and the engine prove it in seconds); the plan built first has 103."""


@pytest.mark.usefixtures("weak_strong_tables")
def test_astar_stopped_below_the_first_plan_says_unknown() -> None:
    puzzle = load_puzzle(HARD)
    options = SolveOptions(method="astar", max_moves=80, limits=Limits(states=20_000))
    result = solve(puzzle, options)
    assert result.result == "UNKNOWN" and result.plan is None and result.stopped == "states"
    assert result.lower_bound is not None and 0 < result.lower_bound <= 58


def test_astar_budget_follows_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    from hanoi_asp.engine import astar_driver
    from hanoi_asp.methods import astar

    puzzle = load_puzzle(HARD)  # 4 pegs 12 disks: the batched A*
    assert astar_driver.astar_budget(Limits(states=1234), puzzle) == 1234  # the user's limit
    cap = astar.states_within(puzzle, astar_driver.ASTAR_MEMORY)
    assert cap == (astar_driver.ASTAR_MEMORY - 4**12 // 8) // astar.BATCHED_STATE_BYTES
    assert Limits().states <= astar_driver.astar_budget(Limits(), puzzle) <= cap
    monkeypatch.setattr(resource, "getrlimit", lambda _: (2 * 2**30, resource.RLIM_INFINITY))
    assert astar_driver.available_memory() <= 2 * 2**30  # ulimit -v 2 GiB: 1 GiB of states
    assert astar_driver.astar_budget(Limits(), puzzle) <= max(
        Limits().states, astar.states_within(puzzle, 2**30)
    )


@settings(max_examples=30, deadline=None)
@given(puzzles(pegs=(3, 4), disks=(1, 4), graphs=True), st.sampled_from(["bfs", "astar"]))
def test_bfs_and_astar_answer_as_the_tests_own_search(puzzle: Puzzle, method: Method) -> None:
    """Any start, goal and move graph: the optimum of the tests' breadth-first search,
    proven by the method (its lower bound is the length), the plan replayed; or no plan
    at all, unreachable, with no number for a bound."""
    optimum = bfs_optimum(puzzle)
    result = solve(puzzle, SolveOptions(method=method))
    assert result.method == method and result.programs == ()
    proof = result.proof_data
    if optimum is None:
        assert result.result == "UNSATISFIABLE" and result.unreachable and result.plan is None
        assert proof.kind == "unreachable" and result.lower_bound is None
        return
    assert result.result == "OPTIMUM FOUND" and result.length == optimum
    assert result.lower_bound == result.upper_bound == optimum
    assert proof.kind == "method" and proof.method is not None and proof.method.lower == optimum
    assert proof.plan is not None and proof.plan.source == method
    assert result.plan is not None
    assert len(replay(puzzle, [(m.disk, m.target) for m in result.plan])) == optimum
    assert result.bound.value <= optimum


@pytest.mark.parametrize("method", ["recursive", "frame-stewart", "bfs", "astar"])
def test_a_users_bound_below_the_optimum_is_refuted(method: Method) -> None:
    """3 pegs, 4 disks (15 moves, 2^4 - 1): at most 14 moves is proven impossible, by
    the count the method is known to meet; at most 15 gives the optimum."""
    puzzle = tower(3, 4)
    refuted = solve(puzzle, SolveOptions(method=method, max_moves=14))
    assert refuted.result == "UNSATISFIABLE" and refuted.plan is None
    assert refuted.proof_data.kind == "over-limit" and refuted.max_moves == 14
    assert refuted.lower_bound is not None and refuted.lower_bound >= 15
    found = solve(puzzle, SolveOptions(method=method, max_moves=15))
    assert found.result == "OPTIMUM FOUND" and found.length == 15 == 2**4 - 1


def test_frame_stewart_over_a_users_bound_on_five_pegs_is_unknown() -> None:
    """On 5 pegs Frame-Stewart's count is not proven minimal: a bound below it proves
    nothing, so the answer is UNKNOWN (stopped by the bound), not UNSATISFIABLE."""
    count = frame_stewart_numbers(5, 8)[-1]
    result = solve(tower(5, 8), SolveOptions(method="frame-stewart", max_moves=count - 1))
    assert result.result == "UNKNOWN" and result.stopped == "max_moves" and result.plan is None
    assert result.proof_data.plan is not None and result.proof_data.plan.length == count


@pytest.mark.parametrize("method", ["recursive", "frame-stewart"])
def test_a_tower_already_on_its_goal_takes_no_moves(method: Method) -> None:
    standing = Puzzle(pegs=("a", "b", "c"), disks=3, init={"c": (1, 2, 3)}, goal={"c": (1, 2, 3)})
    result = solve(standing, SolveOptions(method=method))
    assert result.result == "OPTIMUM FOUND" and result.length == 0 and result.plan == ()
