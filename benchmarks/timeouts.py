"""Is ``--timeout`` honoured, and does Ctrl-C answer at once, wherever the time goes?

    python -m benchmarks.timeouts                   # 5 runs per case, about 3 minutes
    python -m benchmarks.timeouts --runs 3 --timeout 2

Each run is a fresh ``python -m hanoi_asp solve FILE --json`` process, timed from its
start to its exit, so start-up (imports) counts.  The cases are ``instances/hard/*.lp``.

* timeout: ``--timeout S``; reports the wall time over S (the target: under 1 s), the
  result and exit code, and whether the plan replays.
* interrupt: a real SIGINT ``D`` seconds after start (0.2 s: still importing; 1 s: the
  bounds; 3 s: the search); reports the time from the signal to the exit, the exit
  code, and whether a traceback was printed (never allowed).

Prints one line per run and a summary per case (median and worst), and writes
``results/timeouts.csv`` (``--out``) and its ``.log``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.harness.cases import hard_files
from benchmarks.harness.output import Log, csv_rows, log_footer, log_header
from benchmarks.harness.paths import ROOT, result_file, shown
from benchmarks.harness.peers.ours import check_plan, environment, solve_command
from benchmarks.harness.stats import Spread
from hanoi_asp import load_puzzle

CASES = hard_files()
"""Minutes (or more) to prove minimal; the time goes into the bounds (5 pegs), grounding
and solving."""


def start(path: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        solve_command(path, None, *extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=ROOT,
        env=environment(ROOT),
    )


def replays(path: Path, data: dict[str, object]) -> bool:
    """A plan is there and the simulator accepts it."""
    plan = data.get("plan") or []
    assert isinstance(plan, list)
    return bool(plan) and check_plan(load_puzzle(str(path)), plan) == "ok"


def run_timeout(path: Path, seconds: float) -> dict[str, object]:
    began = time.monotonic()
    proc = start(path, "--timeout", str(seconds))
    out, err = proc.communicate(timeout=seconds + 60)
    wall = time.monotonic() - began
    data = json.loads(out)
    return {
        "kind": "timeout",
        "at_s": seconds,
        "wall_s": round(wall, 3),
        "over_s": round(wall - seconds, 3),
        "exit": proc.returncode,
        "result": data["result"],
        "lower_bound": data.get("lower_bound"),
        "upper_bound": data.get("upper_bound"),
        "replays": replays(path, data),
        "traceback": "Traceback" in err,
    }


def run_interrupt(path: Path, delay: float) -> dict[str, object]:
    proc = start(path)
    time.sleep(delay)
    signalled = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    after = time.monotonic() - signalled
    data = json.loads(out) if out.strip() else {}
    return {
        "kind": "interrupt",
        "at_s": delay,
        "wall_s": round(delay + after, 3),
        "over_s": round(after, 3),
        "exit": proc.returncode,
        "result": data.get("result", "(no JSON)"),
        "lower_bound": data.get("lower_bound"),
        "upper_bound": data.get("upper_bound"),
        "replays": replays(path, data) if data.get("plan") else False,
        "traceback": "Traceback" in err,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.timeouts", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--delays", type=float, nargs="+", default=[0.2, 1.0, 3.0])
    parser.add_argument("--cases", nargs="*", help="only these (file stems)")
    parser.add_argument("--out", type=Path, default=result_file("timeouts"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "timeouts", sys.argv[1:] if argv is None else argv)
    rows: list[dict[str, object]] = []
    cases = [c for c in CASES if not args.cases or c.stem in args.cases]
    columns = ["case", "run", "kind", "at_s", "wall_s", "over_s", "exit", "result"]
    columns += ["lower_bound", "upper_bound", "replays", "traceback"]
    with csv_rows(args.out, columns) as out:
        for path in cases:
            trials = [("timeout", args.timeout)] + [("interrupt", d) for d in args.delays]
            for kind, at in trials:
                for index in range(args.runs):
                    measure = run_timeout if kind == "timeout" else run_interrupt
                    row = {"case": path.stem, "run": index + 1, **measure(path, at)}
                    rows.append(row)
                    out.write(row)
                    log(" ".join(f"{k}={v}" for k, v in row.items()))
    log("\nsummary (over_s: seconds past the limit, or from SIGINT to exit)")
    groups: dict[tuple[object, object, object], list[dict[str, object]]] = {}
    for entry in rows:
        groups.setdefault((entry["case"], entry["kind"], entry["at_s"]), []).append(entry)
    for (case, trial, at_s), group in groups.items():
        over = Spread([float(str(r["over_s"])) for r in group])
        exits = sorted({int(str(r["exit"])) for r in group})
        results = sorted({str(r["result"]) for r in group})
        plans = sum(bool(r["replays"]) for r in group)
        tracebacks = sum(bool(r["traceback"]) for r in group)
        log(
            f"{case!s:26} {trial!s:9} at {at_s!s:>4}s: over median {over.median:.2f} s, "
            f"worst {over.worst:.2f} s; exit {exits}; {results}; replayed plans {plans}/"
            f"{len(group)}; tracebacks {tracebacks}"
        )
    log(f"csv: {shown(args.out)}")
    log_footer(log)
    log.save(args.out.with_suffix(".log"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
