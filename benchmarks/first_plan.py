"""Time to the first plan and its length against the optimum.

    python -m benchmarks.first_plan                     # everything (about 15 minutes)
    python -m benchmarks.first_plan --families aspcomp --runs 3 --solve-timeout 5
    python -m benchmarks.first_plan --families random4-n8 random5-n7 stress

The first plan is the one the engine builds before the proof search
(:func:`hanoi_asp.engine.first_plan.build_first_plan`, the simulator's replay
included); its length is the search's first upper bound.  Families:

* ``aspcomp``: the 20 competition instances; the reference is the instance's own
  ``moves/1`` (the competition's plan length, ``reference_kind`` competition-moves).
* ``random4-n8``, ``random4-n9``, ``random5-n7``, ``random5-n8``: 5 random puzzles
  each (every disk on a random peg at the start and in the full goal, stacks ordered,
  ``random.Random(--seed)``); the reference is the breadth-first optimum
  (``reference_kind`` bfs-optimum).
* ``stress``: 4 pegs 30 disks, 5 pegs 20 disks, 3 pegs 16 disks, random as above; no
  reference (the proven lower bound is shown instead).

Every measurement runs in a fresh process (``spawn``), cases one after the other: the
first plan ``--runs`` times (median and worst wall time of the call itself, imports
excluded), the lower bound and the reference once, and one full
``solve(puzzle, SolveOptions(timeout=--solve-timeout))`` to show what the anytime
search reaches in that time.  Prints a table and a summary per family, and writes
``results/first_plan.csv`` (``--out``) and its ``.log``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness.cases import competition_files, scattered
from benchmarks.harness.output import Log, csv_rows, log_footer, log_header
from benchmarks.harness.paths import result_file, shown
from benchmarks.harness.processes import in_fresh_process
from hanoi_asp import Puzzle, load_puzzle

FAMILIES = ("aspcomp", "random4-n8", "random4-n9", "random5-n7", "random5-n8", "stress")
BFS_STATES = 2_000_000
"""Most states the reference breadth-first search may store (5 pegs, 8 disks: 390,625)."""
FIRST_PLAN_LIMIT = 120.0
"""Seconds before a first-plan (or lower-bound, reference) process is killed."""
COLUMNS = (
    "family",
    "case",
    "pegs",
    "disks",
    "reference_kind",
    "reference",
    "reference_s",
    "lower_bound",
    "lower_bound_name",
    "lower_bound_exact",
    "lower_bound_s",
    "first_method",
    "first_length",
    "ratio",
    "ratio_to_lower_bound",
    "median_s",
    "worst_s",
    "runs",
    "solve_result",
    "solve_length",
    "solve_lower_bound",
    "solve_upper_bound",
    "solve_stopped",
    "solve_first_length",
    "solve_s",
)


@dataclass(frozen=True)
class Case:
    family: str
    name: str
    pegs: int
    disks: int
    reference_kind: str  # competition-moves, bfs-optimum or none
    puzzle: Puzzle | None = None  # a puzzle, or
    path: Path | None = None  # an instance file

    def load(self) -> Puzzle:
        return self.puzzle if self.puzzle is not None else load_puzzle(str(self.path))


def all_cases(seed: int) -> list[Case]:
    cases = []
    for path in competition_files():
        cases.append(Case("aspcomp", path.name[:4], 4, 0, "competition-moves", path=path))
    rng = random.Random(seed)
    for pegs, disks in ((4, 8), (4, 9), (5, 7), (5, 8)):
        family = f"random{pegs}-n{disks}"
        for i in range(5):
            puzzle = scattered(rng, pegs, disks)
            cases.append(Case(family, f"{family}-{i}", pegs, disks, "bfs-optimum", puzzle))
    for pegs, disks in ((4, 30), (5, 20), (3, 16)):
        puzzle = scattered(rng, pegs, disks)
        cases.append(Case("stress", f"{pegs}pegs-n{disks}", pegs, disks, "none", puzzle))
    return cases


def _first_plan_worker(case: Case, answers: Any) -> None:
    from hanoi_asp import SolveOptions
    from hanoi_asp.engine.first_plan import build_first_plan

    puzzle = case.load()
    options = SolveOptions()
    started = time.perf_counter()
    built = build_first_plan(puzzle, options, None)
    seconds = time.perf_counter() - started
    first = built.first
    if first is None:
        answers.put({"seconds": seconds, "length": None, "method": "none"})
        return
    answers.put({"seconds": seconds, "length": first.length, "method": first.method})


def _context_worker(case: Case, answers: Any) -> None:
    """The lower bound, the reference length, and the puzzle's sizes."""
    from hanoi_asp.engine.bounds import lower_bound
    from hanoi_asp.methods import bfs

    puzzle = case.load()
    started = time.perf_counter()
    bound = lower_bound(puzzle)
    row: dict[str, Any] = {
        "pegs": len(puzzle.pegs),
        "disks": puzzle.disks,
        "lower_bound": bound.value,
        "lower_bound_name": bound.name,
        "lower_bound_exact": bound.exact,
        "lower_bound_s": time.perf_counter() - started,
        "reference": None,
        "reference_s": None,
    }
    if case.reference_kind == "competition-moves":
        row["reference"] = puzzle.max_moves
    elif case.reference_kind == "bfs-optimum":
        started = time.perf_counter()
        found = bfs.search(puzzle, max_moves=None, max_states=BFS_STATES)
        row["reference_s"] = time.perf_counter() - started
        row["reference"] = None if found.steps is None else len(found.steps)
    answers.put(row)


