"""hanoi-asp report (issue 30 item 3): figures checked by hand on a hand-made file, PAR-2,
DISAGREE and the exit codes, bad input, CSV, a self-contained HTML page, the plots."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import ROOT

from hanoi_asp.batch.plots import cactus_plot, scatter_pairs, scatter_plot
from hanoi_asp.batch.report import ALL, build_report
from hanoi_asp.batch.report_output import CSV_COLUMNS

# config "a": 2 small proven, 1 big with a plan at the timeout, 1 big killed, 1 big
# proven unsatisfiable, 1 big error; limit = the longest timed-out row = 10.2 s
ROWS_A: list[dict[str, object]] = [
    {"instance": "inst/small/p1.lp", "result": "OPTIMUM FOUND", "length": 7, "time_s": 0.5},
    {"instance": "inst/small/p2.lp", "result": "OPTIMUM FOUND", "length": 15, "time_s": 1.5},
    {
        "instance": "inst/big/q1.lp",
        "result": "SATISFIABLE",
        "length": 40,
        "time_s": 10.0,
        "stopped": "timeout",
        "status": "timeout",
    },
    {
        "instance": "inst/big/q2.lp",
        "result": "UNKNOWN",
        "length": None,
        "time_s": 10.2,
        "stopped": "killed",
        "status": "timeout",
    },
    {"instance": "inst/big/q3.lp", "result": "UNSATISFIABLE", "length": None, "time_s": 2.0},
    {"instance": "inst/big/q4.lp", "result": "ERROR", "length": None, "time_s": 0.1},
]


def write_rows(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def with_b(rows: list[dict[str, object]], **changes: object) -> list[dict[str, object]]:
    """The same rows as configuration "b" (its "config" key), p1 twice as fast."""
    out = []
    for row in rows:
        row = {**row, "config": "b"}
        if row["instance"] == "inst/small/p1.lp":
            row["time_s"] = 0.25
        if row["instance"] == "inst/small/p2.lp":
            row.update(changes)
        out.append(row)
    return out


@pytest.fixture
def two_agreeing(tmp_path: Path) -> list[str]:
    a = write_rows(tmp_path / "a.jsonl", ROWS_A)
    b = write_rows(tmp_path / "run2.jsonl", with_b(ROWS_A))
    return [str(a), str(b)]


def test_summary_figures_by_hand(two_agreeing: list[str]) -> None:
    report = build_report(two_agreeing)
    assert report.configs == ["a", "b"]  # a's from its file name, b's from its rows
    assert report.limits == {"a": 10.2, "b": 10.2}
    whole_a = report.groups[0]
    assert (whole_a.config, whole_a.family) == ("a", ALL)
    assert (whole_a.instances, whole_a.solved, whole_a.proven) == (6, 3, 3)
    assert (whole_a.timeouts, whole_a.errors) == (2, 1)
    assert whole_a.median_s == pytest.approx((1.5 + 2.0) / 2)  # of 0.1 0.5 1.5 2 10 10.2
    assert whole_a.total_s == pytest.approx(24.3)
    # proven in time: 0.5 + 1.5 + 2.0; the other three pay 2 x 10.2
    assert whole_a.par2_s == pytest.approx((4.0 + 3 * 20.4) / 6)
    big, small = report.groups[1], report.groups[2]
    assert (big.family, big.instances, big.proven, big.timeouts) == ("big", 4, 1, 2)
    assert big.par2_s == pytest.approx((2.0 + 3 * 20.4) / 4)
    assert small.family == "small" and small.par2_s == pytest.approx(1.0)
    assert report.groups[5].par2_s == pytest.approx((0.25 + 1.5) / 2)  # b: small
    assert report.disagreements == []


def test_par2_with_a_given_timeout_and_without_a_limit(tmp_path: Path) -> None:
    path = str(write_rows(tmp_path / "a.jsonl", ROWS_A))
    # under --timeout 1 only p1 (0.5 s) is proven in time
    assert build_report([path], timeout=1.0).groups[0].par2_s == pytest.approx((0.5 + 5 * 2.0) / 6)
    no_timeouts = [row for row in ROWS_A if "stopped" not in row]
    path = str(write_rows(tmp_path / "c.jsonl", no_timeouts))
    assert build_report([path]).groups[0].par2_s is None  # an error, and no limit known
    proven = [row for row in no_timeouts if row["result"] != "ERROR"]
    path = str(write_rows(tmp_path / "d.jsonl", proven))
    assert build_report([path]).groups[0].par2_s == pytest.approx(4.0 / 3)


def test_par2_with_errors_and_no_timeouts_uses_the_limit_the_rows_carry(tmp_path: Path) -> None:
    """A batch writes its --timeout in every row: report needs it given again no more,
    and a configuration whose only failure is an ERROR still gets its PAR-2."""
    no_timeouts = [{**row, "timeout": 30} for row in ROWS_A if "stopped" not in row]
    path = str(write_rows(tmp_path / "c.jsonl", no_timeouts))
    report = build_report([path])
    assert report.limits == {"c": 30.0}
    assert report.groups[0].par2_s == pytest.approx((0.5 + 1.5 + 2.0 + 2 * 30) / 4)
    assert build_report([path], timeout=1.0).limits == {"c": 1.0}  # --timeout wins


def test_a_torn_last_line_is_left_out_as_resume_does(run_cli: RunCli, tmp_path: Path) -> None:
    """A batch killed while writing its last row leaves a line without its end: report
    reads the rows before it (a bad line anywhere else is still an error)."""
    path = write_rows(tmp_path / "run2.jsonl", ROWS_A)
    with path.open("a") as handle:
        handle.write('{"instance": "inst/big/q5.lp", "result": "OPTIM')
    code, _, err = run_cli("report", str(path))
    assert code == 0, err
    assert build_report([str(path)]).groups[0].instances == len(ROWS_A)


def test_by_family_groups_families_then_configurations(two_agreeing: list[str]) -> None:
    report = build_report(two_agreeing, by="family")
    keys = [(g.family, g.config) for g in report.groups]
    assert keys == [
        ("big", ALL),
        ("big", "a"),
        ("big", "b"),
        ("small", ALL),
        ("small", "a"),
        ("small", "b"),
    ]
    assert report.groups[3].instances == 4  # small, both configurations


def test_agreement_exits_0_and_the_table_is_printed(
    run_cli: RunCli, two_agreeing: list[str]
) -> None:
    code, out, _ = run_cli("report", *two_agreeing)
    assert code == 0
    assert "DISAGREE" not in out
    assert "PAR-2" in out and "10.87" in out  # a's PAR-2, 2 decimals


def test_a_disagreement_exits_1_with_a_line_per_instance(run_cli: RunCli, tmp_path: Path) -> None:
    a = write_rows(tmp_path / "a.jsonl", ROWS_A)
    b = write_rows(tmp_path / "b.jsonl", with_b(ROWS_A, length=13))
    code, out, _ = run_cli("report", str(a), str(b))
    assert code == 1
    lines = [line for line in out.splitlines() if "DISAGREE" in line]
    assert lines == ["DISAGREE inst/small/p2.lp: optimum lengths differ (a: 15, b: 13)"]
    # a plan not proven minimal of another length is no disagreement
    c = write_rows(tmp_path / "c.jsonl", with_b(ROWS_A, length=13, result="SATISFIABLE"))
    assert run_cli("report", str(a), str(c))[0] == 0


def test_the_later_row_of_an_instance_counts(run_cli: RunCli, tmp_path: Path) -> None:
    retried = {**ROWS_A[1], "length": 13}  # the same configuration, run again
    path = write_rows(tmp_path / "a.jsonl", [*ROWS_A, retried])
    report = build_report([str(path)])
    assert report.groups[0].instances == 6
    assert run_cli("report", str(path))[0] == 0


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ('{"instance": "x.lp", "result": "UNKNOWN"}\n{"instance": x}\n', 2, "not a JSON line"),
        ('{"instance": "x.lp", "res\n{"instance": "y.lp"}\n', 1, "not a JSON line"),  # mid-file
        ("[1, 2]\n", 1, "not a result row"),
        ('{"instance": "x.lp"}\n', 1, "not a result row"),
    ],
)
def test_bad_input_exits_2_naming_file_and_line(
    run_cli: RunCli, tmp_path: Path, text: str, line: int, problem: str
) -> None:
    good = write_rows(tmp_path / "good.jsonl", ROWS_A)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text)
    code, _, err = run_cli("report", str(good), str(bad))
    assert code == 2
    assert err.startswith(f"hanoi-asp: error: {bad}:{line}: {problem}")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_missing_file_or_a_folder_exits_2(run_cli: RunCli, tmp_path: Path) -> None:
    for path in (tmp_path / "none.jsonl", tmp_path):
        code, _, err = run_cli("report", str(path))
        assert code == 2 and str(path) in err and len(err.splitlines()) == 1


def test_csv_has_the_summary_columns(
    run_cli: RunCli, two_agreeing: list[str], tmp_path: Path
) -> None:
    target = tmp_path / "s.csv"
    assert run_cli("report", *two_agreeing, "--csv", str(target))[0] == 0
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert CSV_COLUMNS == (
        "config",
        "family",
        "instances",
        "solved",
        "proven",
        "timeouts",
        "errors",
        "median_s",
        "total_s",
        "par2_s",
        "limit_s",
    )
    assert [(r["config"], r["family"]) for r in rows] == [
        ("a", ALL),
        ("a", "big"),
        ("a", "small"),
        ("b", ALL),
        ("b", "big"),
        ("b", "small"),
    ]
    assert float(rows[0]["par2_s"]) == pytest.approx((4.0 + 3 * 20.4) / 6)
    assert rows[0]["timeouts"] == "2"


def test_html_is_self_contained_with_both_plots(
    run_cli: RunCli, two_agreeing: list[str], tmp_path: Path
) -> None:
    page = tmp_path / "r.html"
    assert run_cli("report", *two_agreeing, "--html", str(page))[0] == 0
    text = page.read_text()
    assert not re.search(r"https?://", text)  # no request, not even a namespace
    assert not re.search(r"""(src|href)=["'](?!#|data:)""", text)  # only in-page references
    assert text.count("<svg") == 2  # cactus and scatter (two configurations)
    assert "<table>" in text and "10.87" in text


