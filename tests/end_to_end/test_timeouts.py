"""A solve with a time limit, as a user runs it (a fresh process): it ends on time with a
verified plan on the hard instances."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from support.files import INSTANCES, ROOT

from hanoi_asp import load_puzzle, replay

HARD = INSTANCES / "hard"


@pytest.mark.parametrize("name", ["5pegs-14disks", "4pegs-20disks-arbitrary"])
def test_a_timeout_ends_on_time_with_a_verified_plan(name: str) -> None:
    path = HARD / f"{name}.lp"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "hanoi_asp", "solve", str(path), "--json", "--timeout", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
    )
    wall = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["result"] == "SATISFIABLE" and data["stopped"] == "timeout"
    assert not data["proven_minimal"]
    assert data["lower_bound"] <= data["length"] == data["upper_bound"]
    assert data["gap"] == data["upper_bound"] - data["lower_bound"]
    puzzle = load_puzzle(str(path))
    replay(puzzle, [(m["disk"], m["to"]) for m in data["plan"]])
    # the limit plus start-up (about 0.3 s of imports): within 1 s of the limit, with slack
    # for a loaded test machine (benchmarks/ measure it on a quiet one)
    assert wall < 2 + 2.5, wall
