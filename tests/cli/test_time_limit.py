"""``--timeout`` counts from the command's start: Python's start-up and the reading of
the files are part of the user's wait, so the limit's origin is the process's start."""

from __future__ import annotations

import time

from hanoi_asp.cli.solve_options import command_started
from hanoi_asp.model.options import SolveOptions


def test_the_time_left_counts_from_the_origin_given() -> None:
    assert SolveOptions().time_left(100.0) is None
    assert SolveOptions(timeout=5).time_left(100.0) == 5  # no origin: the whole limit
    options = SolveOptions(timeout=5, started=98.0)
    assert options.time_left(100.0) == 3.0
    assert options.time_left(200.0) == 0.0  # past it: nothing left, never negative


def test_the_command_started_before_now_and_not_long_ago() -> None:
    """In a fresh process the origin is the process's start: before the call, and a
    start-up's length ago (not the call's own time, nor the boot)."""
    import subprocess
    import sys

    code = (
        "import time; from hanoi_asp.cli.solve_options import command_started; "
        "s = command_started(); print(time.monotonic() - s)"
    )
    age = float(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    )
    if sys.platform.startswith("linux"):
        assert 0.01 < age < 30  # importing the package takes a while; the process is new
    else:
        assert 0.0 <= age < 30


def test_the_origin_is_never_later_than_a_reading_after_it() -> None:
    """A process older than a minute (a server, this test run) is not a command's start:
    the origin is the call's own time, never later than a reading taken after it."""
    started = command_started()
    assert started <= time.monotonic()


def test_a_search_whose_origin_is_past_its_limit_stops_at_once() -> None:
    from hanoi_asp.engine import solve
    from hanoi_asp.model.puzzle import Puzzle

    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"), disks=6, init={"a": (1, 2, 3, 4, 5, 6)}, goal={"d": (1,)}
    )
    options = SolveOptions(timeout=1, started=time.monotonic() - 5, first_plan=False)
    result = solve(puzzle, options)
    assert result.result == "UNKNOWN" and result.stopped == "timeout"
