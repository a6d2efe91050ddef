"""What hanoi-asp writes, fed hostile names and lines (issue 45, items 5 and 6): results
lines nested 100,000 deep, configuration and file names a spreadsheet would run, a
terminal would obey or XML forbids."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.cli import RunCli
from support.files import INSTANCES

from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.outputs.pictures import no_plan_svg, plan_svg
from hanoi_asp.outputs.safe_text import spreadsheet_cell, xml_text

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_IN_A_ROW = '{"instance": "x.lp", "result": "UNKNOWN", "x": ' + "[" * 500 + "]" * 500 + "}"
"""Within json's own limit, past a row's: written again by --resume, it would recurse."""
SMALL = (INSTANCES / "classic" / "3pegs-3disks.lp").read_text()
ROW = {"instance": "in/a.lp", "result": "OPTIMUM FOUND", "length": 7, "time_s": 0.5}


@pytest.mark.parametrize("line", [DEEP, DEEP_IN_A_ROW], ids=["100,000 deep", "500 deep"])
def test_report_names_a_too_deep_line(run_cli: RunCli, tmp_path: Path, line: str) -> None:
    """A RecursionError traceback and exit 1 before; now as any bad line: exit 2 and
    ``file:line``."""
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(ROW) + "\n" + line + "\n")
    code, out, err = run_cli("report", str(path))
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert (
        err == f"hanoi-asp: error: {path}:2: not a result row (nested more than 64 levels deep)\n"
    )


@pytest.mark.parametrize("line", [DEEP, DEEP_IN_A_ROW], ids=["100,000 deep", "500 deep"])
def test_resume_drops_a_too_deep_line(run_cli: RunCli, tmp_path: Path, line: str) -> None:
    """``batch --resume`` drops it as any corrupt line, says so with its number, and
    runs its instance again."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text(SMALL)
    out = tmp_path / "r.jsonl"
    assert run_cli("batch", str(folder), "--out", str(out))[0] == 0
    out.write_text(out.read_text() + line + "\n")
    code, _, err = run_cli("batch", str(folder), "--out", str(out), "--resume")
    assert code == 0 and "Traceback" not in err, err
    assert f"{out}: line 2: nested more than 64 levels deep: dropped" in err
    rows = [json.loads(text) for text in out.read_text().splitlines()]
    assert [row["result"] for row in rows] == ["OPTIMUM FOUND"]


FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(1+1)", "+cmd|' /C calc'!A0", "-2+3", "\tx", "\rx"]


def test_report_csv_neutralises_formulas(run_cli: RunCli, tmp_path: Path) -> None:
    """OWASP's rule for CSV injection: a text cell that starts with =, +, -, @, tab or
    CR gets a single quote before it; numbers are numbers."""
    path = tmp_path / "r.jsonl"
    rows = [{**ROW, "instance": "=fam/a.lp", "config": name} for name in [*FORMULAS, "plain"]]
    rows.append({**ROW, "instance": "other/b.lp", "config": "plain"})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    target = tmp_path / "s.csv"
    code, _, err = run_cli("report", str(path), "--csv", str(target))
    assert code == 0, err
    with target.open(newline="") as handle:
        cells = list(csv.DictReader(handle))
    assert [c["config"] for c in cells if c["family"] == "(all)"] == [
        *(f"'{name}" for name in FORMULAS),
        "plain",
    ]
    assert [c["family"] for c in cells if c["config"] == "plain"] == ["(all)", "'=fam", "other"]
    assert {c["median_s"] for c in cells} == {"0.5"}  # numbers stay numbers


def test_batch_csv_neutralises_formulas(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``batch --csv``'s instance column too: a file named ``=cmd.lp``."""
    monkeypatch.chdir(tmp_path)
    Path("=cmd.lp").write_text(SMALL)
    Path("@x.lp").write_text(SMALL)
    code, _, err = run_cli("batch", "=cmd.lp", "@x.lp", "--out", "r.jsonl", "--csv", "r.csv")
    assert code == 0, err
    with Path("r.csv").open(newline="") as handle:
        cells = list(csv.DictReader(handle))
    assert sorted(c["instance"] for c in cells) == ["'=cmd.lp", "'@x.lp"]
    assert {c["length"] for c in cells} == {"7"}


def test_names_are_shown_not_obeyed(run_cli: RunCli, tmp_path: Path) -> None:
    """A terminal's escape in a configuration's name is shown escaped in the table and
    the DISAGREE line; a ``$`` no longer makes matplotlib read TeX (a traceback, exit 1)
    and a control character no longer a missing-glyph warning (an error under pytest)."""
    path = tmp_path / "r.jsonl"
    rows = [
        {**ROW, "config": "red\x1b[31m", "length": 7},
        {**ROW, "config": "a$\\foo{$\x01", "length": 9},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    page = tmp_path / "r.html"
    code, out, err = run_cli("report", str(path), "--html", str(page), "--plots", str(tmp_path))
    assert code == 1 and "Traceback" not in err, err  # 1: the two disagree
    assert "\x1b" not in out and "red\\x1b[31m" in out and "DISAGREE" in out
    text = page.read_text()
    assert "\x1b" not in text and "\x01" not in text and "red\\x1b[31m" in text
    for svg in tmp_path.glob("*.svg"):
        ElementTree.parse(svg)


PEG_NAMES = st.text(st.characters(codec="utf-8"), min_size=1, max_size=6)
"""What a spec may name a peg (pydantic refuses lone surrogates)."""


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PEG_NAMES, min_size=2, max_size=3, unique=True), st.text(max_size=20))
@example(["a\x01", "b\x1b\ufffe"], "no plan:\x0c\uffff")
def test_svg_is_always_well_formed(pegs: list[str], detail: str) -> None:
    """Peg names with control characters made ``render --svg`` write malformed XML."""
    puzzle = Puzzle(pegs=tuple(pegs), disks=1, init={pegs[0]: (1,)}, goal={pegs[1]: (1,)})
    for svg in (plan_svg(puzzle, []), no_plan_svg(puzzle, "UNSATISFIABLE", detail)):
        ElementTree.fromstring(svg.encode("utf-8"))


@given(st.text())
def test_a_spreadsheet_cell_never_starts_a_formula(text: str) -> None:
    cell = spreadsheet_cell(text)
    assert isinstance(cell, str) and not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert cell in (text, "'" + text)
    assert spreadsheet_cell(-1.5) == -1.5 and spreadsheet_cell(3) == 3


@given(st.text(st.characters(codec=None, categories=None)))
def test_xml_text_is_well_formed_and_keeps_the_rest(text: str) -> None:
    element = ElementTree.fromstring(
        f"<a>{xml_text(text).replace('&', '&amp;').replace('<', '&lt;')}</a>".encode()
    )
    assert element.text in (None, xml_text(text).replace("\r\n", "\n").replace("\r", "\n"))