def _solve_worker(case: Case, timeout: float, answers: Any) -> None:
    from hanoi_asp import SolveOptions, solve

    result = solve(case.load(), SolveOptions(timeout=timeout))
    answers.put(
        {
            "solve_result": result.result,
            "solve_length": result.length,
            "solve_lower_bound": result.lower_bound,
            "solve_upper_bound": result.upper_bound,
            "solve_stopped": result.stopped,
            "solve_s": result.time_s,
            "solve_first_length": result.first_plan and result.first_plan.length,
        }
    )


def measure(case: Case, runs: int, solve_timeout: float) -> dict[str, Any]:
    row: dict[str, Any] = {
        "family": case.family,
        "case": case.name,
        "pegs": case.pegs,
        "disks": case.disks,
        "reference_kind": case.reference_kind,
    }
    context = in_fresh_process(_context_worker, (case,), FIRST_PLAN_LIMIT + 600)
    if isinstance(context, str):
        row["lower_bound_name"] = context
    else:
        row.update(context)
    timings: list[float] = []
    lengths: set[Any] = set()
    for _ in range(runs):
        run = in_fresh_process(_first_plan_worker, (case,), FIRST_PLAN_LIMIT)
        if isinstance(run, str):
            row["first_method"] = run
            break
        timings.append(run["seconds"])
        lengths.add(run["length"])
        row["first_method"] = run["method"]
    if len(lengths) > 1:
        row["first_method"] = f"UNSTABLE{sorted(lengths, key=str)}"
    if timings and len(timings) == runs:
        row["median_s"] = statistics.median(timings)
        row["worst_s"] = max(timings)
        row["first_length"] = next(iter(lengths))
    row["runs"] = len(timings)
    length, reference, bound = row.get("first_length"), row.get("reference"), row["lower_bound"]
    if length is not None and reference:  # a reference of 0: start and goal agree
        row["ratio"] = length / reference
    if length is not None and bound:
        row["ratio_to_lower_bound"] = length / bound
    solved = in_fresh_process(_solve_worker, (case, solve_timeout), solve_timeout + 120)
    if isinstance(solved, str):
        row["solve_result"] = solved
    else:
        row.update(solved)
        if row["solve_first_length"] != row.get("first_length"):
            print(f"{case.name}: solve's first plan has {row['solve_first_length']} moves")
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.first_plan", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument(
        "--families", nargs="*", choices=FAMILIES, default=None, help="default: all"
    )
    parser.add_argument("--runs", type=int, default=5, help="first-plan runs per case")
    parser.add_argument(
        "--solve-timeout", type=float, default=10.0, help="seconds for the full solve"
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random puzzles")
    parser.add_argument("--out", type=Path, default=result_file("first_plan"))
    args = parser.parse_args(argv)
    cases = [c for c in all_cases(args.seed) if not args.families or c.family in args.families]
    log = Log()
    log_header(log, "first_plan", sys.argv[1:] if argv is None else argv)
    rows: list[dict[str, Any]] = []
    with csv_rows(args.out, COLUMNS) as out:
        for case in cases:
            row = measure(case, args.runs, args.solve_timeout)
            rows.append(row)
            out.write(row)
            log(
                f"{case.name:18} first={row.get('first_length')} ref={row.get('reference')} "
                f"lb={row.get('lower_bound')} median={_num(row.get('median_s'), 4)}s "
                f"solve={row.get('solve_result')} {row.get('solve_lower_bound')}.."
                f"{row.get('solve_upper_bound')}"
            )
    log()
    print_table(log, rows, args.solve_timeout, args.runs)
    log()
    print_summary(log, rows, args.solve_timeout)
    log(f"\ncsv: {shown(args.out)}")
    log_footer(log)
    log.save(args.out.with_suffix(".log"))
    return 0


def _num(value: Any, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _text(value: Any) -> str:
    return "-" if value is None else str(value)


def print_table(log: Log, rows: list[dict[str, Any]], solve_timeout: float, runs: int) -> None:
    log(
        f"first plan: median and worst wall seconds of build_first_plan over {runs} fresh "
        f"processes; ratio = first length / reference; solve: {solve_timeout:g} s budget"
    )
    header = (
        "case",
        "pegs",
        "disks",
        "reference",
        "lower bnd",
        "first",
        "ratio",
        "ratio/lb",
        "median s",
        "worst s",
        "solve result",
        "solve lb..ub",
        "solve s",
    )
    lines = [header]
    for row in rows:
        kind = {"competition-moves": "comp", "bfs-optimum": "bfs"}.get(row["reference_kind"])
        reference = "-" if kind is None else f"{_text(row.get('reference'))} ({kind})"
        exact = "=" if row.get("lower_bound_exact") else ""
        lines.append(
            (
                row["case"],
                str(row.get("pegs")),
                str(row.get("disks")),
                reference,
                f"{_text(row.get('lower_bound'))}{exact}",
                _text(row.get("first_length")),
                _num(row.get("ratio"), 3),
                _num(row.get("ratio_to_lower_bound"), 2),
                _num(row.get("median_s"), 4),
                _num(row.get("worst_s"), 4),
                _text(row.get("solve_result")),
                f"{_text(row.get('solve_lower_bound'))}..{_text(row.get('solve_upper_bound'))}",
                _num(row.get("solve_s"), 2),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for number, line in enumerate(lines):
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True)]
        log("  ".join(cells))
        if number == 0:
            log("  ".join("-" * w for w in widths))
    log("lower bnd: '=' marks an exact bound (the optimum itself)")


def print_summary(log: Log, rows: list[dict[str, Any]], solve_timeout: float) -> None:
    log(f"summary per family (optimal = OPTIMUM FOUND by solve within {solve_timeout:g} s)")
    families: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        families.setdefault(row["family"], []).append(row)
    for family, members in families.items():
        ratios = [r["ratio"] for r in members if r.get("ratio") is not None]
        medians = [r["median_s"] for r in members if r.get("median_s") is not None]
        worst = [r["worst_s"] for r in members if r.get("worst_s") is not None]
        to_bound = [r["ratio_to_lower_bound"] for r in members if r.get("ratio_to_lower_bound")]
        optimal = sum(r.get("solve_result") == "OPTIMUM FOUND" for r in members)
        failed = sum(r.get("first_length") is None for r in members)
        ratio_text = (
            f"ratio median {statistics.median(ratios):.3f} max {max(ratios):.3f}"
            if ratios
            else "ratio -"
        )
        if to_bound:
            ratio_text += f" (to lower bound: median {statistics.median(to_bound):.2f} max "
            ratio_text += f"{max(to_bound):.2f})"
        time_text = (
            f"first plan median {statistics.median(medians):.4f} s worst {max(worst):.4f} s"
            if medians
            else "first plan -"
        )
        log(
            f"  {family:11} n={len(members):2}  {ratio_text}  {time_text}  "
            f"optimal {optimal}/{len(members)}" + (f"  no first plan: {failed}" if failed else "")
        )


if __name__ == "__main__":
    sys.exit(main())
