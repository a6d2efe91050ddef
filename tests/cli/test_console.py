"""solve's text without rich where rich would write it as is: the same characters, and
rich left unimported."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.files import QUICKSTART, ROOT

from hanoi_asp import Puzzle, solve
from hanoi_asp.cli import console as console_module
from hanoi_asp.cli.console import RICH_TERMINAL_SETTINGS, print_lines
from hanoi_asp.model.result import Result
from hanoi_asp.outputs.text import result_lines, styled_view

PUZZLE = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
RESULT: Result = solve(PUZZLE)


def _rich_text(lines: list[tuple[str, str]]) -> str:
    """What rich writes for these lines where there is no terminal (the command line's
    console settings)."""
    out = io.StringIO()
    console_module.console().__class__(
        file=out, highlight=False, soft_wrap=True, _environ={}
    ).print(styled_view(lines))
    return out.getvalue()


@settings(max_examples=200, deadline=None)
@given(instance=st.text(), boards=st.booleans())
def test_plain_text_is_what_rich_writes(instance: str, boards: bool) -> None:
    lines = result_lines(RESULT, instance, boards=boards)
    plain = io.StringIO()
    environ = {k: v for k, v in os.environ.items() if k not in RICH_TERMINAL_SETTINGS}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdout", plain)
        patch.setattr(os, "environ", environ)
        print_lines(lines)
    assert plain.getvalue() == _rich_text(lines)


def _imported(*argv: str, env: dict[str, str] | None = None) -> set[str]:
    """The top-level packages a whole ``hanoi-asp`` process imports (its output piped)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hanoi_asp", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = (line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if "|" in line)
    return {name.split(".")[0] for name in names}


def test_a_piped_solve_imports_no_rich_and_help_no_solver() -> None:
    environ = {k: v for k, v in os.environ.items() if k not in RICH_TERMINAL_SETTINGS}
    solved = _imported("solve", QUICKSTART, env=environ)
    assert "clingo" in solved and "rich" not in solved and "numpy" not in solved
    assert "rich" in _imported("solve", QUICKSTART, env={**environ, "FORCE_COLOR": "1"})
    assert not {"rich", "pydantic", "numpy", "clingo"} & _imported("--help", env=environ)
