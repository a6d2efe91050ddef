"""The mirror phase and the half search (``hanoi_asp/engine/mirror.py``,
``strategies/mirror.py``, ``strategies/halves.py``): whole towers from half a plan."""

from __future__ import annotations

import time
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from support.puzzles import tower
from support.reference import FOUR_PEG_TOWER, bfs_distance, bfs_until

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine.loop import Ladder
from hanoi_asp.engine.mirror import MirrorHalf, applies, unfold
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods.patterns import cuts, database
from hanoi_asp.model.plan import replay
from hanoi_asp.model.result import LowerBound

NO_FIRST_PLAN = SolveOptions(first_plan=False)
"""The mirror phase is clingo's way to a tower's plan; the plan built before the search
(Frame-Stewart, optimal by Bousch's bound) settles these towers without clingo."""


@pytest.mark.parametrize("disks", [1, 5, 9, 13, 20])
def test_four_peg_towers_are_settled_by_frame_stewart_and_the_bound(disks: int) -> None:
    result = solve(tower(4, disks))
    assert result.result == "OPTIMUM FOUND" and result.length == FOUR_PEG_TOWER[disks]
    assert result.horizons == ()  # no horizon left between the bounds
    # one disk: the misplaced-disks bound meets the plan first, and the bounds stop there
    proof = result.proof_data
    assert proof.kind == "meets-bound" and proof.bound is not None and proof.plan is not None
    assert proof.bound.name == ("misplaced-disks" if disks == 1 else "four-peg-tower")
    assert proof.plan.source == "constructive"
    assert result.lower_bound == result.upper_bound == FOUR_PEG_TOWER[disks]


def test_unfold_mirrors_the_half_around_the_largest_disk() -> None:
    puzzle = tower(4, 3)
    half = [(3, "b"), (2, "c"), (3, "c")]
    whole = unfold(puzzle, half)
    assert whole == [*half, (1, "d"), (3, "b"), (2, "d"), (3, "d")]
    assert len(replay(puzzle, whole)) == 7


@pytest.mark.parametrize("disks", range(1, 10))
def test_four_peg_towers_come_from_the_mirror_phase(disks: int) -> None:
    result = solve(tower(4, disks), NO_FIRST_PLAN)
    assert result.result == "OPTIMUM FOUND"
    assert result.length == FOUR_PEG_TOWER[disks]
    assert [(run.phase, run.status) for run in result.horizons] == [("mirror-half", "SAT")]
    assert result.horizons[0].horizon == (FOUR_PEG_TOWER[disks] - 1) // 2
    proof = result.proof_data
    assert proof.kind == "meets-bound" and proof.bound is not None and proof.plan is not None
    assert proof.bound.name == "four-peg-tower"
    assert (proof.plan.source, proof.plan.half) == ("mirror", result.horizons[0].horizon)
    assert result.threads == 1  # the half's search, whatever the engine's default
    assert replay(result.puzzle, [(m.disk, m.target) for m in result.plan or ()])


@pytest.mark.parametrize("disks", range(1, 8))
def test_the_full_search_agrees_without_the_mirror(disks: int) -> None:
    result = solve(tower(4, disks), SolveOptions(mirror=False, first_plan=False))
    assert result.length == FOUR_PEG_TOWER[disks]
    assert [run.phase for run in result.horizons] == ["full"]


def test_a_failed_half_falls_back_to_the_full_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A half two moves too short has no answer (the bound rules it out): the search
    must go on at the full horizon, not give up or report the half's UNSAT as its own."""
    real = MirrorHalf.run
    shorter = lambda self, half, deadline: real(self, half - 1, deadline)  # noqa: E731
    monkeypatch.setattr(MirrorHalf, "run", shorter)
    result = solve(tower(4, 6), NO_FIRST_PLAN)
    assert [(run.phase, run.status) for run in result.horizons] == [
        ("mirror-half", "UNSAT"),
        ("full", "SAT"),
    ]
    assert result.result == "OPTIMUM FOUND" and result.length == FOUR_PEG_TOWER[6]


def test_a_half_that_runs_out_of_time_is_unknown() -> None:
    result = solve(tower(4, 12), SolveOptions(timeout=0.3, first_plan=False))
    assert result.result == "UNKNOWN" and result.stopped == "timeout"
    assert result.plan is None


@pytest.mark.parametrize(
    ("puzzle", "why"),
    [
        (tower(3, 4), "3 pegs use distance3.lp"),
        (
            Puzzle(
                pegs=("a", "b", "c", "d"),
                disks=3,
                init={"a": (1, 2, 3)},
                goal={"d": (1, 2, 3)},
                moves_allowed="cyclic",
            ),
            "restricted graph",
        ),
        (
            Puzzle(pegs=("a", "b", "c", "d"), disks=3, init={"a": (1, 2, 3)}, goal={"d": (1, 2)}),
            "not a whole tower",
        ),
    ],
)
def test_the_mirror_is_used_only_where_it_applies(puzzle: Puzzle, why: str) -> None:
    result = solve(puzzle)
    assert all(run.phase == "full" for run in result.horizons), why
    p = result.puzzle
    assert result.length == bfs_distance(len(p.pegs), p.initial_state(), p.goal_pegs(), p.edges())


def _tower_distance(pegs: int, disks: int) -> int | None:
    return bfs_distance(pegs, (0,) * disks, dict.fromkeys(range(1, disks + 1), pegs - 1))


