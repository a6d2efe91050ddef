"""The result (``hanoi_asp/model/result.py``): keyword-only, and its ``to_dict`` is the
command line's JSON."""

from __future__ import annotations

import json

import pytest
from support.cli import RunCli
from support.files import QUICKSTART
from support.puzzles import tower

from hanoi_asp import (
    Result,
    SolveOptions,
    load_puzzle,
    solve,
)


def test_result_is_keyword_only_and_to_dict_is_the_cli_json(run_cli: RunCli) -> None:
    with pytest.raises(TypeError):
        Result(tower(3, 1), "UNKNOWN")  # type: ignore[call-arg]
    result = solve(load_puzzle(QUICKSTART), SolveOptions(source=QUICKSTART, threads=1))
    code, out, _ = run_cli("solve", QUICKSTART, "--json", "--threads", "1")
    assert code == 0 == result.exit_code
    printed, ours = json.loads(out), result.to_dict()
    printed.pop("time_s"), ours.pop("time_s")
    # seconds per phase differ by run; the command line adds the file's reading
    assert set(printed.pop("timings")) == {"reading", *ours.pop("timings")}
    printed["first_plan"].pop("time_s"), ours["first_plan"].pop("time_s")
    for run in printed["horizons"] + ours["horizons"]:
        run.pop("time_s")
    assert printed == ours
