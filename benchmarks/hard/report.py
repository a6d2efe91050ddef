"""The hard benchmark's log and plot: per case and method the median and worst time
and the ratios to ours paired run by run; per family the cases proven and the
cross-check; per family a plot of the median time per case."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.hard.runs import FAILED, METHODS, Run
from benchmarks.harness.machine import describe, git_head, load
from benchmarks.harness.output import can_plot
from benchmarks.harness.paths import shown
from benchmarks.harness.peers import fast_downward, symk
from benchmarks.harness.stats import paired_ratios

ANSWERED = ("OPTIMUM FOUND", "UNSATISFIABLE")


def seconds_of(run: Run) -> float:
    """Seconds to a proven answer in time; ``inf`` over the time or memory limit; NaN
    for anything else (an error, a rejected plan, a skipped run), which takes no part
    in medians or ratios."""
    if run.status in ANSWERED and run.seconds is not None:
        return run.seconds
    return math.inf if run.status in FAILED else math.nan


def _times(runs: list[Run]) -> list[float]:
    return [t for t in map(seconds_of, runs) if not math.isnan(t)]


def _show_time(value: float, limit: float) -> str:
    return f">{limit:g}" if math.isinf(value) else f"{value:.2f}"


def header(command: str, cache: str, timeout: float, runs: int, memory_limit: float) -> str:
    return (
        f"python -m benchmarks.hard {datetime.now().isoformat(timespec='seconds')} on "
        f"{describe()}; {load()}; git {git_head()}; Fast Downward {fast_downward.version()}; "
        f"SymK {symk.version()}; tables {cache}; timeout {timeout:g} s, {runs} runs, "
        f"memory limit {memory_limit:g} MiB\ncommand: {command}"
    )


def report(
    runs: list[Run],
    complaints: list[str],
    methods: Sequence[str],
    *,
    ours: str,
    limit: float,
    title: str,
    out: Path,
) -> None:
    """Print the tables, and save them as ``out``'s ``.log`` and the plot as its
    ``.png``."""
    console = Console(record=True, width=160)
    console.print(title)
    console.print("our checkouts compiled to bytecode before the runs (compile_tree)")
    table = Table(
        title=(
            f"wall seconds per case and method (whole process; '>{limit:g}': no proven "
            f"optimum in time); {ours}/peer: paired by run, '<' '>' bounds from timeouts"
        )
    )
    for column in ("case", "method", "optimum", "length", "median s", "worst s", "peak MiB"):
        table.add_column(column, justify="right")
    table.add_column(f"{ours}/peer median", justify="right")
    table.add_column(f"{ours}/peer worst", justify="right")
    table.add_column("note")
    by_case: dict[str, list[Run]] = {}
    for r in runs:
        by_case.setdefault(r.case.name, []).append(r)
    for name, case_runs in by_case.items():
        mine = {r.run: seconds_of(r) for r in case_runs if r.method == ours}
        for index, method in enumerate(m for m in methods if any(r.method == m for r in case_runs)):
            these = sorted((r for r in case_runs if r.method == method), key=lambda r: r.run)
            times = _times(these)
            ran = [r for r in these if r.status != "SKIPPED"]
            proven = sum(r.status == "OPTIMUM FOUND" for r in ran)
            lengths = {r.length for r in these if r.proven and r.length is not None}
            statuses = sorted({r.status for r in ran if r.status != "OPTIMUM FOUND"})
            skipped = len(these) - len(ran)
            note = ", ".join(statuses + ([f"{skipped} skipped"] if skipped else []))
            if any(r.agree in ("DISAGREE", "BOUND CONFLICT") for r in these):
                agreed = ", ".join(sorted({r.agree for r in these if r.agree}))
                note = f"[bold red]{agreed}[/] {note}"
            peaks = [r.peak_mib for r in ran if r.peak_mib is not None]
            peer = {r.run: seconds_of(r) for r in these}
            ratio = ("", "") if method == ours else paired_ratios(mine, peer, limit)
            table.add_row(
                name if index == 0 else "",
                method,
                f"{proven}/{len(ran)}",
                "/".join(str(n) for n in sorted(lengths)) or "-",
                _show_time(statistics.median(times), limit) if times else "no time",
                _show_time(max(times), limit) if times else "no time",
                f"{max(peaks):.0f}" if peaks else "",
                ratio[0],
                ratio[1],
                note,
            )
        table.add_section()
    console.print(table)
    console.print(family_summary(runs, methods, limit))
    if complaints:
        console.print("[bold red]cross-check FAILED:[/]")
        for complaint in complaints:
            console.print(f"  [red]{complaint}[/]")
    else:
        console.print("cross-check: every proven optimum agrees per case, bounds bracket it")
    console.print(f"csv: {shown(out)}")
    log = out.with_suffix(".log")
    console.save_text(str(log))
    print(f"log: {shown(log)}")
    plot(runs, methods, out.with_suffix(".png"), limit)


def family_summary(runs: list[Run], methods: Sequence[str], limit: float) -> Table:
    """Per family and method: cases proven in every run, the median over cases of each
    case's worst run, and the worst case by name; per family, how many cases had their
    optimum proven by two methods or more (the cross-check)."""
    table = Table(
        title="per family: each case's worst run; cross-checked: optimum proven by 2+ methods"
    )
    for column in ("family", "method", "all runs proven", "median of worst s", "worst case"):
        table.add_column(column, justify="right")
    table.add_column("cross-checked", justify="right")
    families: dict[str, list[Run]] = {}
    for r in runs:
        families.setdefault(r.case.family.name, []).append(r)
    for name, family_runs in families.items():
        cases = list(dict.fromkeys(r.case.name for r in family_runs))
        checked = sum(
            len({r.method for r in family_runs if r.case.name == c and r.proven}) >= 2
            for c in cases
        )
        for index, method in enumerate(
            m for m in methods if any(r.method == m for r in family_runs)
        ):
            worst: list[tuple[float, str]] = []
            for case in cases:
                times = _times(
                    [r for r in family_runs if r.case.name == case and r.method == method]
                )
                if times:
                    worst.append((max(times), case))
            proven = sum(not math.isinf(t) for t, _ in worst)
            median = statistics.median(t for t, _ in worst) if worst else math.nan
            top = max(worst) if worst else (math.nan, "-")
            table.add_row(
                name if index == 0 else "",
                method,
                f"{proven}/{len(cases)}",
                _show_time(median, limit) if worst else "-",
                f"{top[1]} {_show_time(top[0], limit)}" if worst else "-",
                f"{checked}/{len(cases)}" if index == 0 else "",
            )
        table.add_section()
    return table


def plot(runs: list[Run], methods: Sequence[str], path: Path, limit: float) -> None:
    """Per family, the median time per case, one marker per method, log scale; hollow
    markers on the dashed line: no proven optimum within the limit."""
    families: dict[str, list[Run]] = {}
    for r in runs:
        families.setdefault(r.case.family.name, []).append(r)
    if not families or not can_plot():
        return
    import matplotlib.pyplot as plt
    from matplotlib.artist import Artist

    columns = min(3, len(families))
    rows = math.ceil(len(families) / columns)
    figure, axes_grid = plt.subplots(
        rows, columns, figsize=(5 * columns, 3.6 * rows), squeeze=False
    )
    markers = dict(zip(METHODS, "os^*vDPX", strict=True))
    for axes, (family, family_runs) in zip(axes_grid.flat, families.items(), strict=False):
        names = list(dict.fromkeys(r.case.name for r in family_runs))
        used = [m for m in methods if any(r.method == m for r in family_runs)]
        for offset, method in enumerate(used):
            xs: list[float] = []
            ys: list[float] = []
            xs_out: list[float] = []
            for x, name in enumerate(names):
                these = [r for r in family_runs if r.case.name == name and r.method == method]
                times = _times(these)
                if not times:
                    continue
                median = statistics.median(times)
                shift = x + (offset - (len(used) - 1) / 2) * 0.08
                if math.isinf(median):
                    xs_out.append(shift)
                else:
                    xs.append(shift)
                    ys.append(median)
            (line,) = axes.plot(xs, ys, linestyle="none", marker=markers[method], label=method)
            if xs_out:
                axes.plot(
                    xs_out,
                    [limit] * len(xs_out),
                    linestyle="none",
                    marker=markers[method],
                    markerfacecolor="none",
                    color=line.get_color(),
                )
        axes.axhline(limit, color="grey", linewidth=0.8, linestyle="--")
        axes.set_yscale("log")
        axes.set_title(family, fontsize="medium")
        axes.set_xlim(-0.5, len(names) - 0.5)
        axes.set_xticks(range(len(names)))
        axes.set_xticklabels(
            [n.removeprefix(f"{family}-") for n in names], rotation=90, fontsize="x-small"
        )
        axes.set_ylabel("seconds (median)")
    for axes in list(axes_grid.flat)[len(families) :]:
        axes.axis("off")
    legend: dict[str, Artist] = {}
    for axes in axes_grid.flat:
        for handle, label in zip(*axes.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    figure.legend(
        list(legend.values()), list(legend), loc="lower center", ncol=len(legend), fontsize="small"
    )
    figure.suptitle(
        f"hanoi-asp and peers: median wall time per case\n(hollow on the dashed line: "
        f"no proven optimum within {limit:g} s)",
        fontsize="medium",
    )
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"plot: {shown(path)}")
