"""The pattern propagator (``hanoi_asp/engine/pruning``) against breadth-first search: it
cuts no plan of any length, what it calls out of reach is, and its learnt bounds hold."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.puzzles import bfs_optimum
from support.reference import bfs_distance
from support.solvers import incremental, pruning
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine.pruning import PatternPruning
from hanoi_asp.engine.pruning.learnt import LearntBounds
from hanoi_asp.engine.pruning.thread import ThreadState
from hanoi_asp.methods.patterns import (
    cuts,
    database,
    goal_database,
)

FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(2, 6), graphs=True))
def test_pruned_search_finds_the_breadth_first_optimum(small_tables: None, puzzle: Puzzle) -> None:
    """The propagator is on (4+ pegs), clingo alone refutes every horizon (no bound, no
    plan built first): a sound check cuts no plan, so the optimum is BFS's."""
    expected = bfs_optimum(puzzle)
    options = SolveOptions(bound="none", first_plan=False, threads=1, max_moves=40)
    result = solve(puzzle, options)
    if expected is None or expected > 40:
        assert result.result == "UNSATISFIABLE"
    else:
        assert result.result == "OPTIMUM FOUND" and result.length == expected
        assert [run.status for run in result.horizons] == ["UNSAT"] * expected + ["SAT"]


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 4), disks=(3, 5)), st.integers(0, 3))
def test_pruning_keeps_every_plan_of_a_fixed_length(
    small_tables: None, puzzle: Puzzle, extra: int
) -> None:
    """Plans of exactly n moves, minimal or not: the same answer with and without the
    propagator (``solve --moves``), so it never cuts a plan, only dead ends."""
    expected = bfs_optimum(puzzle)
    assert expected is not None
    moves = expected + extra
    answers = [
        solve(puzzle, SolveOptions(exact_moves=moves, patterns=on, threads=1)).result
        for on in (True, False)
    ]
    assert answers[0] == answers[1]
    if extra == 0:
        assert answers[0] == "SATISFIABLE"


def _count_plans(
    puzzle: Puzzle, moves: int, pruned: bool, widen: int | None = None
) -> tuple[int, dict[int, int]]:
    """Every plan of exactly ``moves`` moves the engine's encoding admits, counted after
    the horizons before it were solved; and the bounds the propagator learnt.  After
    horizon ``widen`` the propagator checks every cut, as the search's
    purchases make it (:mod:`hanoi_asp.engine.tables`)."""
    from hanoi_asp.engine.policy import choose_strategy
    from hanoi_asp.engine.solvers import make_solver

    plan = choose_strategy(puzzle, SolveOptions(threads=1), None)
    tables = goal_database(puzzle) if pruned else None
    solver = make_solver(puzzle, plan, minimal=True, tables=tables)
    assert (incremental(solver).propagator is not None) == pruned
    for horizon in range(moves + 1):
        solver.run(horizon, None)
        if horizon == widen and incremental(solver).propagator is not None:
            every = goal_database(puzzle, every_cut=True)
            assert len(every) > len(pruning(solver).tables)
            pruning(solver).retable(every)
    incremental(solver).ctl.configuration.solve.models = "0"  # type: ignore[union-attr]
    count = 0

    def on_model(_: object) -> None:
        nonlocal count
        count += 1

    incremental(solver).ctl.solve(on_model=on_model)
    return count, pruning(solver).learned if incremental(solver).propagator is not None else {}


