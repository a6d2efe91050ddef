"""Pattern databases, the pruning propagator and A*, each checked against
breadth-first search on many random puzzles.

Tables small enough to cut even 3-6 disks into several runs (``small_tables``) make
the additive sums and the propagator's partial checks do real work here.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference import bfs_distance
from strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine.bounds import database_bound
from hanoi_asp.engine.pruning import PatternPruning
from hanoi_asp.engine.pruning.learnt import LearntBounds
from hanoi_asp.engine.pruning.thread import ThreadState
from hanoi_asp.methods import astar, patterns
from hanoi_asp.methods.patterns import (
    Run,
    breadth_first,
    cuts,
    database,
    goal_database,
    partitions,
    toward_goal,
)
from hanoi_asp.model.plan import replay

FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@pytest.fixture
def small_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tables of at most 2 disks on 4 pegs (16 patterns): every puzzle gets runs."""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 16)
    database._CACHE.clear()
    yield
    database._CACHE.clear()


def _distance(puzzle: Puzzle) -> int | None:
    return bfs_distance(
        len(puzzle.pegs), puzzle.initial_state(), puzzle.goal_pegs(), puzzle.edges()
    )


@settings(max_examples=60, deadline=None)
@given(puzzles(pegs=(3, 4), disks=(1, 4), graphs=True))
def test_each_table_entry_is_the_runs_own_breadth_first_distance(puzzle: Puzzle) -> None:
    """Every pattern of a run: the table says what BFS says for those disks alone."""
    disks = min(puzzle.disks, 3)
    run = Run(puzzle.disks - disks, disks)  # the smallest disks: the goal may skip some
    table = toward_goal(puzzle, run)
    goal = {d - run.first: p for d, p in puzzle.goal_pegs().items() if d in run.disks}
    pegs = len(puzzle.pegs)
    for pattern in itertools.product(range(pegs), repeat=disks):
        state = (0,) * run.first + pattern
        expected = bfs_distance(pegs, pattern, goal, puzzle.edges())
        got = table.lookup(state)
        assert got == (patterns.UNSEEN if expected is None else expected), pattern


@pytest.mark.parametrize("few", [0, 10**9])
@settings(max_examples=15, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 4), disks=(3, 6), graphs=True))
def test_tables_in_chunks_and_split_top_disks_are_breadth_first_distances(
    monkeypatch: pytest.MonkeyPatch, few: int, puzzle: Puzzle
) -> None:
    """The whole table of every disk, built with tiny chunks (a layer in many pieces,
    patterns reached twice across them) and the top-disk tables split after one disk
    (the path tables of 9+ disks take), equals BFS's distances pattern by pattern; on
    3 pegs with a linear graph distances pass 254, so the table widens to two bytes
    mid-search.  Once every layer through numpy (``few`` 0), once every layer in plain
    Python (the path of thin layers)."""
    monkeypatch.setattr(breadth_first, "FEW", few)
    monkeypatch.setattr(breadth_first, "CHUNK", 8)
    monkeypatch.setattr(breadth_first, "TOPS_LOW", 1)
    pegs, edges = len(puzzle.pegs), puzzle.edges()
    ends = patterns.goal_allowed(puzzle)
    distances = patterns.distances_among(pegs, ends, edges)
    assert (distances.itemsize == 2) == (int(distances.max()) >= 255)
    goal = puzzle.goal_pegs()
    for code in range(0, pegs**puzzle.disks, 7):  # every seventh pattern: seconds, not minutes
        state = tuple(code // pegs**j % pegs for j in range(puzzle.disks))
        expected = bfs_distance(pegs, state, goal, edges)
        assert int(distances[code]) == (patterns.UNSEEN if expected is None else expected)


def test_a_linear_three_peg_table_widens_past_a_byte() -> None:
    """6 disks end to end on 3 pegs in a line: 728 moves (3^6 - 1), two bytes a pattern."""
    edges = frozenset({(0, 1), (1, 0), (1, 2), (2, 1)})
    distances = patterns.distances_to(3, 6, dict.fromkeys(range(6), 2), edges)
    assert distances.itemsize == 2 and int(distances[0]) == 728 == int(distances.max())


@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True))
def test_the_database_bound_never_exceeds_the_optimum(small_tables: None, puzzle: Puzzle) -> None:
    expected = _distance(puzzle)
    bound = database_bound(puzzle)
    if expected is None:
        return  # no plan: any bound holds
    assert bound.value <= expected
    if bound.exact:
        assert bound.value == expected


