"""The run state (``hanoi_asp/engine/state.py``, ``loop.py``): the best plan comes down and
the lower bound rises as they are found, heard through ``on_progress``; a plan offered
mid-search ends it once the bound meets it; the user's bound and unreachable goals."""

from __future__ import annotations

import pytest
from support.files import INSTANCES
from support.puzzles import bfs_optimum

from hanoi_asp import Puzzle, SolveOptions, load_puzzle, replay, solve
from hanoi_asp.engine import shorten
from hanoi_asp.engine.encodings import shipped_encoding
from hanoi_asp.model.result import Progress

HARD = INSTANCES / "hard"


def test_the_best_plan_comes_down_before_the_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan built first on the 4-peg 12-disk arbitrary instance has 103 moves and the
    optimum is 58: stopped at once, the search answered 103 (gap 45) where A* proves 58
    in seconds.  A beam search on the same tables now brings the best plan near the
    optimum before clingo starts, reported through ``on_progress``.  The widths up front
    are given all the work they want (they stop when they no longer improve the plan);
    counted in work, as they are now, they are the same on every machine."""
    monkeypatch.setattr(shorten, "UPFRONT_WORK", 10**12)
    heard: list[Progress] = []
    puzzle = load_puzzle(str(HARD / "4pegs-12disks-arbitrary.lp"))
    # no A*: started during the widths on a loaded machine, it proved 58 before clingo
    result = solve(puzzle, SolveOptions(timeout=120, astar=False), heard.append)
    assert result.result in ("SATISFIABLE", "OPTIMUM FOUND") and result.plan is not None
    assert result.length is not None and 58 <= result.length <= 58 * 1.1
    assert result.proof_data.plan is not None
    assert result.proof_data.plan.source == "beam"
    assert len(replay(puzzle, [(m.disk, m.target) for m in result.plan])) == result.length
    searching = next((i for i, p in enumerate(heard) if p.horizon is not None), len(heard))
    uppers = [p.upper for p in heard[:searching] if p.upper is not None]
    assert uppers[0] == 103 and min(uppers) == result.length  # heard before clingo started
    # the engine's own search only: a user's encoding finds its plans itself
    own = solve(puzzle, SolveOptions(timeout=1, encoding=shipped_encoding("incremental")))
    assert own.proof_data.plan is None or own.proof_data.plan.source != "beam"


def test_the_python_api_returns_the_best_plan_and_reports_progress() -> None:
    heard: list[Progress] = []
    puzzle = load_puzzle(str(INSTANCES / "classic" / "4pegs-8disks.lp"))
    arbitrary = Puzzle.model_validate(
        {**puzzle.model_dump(), "init": {"a": (1, 4, 7), "b": (2, 5, 8), "c": (3, 6)}}
    )
    result = solve(arbitrary, SolveOptions(bound="misplaced", timeout=60), heard.append)
    assert result.result == "OPTIMUM FOUND" and result.length is not None
    assert heard and heard[0].upper is not None  # the built plan is known first
    lowers = [p.lower for p in heard]
    assert lowers == sorted(lowers) and lowers[-1] <= result.length
    uppers = [p.upper for p in heard if p.upper is not None]
    assert uppers == sorted(uppers, reverse=True)


def test_a_plan_one_move_over_the_users_bound_is_not_an_optimum() -> None:
    puzzle = Puzzle(
        pegs=("a", "b", "c"), disks=3, init={"a": (1,), "b": (2, 3)}, goal={"a": (2, 3)}
    )
    result = solve(puzzle, SolveOptions(max_moves=2, bound="none"))
    assert result.result == "UNSATISFIABLE" and result.plan is None
    assert result.lower_bound == 3 and result.upper_bound == 3


def test_an_unreachable_goal_the_bound_misses_still_ends() -> None:
    two = Puzzle(pegs=("a", "b"), disks=2, init={"a": (1, 2)}, goal={"b": (1, 2)})
    for options in (SolveOptions(bound="none"), SolveOptions(bound="none", first_plan=False)):
        result = solve(two, options)
        assert result.result == "UNSATISFIABLE" and result.unreachable, options
    one_way = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 2, 3, 4, 5, 6)},
        goal={"d": (6,)},
        moves_allowed=[(x, y) for x in "abc" for y in "abc" if x != y] + [("d", "a")],
    )
    result = solve(one_way, SolveOptions(bound="misplaced", timeout=30))
    assert result.result == "UNSATISFIABLE" and result.unreachable
    proof = result.proof_data
    assert proof.kind == "unreachable" and proof.bound is not None
    assert proof.bound.name == "breadth-first"  # the first plan's search visited every state


def test_a_plan_found_mid_search_ends_it_when_the_bound_meets_it(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shortest plan offered while clingo refutes horizons (as the beam does on
    the strong tables): once the lower bound reaches its length the search stops with
    it, proven by the refuted horizons, and clingo never solves the optimum's horizon."""
    from hanoi_asp.engine.scheduler import Scheduler
    from hanoi_asp.methods import bfs
    from hanoi_asp.model.proof import PlanOrigin

    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3, 4, 5, 6)},
    )
    shortest = bfs.search(puzzle, max_moves=None).steps
    assert shortest is not None and len(shortest) == bfs_optimum(puzzle)

    def offer(effort: Scheduler, horizon: int) -> None:
        plan = replay(puzzle, shortest)
        effort.run.offer(plan, PlanOrigin("beam", len(shortest), width=64))

    monkeypatch.setattr(Scheduler, "after_horizon", offer)
    result = solve(puzzle, SolveOptions(threads=1, first_plan=False, astar=False))
    assert result.result == "OPTIMUM FOUND" and result.length == len(shortest)
    proof = result.proof_data
    origin = PlanOrigin("beam", len(shortest), width=64)
    assert proof.kind == "refuted-horizons" and proof.plan == origin
    assert [h.status for h in result.horizons] == ["UNSAT"] * len(result.horizons)
    assert result.horizons[-1].horizon == len(shortest) - 1
