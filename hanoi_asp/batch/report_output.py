"""``hanoi-asp report`` for people and programs: a rich table, CSV, one HTML page.

The HTML page is self-contained: its style is inline and its plots are SVG text inside
the page (matplotlib's SVG with the XML prologue, namespaces and metadata taken off,
which an inline ``<svg>`` in HTML does not need), so it opens offline and from a mail
attachment, and makes no request.
"""

from __future__ import annotations

import csv
import html
import re
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING

from hanoi_asp.batch.plots import INSTALL_HINT, Drawings, Format, have_matplotlib
from hanoi_asp.batch.report import GroupSummary, Report
from hanoi_asp.outputs.safe_text import spreadsheet_cell, visible_text, xml_text

if TYPE_CHECKING:
    from rich.table import Table

CSV_COLUMNS = tuple(f.name for f in fields(GroupSummary))

HEADINGS = {
    "config": "config",
    "family": "family",
    "instances": "inst.",
    "solved": "solved",
    "proven": "proven",
    "timeouts": "timeout",
    "errors": "errors",
    "median_s": "median s",
    "total_s": "total s",
    "par2_s": "PAR-2 s",
    "limit_s": "limit s",
}


def _cells(group: GroupSummary) -> list[str]:
    def seconds(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    return [
        visible_text(group.config),  # a terminal's escape in a name shows, does not act
        visible_text(group.family),
        str(group.instances),
        str(group.solved),
        str(group.proven),
        str(group.timeouts),
        str(group.errors),
        seconds(group.median_s),
        seconds(group.total_s),
        seconds(group.par2_s),
        seconds(group.limit_s),
    ]


def _columns(report: Report) -> list[str]:
    """The table's columns, the grouping one first."""
    names = list(HEADINGS)
    if report.by == "family":
        names[0], names[1] = names[1], names[0]
    return names


def _ordered(report: Report, group: GroupSummary) -> list[str]:
    cells = dict(zip(HEADINGS, _cells(group), strict=True))
    return [cells[name] for name in _columns(report)]


def summary_table(report: Report) -> Table:
    """The summary as a rich table; a group's total row is bold, its parts follow it."""
    from rich.table import Table

    instances = len({o.instance for o in report.outcomes})
    table = Table(title=f"{instances} instance(s), {len(report.configs)} configuration(s)")
    for name in _columns(report):
        numeric = name not in ("config", "family")
        table.add_column(HEADINGS[name], justify="right" if numeric else "left")
    for group in report.groups:
        whole = (group.family if report.by == "config" else group.config) == "(all)"
        table.add_row(*_ordered(report, group), style="bold" if whole else None)
    return table


def write_csv(report: Report, path: Path) -> None:
    """The summary, one row per group, columns :data:`CSV_COLUMNS` (seconds as numbers,
    empty where there is none; a name that would start a formula is quoted)."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for group in report.groups:
            cells = asdict(group).items()
            writer.writerow({k: "" if v is None else spreadsheet_cell(v) for k, v in cells})


def inline_svg(svg: str) -> str:
    """matplotlib's SVG file as an ``<svg>`` element for an HTML page."""
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    return re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", svg, count=2)


def html_page(report: Report, drawings: Drawings | None = None) -> str:
    """One self-contained page: the disagreements, the table, the plots (``drawings``,
    when the caller saves them elsewhere too); no character XML forbids (the plots are
    inline SVG)."""
    head = "".join(f"<th>{html.escape(HEADINGS[n])}</th>" for n in _columns(report))
    rows = []
    for group in report.groups:
        whole = (group.family if report.by == "config" else group.config) == "(all)"
        cells = "".join(f"<td>{html.escape(cell)}</td>" for cell in _ordered(report, group))
        rows.append(f'<tr class="{"whole" if whole else "part"}">{cells}</tr>')
    alarms = "".join(
        f'<p class="disagree">{html.escape(item.line())}</p>' for item in report.disagreements
    )
    if have_matplotlib():
        drawings = drawings or Drawings(report)
        figures = "\n".join(
            f"<figure>{inline_svg(str(drawings.get(name, 'svg')))}</figure>"
            for name in drawings.names
        )
    else:
        figures = f'<p class="note">No plots: {html.escape(INSTALL_HINT)}</p>'
    return xml_text(f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>hanoi-asp report</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }}
th:nth-child(-n+2), td:nth-child(-n+2) {{ text-align: left; }}
tr.whole {{ font-weight: bold; background: #f4f4f4; }}
.disagree {{ color: #b00; font-weight: bold; }}
figure svg {{ max-width: 100%; height: auto; }}
</style>
</head>
<body>
<h1>hanoi-asp report</h1>
{alarms}
<table>
<thead><tr>{head}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody>
</table>
<p>solved: a plan found; proven: OPTIMUM FOUND or UNSATISFIABLE; PAR-2: mean of the time of
each instance proven within the limit, twice the limit for every other one.</p>
{figures}
</body>
</html>
""")


def write_plots(drawings: Drawings, folder: Path) -> list[Path]:
    """cactus.svg/.png and, for two configurations, scatter.svg/.png in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    forms: tuple[Format, ...] = ("svg", "png")
    for name in drawings.names:
        for form in forms:
            path = folder / f"{name}.{form}"
            data = drawings.get(name, form)
            if isinstance(data, str):
                path.write_text(xml_text(data), encoding="utf-8")
            else:
                path.write_bytes(data)
            written.append(path)
    return written