@pytest.mark.parametrize(("pegs", "disks"), [(4, 6), (5, 6), (5, 7), (6, 5), (7, 4)])
def test_a_towers_optimum_is_twice_its_shortest_half_plus_one(pegs: int, disks: int) -> None:
    """The half search's theorem (hanoi_asp/engine/mirror.py), by breadth-first search:
    the fewest moves taking the smaller disks off the start peg and the goal peg, H,
    give the tower's optimum 2H + 1."""
    smaller = disks - 1
    half = bfs_until(pegs, (0,) * smaller, lambda s: all(p not in (0, pegs - 1) for p in s))
    assert half is not None
    assert _tower_distance(pegs, disks) == 2 * half + 1


@pytest.mark.parametrize(
    ("pegs", "disks"), [(5, n) for n in range(3, 8)] + [(6, n) for n in range(3, 6)]
)
def test_towers_without_an_exact_bound_are_proven_by_half_horizons(
    monkeypatch: pytest.MonkeyPatch, pegs: int, disks: int
) -> None:
    """5 and 6 pegs: clingo refutes half horizons until one holds a half (with the
    plan built before the search left out, the half must be found, not only refuted up
    to the plan's length); the optimum is BFS's, and the proof says why.  Tables of 2
    disks, so that the bound is not exact even for these small towers."""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", pegs**2)
    database._CACHE.clear()
    expected = _tower_distance(pegs, disks)
    assert expected is not None
    result = solve(tower(pegs, disks), NO_FIRST_PLAN)
    assert result.result == "OPTIMUM FOUND" and result.length == expected
    assert result.horizons and all(run.phase == "mirror-half" for run in result.horizons)
    assert result.horizons[-1].status == "SAT"
    assert result.horizons[-1].horizon == (expected - 1) // 2
    assert all(run.status == "UNSAT" for run in result.horizons[:-1])
    half = (expected - 1) // 2
    proof = result.proof_data
    assert proof.kind == "half-search" and proof.lower == expected
    assert proof.half_search is not None and proof.half_search.reached == half
    assert proof.plan is not None and (proof.plan.source, proof.plan.half) == ("mirror", half)
    refuted = [run.horizon for run in result.horizons if run.status == "UNSAT"]
    if refuted:
        assert proof.refuted is not None and proof.refuted.phase == "mirror-half"
        assert (proof.refuted.first, proof.refuted.last) == (refuted[0], refuted[-1])
    assert "mirror.lp" in result.programs
    assert replay(result.puzzle, [(m.disk, m.target) for m in result.plan or ()])
    with_plan = solve(tower(pegs, disks))
    assert with_plan.length == expected and with_plan.lower_bound == expected
    database._CACHE.clear()


def test_the_half_search_stopped_early_says_what_it_proved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """5 pegs, 12 disks (47 moves), stopped at its time limit once the first half horizon
    is refuted: the plan built before the search, and a lower bound from the half
    horizons refuted so far.  The limit is reached on the search's clock, which jumps an
    hour once a half horizon is refuted: with ``timeout=1.5`` on the real one, the
    proof (5.6 s on a loaded machine) was a factor of 4 from coming in time on a fast
    one, and a loaded one might not have built the half tables."""
    from hanoi_asp.engine import state
    from hanoi_asp.engine.loop import climb

    late = SimpleNamespace(monotonic=lambda: time.monotonic() + 3600)

    def climb_until_one_is_refuted(run: SearchState, ladder: Ladder) -> Any:
        def refuted(half: int) -> None:
            ladder.refuted(half)
            monkeypatch.setattr(state, "time", late)

        return climb(run, replace(ladder, refuted=refuted))

    monkeypatch.setattr("hanoi_asp.engine.strategies.halves.climb", climb_until_one_is_refuted)
    result = solve(tower(5, 12), SolveOptions(timeout=600))
    assert result.result == "SATISFIABLE" and result.stopped == "timeout"
    assert result.length == 47 and result.lower_bound is not None
    assert result.lower_bound < 47 and result.lower_bound % 2 == 1
    proof = result.proof_data
    assert proof.kind == "stopped" and proof.stopped == "timeout" and proof.half_search
    assert 2 * proof.half_search.reached + 1 == proof.lower == result.lower_bound
    assert proof.half_search.reached == proof.half_search.first + 1  # one refuted
    assert proof.plan is not None and proof.plan.length == 47


def test_the_half_search_stops_at_the_grounding_limit_with_its_plan() -> None:
    """A half horizon over ``--limit cells``: the plan built first, its gap, exit 0."""
    from hanoi_asp.model.limits import Limits

    limits = Limits.parse(["cells=300"])  # 5 pegs, 12 disks: half 5 is 300 cells
    result = solve(tower(5, 12), SolveOptions(limits=limits))
    assert result.result == "SATISFIABLE" and result.stopped == "limit"
    assert result.length == 47
    proof = result.proof_data
    assert proof.kind == "stopped" and proof.stopped == "limit" and proof.half_search
    assert proof.plan is not None and proof.plan.length == 47


def test_applies_needs_an_exact_bound_and_an_odd_horizon() -> None:
    puzzle = tower(4, 3)
    assert applies(puzzle, LowerBound(5, "x", "y", exact=True))
    assert not applies(puzzle, LowerBound(5, "x", "y", exact=False))
    assert not applies(puzzle, LowerBound(6, "x", "y", exact=True))


def test_oneshot_mode_never_mirrors() -> None:
    result = solve(tower(4, 5), SolveOptions(mode="oneshot", first_plan=False))
    assert [run.phase for run in result.horizons] == ["full"]
    assert result.threads == 1