def _farther_than(puzzle: Puzzle, key: int, moves: int) -> bool:
    """Whether BFS says the state coded ``key`` (digit ``disk`` in base pegs) is
    farther from the goal than ``moves``."""
    pegs = len(puzzle.pegs)
    state = tuple((key // pegs**disk) % pegs for disk in range(puzzle.disks))
    distance = bfs_distance(pegs, state, puzzle.goal_pegs(), puzzle.edges())
    return distance is None or distance > moves


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURE_OK)
@given(
    puzzles(pegs=(4, 4), disks=(5, 6)),
    st.integers(0, 2),
    st.booleans(),
    st.none() | st.integers(0, 10),
)
def test_pruning_keeps_every_plan_of_a_length(
    small_tables: None,
    monkeypatch: pytest.MonkeyPatch,
    puzzle: Puzzle,
    extra: int,
    order: bool,
    widen: int | None,
) -> None:
    """All plans of a length, counted with the propagator (its look-ahead, learnt
    bounds and upward refutations; with its move order or clingo's; checking the
    bound's cut from the start and, after horizon ``widen``, every cut) and without:
    the same number.  Every state the propagator called out of reach is, by BFS,
    farther from the goal than the moves it had left, and no learnt bound exceeds
    BFS's."""
    expected = bfs_optimum(puzzle)
    assume(expected is not None and 6 <= expected <= 11 - extra)  # long enough to refute
    assert expected is not None
    # runs of 3 disks (64 patterns): 3 cuts, of which the bound's one, then all
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 64)
    monkeypatch.setattr(database, "CUTS_BUILT", 1)
    verdicts: list[tuple[int, int]] = []
    out_of_reach = LearntBounds.out_of_reach

    def recorded(self: LearntBounds, thread: ThreadState, step: int, horizon: int) -> bool:
        verdict = out_of_reach(self, thread, step, horizon)
        if verdict:
            verdicts.append((thread.state[step], horizon - step))
        return verdict

    with monkeypatch.context() as patch:
        patch.setattr(LearntBounds, "out_of_reach", recorded)
        if not order:
            patch.setattr(PatternPruning, "decide", lambda self, _, __, fallback: fallback)
        (count, learned), (unpruned, _) = [
            _count_plans(puzzle, expected + extra, pruned, widen) for pruned in (True, False)
        ]
    assert count == unpruned
    assert extra > 0 or count > 0
    for key, left in verdicts:
        assert _farther_than(puzzle, key, left), (key, left)
    for key, value in learned.items():
        assert _farther_than(puzzle, key, value - 1), (key, value)


def test_the_propagator_prunes_and_its_thread_alone_proves(small_tables: None) -> None:
    """A puzzle whose bound is below the optimum: the propagator's nogoods are used, and
    the pruned thread alone (one thread) reaches the BFS optimum."""
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3, 4, 5, 6)},
    )
    expected = bfs_optimum(puzzle)
    from hanoi_asp.engine.policy import choose_strategy
    from hanoi_asp.engine.solvers import make_solver

    options = SolveOptions(threads=1)
    plan = choose_strategy(puzzle, options, None)
    assert plan.patterns
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    assert expected is not None
    statuses = [solver.run(h, None)[0].status for h in range(expected + 1)]
    assert statuses == ["UNSAT"] * expected + ["SAT"]
    assert pruning(solver).pruned > 0
    assert pruning(solver).learned  # the look-ahead learnt bounds along the way


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(3, 6), graphs=True))
def test_learnt_bounds_never_exceed_the_breadth_first_distance(
    small_tables: None, puzzle: Puzzle
) -> None:
    """Every bound the propagator learnt while refuting the horizons below the optimum
    is at most BFS's distance from that state to the goal (25 examples: the bounds
    learnt while counting every plan are checked against BFS above too)."""
    from hanoi_asp.engine.policy import choose_strategy
    from hanoi_asp.engine.solvers import make_solver

    expected = bfs_optimum(puzzle)
    plan = choose_strategy(puzzle, SolveOptions(threads=1), None)
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    for horizon in range(min(12, 1 + (expected if expected is not None else 12))):
        solver.run(horizon, None)
    pegs, goal, edges = len(puzzle.pegs), puzzle.goal_pegs(), puzzle.edges()
    for key, value in pruning(solver).learned.items():
        state = tuple((key // pegs**disk) % pegs for disk in range(puzzle.disks))
        distance = bfs_distance(pegs, state, goal, edges)
        assert distance is None or value <= distance, (state, value, distance)