def test_html_without_matplotlib_keeps_the_table(
    run_cli: RunCli, two_agreeing: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    page = tmp_path / "r.html"
    code, _, err = run_cli("report", *two_agreeing, "--html", str(page))
    assert code == 0
    text = page.read_text()
    assert "<svg" not in text and "<table>" in text
    assert "pip install 'hanoi-asp[report]'" in text.replace("&#x27;", "'")
    assert "hanoi-asp[report]" in err


def test_one_configuration_has_no_scatter(run_cli: RunCli, tmp_path: Path) -> None:
    path = write_rows(tmp_path / "a.jsonl", ROWS_A)
    page, plots = tmp_path / "r.html", tmp_path / "plots"
    assert run_cli("report", str(path), "--html", str(page), "--plots", str(plots))[0] == 0
    assert page.read_text().count("<svg") == 1
    assert sorted(p.name for p in plots.iterdir()) == ["cactus.png", "cactus.svg"]


def test_the_plots_are_drawn(two_agreeing: list[str], tmp_path: Path) -> None:
    from matplotlib.image import imread

    report = build_report(two_agreeing)
    first, second, points = scatter_pairs(report)
    assert (first, second) == ("a", "b")
    # p1, p2 and q3 proven by both; q1, q2 at the limit (10.2) on both axes, and q4, an
    # ERROR on both, drawn there as an error, not as a timeout
    assert sorted(points) == [
        (0.5, 0.25, "proven"),
        (1.5, 1.5, "proven"),
        (2.0, 2.0, "proven"),
        (10.2, 10.2, "error"),
        (10.2, 10.2, "limit"),
        (10.2, 10.2, "limit"),
    ]
    for name, plot in (("cactus", cactus_plot), ("scatter", scatter_plot)):
        data = plot(report, "png")
        assert isinstance(data, bytes) and data.startswith(b"\x89PNG")
        (tmp_path / f"{name}.png").write_bytes(data)
        pixels = imread(tmp_path / f"{name}.png")
        assert pixels.shape[:2] == (480, 640)
        assert len({tuple(p) for p in pixels.reshape(-1, pixels.shape[2])[::7]}) > 20
        red = (abs(pixels[..., 0] - 0xD6 / 255) < 0.05) & (pixels[..., 1] < 0.3)
        assert red.any() == (name == "scatter")  # the crosses at the limit are red


def test_report_reads_what_batch_writes(run_cli: RunCli, tmp_path: Path) -> None:
    """Rows of a real batch (a 3-disk tower and an impossible bound) report as expected."""
    folder = tmp_path / "in" / "towers"
    folder.mkdir(parents=True)
    (folder / "t3.lp").write_text((ROOT / "instances" / "quickstart.lp").read_text())
    out = tmp_path / "r.jsonl"
    batch = ("batch", str(folder), "--out", str(out), "--workers", "1", "--timeout", "60")
    assert run_cli(*batch)[0] == 0
    assert json.loads(out.read_text().splitlines()[0])["timeout"] == 60
    code, text, _ = run_cli("report", str(out), "--by", "family")
    assert code == 0
    report = build_report([str(out)])
    assert [(g.config, g.family, g.instances, g.proven) for g in report.groups] == [
        ("r", ALL, 1, 1)
    ]
    assert report.limits == {"r": 60.0}
    assert "towers" in text


def test_a_memory_out_is_no_time_limit(tmp_path: Path) -> None:
    memory_out = {
        "instance": "inst/big/m.lp",
        "result": "UNKNOWN",
        "time_s": 30.0,  # longer than the time limit: it must not become the limit
        "stopped": "memory",
        "status": "memory",
    }
    path = str(write_rows(tmp_path / "a.jsonl", [*ROWS_A, memory_out]))
    report = build_report([path])
    assert report.limits == {"a": 10.2}
    assert report.groups[0].timeouts == 3  # UNKNOWN all the same
    assert report.groups[0].par2_s == pytest.approx((4.0 + 4 * 20.4) / 7)


def test_an_empty_results_file_is_an_empty_report(run_cli: RunCli, tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    page = tmp_path / "r.html"
    code, out, err = run_cli("report", str(empty), "--html", str(page))
    assert (code, err) == (0, "")
    assert "0 instance(s)" in out and page.read_text().count("<svg") == 1