def test_partitions_cover_every_disk_once() -> None:
    for pegs, disks in [(4, 12), (4, 18), (5, 10), (3, 30), (4, 3)]:
        for partition in partitions(pegs, disks):
            covered = [d for run in partition for d in run.disks]
            assert covered == list(range(1, disks + 1))
            assert all(pegs**run.size <= cuts.TABLE_PATTERNS for run in partition)


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True))
def test_astar_finds_the_breadth_first_optimum(small_tables: None, puzzle: Puzzle) -> None:
    expected = _distance(puzzle)
    found = astar.search(puzzle, goal_database(puzzle))
    if expected is None:
        assert found.steps is None and found.exhausted
    else:
        assert found.steps is not None and len(found.steps) == expected == found.lower
        result = solve(puzzle, SolveOptions(method="astar"))
        assert result.result == "OPTIMUM FOUND" and result.length == expected


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True), st.sampled_from([1.5, 2.0, 3.0]))
def test_weighted_astar_is_within_its_weight_and_proves_nothing(
    small_tables: None, puzzle: Puzzle, weight: float
) -> None:
    """Pohl's bound: with an admissible estimate, weighted A*'s plan is at most w times
    the optimum (here BFS's), and it claims no lower bound."""
    expected = _distance(puzzle)
    found = astar.search(puzzle, goal_database(puzzle), weight=weight)
    if expected is None:
        assert found.steps is None and found.exhausted
        return
    assert found.steps is not None and found.lower == 0
    assert expected <= len(found.steps) <= weight * expected
    assert len(replay(puzzle, found.steps)) == len(found.steps)


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(2, 6), graphs=True))
def test_pruned_search_finds_the_breadth_first_optimum(small_tables: None, puzzle: Puzzle) -> None:
    """The propagator is on (4+ pegs), clingo alone refutes every horizon (no bound, no
    plan built first): a sound check cuts no plan, so the optimum is BFS's."""
    expected = _distance(puzzle)
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
    expected = _distance(puzzle)
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
    :func:`~hanoi_asp.engine.tables.check_every_cut` makes it."""
    from hanoi_asp.engine.policy import choose_strategy, make_solver

    plan = choose_strategy(puzzle, SolveOptions(threads=1), None)
    tables = goal_database(puzzle) if pruned else None
    solver = make_solver(puzzle, plan, minimal=True, tables=tables)
    assert (solver.propagator is not None) == pruned
    for horizon in range(moves + 1):
        solver.run(horizon, None)
        if horizon == widen and solver.propagator is not None:
            every = goal_database(puzzle, every_cut=True)
            assert len(every) > len(solver.propagator.tables)
            solver.propagator.retable(every)
    solver.ctl.configuration.solve.models = "0"  # type: ignore[union-attr]
    count = 0

    def on_model(_: object) -> None:
        nonlocal count
        count += 1

    solver.ctl.solve(on_model=on_model)
    return count, solver.propagator.learned if solver.propagator is not None else {}


def _farther_than(puzzle: Puzzle, key: int, moves: int) -> bool:
    """Whether BFS says the state coded ``key`` (digit ``disk`` in base pegs) is
    farther from the goal than ``moves``."""
    pegs = len(puzzle.pegs)
    state = tuple((key // pegs**disk) % pegs for disk in range(puzzle.disks))
    distance = bfs_distance(pegs, state, puzzle.goal_pegs(), puzzle.edges())
    return distance is None or distance > moves


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_OK)
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
    expected = _distance(puzzle)
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
    expected = _distance(puzzle)
    from hanoi_asp.engine.policy import choose_strategy, make_solver

    options = SolveOptions(threads=1)
    plan = choose_strategy(puzzle, options, None)
    assert plan.patterns
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    assert expected is not None
    statuses = [solver.run(h, None)[0].status for h in range(expected + 1)]
    assert statuses == ["UNSAT"] * expected + ["SAT"]
    assert solver.propagator.pruned > 0
    assert solver.propagator.learned  # the look-ahead learnt bounds along the way


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(3, 6), graphs=True))
def test_learnt_bounds_never_exceed_the_breadth_first_distance(
    small_tables: None, puzzle: Puzzle
) -> None:
    """Every bound the propagator learnt while refuting the horizons below the optimum
    is at most BFS's distance from that state to the goal."""
    from hanoi_asp.engine.policy import choose_strategy, make_solver

    expected = _distance(puzzle)
    plan = choose_strategy(puzzle, SolveOptions(threads=1), None)
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    for horizon in range(min(12, 1 + (expected if expected is not None else 12))):
        solver.run(horizon, None)
    pegs, goal, edges = len(puzzle.pegs), puzzle.goal_pegs(), puzzle.edges()
    for key, value in solver.propagator.learned.items():
        state = tuple((key // pegs**disk) % pegs for disk in range(puzzle.disks))
        distance = bfs_distance(pegs, state, goal, edges)
        assert distance is None or value <= distance, (state, value, distance)


def test_the_search_checks_every_cut_once_refuting_costs_what_the_tables_did(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``check_every_cut`` waits while clingo's search time is below the bounds' time,
    then hands the propagator every cut of the bound's tables; it waits again while the
    search time is below the strong tables' price, then hands those over; and a whole
    solve that widens mid-search still ends at the BFS optimum."""
    from hanoi_asp.engine.policy import choose_strategy, make_solver
    from hanoi_asp.engine.state import SearchState
    from hanoi_asp.engine.tables import check_every_cut

    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 64)  # runs of 3 disks: 3 cuts
    monkeypatch.setattr(cuts, "STRONG_PATTERNS", 256)  # strong: runs of 4, 3 cuts
    monkeypatch.setattr(database, "CUTS_BUILT", 1)
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3, 4, 5, 6)},
    )
    options = SolveOptions(threads=1)
    plan = choose_strategy(puzzle, options, None)
    solver = make_solver(puzzle, plan, minimal=True, tables=goal_database(puzzle))
    assert len(solver.propagator.tables) == 1
    run = SearchState(puzzle, options, timings={"bounds": 3600.0})
    assert not check_every_cut(run, plan, solver)
    assert len(solver.propagator.tables) == 1
    run.timings["bounds"] = 0.0
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 3600.0)  # a price never reached
    assert not check_every_cut(run, plan, solver)
    assert solver.propagator.tables == goal_database(puzzle, every_cut=True)
    run.timings["bounds"] = 0.0
    assert len(solver.propagator.tables) == len(partitions(4, 6, 64)) == 3
    assert not check_every_cut(run, plan, solver)
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 0.0)
    run.timings["bounds"] = 0.0  # the first purchase counts as the bounds' time
    assert check_every_cut(run, plan, solver)
    strong = solver.propagator.tables
    assert strong == goal_database(puzzle, strong=True) and len(strong) == 3
    assert {t.run.size for part in strong for t in part} == {1, 2, 4}
    database._CACHE.clear()
    monkeypatch.setattr(database, "SECONDS_PER_PATTERN", 1e-6)  # bought after a horizon
    widened: list[int] = []

    def at_once(run: Any, plan: Any, solver: Any) -> bool:
        run.timings["bounds"] = 0.0  # no waiting
        widened.append(len(solver.propagator.tables))
        return check_every_cut(run, plan, solver)

    monkeypatch.setattr("hanoi_asp.engine.strategies.upward.check_every_cut", at_once)
    result = solve(puzzle, SolveOptions(threads=1, first_plan=False))
    assert result.length == _distance(puzzle)
    assert widened[:2] == [1, 3] and [h.status for h in result.horizons][-1] == "SAT"
    assert len(result.horizons) > 2  # horizons were refuted: the search widened twice


def test_solve_json_gives_the_phases_and_astar(run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    instance = tmp_path / "four.lp"
    instance.write_text(
        "peg(a;b;c;d). disk(1..5). init_on(1,a). init_on(2,b). init_on(3,b). "
        "init_on(4,c). init_on(5,a). goal_on(1..5,d).\n"
    )
    code, out, _ = run_cli("solve", str(instance), "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data["timings"]) == {"reading", "first_plan", "bounds", "grounding", "solving"}
    assert all(seconds >= 0 for seconds in data["timings"].values())
    by_astar = json.loads(run_cli("solve", str(instance), "--json", "--method", "astar")[1])
    assert by_astar["method"] == "astar" and by_astar["result"] == "OPTIMUM FOUND"
    assert by_astar["length"] == data["length"]
    assert data["bound"]["name"] == "pattern-database"


def test_no_tables_are_built_once_a_bound_meets_the_plan_in_hand() -> None:
    """The smallest disk of a 4-peg tower of 10 to another peg: the plan built first
    has one move, the misplaced-disks bound is 1, so the pattern tables (a third of a
    second) are not built; without that plan they are."""
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=10,
        init={"a": tuple(range(1, 11))},
        goal={"a": tuple(range(1, 10)), "b": (10,)},
    )
    database._CACHE.clear()
    result = solve(puzzle)
    assert result.result == "OPTIMUM FOUND" and result.length == 1
    assert result.bound.name == "misplaced-disks" and not database._CACHE
    searched = solve(puzzle, SolveOptions(first_plan=False))
    assert searched.length == 1 and database._CACHE
    database._CACHE.clear()


def test_a_plan_found_mid_search_ends_it_when_the_bound_meets_it(
    small_tables: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shortest plan offered while clingo refutes horizons (as the strong tables'
    weighted A* does): once the lower bound reaches its length the search stops with
    it, proven by the refuted horizons, and clingo never solves the optimum's horizon."""
    from hanoi_asp.engine.strategies import upward
    from hanoi_asp.methods import bfs
    from hanoi_asp.model.proof import PlanOrigin

    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=6,
        init={"a": (1, 4), "b": (2, 5, 6), "c": (3,)},
        goal={"d": (1, 2, 3, 4, 5, 6)},
    )
    shortest = bfs.search(puzzle, max_moves=None).steps
    assert shortest is not None and len(shortest) == _distance(puzzle)

    def offer(run: Any, plan: Any, solver: Any) -> bool:
        run.offer(replay(puzzle, shortest), PlanOrigin("astar", len(shortest)))
        return True

    monkeypatch.setattr(upward, "check_every_cut", offer)
    result = solve(puzzle, SolveOptions(threads=1, first_plan=False))
    assert result.result == "OPTIMUM FOUND" and result.length == len(shortest)
    proof = result.proof_data
    assert proof.kind == "refuted-horizons" and proof.plan == PlanOrigin("astar", len(shortest))
    assert [h.status for h in result.horizons] == ["UNSAT"] * len(result.horizons)
    assert result.horizons[-1].horizon == len(shortest) - 1
