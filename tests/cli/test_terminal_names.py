"""Names from outside (instance files, pegs, folders) reach the terminal shown, not
obeyed: a name holding ``ESC [2J`` (clear the screen) is printed as ``\\x1b[2J`` by
every command that writes text for people, and the one-line error stays one line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.text import Text
from support.cli import RunCli
from support.files import ROOT

from hanoi_asp.cli.console import _safe_console_class

CLEAR = "\x1b[2J"
SHOWN = "\\x1b[2J"


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A 2-disk instance whose file name and start peg hold the escape."""
    peg = f'"a{CLEAR}b"'
    path = tmp_path / f"i{CLEAR}n.lp"
    path.write_text(f"peg({peg};b;c).\ndisk(1..2).\ninit_on(1..2,{peg}).\ngoal_on(1..2,c).\n")
    return path


def _shown(out: str, *names: str) -> None:
    assert "\x1b" not in out, out
    for name in names:
        assert name in out, out


@pytest.mark.parametrize(
    "argv",
    [["solve"], ["solve", "--boards"], ["solve", "--moves", "3"], ["explain"]],
    ids=["solve", "boards", "moves", "explain"],
)
def test_views_show_the_escape(run_cli: RunCli, hostile: Path, argv: list[str]) -> None:
    code, out, err = run_cli(*argv, str(hostile))
    assert code == 0, err
    _shown(out + err, f"i{SHOWN}n.lp", f"a{SHOWN}b")


def test_grade_shows_the_escape(run_cli: RunCli, hostile: Path) -> None:
    encoding = ROOT / "encodings" / "exercises" / "no-goal-test.lp"
    code, out, err = run_cli("grade", "--encoding", str(encoding), str(hostile))
    assert code != 2, err
    _shown(out + err, f"i{SHOWN}n.lp")


def test_export_and_generate_show_the_escape(
    run_cli: RunCli, hostile: Path, tmp_path: Path
) -> None:
    code, out, err = run_cli("export", str(hostile), "--pddl", str(tmp_path / f"p{CLEAR}"))
    assert code == 0, err
    _shown(out + err, f"p{SHOWN}", f"i{SHOWN}n.pddl")
    generate = ("generate", "--pegs", "3", "--disks", "2", "--count", "1")
    code, out, err = run_cli(*generate, str(tmp_path / f"g{CLEAR}"))
    assert code == 0, err
    _shown(out + err, f"g{SHOWN}")


def test_batch_lines_show_the_escape(run_cli: RunCli, hostile: Path, tmp_path: Path) -> None:
    code, out, err = run_cli("batch", str(hostile), "--out", str(tmp_path / "r.jsonl"))
    assert code == 0, err
    _shown(out + err, f"i{SHOWN}n.lp")


def test_an_error_stays_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / f"x{CLEAR}\ny.lp"
    path.write_text(f'peg(a;b).\ndisk(1).\ninit_on(1,"z{CLEAR}").\n')
    code, out, err = run_cli("solve", str(path))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1, err
    _shown(err, f"x{SHOWN}\\x0ay.lp:3:", f'unknown peg "z{SHOWN}"')


def test_the_console_keeps_its_own_styles() -> None:
    # as at a terminal, where rich writes its own escapes for styles
    out = _safe_console_class()(file=io.StringIO(), force_terminal=True, color_system="standard")
    out.print(Text(f"peg a{CLEAR}b", style="bold"))
    written = out.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[1m" in written  # the style, rich's
    assert f"a{SHOWN}b" in written and CLEAR not in written  # the name's, shown
