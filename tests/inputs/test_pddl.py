"""PDDL in and out: problems of the textbook Hanoi domain as others write them (objects
named freely, facts in any order, goals as ``on`` chains, typed or not, ``smaller``
either way round), the variants ``export --pddl`` writes, and what is refused."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.puzzles import bfs_optimum
from support.strategies import puzzles

from hanoi_asp import InputError, Puzzle
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.inputs.pddl_names import peg_name, peg_object
from hanoi_asp.inputs.pddl_plan import PlanFileError, plan_steps
from hanoi_asp.model.plan import replay
from hanoi_asp.model.puzzle import stacks
from hanoi_asp.outputs.pddl import hanoi_pddl, plan_text

pytest.importorskip("tarski", reason="the pddl extra (tarski) reads PDDL")

GEFFNER = """;; The Towers of Hanoi problem (formalisation by Hector Geffner).
(define (domain hanoi)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y) (smaller ?x ?y))
  (:action move
    :parameters (?disc ?from ?to)
    :precondition (and (smaller ?to ?disc) (on ?disc ?from) (clear ?disc) (clear ?to))
    :effect (and (clear ?from) (on ?disc ?to) (not (on ?disc ?from)) (not (clear ?to)))))
"""
SMALLER_FIRST = """(define (domain Hanoi)
  (:requirements :strips :typing)
  (:types disk peg - object)
  (:predicates (On ?x - object ?y - object) (Clear ?x - object) (Smaller ?a - object ?b - object))
  (:action MOVE
    :parameters (?d - object ?src - object ?dst - object)
    :precondition (and (Clear ?d) (Clear ?dst) (Smaller ?d ?dst) (On ?d ?src))
    :effect (and (On ?d ?dst) (Clear ?src) (not (Clear ?dst)) (not (On ?d ?src)))))
"""
"""The other way round: ``(Smaller ?d ?dst)``, the disk is smaller than its target."""
COURSE = """(define (domain hanoi)
  (:requirements :strips :equality)
  (:predicates (on ?x ?y) (smaller ?x ?y) (disc ?x) (clear ?x))
  (:action move
    :parameters (?disc ?from ?to)
    :precondition (and (smaller ?disc ?to) (smaller ?disc ?from) (on ?disc ?from)
                       (clear ?disc) (clear ?to) (not (= ?from ?to)) (not (= ?disc ?to)))
    :effect (and (clear ?from) (on ?disc ?to) (not (on ?disc ?from)) (not (clear ?to)))))
"""
"""A course's copy: the disk smaller than its target, and preconditions that hold
wherever the textbook's move applies (the disk's size against its source, two
inequalities)."""

BLOCKSWORLD = """(define (domain blocksworld)
  (:requirements :strips)
  (:predicates (clear ?x) (on-table ?x) (arm-empty) (holding ?x) (on ?x ?y))
  (:action pickup :parameters (?ob)
    :precondition (and (clear ?ob) (on-table ?ob) (arm-empty))
    :effect (and (holding ?ob) (not (clear ?ob)) (not (on-table ?ob)) (not (arm-empty))))
  (:action putdown :parameters (?ob)
    :precondition (holding ?ob)
    :effect (and (clear ?ob) (arm-empty) (on-table ?ob) (not (holding ?ob)))))
"""
GRIPPER = """(define (domain gripper-strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from)))))
"""
UNSTACKING = """(define (domain no-size)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y))
  (:action move :parameters (?d ?from ?to)
    :precondition (and (on ?d ?from) (clear ?d) (clear ?to))
    :effect (and (on ?d ?to) (clear ?from) (not (on ?d ?from)) (not (clear ?to)))))
