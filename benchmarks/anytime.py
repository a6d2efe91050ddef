"""The anytime answer's quality: the best plan a stopped search gives, against the
optimum, for our engine and a baseline revision in the same run (issue #28, item 6).

    python -m benchmarks.anytime [--timeouts 1 5] [--baseline-rev b6d8e0f]
                                 [--optima results/hard28-race*.csv] FILE...

For each instance file and each ``--timeout``: ``hanoi-asp solve FILE --json --timeout
T`` in a fresh process, once with this checkout and once with the baseline's worktree;
each run with an empty pattern-table cache of its own (a first solve); the plan is
replayed, and its length compared with the optimum: the one ``python -m
benchmarks.hard`` proved and cross-checked for that case (``--optima``, its CSV files),
else the one ``--method astar`` proves (given ``--optimum-timeout`` seconds), or,
failing both, the best plan any run found ("best known").  Writes
``results/anytime.csv`` (``--out``) and its ``.log``, and prints the table: per
instance and timeout, each side's length, its gap to the optimum in percent, and its
wall time; then, per side and timeout, how many are within 10% of
the optimum and the worst gap.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, csv_rows, log_footer, log_header
from benchmarks.harness.paths import ROOT, result_file, shown
from benchmarks.harness.peers.ours import (
    baseline_tree,
    check_plan,
    compile_tree,
    solve_command,
    solve_json,
)
from hanoi_asp import load_puzzle

COLUMNS = (
    "instance",
    "timeout",
    "side",
    "result",
    "length",
    "lower_bound",
    "seconds",
    "check",
    "optimum",
    "optimum_proven",
    "gap_pct",
)


def solve(tree: Path, path: str, timeout: float, *extra: str) -> dict[str, Any]:
    """One solve in a fresh process (cold tables), killed 30 s after its ``timeout``:
    its JSON, with ``seconds`` and ``check``.  The path is made absolute: the baseline
    runs in its own worktree, where a relative path names another file or none."""
    absolute = str(Path(path).resolve())
    answer = solve_json(solve_command(absolute, timeout, *extra), tree, kill_after=timeout + 30)
    if answer.json is None:
        return {"result": "ERROR", "seconds": answer.run.seconds, "check": answer.why[-200:]}
    found = answer.json
    found["seconds"] = answer.run.seconds
    found["check"] = check_plan(load_puzzle(path), found.get("plan") or [])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.anytime", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("files", nargs="+")
    parser.add_argument("--timeouts", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--baseline-rev", default="b6d8e0f")
    parser.add_argument("--optimum-timeout", type=float, default=120.0)
    parser.add_argument("--optima", type=Path, nargs="*", default=[])
    parser.add_argument("--out", type=Path, default=result_file("anytime"))
    args = parser.parse_args(argv)
    args.known = known_optima(args.optima)
    log = Log()
    log_header(log, "anytime", sys.argv[1:] if argv is None else argv)
    compile_tree(ROOT)
    with (
        baseline_tree(args.baseline_rev) as (baseline, error),
        csv_rows(args.out, COLUMNS) as out,
    ):
        if baseline is None:
            raise SystemExit(error)
        compile_tree(baseline)
        rows: list[dict[str, Any]] = []
        for path in args.files:
            for row in instance_rows(path, args, baseline):
                out.write(row)
                rows.append(row)
                log(
                    f"{row['instance']:40} T={row['timeout']:<4g} {row['side']:8} "
                    f"{row['result']:14} {row['length']!s:>5} (optimum {row['optimum']}"
                    f"{'' if row['optimum_proven'] else ', best known'}) gap {row['gap_pct']}% "
                    f"{row['seconds']} s {row['check']}"
                )
    for line in summary(rows):
        log(line)
    log(f"csv: {shown(args.out)}")
    log_footer(log)
    log.save(args.out.with_suffix(".log"))
    return 0


def instance_rows(path: str, args: argparse.Namespace, baseline: Path) -> list[dict[str, Any]]:
    """Every timeout, ours and the baseline's, on one instance, with the optimum."""
    proven = args.known.get(Path(path).stem)
    if proven is None:
        exact = solve(ROOT, path, args.optimum_timeout, "--method", "astar")
        proven = exact.get("length") if exact.get("result") == "OPTIMUM FOUND" else None
    rows: list[dict[str, Any]] = []
    for timeout in args.timeouts:
        for side, tree in (("ours", ROOT), ("baseline", baseline)):
            answer = solve(tree, path, timeout)
            rows.append(
                {
                    "instance": Path(path).name,
                    "timeout": timeout,
                    "side": side,
                    "result": answer.get("result"),
                    "length": answer.get("length"),
                    "lower_bound": answer.get("lower_bound"),
                    "seconds": round(answer["seconds"], 2),
                    "check": answer["check"],
                }
            )
    known = [row["length"] for row in rows if isinstance(row["length"], int)]
    optimum = proven if proven is not None else min(known, default=None)
    for row in rows:
        row["optimum"] = optimum
        row["optimum_proven"] = proven is not None
        length = row["length"]
        row["gap_pct"] = (
            None if length is None or not optimum else round(100 * (length - optimum) / optimum, 1)
        )
    return rows


def known_optima(files: list[Path]) -> dict[str, int]:
    """Each case's optimum from ``python -m benchmarks.hard``'s CSV files: a proven
    length, kept only where every run that proved one agrees (the benchmark cross-checks
    them against a second method too)."""
    found: dict[str, set[int]] = {}
    for file in files:
        with file.open(newline="") as rows:
            for row in csv.DictReader(rows):
                if row.get("proven") == "1" and row.get("length"):
                    found.setdefault(row["case"], set()).add(int(row["length"]))
    return {case: lengths.pop() for case, lengths in found.items() if len(lengths) == 1}


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """Per side and timeout: how many plans are within 10% of the optimum, the worst."""
    lines = []
    for key in sorted({(row["side"], row["timeout"]) for row in rows}):
        mine = [row for row in rows if (row["side"], row["timeout"]) == key]
        gaps = [(row["gap_pct"], row["instance"]) for row in mine if row["gap_pct"] is not None]
        close = sum(1 for gap, _ in gaps if gap <= 10)
        worst = max(gaps, default=None)
        shown_worst = "-" if worst is None else f"{worst[0]}% ({worst[1]})"
        lines.append(
            f"{key[0]:8} T={key[1]:<4g} within 10%: {close} of {len(mine)}; worst {shown_worst}"
        )
    return lines


if __name__ == "__main__":
    sys.exit(main())
