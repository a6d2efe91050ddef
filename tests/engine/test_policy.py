"""The policy (``hanoi_asp/engine/policy.py``): which strategy, programs, clingo options
and threads a puzzle gets, as its docstrings say, and the programs it reports are the
programs each solver loads."""

from __future__ import annotations

import dataclasses
import json

import clingo
import pytest
from support.cli import RunCli
from support.files import INSTANCES
from support.puzzles import tower

import hanoi_asp.engine.policy as policy
from hanoi_asp import Encoding, Puzzle, SolveOptions, solve
from hanoi_asp.engine.bounds import lower_bound
from hanoi_asp.engine.clingo_calls import ClingoCalls
from hanoi_asp.engine.policy import choose_strategy
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.inputs.facts import instance_facts
from hanoi_asp.teaching.explain import explain

AUTO = SolveOptions()
DOMAIN, SIGN = policy.DOMAIN_OPTIONS, policy.EXACT_BOUND_OPTIONS
PARTIAL = Puzzle(pegs=("a", "b", "c", "d"), disks=4, init={"a": (1, 2, 3, 4)}, goal={"d": (1,)})
"""4 pegs, only the largest disk's place asked: no whole tower, so no mirror."""


@pytest.mark.parametrize(
    ("puzzle", "options", "name", "programs", "clingo_options"),
    [
        # classic 3 pegs: distance3.lp and its domain heuristic, never the mirror
        (tower(3, 4), AUTO, "upward", ("incremental.lp", "distance3.lp"), DOMAIN),
        # a 4-peg tower's bound is exact: time-ordered moves (patterns.lp), the mirror
        (tower(4, 5), AUTO, "mirror", ("incremental.lp", "patterns.lp", "mirror.lp"), DOMAIN),
        (
            tower(4, 5),
            SolveOptions(mirror=False),
            "upward",
            ("incremental.lp", "patterns.lp"),
            DOMAIN,
        ),
        # no propagator: the exact bound's sign heuristic instead of the domain one
        (
            tower(4, 5),
            SolveOptions(patterns=False),
            "mirror",
            ("incremental.lp", "mirror.lp"),
            SIGN,
        ),
        # no whole tower: upward, the tables' bound exact or not
        (PARTIAL, AUTO, "upward", ("incremental.lp", "patterns.lp"), DOMAIN),
        # one-shot mode: the quickstart encoding alone, clingo's own heuristic
        (tower(3, 3), SolveOptions(mode="oneshot"), "upward", ("quickstart.lp",), ()),
        # the user's encoding alone, never with the shipped add-ons
        (
            tower(4, 3),
            SolveOptions(encoding=Encoding.shipped("quickstart")),
            "upward",
            ("quickstart.lp",),
            (),
        ),
        # a restricted 3-peg graph: the tables, not distance3.lp; no mirror
        (
            tower(3, 3, graph="linear"),
            AUTO,
            "upward",
            ("incremental.lp", "patterns.lp"),
            DOMAIN,
        ),
    ],
)
def test_each_strategy_for_its_puzzles(
    puzzle: Puzzle,
    options: SolveOptions,
    name: str,
    programs: tuple[str, ...],
    clingo_options: tuple[str, ...],
) -> None:
    """The strategy, its programs (the main encoding first) and clingo's options for a
    minimal search from the engine's own lower bound; the result of a whole solve
    reports the same programs."""
    bound = lower_bound(puzzle, options.bound)
    strategy = choose_strategy(puzzle, options, bound)
    assert strategy.name == name
    assert strategy.program_names == programs
    assert strategy.encoding.name == programs[0]
    assert strategy.clingo_options == clingo_options
    assert strategy.user_encoding == (options.encoding is not None)
    classic = len(puzzle.pegs) == 3 and puzzle.edges() is None  # distance3.lp's puzzles
    own_incremental = options.mode != "oneshot" and options.encoding is None
    assert strategy.patterns == (own_incremental and options.patterns and not classic)
    assert solve(puzzle, options).programs == programs


def test_whole_towers_without_an_exact_bound_search_halves(small_tables: None) -> None:
    """Tables too small for an exact bound (runs of one disk on 5 pegs): the half search,
    which loads mirror.lp for its half horizons only; as a fixed-horizon question
    (no bound), the one horizon asked."""
    puzzle = tower(5, 4)
    bound = lower_bound(puzzle)
    assert not bound.exact
    strategy = choose_strategy(puzzle, AUTO, bound)
    assert strategy.name == "halves" and strategy.patterns
    assert strategy.program_names == ("incremental.lp", "mirror.lp")
    assert [p.name for p in strategy.load("full")] == ["incremental.lp"]
    assert [p.name for p in strategy.load("mirror-half")] == ["incremental.lp", "mirror.lp"]
    exact = choose_strategy(puzzle, AUTO, None)
    assert exact.name == "exact" and exact.program_names == ("incremental.lp",)
    assert choose_strategy(puzzle, SolveOptions(mirror=False), bound).name == "upward"
    assert choose_strategy(puzzle, SolveOptions(bound="misplaced"), bound).name == "upward"