"""
"""Blocks moved freely: no size order, so not Hanoi."""


def problem_text(
    puzzle: Puzzle,
    *,
    rng: random.Random,
    holder_first: bool = True,
    style: str = "plain",
) -> tuple[str, dict[str, str], dict[int, str]]:
    """A problem for ``puzzle`` as someone else might write it: objects named freely
    (``style``), facts shuffled, the goal as ``on`` chains down to the pegs; returns
    the text and the names given to pegs and disks."""
    if style == "numbers":
        pegs = {p: f"peg{i + 1}" for i, p in enumerate(puzzle.pegs)}
        disks = {d: f"d{puzzle.disks + 1 - d}" for d in range(1, puzzle.disks + 1)}  # d1 smallest
    elif style == "words":
        pegs = {
            p: w
            for p, w in zip(puzzle.pegs, ["left", "middle", "right", "far", "spare"], strict=False)
        }
        disks = {d: f"disc-{chr(ord('a') + d - 1)}" for d in range(1, puzzle.disks + 1)}
    else:
        pegs = {p: f"Tower_{i}" for i, p in enumerate(puzzle.pegs)}
        disks = {d: f"D{d}" for d in range(1, puzzle.disks + 1)}
    objects = [*pegs.values(), *disks.values()]
    init: list[str] = []

    def chains(towers: list[list[int]]) -> list[str]:
        facts = []
        for index, tower in enumerate(towers):
            below = pegs[puzzle.pegs[index]]
            for disk in tower:
                facts.append(f"(on {disks[disk]} {below})")
                below = disks[disk]
        return facts

    start = stacks(puzzle, puzzle.initial_state())
    init += chains(start)
    for index, tower in enumerate(start):
        init.append(f"(clear {disks[tower[-1]] if tower else pegs[puzzle.pegs[index]]})")

    def order(holder: str, held: str) -> str:
        return f"(smaller {holder} {held})" if holder_first else f"(smaller {held} {holder})"

    for larger in range(1, puzzle.disks + 1):
        for smaller in range(larger + 1, puzzle.disks + 1):
            init.append(order(disks[larger], disks[smaller]))
        init += [order(peg, disks[larger]) for peg in pegs.values()]
    rng.shuffle(init)
    rng.shuffle(objects)
    goal_state = tuple(puzzle.goal_pegs().get(d, -1) for d in range(1, puzzle.disks + 1))
    goal = chains(stacks(puzzle, goal_state))
    rng.shuffle(goal)
    text = (
        f"; written by a test in style {style}\n(define (problem p-{rng.randrange(1000)})"
        f" (:domain hanoi)\n (:objects {' '.join(objects)})\n (:init {' '.join(init)})\n"
        f" (:goal (and {' '.join(goal)})))\n"
    )
    return text, pegs, disks


def written(tmp_path: Path, domain: str, problem: str, name: str = "p01.pddl") -> Path:
    (tmp_path / "domain.pddl").write_text(domain, encoding="utf-8")
    path = tmp_path / name
    path.write_text(problem, encoding="utf-8")
    return path


def renamed(puzzle: Puzzle, pegs: dict[str, str]) -> Puzzle:
    """``puzzle`` with its pegs renamed as the problem named them (lower case: PDDL's)."""
    name = {p: peg_name(pegs[p].lower()) for p in puzzle.pegs}
    order = [peg for peg in puzzle.pegs]
    return Puzzle(
        pegs=tuple(name[p] for p in order),
        disks=puzzle.disks,
        init={name[p]: d for p, d in puzzle.init.items()},
        goal={name[p]: d for p, d in puzzle.goal.items()},
    )


def full_goal_towers(draw: st.DrawFn, low: int, high: int) -> Puzzle:
    pegs = draw(st.integers(3, 5))
    disks = draw(st.integers(low, high))
    names = tuple(f"p{i}" for i in range(pegs))
    if draw(st.booleans()):  # a whole tower
        source, target = draw(st.permutations(range(pegs)))[:2]
        init = {names[source]: tuple(range(1, disks + 1))}
        goal = {names[target]: tuple(range(1, disks + 1))}
        return Puzzle(pegs=names, disks=disks, init=init, goal=goal)
    start = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))
    end = draw(st.lists(st.integers(0, pegs - 1), min_size=disks, max_size=disks))

    def placed(where: list[int]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for disk, peg in enumerate(where, start=1):
            out[names[peg]] = (*out.get(names[peg], ()), disk)
        return out

    return Puzzle(pegs=names, disks=disks, init=placed(start), goal=placed(end))


@st.composite
def others_puzzles(draw: st.DrawFn) -> Puzzle:
    """Towers and arbitrary states of 3-8 disks on 3-5 pegs, full goals."""
    return full_goal_towers(draw, 3, 8)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    puzzle=others_puzzles(),
    seed=st.integers(0, 2**16),
    holder_first=st.booleans(),
    style=st.sampled_from(["plain", "numbers", "words"]),
)
def test_problems_as_others_write_them(
    tmp_path: Path, puzzle: Puzzle, seed: int, holder_first: bool, style: str
) -> None:
    text, pegs, _ = problem_text(
        puzzle, rng=random.Random(seed), holder_first=holder_first, style=style
    )
    domain = GEFFNER if holder_first else SMALLER_FIRST
    read = load_puzzle(str(written(tmp_path, domain, text)))
    # pegs come in the order the problem declares them: compare by name
    expected = renamed(puzzle, pegs)
    assert read.disks == expected.disks
    assert set(read.pegs) == set(expected.pegs)
    assert dict(read.init) == dict(expected.init)
    assert dict(read.goal) == dict(expected.goal)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(puzzle=puzzles(pegs=(2, 5), disks=(1, 6), graphs=True))
