"""The proof sentence, word for word: one case per form of
:func:`hanoi_asp.outputs.proof.proof_sentence`, from the data a solve builds.

These are the only tests that read the English; every other test asserts the
structured proof (``Result.proof_data``).  The sentences are those ``solve --json``
printed before the proof became data (scripts may match them).
"""

from __future__ import annotations

from typing import get_args

import pytest
from support.files import INSTANCES

from hanoi_asp import load_puzzle, solve
from hanoi_asp.model.proof import (
    UNREACHABLE,
    HalfSearch,
    Horizons,
    LowerBound,
    MethodRun,
    PlannerRun,
    PlanOrigin,
    Proof,
    ProofKind,
)
from hanoi_asp.outputs.proof import _WORDS, proof_sentence

HINZ = "the exact 3-peg distance (the largest differing disk moves once or twice, Hinz 1989)"
THREE = LowerBound(15, "three-peg-distance", HINZ, exact=True)
MISPLACED = LowerBound(4, "misplaced-disks", "4 disk(s) start off their goal peg; each ...")
NONE = LowerBound(0, "none", "no bound used: every shorter horizon refuted by clingo")
BOUSCH = "a whole tower on 4 pegs needs the Frame-Stewart count (proven optimal, Bousch 2014)"
FOUR = LowerBound(25, "four-peg-tower", BOUSCH, exact=True)
TABLES = LowerBound(30, "pattern-database", "breadth-first optima of runs of disks, ...")
HALVES = (
    "every plan of a whole tower has at least 2H + 1 moves, H the fewest moves taking the "
    "smaller disks off the start peg and one other: they are off the start peg and the "
    "largest disk's target before its first move, and likewise after its last move "
    "backwards (hanoi_asp/engine/mirror.py)"
)
BUILT = "the constructive plan built before the search"
MIRRORED = (
    "the largest disk's move, and those moves backwards with start and goal pegs swapped "
    "(mirror phase)"
)
BFS_ALL = "breadth-first search visited all 2 reachable states and none meets the goal"
FD = PlannerRun("fast-downward:astar(lmcut())", "Fast Downward", True, 0, 1.5)
GREEDY = PlannerRun("fast-downward:lazy_greedy([ff()])", "Fast Downward", False, 0, 0.5)
SYMK = PlannerRun("symk:sym_bd()", "SymK", True, 10, 0.2)
CLAIMED = LowerBound(7, "planner", "Fast Downward's optimal search's claim")
UNCLAIMED = LowerBound(0, "none", "no lower bound: the planner's plan is not claimed minimal")
REPLAYED = "its plan was replayed by hanoi-asp's simulator"
KILLED = "before any plan was found (clingo cannot interrupt the grounding of an encoding, so its process was ended)"  # noqa: E501

