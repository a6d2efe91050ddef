"""Solve time per method, side by side: the default engine against the baseline (the
one-shot quickstart encoding, re-ground per horizon, from the same lower bound), and
the reference methods against the ASP planner on whole towers.

    python -m benchmarks.speed                              # engine vs baseline: hours
    python -m benchmarks.speed --families 4pegs --limit 60 --runs 3
    python -m benchmarks.speed --families aspcomp --runs 3 \\
        --out benchmarks/results/speed-aspcomp.csv
    python -m benchmarks.speed --families towers --methods recursive frame-stewart bfs asp \\
        --runs 3 --out benchmarks/results/methods.csv
    python -m benchmarks.speed --table                      # README table from the CSVs

Methods (``--methods``):

* ``baseline`` and ``fast`` (the default pair): the ASP engine alone (no plan built
  before the search, as ``--no-first-plan``), ``--mode oneshot`` against the default
  incremental engine;
* ``recursive``, ``frame-stewart``, ``bfs``, ``asp``: ``--method M`` with its defaults
  (``max_moves`` 5000); ``recursive`` only on 3 pegs (``n/a`` elsewhere).  BFS is the
  one expected to grow: pegs^disks states.

Families (``--families``): classic towers ``3pegs`` (5-10 disks), ``4pegs`` (6-12),
``5pegs`` (8-14); ``random3``, 20 random 3-peg puzzles of 8 disks (seed 2026); ``aspcomp``,
the 20 competition instances; and, only when named, ``towers``: the reference methods'
cases (3 pegs 8, 10, 12 disks; 4 pegs 8, 9, 10; 5 pegs 8).

Each run is one ``solve`` in a fresh (``spawn``) process, timed around the call
(imports excluded), killed at ``--limit`` + 5 s; a run over ``--limit`` is a TIMEOUT.
The median is over ``--runs`` runs (none if any run failed); a method that fails a
whole-tower case skips the larger towers of that family.  Prints a line per case and
method and a table (medians, the speed-up baseline / fast, peak memory), writes
``results/speed.csv`` (``--out``), its ``.log`` and ``results/speed.png`` (time against
disks, log scale, the tower families).  ``--table`` runs nothing: it prints the
Markdown table of earlier CSVs (default ``results/speed.csv`` and
``results/speed-aspcomp.csv``) and redraws the plot.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.harness.cases import competition_files, scattered, tower
from benchmarks.harness.output import Log, can_plot, csv_rows, log_footer, log_header, read_csv
from benchmarks.harness.paths import result_file, shown
from benchmarks.harness.processes import in_fresh_process

if TYPE_CHECKING:  # rich is imported for the table only: not in the spawned workers
    from rich.table import Table
from hanoi_asp import Puzzle, load_puzzle

ENGINE = ("baseline", "fast")
REFERENCE = ("recursive", "frame-stewart", "bfs", "asp")
METHODS = ENGINE + REFERENCE
FAMILIES = ("3pegs", "4pegs", "5pegs", "random3", "aspcomp", "towers")
DEFAULT_FAMILIES = FAMILIES[:-1]
GROWING = ("3pegs", "4pegs", "5pegs")
"""Families of one peg count and growing towers: a timeout skips the larger ones."""
TOWER_CASES = ((3, 8), (3, 10), (3, 12), (4, 8), (4, 9), (4, 10), (5, 8))
MAX_MOVES = 5000
COLUMNS = (
    "family",
    "case",
    "disks",
    "method",
    "result",
    "length",
    "bound",
    "median_s",
    "runs",
    "peak_mib",
    "threads",
)


@dataclass(frozen=True)
class Case:
    family: str
    name: str
    disks: int
    puzzle: Puzzle | None = None  # a puzzle, or
    path: Path | None = None  # an instance file


def all_cases() -> list[Case]:
    cases = [
        Case("3pegs", f"3pegs-n{n}", n, tower(3, n, max_moves=MAX_MOVES)) for n in range(5, 11)
    ]
    cases += [
        Case("4pegs", f"4pegs-n{n}", n, tower(4, n, max_moves=MAX_MOVES)) for n in range(6, 13)
    ]
    cases += [
        Case("5pegs", f"5pegs-n{n}", n, tower(5, n, max_moves=MAX_MOVES)) for n in range(8, 15)
    ]
    rng = random.Random(2026)
    cases += [
        Case("random3", f"random3-{i:02d}", 8, scattered(rng, 3, 8, max_moves=MAX_MOVES))
        for i in range(20)
    ]
    cases += [Case("aspcomp", p.name[:4], 0, path=p) for p in competition_files()]
    cases += [Case("towers", f"tower{p}-n{n}", n, tower(p, n)) for p, n in TOWER_CASES]
    return cases


def applies(method: str, case: Case) -> bool:
    """``recursive`` solves 3-peg towers only."""
    pegs = None if case.puzzle is None else len(case.puzzle.pegs)
    return method != "recursive" or pegs == 3


def _worker(case: Case, method: str, answers: Any) -> None:
    from hanoi_asp import SolveOptions, solve

    puzzle = case.puzzle if case.puzzle is not None else load_puzzle(str(case.path))
    if method in ENGINE:
        # the ASP engine alone: a plan built before the search would settle the classic
        # towers without clingo (python -m benchmarks.first_plan measures that part)
        options = SolveOptions(
            mode="oneshot" if method == "baseline" else "incremental", first_plan=False
        )
    else:
        options = SolveOptions(method=method, max_moves=MAX_MOVES)  # type: ignore[arg-type]
    started = time.perf_counter()
    result = solve(puzzle, options)
    seconds = time.perf_counter() - started
    answers.put(
        {
            "result": result.result,
            "length": result.length,
            "seconds": seconds,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "bound": result.bound.name,
            "threads": result.threads,
        }
    )


def run_once(case: Case, method: str, limit: float) -> dict[str, Any]:
    """One solve in a fresh process; killed at ``limit`` + 5 seconds (the worker's own
    imports are not the solver's time), over ``limit`` a TIMEOUT."""
    answer = in_fresh_process(_worker, (case, method), limit + 5)
    if isinstance(answer, str):
        return {"result": answer, "seconds": None, "peak_mib": None, "length": None}
    if answer["seconds"] > limit:
        answer.update(result="TIMEOUT", seconds=None)
    return answer


def measure(case: Case, method: str, args: argparse.Namespace, skip: bool) -> dict[str, Any]:
    """The CSV row of ``method`` on ``case``: ``--runs`` runs and their median."""
    runs: list[dict[str, Any]]
    if not applies(method, case):
        runs = [{"result": "n/a", "seconds": None, "peak_mib": None, "length": None}]
    elif skip:
        runs = [{"result": "SKIPPED", "seconds": None, "peak_mib": None, "length": None}]
    else:
        runs = [run_once(case, method, args.limit) for _ in range(args.runs)]
    times = [r["seconds"] for r in runs if r["seconds"] is not None]
    return {
        "family": case.family,
        "case": case.name,
        "disks": case.disks,
        "method": method,
        "result": runs[0]["result"],
        "length": runs[0].get("length"),
        "bound": runs[0].get("bound", ""),
        "median_s": statistics.median(times) if times and len(times) == len(runs) else None,
        "runs": len(runs),
        "peak_mib": max((r["peak_mib"] or 0) for r in runs) or None,
        "threads": runs[0].get("threads"),
    }


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.speed", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument(
        "--families",
        nargs="*",
        choices=FAMILIES,
        default=None,
        help="default: all but towers",
    )
    parser.add_argument("--methods", nargs="*", default=list(ENGINE), choices=METHODS)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--runs", type=int, default=1, help="runs per case (median)")
    parser.add_argument("--out", type=Path, default=result_file("speed"))
    parser.add_argument(
        "--table",
        nargs="*",
        type=Path,
        metavar="CSV",
        help="run nothing: the Markdown table of these CSVs (default: results/speed.csv "
        "and results/speed-aspcomp.csv), and the plot of --out redrawn from them",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.table is not None:
        return markdown(args.table or [result_file("speed"), result_file("speed-aspcomp")], args)
    families = args.families or DEFAULT_FAMILIES
    cases = [c for c in all_cases() if c.family in families]
    log = Log()
    log_header(log, "speed", sys.argv[1:] if argv is None else argv)
    rows: list[dict[str, Any]] = []
    given_up: set[tuple[str, str]] = set()  # (family, method) that timed out on a smaller n
    with csv_rows(args.out, COLUMNS) as out:
        for case in cases:
            for method in args.methods:
                growing = case.family in GROWING
                row = measure(
                    case, method, args, skip=growing and (case.family, method) in given_up
                )
                if row["median_s"] is None and growing:
                    given_up.add((case.family, method))
                rows.append(row)
                out.write(row)
                median = "-" if row["median_s"] is None else f"{row['median_s']:.2f}s"
                peak = row["peak_mib"] and round(row["peak_mib"])
                log(
                    f"{case.name:14} {method:8} {row['result']:14} len={row['length']} "
                    f"{median} peak={peak}MiB"
                )
    log.table(table(rows, args.methods, args.limit))
    log(f"csv: {shown(args.out)}")
    log_footer(log)
    log.save(args.out.with_suffix(".log"))
    plot(rows, args.methods, args.out.with_suffix(".png"), args.limit)
    return 0


def _speed_up(methods: Sequence[str]) -> bool:
    return "baseline" in methods and "fast" in methods


def table(rows: list[dict[str, Any]], methods: Sequence[str], limit: float) -> Table:
    """Per case: the length, each method's median ('>' over the limit), the speed-up
    baseline / fast when both ran, the last method's peak memory."""
    from rich.table import Table

    table = Table(title=f"median wall time per case (limit {limit:g} s; '>' = over the limit)")
    last = methods[-1]
    columns = ["case", "length", *methods]
    columns += ["speed-up"] if _speed_up(methods) else []
    for column in (*columns, f"peak MiB ({last})"):
        table.add_column(column, justify="right")
    for case, by_method in _by_case(rows).items():

        def show(row: dict[str, Any] | None) -> str:
            if row is None:
                return ""
            if row["median_s"] is None:
                if row["result"] in ("SKIPPED", "n/a"):
                    return "skipped" if row["result"] == "SKIPPED" else "n/a"
                return f">{limit:g}"
            return f"{row['median_s']:.2f}"

        cells = [show(by_method.get(m)) for m in methods]
        if _speed_up(methods):
            base, fast = by_method.get("baseline"), by_method.get("fast")
            ratio = ""
            if base and fast and fast["median_s"]:
                if base["median_s"]:
                    ratio = f"{base['median_s'] / fast['median_s']:.1f}x"
                elif base["result"] in ("TIMEOUT", "SKIPPED"):
                    ratio = f">{limit / fast['median_s']:.1f}x"
            cells.append(ratio)
        length = next((r["length"] for r in by_method.values() if r.get("length")), None)
        peak = by_method.get(last, {}).get("peak_mib")
        table.add_row(case, str(length or "-"), *cells, f"{peak:.0f}" if peak else "")
    return table


def _by_case(rows: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    by_case: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_case.setdefault(row["case"], {})[row["method"]] = row
    return by_case


def markdown(paths: list[Path], args: argparse.Namespace) -> int:
    """The README's table of earlier runs' CSVs, and their plot redrawn."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        if path.exists():
            rows += _numbers(read_csv(path))
    methods = [m for m in METHODS if any(r["method"] == m for r in rows)]
    head = ["case", "length", "bound", *(f"{m} s" for m in methods)]
    head += ["speed-up"] if _speed_up(methods) else []
    head += [f"peak MiB ({methods[-1]})"] if methods else []
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for case, by_method in _by_case(rows).items():

        def shown_time(row: dict[str, Any] | None) -> str:
            if not row:
                return ""
            if row["median_s"] is not None:
                return f"{row['median_s']:.2f}"
            return {"SKIPPED": "skipped", "n/a": "n/a"}.get(row["result"], "timeout")

        cells = [shown_time(by_method.get(m)) for m in methods]
        if _speed_up(methods):
            base, fast = by_method.get("baseline", {}), by_method.get("fast", {})
            ratio = ""
            if base.get("median_s") and fast.get("median_s"):
                ratio = f"{base['median_s'] / fast['median_s']:.1f}x"
            elif fast.get("median_s") and base.get("result") in ("TIMEOUT", "SKIPPED"):
                ratio = "baseline timed out"
            cells.append(ratio)
        last = by_method.get(methods[-1], {})
        length = next((r["length"] for r in reversed(by_method.values()) if r["length"]), "-")
        bound = next((r["bound"] for r in reversed(by_method.values()) if r["bound"]), "")
        peak = f"{last['peak_mib']:.0f}" if last.get("peak_mib") else ""
        print(f"| {case} | {length} | {bound} | " + " | ".join([*cells, peak]) + " |")
    plot(rows, methods, args.out.with_suffix(".png"), args.limit)
    return 0


def _numbers(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """A CSV's rows with the plot's and the table's numbers as numbers."""
    parsed: list[dict[str, Any]] = []
    for row in rows:
        data: dict[str, Any] = dict(row)
        data["disks"] = int(row["disks"])
        for key in ("median_s", "peak_mib"):
            data[key] = float(row[key]) if row[key] else None
        data["length"] = int(row["length"]) if row["length"] else None
        parsed.append(data)
    return parsed


def plot(rows: list[dict[str, Any]], methods: Sequence[str], path: Path, limit: float) -> None:
    """Median time against disks for the tower families, one line per method."""
    lines = []
    for family in GROWING:
        for method in methods:
            points = [
                (r["disks"], r["median_s"])
                for r in rows
                if r["family"] == family and r["method"] == method and r["median_s"]
            ]
            if points:
                lines.append((f"{family} {method}", points, "--" if method == "baseline" else "-"))
    if not lines or not can_plot():
        return
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 5))
    for label, points, style in lines:
        xs, ys = zip(*points, strict=True)
        axes.plot(xs, ys, style, marker="o", label=label)
    axes.axhline(limit, color="grey", linewidth=0.8)
    axes.set_yscale("log")
    axes.set_xlabel("disks (whole tower)")
    axes.set_ylabel("seconds, full search with proof")
    axes.set_title("hanoi-asp: baseline (one-shot, re-ground) vs fast (incremental)")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"plot: {shown(path)}")


if __name__ == "__main__":
    sys.exit(main())