def test_export_then_read_gives_the_same_puzzle(tmp_path: Path, puzzle: Puzzle) -> None:
    domain, problem = hanoi_pddl(puzzle)
    read = load_puzzle(str(written(tmp_path, domain, problem)))
    # a move graph listing every move is the complete graph, which PDDL writes as such
    assert read.model_copy(update={"moves_allowed": None}) == puzzle.model_copy(
        update={"moves_allowed": None}
    )
    assert read.edges() == puzzle.edges()


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(names=st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=4, unique=True))
def test_any_peg_names_survive_the_round_trip(tmp_path: Path, names: list[str]) -> None:
    if len({peg_object(n) for n in names}) < len(names):  # two names, one PDDL object
        return
    puzzle = Puzzle(pegs=tuple(names), disks=2, init={names[0]: (1, 2)}, goal={names[-1]: (1,)})
    domain, problem = hanoi_pddl(puzzle)
    assert load_puzzle(str(written(tmp_path, domain, problem))) == puzzle


def test_the_competition_pegs_come_back_as_numbers(tmp_path: Path) -> None:
    puzzle = load_puzzle("instances/aspcomp/0005-hanoi_tower-60-0.asp")
    domain, problem = hanoi_pddl(puzzle)
    assert "peg-1" in problem
    read = load_puzzle(str(written(tmp_path, domain, problem)))
    assert read == puzzle.model_copy(update={"max_moves": None})  # PDDL has no length bound


@settings(max_examples=40, deadline=None)
@given(puzzle=puzzles(pegs=(3, 4), disks=(1, 5), graphs=True), seed=st.integers(0, 999))
def test_plans_in_the_planners_format_read_back(puzzle: Puzzle, seed: int) -> None:
    """A random legal walk, written as the planners write plans, reads back as itself."""
    from hanoi_asp.model.plan import legal_move

    rng = random.Random(seed)
    state = list(puzzle.initial_state())
    steps: list[tuple[int, str]] = []
    for _ in range(12):
        moves = [
            (d, t)
            for d in range(1, puzzle.disks + 1)
            for t in range(len(puzzle.pegs))
            if legal_move(tuple(state), d, t, puzzle.edges()) is None
        ]
        if not moves:
            break
        disk, target = rng.choice(moves)
        state[disk - 1] = target
        steps.append((disk, puzzle.pegs[target]))
    walk = Puzzle.model_validate(
        {**puzzle.model_dump(), "goal": {}}  # any end: the walk is the plan
    )
    plan = replay(walk, steps)
    assert plan_steps(walk, plan_text(walk, plan)) == steps


def test_a_plan_that_does_not_fit_names_its_step() -> None:
    puzzle = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
    with pytest.raises(PlanFileError, match=r"step 1: \(move d1 a c\): d1 is not on top"):
        plan_steps(puzzle, "(move d1 a c)")
    with pytest.raises(PlanFileError, match=r"step 3: \(move d2 d1 c\): d2 lies on b"):
        plan_steps(puzzle, "(move d2 d1 b)\n(move d1 a c)\n(move d2 d1 c)")
    with pytest.raises(PlanFileError, match=r"step 1: .* is not a move of a disk"):
        plan_steps(puzzle, "(stack d2 d1)")


