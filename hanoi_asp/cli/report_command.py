"""``hanoi-asp report``: the tables and plots of one or more batches' results."""

from __future__ import annotations

import argparse
from pathlib import Path

from hanoi_asp.cli.console import console
from hanoi_asp.cli.grammar import add_outputs, positive_float
from hanoi_asp.model.errors import EXIT_FOUND, EXIT_UNSAT, InputError

NAME = "report"
HELP = "summarize batch results: a table per configuration and family, plots"
DESCRIPTION = (
    "Summarize the JSON lines of one or more batch results files: per configuration "
    "(a row's \"config\", else the file's name) and family (the instance's folder): "
    "instances, solved, proven, timeouts, errors, median and total time, PAR-2. Exit 1 "
    "when two configurations prove optima of different lengths on an instance (each "
    "printed on a DISAGREE line), 2 on a file or line that is not results."
)
EPILOG = """exit codes:
  0  the summary was written
  1  DISAGREE: two configurations proved optima of different lengths on an instance
  2  bad usage, or a file or line that is not results (one line naming it)
  3  interrupted (Ctrl-C)
  4  internal error (a bug)
"""


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "results", nargs="+", metavar="RESULTS.jsonl", help="results files of hanoi-asp batch"
    )
    command.add_argument(
        "--by",
        choices=("config", "family"),
        default="config",
        help="group by configuration, then family (default), or by family, then configuration",
    )
    files = {
        "--csv": "also write the summary as CSV",
        "--html": "also write one self-contained HTML page: the table, a cactus plot and, for "
        "two configurations, a scatter plot (plots need pip install 'hanoi-asp[report]')",
    }
    add_outputs(command, "FILE", files)
    plots = {"--plots": "also write the plots as SVG and PNG files in DIR (cactus, scatter)"}
    add_outputs(command, "DIR", plots)
    command.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="the batches' time limit for PAR-2 (default: per configuration, the longest "
        "time of its timed-out rows)",
    )


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.batch.plots import INSTALL_HINT, Drawings, have_matplotlib
    from hanoi_asp.batch.report import build_report
    from hanoi_asp.batch.report_output import html_page, summary_table, write_csv, write_plots

    report = build_report(args.results, by=args.by, timeout=args.timeout)
    out = console()
    if not out.is_terminal:
        out.width = max(out.width, 160)  # a file or pipe gets every column whole
    out.print(summary_table(report))
    written = []
    drawings = Drawings(report)  # drawn when first saved, once for the page and the files
    if args.csv:
        write_csv(report, Path(args.csv))
        written.append(args.csv)
    if args.html:
        Path(args.html).write_text(html_page(report, drawings), encoding="utf-8")
        written.append(args.html)
    if args.plots:
        if not have_matplotlib():
            raise InputError(f"--plots: {INSTALL_HINT}")
        written.extend(str(path) for path in write_plots(drawings, Path(args.plots)))
    if args.html and not have_matplotlib():
        console(stderr=True).print(f"{args.html}: table only; {INSTALL_HINT}", markup=False)
    if written:
        out.print(f"wrote {', '.join(written)}", markup=False)
    for item in report.disagreements:
        print(item.line(), flush=True)
    return EXIT_UNSAT if report.disagreements else EXIT_FOUND
