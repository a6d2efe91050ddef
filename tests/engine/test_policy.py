"""The policy (``hanoi_asp/engine/policy.py``): which strategy, programs and threads a
puzzle gets."""

from __future__ import annotations

import json

from support.cli import RunCli
from support.files import INSTANCES
from support.puzzles import tower

import hanoi_asp.engine.policy as policy
from hanoi_asp import (
    SolveOptions,
    solve,
)
from hanoi_asp.teaching.explain import explain


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