PARTIAL = """(define (problem partial) (:domain hanoi)
 (:objects a b c d1 d2 d3 d4)
 (:init (smaller a d1) (smaller a d2) (smaller a d3) (smaller a d4)
        (smaller b d1) (smaller b d2) (smaller b d3) (smaller b d4)
        (smaller c d1) (smaller c d2) (smaller c d3) (smaller c d4)
        (smaller d1 d2) (smaller d1 d3) (smaller d1 d4) (smaller d2 d3) (smaller d2 d4)
        (smaller d3 d4)
        (on d1 a) (on d2 d1) (on d3 d2) (on d4 d3) (clear d4) (clear b) (clear c))
 (:goal (and GOAL)))
"""
"""d1 the largest (``smaller x y``: y may lie on x), all on peg a."""


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        ("(on d1 c)", {"c": (1,)}),
        ("(on d1 c) (on d2 d1)", {"c": (1, 2)}),
        ("(on d1 c) (on d3 d1) (on d2 b)", {"c": (1, 3), "b": (2,)}),
        ("(on d1 b) (on d2 c) (clear c) (on d3 a) (on d4 d3)", None),
        ("(on d1 c) (on d2 b) (clear b) (on d3 a) (on d4 a)", None),
        (
            "(on d1 c) (on d2 d1) (on d3 b) (on d4 a) (clear d2)",
            {"c": (1, 2), "b": (3,), "a": (4,)},
        ),
    ],
)
def test_partial_goals_stated_as_pegs(tmp_path: Path, goal: str, expected: object) -> None:
    path = written(tmp_path, GEFFNER, PARTIAL.replace("GOAL", goal))
    if expected is None:
        with pytest.raises(InputError, match="goal fact"):
            load_puzzle(str(path))
        return
    assert dict(load_puzzle(str(path)).goal) == expected


@pytest.mark.parametrize(
    ("goal", "named"),
    [
        ("(on d3 d2)", r"\(on d3 d2\) cannot be stated as pegs: it does not say which peg"),
        ("(on d2 c)", r"\(on d2 c\) cannot be stated as pegs: d1 may end on c"),
        ("(on d1 c) (on d3 d1)", r"\(on d3 d1\) cannot be stated as pegs: d2 may end on c"),
        ("(clear a)", r"\(clear a\) cannot be stated as pegs"),
        ("(on d2 d3)", r"\(on d2 d3\) cannot be stated as pegs: d3 is not larger than d2"),
        ("(smaller d4 d1)", r"goal fact \(smaller d4 d1\) can never hold"),
    ],
)
def test_goals_pegs_cannot_say_are_refused_naming_the_fact(
    tmp_path: Path, goal: str, named: str
) -> None:
    path = written(tmp_path, GEFFNER, PARTIAL.replace("GOAL", goal))
    with pytest.raises(InputError, match=named) as caught:
        load_puzzle(str(path))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("domain", "why"),
    [
        (BLOCKSWORLD, "not a Hanoi domain: it has 2 actions"),
        (GRIPPER, "not a Hanoi domain: action move: 2 parameters"),
        (UNSTACKING, "no static fact orders the disk and its target by size"),
        (
            COURSE.replace("(not (= ?disc ?to))", "(smaller ?from ?to)"),
            r"precondition \(smaller \?from \?to\) is not part of a Hanoi move",
        ),
        (
            COURSE.replace("(not (= ?disc ?to))", "(not (clear ?from))"),
            r"\(not clear\(\?from\)\) is not a plain fact",
        ),
    ],
)
def test_other_domains_are_refused_saying_why(tmp_path: Path, domain: str, why: str) -> None:
    path = written(
        tmp_path, domain, "(define (problem x) (:domain d) (:objects a b) (:init) (:goal (and)))"
    )
    with pytest.raises(InputError, match=why) as caught:
        load_puzzle(str(path))
    assert str(caught.value).startswith(str(tmp_path / "domain.pddl"))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("(smaller d3 d4)", ""), "disks d3 and d4 are ordered neither way"),
        (
            ("(smaller c d4)", ""),
            r"\(smaller c d4\) is missing: disk d4 could never be put on peg c",
        ),
        (("(clear b)", ""), r"\(clear b\) is missing at the start"),
        (("(on d4 d3)", "(on d4 d3) (on d3 d4)"), "already lies on"),
        (("(clear c)", "(clear c) (clear d2)"), r"\(clear d2\) at the start, but d3 lies on it"),
    ],
)
def test_problems_that_are_not_the_hanoi_puzzle_are_refused(
    tmp_path: Path, change: tuple[str, str], why: str
) -> None:
    text = PARTIAL.replace("GOAL", "(on d1 c)").replace(*change)
    with pytest.raises(InputError, match=why):
        load_puzzle(str(written(tmp_path, GEFFNER, text)))