CASES: list[tuple[Proof, str]] = [
    # the engine: minimal plans
    (
        Proof(kind="meets-bound", lower=15, bound=THREE, plan=PlanOrigin("constructive", 15)),
        f"minimal: the plan meets the lower bound 15 (three-peg-distance: {HINZ}); the plan "
        f"is {BUILT}",
    ),
    (
        Proof(kind="meets-bound", lower=15, bound=THREE, plan=PlanOrigin("clingo", 15)),
        f"minimal: the plan meets the lower bound 15 (three-peg-distance: {HINZ})",
    ),
    (
        Proof(
            kind="refuted-horizons",
            lower=15,
            bound=MISPLACED,
            refuted=Horizons(4, 14),
            plan=PlanOrigin("constructive", 15),
        ),
        "minimal: horizons 4..14 proven unsatisfiable by clingo, and no plan is shorter than 4 "
        f"(misplaced-disks); the plan is {BUILT}",
    ),
    (
        Proof(
            kind="refuted-horizons",
            lower=31,
            bound=NONE,
            refuted=Horizons(0, 30),
            plan=PlanOrigin("clingo", 31),
        ),
        "minimal: horizons 0..30 proven unsatisfiable by clingo",
    ),
    (
        Proof(kind="meets-bound", lower=36, bound=TABLES, plan=PlanOrigin("beam", 36, width=1024)),
        "minimal: the plan meets the lower bound 30 (pattern-database: breadth-first optima of "
        "runs of disks, ...); the plan is found by a beam search of width 1024",
    ),
    (
        Proof(
            kind="meets-bound",
            lower=56,
            bound=LowerBound(56, "astar", "A* on the pattern tables ...", exact=True),
            plan=PlanOrigin("astar", 56),
        ),
        "minimal: the plan meets the lower bound 56 (astar: A* on the pattern tables ...); "
        "the plan is found by A* racing clingo on the same tables",
    ),
    (
        Proof(
            kind="refuted-horizons",
            lower=58,
            bound=LowerBound(55, "astar", "A* ... (stopped: states) ..."),
            refuted=Horizons(55, 57),
            plan=PlanOrigin("clingo", 58),
        ),
        "minimal: horizons 55..57 proven unsatisfiable by clingo, and no plan is shorter "
        "than 55 (astar)",
    ),
    (
        Proof(kind="meets-bound", lower=25, bound=FOUR, plan=PlanOrigin("mirror", 25, half=12)),
        f"minimal: the plan meets the lower bound 25 (four-peg-tower: {BOUSCH}); found as 12 "
        f"moves by clingo, {MIRRORED}",
    ),
    # the half search
    (
        Proof(
            kind="half-search",
            lower=47,
            bound=TABLES,
            refuted=Horizons(16, 22, "mirror-half"),
            half_search=HalfSearch(16, 16, 23),
            plan=PlanOrigin("constructive", 47),
        ),
        f"minimal: no plan has fewer than 47 moves: {HALVES}; H >= 16 (the half's pattern "
        f"tables give 16); clingo refuted half horizons 16..22, so H >= 23; the plan is {BUILT}",
    ),
    (
        Proof(
            kind="half-search",
            lower=11,
            bound=LowerBound(9, "pile-split", "..."),
            refuted=Horizons(4, 4, "mirror-half"),
            half_search=HalfSearch(4, 2, 5),
            plan=PlanOrigin("mirror", 11, half=5),
        ),
        f"minimal: no plan has fewer than 11 moves: {HALVES}; H >= 4 (2H + 1 is at least the "
        "lower bound 9 (pile-split)); clingo refuted half horizon 4, so H >= 5; a half of 5 "
        "moves exists, so H = 5: its mirror, 11 moves, is the plan",
    ),
    # no plan within the user's bound, or none at all
    (
        Proof(kind="over-limit", lower=15, bound=THREE, max_moves=10),
        "no plan of at most 10 moves: the lower bound is 15 (three-peg-distance)",
    ),
    (
        Proof(
            kind="over-limit",
            lower=11,
            bound=MISPLACED,
            refuted=Horizons(4, 10),
            plan=PlanOrigin("constructive", 15),
            max_moves=10,
        ),
        "no plan of at most 10 moves: no plan has fewer than 11 moves: fewer than 4 by the lower "
        "bound (misplaced-disks), 4..10 proven unsatisfiable; a plan of 15 moves exists",
    ),
    (
        Proof(kind="unreachable", bound=LowerBound(UNREACHABLE, "breadth-first", BFS_ALL)),
        f"no plan exists at all: {BFS_ALL}",
    ),
    (
        Proof(kind="unreachable", bound=NONE, refuted=Horizons(0, 15), state_space=(2, 4)),
        "no plan exists at all: horizons up to 15 proven unsatisfiable, and a shortest plan "
        "visits each of the 2^4 states at most once",
    ),
    # exactly M moves
    (
        Proof(kind="exact-moves", bound=THREE, plan=PlanOrigin("clingo", 15), exact_moves=15),
        "a plan of exactly 15 moves (not claimed minimal)",
    ),
    (
        Proof(kind="exact-moves", bound=THREE, exact_moves=14),
        "clingo proved that no plan has exactly 14 moves",
    ),
    (
        Proof(kind="exact-moves", bound=THREE, stopped="timeout", exact_moves=15),
        "stopped before deciding whether a plan of exactly 15 moves exists",
    ),
    (
        Proof(kind="exact-moves", bound=THREE, stopped="interrupt", exact_moves=15),
        "interrupted before deciding whether a plan of exactly 15 moves exists",
    ),
    # stopped early
    (
        Proof(kind="stopped", lower=15, bound=THREE, stopped="timeout", time_limit=0.5),
        "stopped at the time limit (0.5 s): no plan has fewer than 15 moves (lower bound: "
        "three-peg-distance)",
    ),
    (
        Proof(kind="stopped", lower=0, bound=NONE, stopped="interrupt"),
        "interrupted: no horizon was refuted yet (no lower bound was used)",
    ),
    (
        Proof(
            kind="stopped",
            lower=13,
            bound=MISPLACED,
            refuted=Horizons(4, 12),
            plan=PlanOrigin("constructive", 15),
            stopped="limit",
        ),
        "stopped: the next horizon is over the grounding limit: no plan has fewer than 13 moves: "
        "fewer than 4 by the lower bound (misplaced-disks), 4..12 proven unsatisfiable; the best "
        f"plan found has 15 moves ({BUILT}), not proven minimal: the optimum is 13..15 (gap 2)",
    ),
    (
        Proof(
            kind="stopped",
            lower=5,
            bound=NONE,
            refuted=Horizons(0, 4),
            plan=PlanOrigin("constructive", 15),
            stopped="timeout",
            time_limit=2,
            max_moves=10,
        ),
        "stopped at the time limit (2 s): no plan has fewer than 5 moves: 0..4 proven "
        "unsatisfiable; a plan of 15 moves exists, over the bound of 10",
    ),
    (
        Proof(
            kind="stopped",
            lower=33,
            bound=TABLES,
            half_search=HalfSearch(16, 16, 16),
            plan=PlanOrigin("beam", 47, width=256),
            stopped="limit",
        ),
        f"stopped: the next horizon is over the grounding limit: no plan has fewer than 33 "
        f"moves: {HALVES}; H >= 16 (the half's pattern tables give 16), so H >= 16; the best "
        "plan found has 47 moves (found by a beam search of width 256), not proven minimal: the "
        "optimum is 33..47 (gap 14)",
    ),
    (
        Proof(kind="killed", lower=4, bound=MISPLACED, stopped="memory", memory_limit=314572800),
        f"stopped, over the memory limit of 314572800 bytes, {KILLED}",
    ),
    (
        Proof(kind="killed", lower=4, bound=MISPLACED, stopped="timeout", time_limit=2.6),
        f"stopped, killed at the hard time limit of 2.6 s, {KILLED}",
    ),
    # the reference methods
    (
        Proof(
            kind="method",
            lower=15,
            bound=THREE,
            plan=PlanOrigin("recursive", 15),
            method=MethodRun("recursive", 15, pegs=3),
        ),
        "minimal: the classic recursion's 2^n - 1 moves",
    ),
    (
        Proof(
            kind="method",
            lower=15,
            bound=THREE,
            plan=PlanOrigin("frame-stewart", 15),
            method=MethodRun("frame-stewart", 15, pegs=3),
        ),
        "minimal: on 3 pegs Frame-Stewart is the classic recursion, 2^n - 1 moves",
    ),
    (
        Proof(
            kind="method",
            lower=25,
            bound=FOUR,
            plan=PlanOrigin("frame-stewart", 25),
            method=MethodRun("frame-stewart", 25, pegs=4),
        ),
        "minimal: Frame-Stewart is optimal for 4 pegs (Bousch 2014)",
    ),
    (
        Proof(
            kind="method",
            lower=30,
            bound=TABLES,
            plan=PlanOrigin("frame-stewart", 63),
            method=MethodRun("frame-stewart", 0, pegs=5),
        ),
        "Frame-Stewart plan; its optimality for 5 pegs is the unproven Frame-Stewart "
        "conjecture: not claimed minimal; no plan has fewer than 30 moves (lower bound: "
        "pattern-database)",
    ),
    (
        Proof(
            kind="method",
            lower=0,
            bound=NONE,
            plan=PlanOrigin("frame-stewart", 0),
            method=MethodRun("frame-stewart", 0, pegs=5),
        ),
        "minimal: the start already meets the goal",
    ),
    (
        Proof(
            kind="over-limit",
            lower=15,
            bound=THREE,
            method=MethodRun("recursive", 15, pegs=3),
            max_moves=3,
        ),
        "no plan of at most 3 moves: the optimum for this tower is 15",
    ),
    (
        Proof(
            kind="stopped",
            lower=30,
            bound=TABLES,
            plan=PlanOrigin("frame-stewart", 63),
            method=MethodRun("frame-stewart", 0, pegs=5),
            stopped="max_moves",
            max_moves=40,
        ),
        "the Frame-Stewart plan has 63 moves, over the limit of 40; no plan has fewer than 30 "
        "moves (lower bound: pattern-database)",
    ),
    (
        Proof(
            kind="method",
            lower=15,
            bound=THREE,
            plan=PlanOrigin("bfs", 15),
            method=MethodRun("bfs", 15, states=71),
        ),
        "minimal: breadth-first search reaches the goal first at depth 15 (71 states stored)",
    ),
    (
        Proof(
            kind="stopped",
            lower=7,
            bound=LowerBound(6, "misplaced-disks", "..."),
            method=MethodRun("bfs", 7, states=619),
            stopped="timeout",
        ),
        "no plan has fewer than 7 moves (breadth-first search, 619 states), then stopped",
    ),
    (
        Proof(
            kind="over-limit",
            lower=15,
            bound=THREE,
            method=MethodRun("bfs", 6, states=15),
            max_moves=5,
        ),
        "no plan of at most 5 moves: breadth-first search to depth 5 (15 states) found none; no "
        "plan has fewer than 15 moves (lower bound: three-peg-distance)",
    ),
    (
        Proof(kind="unreachable", bound=NONE, method=MethodRun("bfs", states=2)),
        f"no plan exists at all: {BFS_ALL}",
    ),
    (
        Proof(
            kind="method",
            lower=15,
            bound=THREE,
            plan=PlanOrigin("astar", 15),
            method=MethodRun("astar", 15, states=15),
        ),
        "minimal: A* with pattern-database estimates (admissible and consistent) reaches the "
        "goal first at 15 moves (15 states expanded)",
    ),
    (
        Proof(
            kind="over-limit", lower=15, bound=THREE, method=MethodRun("astar", 15, 9), max_moves=5
        ),
        "no plan of at most 5 moves: A* proved the optimum is 15",
    ),
    (
        Proof(kind="unreachable", bound=NONE, method=MethodRun("astar", states=0)),
        "no plan exists at all: A* expanded all 0 reachable states and none meets the goal",
    ),
    (
        Proof(
            kind="stopped",
            lower=40,
            bound=TABLES,
            method=MethodRun("astar", 40, 20000, stopped="states"),
            stopped="states",
        ),
        "no plan has fewer than 40 moves (A*: every state with a smaller estimate expanded, "
        "20000 states), then stopped: its memory budget is full",
    ),
    (
        Proof(
            kind="stopped",
            lower=40,
            bound=TABLES,
            plan=PlanOrigin("constructive", 103),
            method=MethodRun("astar", 40, 500, stopped="timeout"),
            stopped="timeout",
        ),
        "no plan has fewer than 40 moves (A*: every state with a smaller estimate expanded, 500 "
        "states), then stopped: out of time; the plan built first (constructive) has 103 moves",
    ),
    (
        Proof(
            kind="meets-bound",
            lower=40,
            bound=TABLES,
            plan=PlanOrigin("constructive", 40),
            method=MethodRun("astar", 40, 500, stopped="timeout"),
        ),
        "minimal: the plan built first (constructive) meets the bound; no plan has fewer than 40 "
        "moves (A*: every state with a smaller estimate expanded, 500 states), then stopped: out "
        "of time",
    ),
    (
        Proof(
            kind="stopped", lower=4, bound=MISPLACED, method=MethodRun("bfs"), stopped="interrupt"
        ),
        "bfs interrupted; no plan has fewer than 4 moves (lower bound: misplaced-disks)",
    ),
    # a classical planner's claim (a batch's planner configuration)
    (
        Proof(kind="planner", lower=7, bound=CLAIMED, plan=PlanOrigin("planner", 7), planner=FD),
        "minimal by Fast Downward's claim (planner:fast-downward:astar(lmcut()), an optimal "
        f"search); {REPLAYED}, which does not prove it minimal",
    ),
    (
        Proof(
            kind="planner", lower=0, bound=UNCLAIMED, plan=PlanOrigin("planner", 9), planner=GREEDY
        ),
        "a plan found by Fast Downward (fast-downward:lazy_greedy([ff()])), "
        f"{REPLAYED}; not claimed minimal (not an optimal search)",
    ),
    (
        Proof(
            kind="planner",
            lower=7,
            bound=CLAIMED,
            plan=PlanOrigin("planner", 7),
            planner=FD,
            max_moves=5,
        ),
        "no plan of at most 5 moves, by Fast Downward's claim: its optimal search's plan has 7 "
        f"moves ({REPLAYED})",
    ),
    (
        Proof(
            kind="planner",
            lower=0,
            bound=UNCLAIMED,
            plan=PlanOrigin("planner", 9),
            planner=GREEDY,
            max_moves=5,
        ),
        "Fast Downward (fast-downward:lazy_greedy([ff()])) found a plan of 9 moves, over the "
        "bound of 5",
    ),
    (
        Proof(
            kind="planner",
            bound=LowerBound(UNREACHABLE, "planner", "SymK proved the goal unreachable"),
            planner=SYMK,
        ),
        "no plan exists at all, by SymK's claim: symk:sym_bd() searched it all",
    ),
    (
        Proof(kind="planner", lower=0, bound=UNCLAIMED, planner=SYMK),
        "SymK (symk:sym_bd()) ended without a plan and without proving there is none",
    ),
    (
        Proof(
            kind="planner",
            lower=0,
            bound=UNCLAIMED,
            planner=FD,
            stopped="timeout",
            time_limit=30.0,
        ),
        "stopped at the time limit (30 s) before Fast Downward (fast-downward:astar(lmcut())) "
        "answered",
    ),
    (
        Proof(
            kind="planner",
            lower=0,
            bound=UNCLAIMED,
            planner=SYMK,
            stopped="memory",
            memory_limit=2**30,
        ),
        "stopped: SymK (symk:sym_bd()) went over the memory limit of 1073741824 bytes",
    ),
]


@pytest.mark.parametrize(("proof", "sentence"), CASES)
def test_each_form_of_the_proof_sentence(proof: Proof, sentence: str) -> None:
    assert proof_sentence(proof) == sentence


def test_every_kind_has_words() -> None:
    assert set(_WORDS) == set(get_args(ProofKind))
    assert {proof.kind for proof, _ in CASES} == set(get_args(ProofKind))


def test_a_result_words_its_own_proof_data() -> None:
    """The sentence on a result and in its JSON is the wording of its data."""
    result = solve(load_puzzle(str(INSTANCES / "quickstart.lp")))
    data = result.to_dict()
    assert data["proof"] == result.proof == proof_sentence(result.proof_data)
    assert data["proof_data"] == result.proof_data.as_dict()
    keys = list(data)
    assert keys.index("proof_data") == keys.index("proof") + 1
