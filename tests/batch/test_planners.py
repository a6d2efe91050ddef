"""Classical planners as configurations: real Fast Downward and SymK runs checked against
breadth-first search, every plan replayed; a planner of our own making (a script on the
PATH) for what a planner can get wrong: an illegal plan, a hang, a crash."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from support.puzzles import bfs_optimum
from support.strategies import puzzles

from hanoi_asp import InputError, Puzzle
from hanoi_asp.batch.planners import PlannerError, PlannerPlanError, driver, run_planner
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.planner import Planner

FAST_DOWNWARD = Planner.parse("fast-downward:astar(lmcut())")
SYMK = Planner.parse("symk")


def have(planner: Planner) -> bool:
    try:
        driver(planner)
    except InputError:
        return False
    return True


needs_planners = pytest.mark.skipif(
    not (have(FAST_DOWNWARD) and have(SYMK)),
    reason="the planners extra (up-fast-downward, up-symk) is not installed",
)


@needs_planners
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=puzzles(pegs=(3, 4), disks=(1, 4), graphs=True))
def test_optimal_planners_agree_with_breadth_first_search(puzzle: Puzzle) -> None:
    optimum = bfs_optimum(puzzle)
    for planner in (FAST_DOWNWARD, SYMK):
        result = run_planner(puzzle, planner, SolveOptions(timeout=60))
        if optimum is None:
            assert result.result == "UNSATISFIABLE" and result.unreachable
            continue
        assert result.result == "OPTIMUM FOUND", result.proof
        assert result.length == optimum
        assert result.method == "planner"
        data = result.to_dict()["proof_data"]
        assert data["kind"] == "planner" and data["planner"]["optimal"]
        assert result.proof.startswith(f"minimal by {planner.name}'s claim")


@needs_planners
def test_a_satisficing_search_is_not_claimed_minimal() -> None:
    puzzle = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
    result = run_planner(puzzle, Planner.parse("fast-downward:lazy_greedy([ff()])"))
    assert result.result == "SATISFIABLE" and result.length is not None
    assert "not claimed minimal" in result.proof


@needs_planners
def test_a_plan_over_the_bound_is_no_plan_within_it() -> None:
    puzzle = Puzzle(
        pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)}, max_moves=6
    )
    result = run_planner(puzzle, SYMK)
    assert result.result == "UNSATISFIABLE" and result.lower_bound == 7 and result.plan is None


def fake_planner(tmp_path: Path, body: str) -> Path:
    """An executable on a PATH of its own: ``body`` runs with sys.argv = [domain,
    problem, plan]."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    script = folder / "fake-planner"
    script.write_text(f"#!{sys.executable}\nimport sys, time\n{body}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    def put(body: str) -> None:
        folder = fake_planner(tmp_path, body)
        monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")

    return put


TOWER = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})


def test_a_planner_on_the_path_answers_through_the_simulator(on_path) -> None:  # type: ignore[no-untyped-def]
    on_path("open(sys.argv[3], 'w').write('(move d2 d1 b)\\n(move d1 a c)\\n(move d2 b d1)\\n')")
    result = run_planner(TOWER, Planner.parse("optimal-command:fake-planner"))
    assert result.result == "OPTIMUM FOUND" and result.length == 3
    assert result.proof.startswith("minimal by fake-planner's claim")
    satisficing = run_planner(
        TOWER, Planner.parse("command:fake-planner {domain} {problem} {plan}")
    )
    assert satisficing.result == "SATISFIABLE"


def test_an_illegal_plan_is_an_error_naming_the_step_and_the_rule(on_path) -> None:  # type: ignore[no-untyped-def]
    on_path("open(sys.argv[3], 'w').write('(move d2 d1 b)\\n(move d1 a b)\\n')")
    with pytest.raises(
        PlannerPlanError, match=r"step 2: \(move d1 a b\): d1 lies on a and the top there is d2"
    ) as caught:
        run_planner(TOWER, Planner.parse("command:fake-planner"))
    assert "its plan is rejected" in str(caught.value)


def test_a_plan_that_misses_the_goal_is_an_error(on_path) -> None:  # type: ignore[no-untyped-def]
    on_path("open(sys.argv[3], 'w').write('(move d2 d1 b)\\n')")
    with pytest.raises(PlannerPlanError, match="goal not reached"):
        run_planner(TOWER, Planner.parse("command:fake-planner"))


def test_a_plan_breaking_the_size_rule_is_rejected_by_the_simulator(on_path) -> None:  # type: ignore[no-untyped-def]
    # d2 onto b, then d1 onto d2 (the PDDL's clear/on fit; the size rule does not)
    on_path("open(sys.argv[3], 'w').write('(move d2 d1 b)\\n(move d1 a d2)\\n')")
    with pytest.raises(PlannerPlanError, match=r"step 2: illegal move of disk 1 to b: .*smaller"):
        run_planner(TOWER, Planner.parse("command:fake-planner"))


def test_a_hanging_planner_is_killed_at_the_time_limit(on_path) -> None:  # type: ignore[no-untyped-def]
    on_path("time.sleep(60)")
    result = run_planner(TOWER, Planner.parse("command:fake-planner"), SolveOptions(timeout=0.5))
    assert result.result == "UNKNOWN" and result.stopped == "timeout"
    assert result.time_s < 30  # killed, not waited for (the bound is loose: a shared machine)


def test_a_failing_planner_is_one_line(on_path) -> None:  # type: ignore[no-untyped-def]
    on_path("print('something broke', file=sys.stderr); sys.exit(7)")
    with pytest.raises(PlannerError, match=r"failed \(exit code 7\): something broke"):
        run_planner(TOWER, Planner.parse("command:fake-planner"))


def test_a_missing_planner_is_one_line_before_anything_runs() -> None:
    with pytest.raises(InputError, match="no program 'no-such-planner-here' on the PATH"):
        driver(Planner.parse("command:no-such-planner-here"))


@pytest.mark.parametrize(
    ("spec", "optimal"),
    [
        ("fast-downward", True),
        ("fast-downward:astar(merge_and_shrink(shrink_strategy=shrink_bisimulation()))", True),
        ("fast-downward:astar(max([lmcut(), hmax()]))", True),
        ("fast-downward:astar(ff())", False),
        ("fast-downward:eager_greedy([ff()])", False),
        ("symk", True),
        ("symk:sym_fw()", True),
        ("symk:symk_bd(plan_selection=top_k(num_plans=3))", False),
    ],
)
def test_which_searches_are_optimal(spec: str, optimal: bool) -> None:
    assert Planner.parse(spec).optimal is optimal


def test_unknown_planners_are_refused() -> None:
    with pytest.raises(InputError, match="unknown planner 'lama'"):
        Planner.parse("lama")
    with pytest.raises(InputError, match="needs the program"):
        Planner.parse("command:")