def test_the_domain_is_found_beside_or_given(tmp_path: Path) -> None:
    text = PARTIAL.replace("GOAL", "(on d1 c)")
    (tmp_path / "p1.pddl").write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="no PDDL domain: give --domain FILE"):
        load_puzzle(str(tmp_path / "p1.pddl"))
    (tmp_path / "p1-domain.pddl").write_text(GEFFNER, encoding="utf-8")
    assert load_puzzle(str(tmp_path / "p1.pddl")).disks == 4
    elsewhere = tmp_path / "sub"
    elsewhere.mkdir()
    (elsewhere / "hanoi.pddl").write_text(GEFFNER, encoding="utf-8")
    (elsewhere / "problem.txt").write_text(text, encoding="utf-8")  # by content
    puzzle = load_puzzle(str(elsewhere / "problem.txt"), domain=str(elsewhere / "hanoi.pddl"))
    assert puzzle.disks == 4
    with pytest.raises(InputError, match="is a PDDL domain, not a problem"):
        load_puzzle(str(elsewhere / "hanoi.pddl"))


def test_what_tarski_cannot_read_is_one_line(tmp_path: Path) -> None:
    path = written(tmp_path, GEFFNER, "(define (problem x) (:domain hanoi) (:objects a")
    with pytest.raises(InputError, match="cannot read the PDDL problem") as caught:
        load_puzzle(str(path))
    assert "\n" not in str(caught.value)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(puzzle=others_puzzles(), seed=st.integers(0, 2**16))
def test_a_course_copy_with_redundant_preconditions_is_the_same_puzzle(
    tmp_path: Path, puzzle: Puzzle, seed: int
) -> None:
    text, pegs, _ = problem_text(puzzle, rng=random.Random(seed), holder_first=False)
    read = load_puzzle(str(written(tmp_path, COURSE, text)))
    expected = renamed(puzzle, pegs)
    assert (dict(read.init), dict(read.goal)) == (dict(expected.init), dict(expected.goal))


@pytest.mark.parametrize("seed", range(4))
def test_a_planner_on_the_course_copy_finds_the_bfs_optimum(tmp_path: Path, seed: int) -> None:
    """Fast Downward's optimal search on the course's domain itself (not on what we
    write) agrees with breadth-first search on the puzzle read from it: the
    preconditions the reader leaves out change no plan's length."""
    from hanoi_asp.batch.planners import planner_command, run_process
    from hanoi_asp.model.planner import Planner

    rng = random.Random(seed)
    pegs = rng.choice([3, 4])
    names = tuple(f"p{i}" for i in range(pegs))
    start = [rng.randrange(pegs) for _ in range(4)]
    end = [rng.randrange(pegs) for _ in range(4)]

    def placed(where: list[int]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for disk, peg in enumerate(where, start=1):
            out[names[peg]] = (*out.get(names[peg], ()), disk)
        return out

    puzzle = Puzzle(pegs=names, disks=4, init=placed(start), goal=placed(end))
    text, peg_names, disk_names = problem_text(puzzle, rng=rng, holder_first=False, style="numbers")
    (tmp_path / "domain.pddl").write_text(COURSE, encoding="utf-8")
    (tmp_path / "problem.pddl").write_text(text, encoding="utf-8")
    read = load_puzzle(str(tmp_path / "problem.pddl"))
    planner = Planner.parse("fast-downward:astar(blind())")
    done = run_process(planner_command(planner, tmp_path), tmp_path, 120, None)
    assert done.exit_code == 0, done.log[-500:]
    disk = {name.lower(): number for number, name in disk_names.items()}
    peg = {name.lower(): peg_name(name.lower()) for name in peg_names.values()}
    lines = (tmp_path / "plan").read_text(encoding="utf-8").splitlines()
    where = {d: p for p, tower in read.init.items() for d in tower}
    steps = []
    for line in lines:
        if line.startswith("("):  # (move DISK FROM TO), TO a peg or the disk it goes on
            _, moved, _, onto = line.strip("()").split()
            where[disk[moved]] = peg[onto] if onto in peg else where[disk[onto]]
            steps.append((disk[moved], where[disk[moved]]))
    assert len(replay(read, steps)) == bfs_optimum(read)


def test_a_text_never_reads_the_domain_beside_its_name(tmp_path: Path) -> None:
    """Only a file's domain is looked for beside it: a text (the web's editor, a Dask
    worker's copy) named like a file next to a domain does not read that domain."""
    from hanoi_asp.inputs.instance import parse_puzzle

    text = PARTIAL.replace("GOAL", "(on d1 c)")
    path = written(tmp_path, GEFFNER, text)
    assert load_puzzle(str(path)).disks == 4
    with pytest.raises(InputError, match="no PDDL domain"):
        parse_puzzle(text, str(path))
