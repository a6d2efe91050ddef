"""Side-by-side speed benchmark: baseline (one-shot quickstart encoding, re-ground per
horizon, same lower bound) against the default incremental engine.

    python benchmarks/speed.py                       # everything (takes hours with --limit 60)
    python benchmarks/speed.py --families 3pegs --limit 30 --runs 3

Each case runs in a fresh process with a hard time limit (killed when over), so one
slow case cannot affect the next.  Prints a table (medians, speed-up, peak memory),
writes ``results/speed.csv`` and draws ``results/speed.png`` (time vs disks, log scale).
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import random
import resource
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COMPETITION = ROOT / "instances" / "aspcomp"
METHODS = ("baseline", "fast")
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
    spec: dict[str, Any] | None = None  # a Puzzle as data, or
    path: str | None = None  # an instance file


def tower(pegs: int, disks: int) -> dict[str, Any]:
    names = [chr(ord("a") + i) for i in range(pegs)]
    every = list(range(1, disks + 1))
    return {
        "pegs": names,
        "disks": disks,
        "init": {names[0]: every},
        "goal": {names[-1]: every},
        "max_moves": 5000,
    }


def random_three_peg(rng: random.Random, disks: int) -> dict[str, Any]:
    names = ["a", "b", "c"]
    init: dict[str, list[int]] = {}
    goal: dict[str, list[int]] = {}
    for disk in range(1, disks + 1):
        init.setdefault(rng.choice(names), []).append(disk)
        goal.setdefault(rng.choice(names), []).append(disk)
    return {"pegs": names, "disks": disks, "init": init, "goal": goal, "max_moves": 5000}


def all_cases() -> list[Case]:
    cases = [Case("3pegs", f"3pegs-n{n}", n, tower(3, n)) for n in range(5, 11)]
    cases += [Case("4pegs", f"4pegs-n{n}", n, tower(4, n)) for n in range(6, 13)]
    cases += [Case("5pegs", f"5pegs-n{n}", n, tower(5, n)) for n in range(8, 15)]
    rng = random.Random(2026)
    cases += [Case("random3", f"random3-{i:02d}", 8, random_three_peg(rng, 8)) for i in range(20)]
    cases += [
        Case("aspcomp", p.name[:4], 0, path=str(p)) for p in sorted(COMPETITION.glob("*.asp"))
    ]
    return cases


def _worker(case: Case, method: str, queue: Any) -> None:
    sys.path.insert(0, str(ROOT))
    from hanoi_asp import Puzzle, SolveOptions, load_puzzle, solve

    puzzle = Puzzle.model_validate(case.spec) if case.spec else load_puzzle(str(case.path))
    # the ASP engine alone: a plan built before the search would settle the classic
    # towers without clingo (benchmarks/first_plan.py measures that part)
    mode = "oneshot" if method == "baseline" else "incremental"
    options = SolveOptions(mode=mode, first_plan=False)
    started = time.perf_counter()
    result = solve(puzzle, options)
    seconds = time.perf_counter() - started
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put(
        {
            "result": result.result,
            "length": result.length,
            "seconds": seconds,
            "peak_mib": peak_mib,
            "bound": result.lower_bound.name,
            "lower_bound": result.lower_bound.value,
            "horizons": len(result.horizons),
            "threads": result.threads,
        }
    )


def run_once(case: Case, method: str, limit: float) -> dict[str, Any]:
    """One solve in a fresh process; killed at ``limit`` seconds."""
    context = mp.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_worker, args=(case, method, queue))
    started = time.perf_counter()
    process.start()
    process.join(limit + 5)  # the worker's own imports are not the solver's time
    if process.is_alive():
        process.kill()
        process.join()
        return {"result": "TIMEOUT", "seconds": None, "peak_mib": None, "length": None}
    if queue.empty():
        return {
            "result": f"CRASH({process.exitcode})",
            "seconds": None,
            "peak_mib": None,
            "length": None,
        }
    row: dict[str, Any] = queue.get()
    if row["seconds"] > limit:
        row.update(result="TIMEOUT", seconds=None)
    row["wall"] = time.perf_counter() - started
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--families",
        nargs="*",
        default=None,
        help="3pegs 4pegs 5pegs random3 aspcomp (default: all)",
    )
    parser.add_argument("--methods", nargs="*", default=list(METHODS), choices=METHODS)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--runs", type=int, default=1, help="runs per case (median)")
    parser.add_argument("--out", default=str(HERE / "results" / "speed.csv"))
    args = parser.parse_args(argv)
    cases = [c for c in all_cases() if not args.families or c.family in args.families]
    rows: list[dict[str, Any]] = []
    given_up: set[tuple[str, str]] = set()  # (family, method) that timed out on a smaller n
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for case in cases:
            for method in args.methods:
                growing = case.family in ("3pegs", "4pegs", "5pegs")
                if growing and (case.family, method) in given_up:
                    runs = [
                        {"result": "SKIPPED", "seconds": None, "peak_mib": None, "length": None}
                    ]
                else:
                    runs = [run_once(case, method, args.limit) for _ in range(args.runs)]
                times = [r["seconds"] for r in runs if r["seconds"] is not None]
                median = statistics.median(times) if len(times) == len(runs) else None
                if median is None and growing:
                    given_up.add((case.family, method))
                row = {
                    "family": case.family,
                    "case": case.name,
                    "disks": case.disks,
                    "method": method,
                    "result": runs[0]["result"],
                    "length": runs[0].get("length"),
                    "bound": runs[0].get("bound", ""),
                    "median_s": median,
                    "runs": len(runs),
                    "peak_mib": max((r["peak_mib"] or 0) for r in runs) or None,
                    "threads": runs[0].get("threads"),
                }
                rows.append(row)
                writer.writerow([row[k] for k in COLUMNS])
                handle.flush()
                shown = "-" if median is None else f"{median:.2f}s"
                print(
                    f"{case.name:14} {method:8} {row['result']:14} len={row['length']} "
                    f"{shown} peak={row['peak_mib'] and round(row['peak_mib'])}MiB",
                    flush=True,
                )
    print_table(rows, args.limit)
    plot(rows, Path(args.out).with_suffix(".png"), args.limit)
    return 0


def print_table(rows: list[dict[str, Any]], limit: float) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"median wall time per case (limit {limit:g} s; '>' = over the limit)")
    for column in ("case", "length", "baseline", "fast", "speed-up", "peak MiB (fast)"):
        table.add_column(column, justify="right")
    by_case: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_case.setdefault(row["case"], {})[row["method"]] = row
    for case, methods in by_case.items():
        base, fast = methods.get("baseline"), methods.get("fast")

        def show(row: dict[str, Any] | None) -> str:
            if row is None:
                return ""
            if row["median_s"] is None:
                return "skipped" if row["result"] == "SKIPPED" else f">{limit:g}"
            return f"{row['median_s']:.2f}"

        ratio = ""
        if base and fast and fast["median_s"]:
            if base["median_s"]:
                ratio = f"{base['median_s'] / fast['median_s']:.1f}x"
            elif base["result"] in ("TIMEOUT", "SKIPPED"):
                ratio = f">{limit / fast['median_s']:.1f}x"
        length = (fast or base or {}).get("length")
        peak = fast and fast["peak_mib"] and f"{fast['peak_mib']:.0f}"
        table.add_row(case, str(length or "-"), show(base), show(fast), ratio, peak or "")
    Console().print(table)


def plot(rows: list[dict[str, Any]], path: Path, limit: float) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install '.[bench]')")
        return
    figure, axes = plt.subplots(figsize=(8, 5))
    for family in ("3pegs", "4pegs", "5pegs"):
        for method, style in (("baseline", "--"), ("fast", "-")):
            points = [
                (r["disks"], r["median_s"])
                for r in rows
                if r["family"] == family and r["method"] == method and r["median_s"]
            ]
            if points:
                xs, ys = zip(*points, strict=True)
                axes.plot(xs, ys, style, marker="o", label=f"{family} {method}")
    axes.axhline(limit, color="grey", linewidth=0.8)
    axes.set_yscale("log")
    axes.set_xlabel("disks (whole tower)")
    axes.set_ylabel("seconds, full search with proof")
    axes.set_title("hanoi-asp: baseline (one-shot, re-ground) vs fast (incremental)")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    print(f"plot: {path}")


if __name__ == "__main__":
    sys.exit(main())
