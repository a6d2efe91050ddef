"""Reference methods (recursive, Frame-Stewart, BFS) and move-graph variants: known
counts, and every method agreeing with the others and with the test-side BFS."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import (
    CYCLIC_ONE_STEP,
    CYCLIC_TWO_STEPS,
    FOUR_PEG_TOWER,
    LINEAR_END_TO_END,
    bfs_distance,
    frame_stewart_numbers,
)
from strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, load_puzzle, solve
from hanoi_asp.methods.frame_stewart import frame_stewart_moves
from hanoi_asp.methods.patterns import cuts
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.plan import replay
from hanoi_asp.model.result import Method

VARIANTS = INSTANCES / "variants"


def tower(pegs: int, disks: int, target: int = -1, graph: object = None) -> Puzzle:
    names = tuple("abcdefgh"[:pegs])
    return Puzzle.model_validate(
        {
            "pegs": names,
            "disks": disks,
            "init": {"a": list(range(1, disks + 1))},
            "goal": {names[target]: list(range(1, disks + 1))},
            "moves_allowed": graph,
        }
    )


def lengths(method: Method, puzzles: list[Puzzle], **options: object) -> list[int | None]:
    out = []
    for puzzle in puzzles:
        result = solve(puzzle, SolveOptions(method=method, **options))  # type: ignore[arg-type]
        assert result.result == "OPTIMUM FOUND", (puzzle, result.proof)
        out.append(result.length)
    return out


# -- known counts ---------------------------------------------------------------------------


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


@pytest.mark.parametrize(("pegs", "disks"), [(3, 12), (4, 20), (5, 20), (6, 20), (7, 20)])
def test_frame_stewart_moves_follow_the_known_counts(pegs: int, disks: int) -> None:
    names = "abcdefg"[:pegs]
    counts = [
        len(list(frame_stewart_moves(1, n, "a", names[-1], list(names[1:-1]))))
        for n in range(1, disks + 1)
    ]
    assert counts == frame_stewart_numbers(pegs, disks)


def test_frame_stewart_and_bfs_agree_on_five_pegs_where_bfs_fits() -> None:
    puzzles = [tower(5, n) for n in range(1, 7)]
    frame = [solve(p, SolveOptions(method="frame-stewart")).length for p in puzzles]
    assert frame == lengths("bfs", puzzles) == [1, 3, 5, 7, 11, 15]


# -- random instances: every applicable method agrees ---------------------------------------


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


# -- the command line -----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["asp", "bfs"])
def test_variant_instances_through_the_cli(run_cli, method: str) -> None:  # type: ignore[no-untyped-def]
    expected = {
        "linear-3pegs-4disks.lp": ("OPTIMUM FOUND", 80, "linear"),
        "cyclic-3pegs-4disks.toml": ("OPTIMUM FOUND", 43, "cyclic"),
        "custom-graph.json": ("OPTIMUM FOUND", 22, "custom"),
        "unreachable-one-way.lp": ("UNSATISFIABLE", None, "custom"),
    }
    for name, (verdict, length, graph) in expected.items():
        code, out, _ = run_cli("solve", str(VARIANTS / name), "--method", method, "--json")
        data = json.loads(out)
        assert (data["result"], data["length"], data["graph"]) == (verdict, length, graph)
        assert data["method"] == method
        assert data["proven_minimal"] == (length is not None)
        assert code == (0 if length else 1)
        assert data["unreachable"] == (length is None)


def test_graph_option_overrides_the_instance(run_cli) -> None:  # type: ignore[no-untyped-def]
    path = str(INSTANCES / "classic" / "3pegs-3disks.lp")
    code, out, _ = run_cli("solve", path, "--graph", "linear", "--json")
    assert code == 0 and json.loads(out)["length"] == 26


@pytest.mark.parametrize(
    ("instance", "method", "message"),
    [
        ("classic/4pegs-5disks.lp", "recursive", "exactly 3 pegs"),
        ("arbitrary.toml", "frame-stewart", "all disks on one peg"),
        ("variants/linear-3pegs-4disks.lp", "recursive", "linear move graph"),
        ("unsolvable-2pegs.lp", "frame-stewart", "has 2 pegs"),
    ],
)
def test_methods_refuse_instances_of_the_wrong_shape(run_cli, instance, method, message) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli("solve", str(INSTANCES / instance), "--method", method)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert instance in err


def test_bfs_state_limit_is_a_clear_error(run_cli) -> None:  # type: ignore[no-untyped-def]
    path = str(INSTANCES / "classic" / "4pegs-8disks.lp")
    code, _, err = run_cli("solve", path, "--method", "bfs", "--limit", "states=1000")
    assert code == 2 and err.count("\n") == 1
    assert "over 1000 states" in err and "--limit states=" in err
    result = solve(tower(4, 8), SolveOptions(method="bfs", limits=Limits(states=70_000)))
    assert result.length == 33


def test_bad_move_graphs_are_input_errors(run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.lp"
    bad.write_text("peg(a;b).\ndisk(1).\ninit_on(1,a).\ngoal_on(1,b).\nedge(a,z).\n")
    code, _, err = run_cli("solve", str(bad))
    assert code == 2 and f"{bad}:5: edge: unknown peg z" in err
    loop = tmp_path / "loop.toml"
    loop.write_text('pegs=["a","b"]\ndisks=1\ninit={a=[1]}\ngoal={b=[1]}\nmoves_allowed="star"\n')
    code, _, err = run_cli("solve", str(loop))
    assert code == 2 and "unknown move graph preset 'star'" in err


def test_batch_takes_a_method(run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "rows.jsonl"
    code, _, _ = run_cli("batch", str(VARIANTS), "--method", "bfs", "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert code == 1  # one instance is unreachable
    assert {row["method"] for row in rows} == {"bfs"}
    assert sorted(row["length"] or 0 for row in rows) == [0, 22, 43, 80]


# -- A* keeps its work (issue 28, item 3) ----------------------------------------------------

HARD = str(INSTANCES / "hard" / "4pegs-12disks-arbitrary.lp")
"""Optimum 58 (A* and the engine prove it in seconds); the plan built first has 103."""


@pytest.fixture
def weak_strong_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """A*'s strong tables no larger than the bound's (runs of 10 disks): with its
    default, one table of all 12 disks of ``HARD``, A* would walk straight down."""

    monkeypatch.setattr(cuts, "STRONG_PATTERNS", cuts.TABLE_PATTERNS)


@pytest.mark.usefixtures("weak_strong_tables")
@pytest.mark.parametrize("stop", [("--limit", "states=20000"), ("--timeout", "0.5")])
def test_astar_stopped_answers_with_the_plan_in_hand(run_cli, stop: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    """A* at its state budget or time limit threw its work away (ERROR, exit 2): now the
    plan built first, replayed, with the bound A* proved, exit 0."""
    code, out, err = run_cli("solve", HARD, "--method", "astar", "--json", *stop)
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["result"] == "SATISFIABLE" and data["method"] == "astar"
    assert data["stopped"] == ("states" if stop[0] == "--limit" else "timeout")
    assert 0 < data["lower_bound"] <= 58 < data["length"] == data["upper_bound"]
    assert data["gap"] == data["length"] - data["lower_bound"]
    steps = [(m["disk"], m["to"]) for m in data["plan"]]
    assert len(replay(load_puzzle(HARD), steps)) == data["length"]  # a legal plan to the goal


@pytest.mark.usefixtures("weak_strong_tables")
def test_astar_stopped_below_the_first_plan_says_unknown() -> None:
    puzzle = load_puzzle(HARD)
    options = SolveOptions(method="astar", max_moves=80, limits=Limits(states=20_000))
    result = solve(puzzle, options)
    assert result.result == "UNKNOWN" and result.plan is None and result.stopped == "states"
    assert result.lower_bound is not None and 0 < result.lower_bound <= 58


def test_astar_budget_follows_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    from hanoi_asp.engine import reference

    assert reference.astar_budget(Limits(states=1234)) == 1234  # the user's limit is kept
    cap = reference.ASTAR_MEMORY // reference.ASTAR_STATE_BYTES
    assert Limits().states <= reference.astar_budget(Limits()) <= cap
    monkeypatch.setattr(resource, "getrlimit", lambda _: (2 * 2**30, resource.RLIM_INFINITY))
    assert reference.available_memory() <= 2 * 2**30  # ulimit -v 2 GiB: 1 GiB of states
    assert reference.astar_budget(Limits()) <= max(
        Limits().states, 2**30 // reference.ASTAR_STATE_BYTES
    )
