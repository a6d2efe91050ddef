"""The anytime answer's quality: the best plan a stopped search gives, against the
optimum, for our engine and a baseline revision in the same run (issue #28, item 6).

    python -m benchmarks.anytime [--timeouts 1 5] [--baseline-rev b6d8e0f] FILE...

For each instance file and each ``--timeout``: ``hanoi-asp solve FILE --json --timeout
T`` in a fresh process, once with this checkout and once with the baseline's worktree;
each run with an empty pattern-table cache of its own (a first solve); the plan is
replayed, and its length compared with the optimum, which ``--method astar``
proves (given ``--optimum-timeout`` seconds) or, failing that, the best plan any run
found ("best known").  Writes ``results/anytime.csv`` and prints the table: per instance
and timeout, each side's length, its gap to the optimum in percent, and its wall time.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.hard import baseline_tree, check_plan, compile_tree, environment
from benchmarks.peers.runs import run_tree
from hanoi_asp.inputs.instance import load_puzzle

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def solve(tree: Path, path: str, timeout: float, *extra: str) -> dict[str, Any]:
    """One solve in a fresh process: its JSON, with ``seconds`` and ``check``."""
    command = [sys.executable, "-m", "hanoi_asp", "solve", path, "--json"]
    command += ["--timeout", f"{timeout:g}", *extra]
    with tempfile.TemporaryDirectory(prefix="hanoi-tables-") as tables:  # cold, as hard.py
        env = {**environment(tree), "HANOI_ASP_CACHE_DIR": tables}
        done = run_tree(command, timeout_s=timeout + 30, cwd=tree, env=env)
    try:
        answer: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        return {"result": "ERROR", "seconds": done.seconds, "check": done.stderr[-200:]}
    answer["seconds"] = done.seconds
    answer["check"] = check_plan(load_puzzle(path), answer.get("plan") or [])
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--timeouts", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--baseline-rev", default="b6d8e0f")
    parser.add_argument("--optimum-timeout", type=float, default=120.0)
    parser.add_argument("--out", default=str(RESULTS / "anytime.csv"))
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    compile_tree(ROOT)
    with baseline_tree(args.baseline_rev, True) as (baseline, error):
        if baseline is None:
            raise SystemExit(error)
        compile_tree(baseline)
        for path in args.files:
            exact = solve(ROOT, path, args.optimum_timeout, "--method", "astar")
            proven = exact.get("length") if exact.get("result") == "OPTIMUM FOUND" else None
            found = []
            for timeout in args.timeouts:
                for side, tree in (("ours", ROOT), ("baseline", baseline)):
                    answer = solve(tree, path, timeout)
                    found.append(answer.get("length"))
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
            known = [n for n in found if isinstance(n, int)]
            optimum = proven if proven is not None else min(known, default=None)
            for row in rows:
                if row["instance"] == Path(path).name:
                    row["optimum"] = optimum
                    row["optimum_proven"] = proven is not None
                    length = row["length"]
                    row["gap_pct"] = (
                        None
                        if length is None or not optimum
                        else round(100 * (length - optimum) / optimum, 1)
                    )
            for row in rows[-2 * len(args.timeouts) :]:
                print(
                    f"{row['instance']:40} T={row['timeout']:<4g} {row['side']:8} "
                    f"{row['result']:14} {row['length']!s:>5} (optimum {optimum}"
                    f"{'' if proven else ', best known'}) gap {row['gap_pct']}% "
                    f"{row['seconds']} s {row['check']}",
                    flush=True,
                )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
