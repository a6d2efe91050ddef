"""The entry point (``hanoi_asp/__main__.py``): ``python -m hanoi_asp``, and every error
through one funnel to its exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest
from support.cli import RunCli
from support.files import QUICKSTART

import hanoi_asp
from hanoi_asp import (
    InputError,
)
from hanoi_asp.cli import solve_command


def test_python_dash_m_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hanoi_asp", "solve", QUICKSTART, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["length"] == 15


def _raising(error: BaseException) -> Callable[[object], int]:
    def handler(_args: object) -> int:
        raise error

    return handler


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (KeyboardInterrupt(), 3, "hanoi-asp: error: interrupted"),
        (InputError("bad thing", path="x.lp", line=3), 2, "hanoi-asp: error: x.lp:3: bad thing"),
        (hanoi_asp.InternalError("step 2: oops"), 4, "hanoi-asp: internal error: step 2"),
        (hanoi_asp.VerificationError("step 2: oops"), 2, "hanoi-asp: error: step 2"),
        (
            hanoi_asp.LimitError("too big", limit="cells", needed=9),
            2,
            "hanoi-asp: error: too big (raise it with --limit cells=9)",
        ),
        (PermissionError(13, "Permission denied", "out.svg"), 2, "out.svg: Permission denied"),
        (BrokenPipeError(), 0, ""),
    ],
)
def test_every_error_reaches_one_funnel(
    run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, error: BaseException, code: int, words: str
) -> None:
    monkeypatch.setattr(solve_command, "run", _raising(error))
    got, out, err = run_cli("solve", QUICKSTART, "--json")
    assert got == code
    assert words in err and len(err.strip().splitlines()) == (1 if words else 0)
    if code not in (0,):
        assert json.loads(out)["exit_code"] == code


@pytest.mark.parametrize(
    ("argv", "instance", "words"),
    [
        (("solve", "--json", "--bogus", QUICKSTART), QUICKSTART, "unrecognized arguments"),
        (("solve", QUICKSTART, "--moves", "x", "--json"), QUICKSTART, "--moves: not an integer"),
        (("solve", "--json"), "", "required: file"),
    ],
)
def test_a_usage_error_under_json_is_a_json_object(
    run_cli: RunCli, argv: tuple[str, ...], instance: str, words: str
) -> None:
    """A script that asked for JSON gets JSON, whatever it got wrong; stderr's line is
    the parser's as without ``--json``."""
    code, out, err = run_cli(*argv)
    data = json.loads(out)
    assert code == 2 and data["result"] == "ERROR" and data["exit_code"] == 2
    assert data["instance"] == instance and words in data["error"]
    assert err.startswith("hanoi-asp") and err.count("\n") == 1 and words in err
    _, plain_out, plain_err = run_cli(*(a for a in argv if a != "--json"))
    assert plain_out == "" and "error:" in plain_err


SWALLOWED_CTRL_C = """
import signal, sys, time
from hanoi_asp import __main__ as entry
signal.signal(signal.SIGINT, entry._SigintSeen())
sys.unraisablehook = entry._unraisable

class Freed:
    def __del__(self):
        raise KeyboardInterrupt  # as a Ctrl-C landing in a destructor does

Freed()
try:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        pass
    print("swallowed")
except KeyboardInterrupt:
    print("delivered")
"""


def test_a_ctrl_c_swallowed_by_a_destructor_reaches_the_command() -> None:
    """A Ctrl-C in a destructor is delivered again to the main code: it was raised
    inside the unraisable hook, where Python ignores it too, and a ``solve`` without a
    time limit went on searching (CI: Ctrl-C 3 s into a hard solve, no exit in 30 s)."""
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED_CTRL_C], capture_output=True, text=True, timeout=120
    )
    assert (done.stdout.strip(), done.stderr) == ("delivered", "")