@pytest.mark.parametrize(
    ("puzzle", "options"),
    [
        (tower(3, 4), AUTO),
        (tower(4, 5), AUTO),
        (tower(4, 5), SolveOptions(patterns=False)),
        (PARTIAL, AUTO),
        (tower(3, 3), SolveOptions(mode="oneshot")),
    ],
)
def test_the_programs_reported_are_the_programs_each_solver_loads(
    monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, options: SolveOptions
) -> None:
    """Every text clingo is given in a whole solve (clingo searching: no plan built
    first) is the instance's facts followed by the programs of one phase of the
    strategy (:meth:`Strategy.load`), in order; nothing else; and the solver
    :func:`make_solver` builds loads the full horizons' programs, and nothing else."""
    given: dict[int, list[str]] = {}
    add = ClingoCalls.add

    def recorded(
        self: ClingoCalls, ctl: clingo.Control, name: str, params: list[str], text: str
    ) -> None:
        given.setdefault(id(ctl), []).append(text)
        add(self, ctl, name, params, text)

    monkeypatch.setattr(ClingoCalls, "add", recorded)
    strategy = choose_strategy(puzzle, options, lower_bound(puzzle, options.bound))
    by_phase = {phase: [p.text for p in strategy.load(phase)] for phase in ("full", "mirror-half")}
    assert {p.name for phase in ("full", "mirror-half") for p in strategy.load(phase)} == set(
        strategy.program_names
    )
    make_solver(puzzle, strategy, minimal=True).run(0, None)  # one-shot: loads as it runs
    (loaded,) = given.values()
    assert loaded[0].startswith(instance_facts(puzzle)) and loaded[1:] == by_phase["full"]
    given.clear()
    result = solve(puzzle, dataclasses.replace(options, first_plan=False))
    assert result.programs == strategy.program_names and given
    for texts in given.values():
        assert texts[1:] in by_phase.values(), [t[:40] for t in texts]


def test_threads_as_documented(monkeypatch: pytest.MonkeyPatch) -> None:
    """As asked; else one (PATTERN_THREADS with the propagator, DEFAULT_THREADS without),
    whatever the machine's cores: a run repeats only with one.  A batch's workers share
    the cores: each gets the engine's own choice (clingo and the racing A*) where its
    share holds ENGINE_CORES, else that share."""
    assert policy.DEFAULT_THREADS == policy.PATTERN_THREADS == 1
    for cores in (1, 8):
        monkeypatch.setattr("hanoi_asp.engine.policy.os.cpu_count", lambda cores=cores: cores)
        assert policy.solver_threads(SolveOptions(threads=3), patterns=True) == 3
        assert policy.solver_threads(SolveOptions(mode="oneshot")) == 1
        assert policy.solver_threads(AUTO, patterns=True) == policy.PATTERN_THREADS
        assert policy.solver_threads(AUTO) == policy.DEFAULT_THREADS
    assert policy.batch_threads(4, threads=3) == 3
    assert policy.batch_threads(8 // policy.ENGINE_CORES) is None  # the engine's choice
    assert policy.batch_threads(8 // policy.ENGINE_CORES + 1) == 1
    assert policy.batch_threads(16) == 1  # never below one


def test_a_users_encoding_gets_no_plan_made_without_it() -> None:
    """The plan built before the search stands in for clingo's only with the engine's
    own encodings: a user's encoding must find its plan itself."""
    assert policy.uses_first_plan(AUTO)
    assert not policy.uses_first_plan(SolveOptions(first_plan=False))
    assert not policy.uses_first_plan(SolveOptions(encoding=Encoding.shipped("quickstart")))


def test_programs_record_what_the_engine_loaded() -> None:
    assert solve(tower(3, 4)).programs == ("incremental.lp", "distance3.lp")
    # 4 pegs: the pattern propagator, and time-ordered moves as the bound is exact
    assert solve(tower(4, 5)).programs == ("incremental.lp", "patterns.lp", "mirror.lp")
    no_mirror = solve(tower(4, 5), SolveOptions(mirror=False)).programs
    assert no_mirror == ("incremental.lp", "patterns.lp")
    assert solve(tower(4, 5), SolveOptions(patterns=False)).programs == (
        "incremental.lp",
        "mirror.lp",
    )
    assert solve(tower(3, 3), SolveOptions(mode="oneshot")).programs == ("quickstart.lp",)
    assert solve(tower(3, 3), SolveOptions(method="bfs")).programs == ()
    for puzzle in (tower(3, 4), tower(4, 5)):
        explanation = explain(puzzle, SolveOptions())
        programs = explanation.result.programs
        assert (explanation.encoding_name, *explanation.extras) == programs


def test_threads_default_and_override(run_cli: RunCli) -> None:
    path = str(INSTANCES / "aspcomp" / "0022-hanoi_tower-60-0.asp")
    code, out, _ = run_cli("solve", path, "--json")
    assert code == 0
    assert json.loads(out)["threads"] == policy.PATTERN_THREADS  # 4 pegs: the propagator
    code, out, _ = run_cli("solve", path, "--json", "--threads", "2")
    data = json.loads(out)
    assert code == 0 and data["threads"] == 2 and data["length"] == 23
    code, out, _ = run_cli("solve", str(INSTANCES / "quickstart.lp"), "--json")
    assert json.loads(out)["threads"] == policy.solver_threads(SolveOptions())
    code, out, _ = run_cli("explain", str(INSTANCES / "quickstart.lp"), "--json")
    assert json.loads(out)["result"]["threads"] == 1  # teaching: the same statistics each run
