"""Is ``--timeout`` honoured, and does Ctrl-C answer at once, wherever the time goes?

    python benchmarks/timeouts.py                    # 5 runs per case, about 3 minutes
    python benchmarks/timeouts.py --runs 3 --timeout 2

Each run is a fresh ``python -m hanoi_asp solve FILE --json`` process, timed from its
start to its exit, so start-up (imports) counts.  The cases are ``instances/hard/*.lp``.

* timeout: ``--timeout S``; reports the wall time over S (the target: under 1 s), the
  result and exit code, and whether the plan replays.
* interrupt: a real SIGINT ``D`` seconds after start (0.2 s: still importing; 1 s: the
  bounds; 3 s: the search); reports the time from the signal to the exit, the exit
  code, and whether a traceback was printed (never allowed).

Prints one line per run and a summary per case (median and worst), and writes
``results/timeouts.csv``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CASES = sorted((ROOT / "instances" / "hard").glob("*.lp"))
"""Minutes (or more) to prove minimal; the time goes into the bounds (5 pegs), grounding
and solving."""


def start(path: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", "solve", str(path), "--json", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=ROOT,
    )


def replays(path: Path, data: dict[str, object]) -> bool:
    from hanoi_asp import load_puzzle, replay

    plan = data.get("plan") or []
    assert isinstance(plan, list)
    try:
        replay(load_puzzle(str(path)), [(m["disk"], m["to"]) for m in plan])
    except Exception:  # any rejection is a failed check
        return False
    return bool(plan)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--delays", type=float, nargs="+", default=[0.2, 1.0, 3.0])
    parser.add_argument("--out", type=Path, default=HERE / "results" / "timeouts.csv")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    for path in CASES:
        trials = [("timeout", args.timeout)] + [("interrupt", d) for d in args.delays]
        for kind, at in trials:
            for index in range(args.runs):
                measure = run_timeout if kind == "timeout" else run_interrupt
                row = {"case": path.stem, "run": index + 1, **measure(path, at)}
                rows.append(row)
                print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    print("\nsummary (over_s: seconds past the limit, or from SIGINT to exit)")
    groups: dict[tuple[object, object, object], list[dict[str, object]]] = {}
    for row in rows:
        groups.setdefault((row["case"], row["kind"], row["at_s"]), []).append(row)
    for (case, kind, at), group in groups.items():
        over = [float(str(r["over_s"])) for r in group]
        exits = sorted({int(str(r["exit"])) for r in group})
        results = sorted({str(r["result"]) for r in group})
        plans = sum(bool(r["replays"]) for r in group)
        tracebacks = sum(bool(r["traceback"]) for r in group)
        print(
            f"{case:26} {kind:9} at {at:>4}s: over median {statistics.median(over):.2f} s, "
            f"worst {max(over):.2f} s; exit {exits}; {results}; replayed plans {plans}/"
            f"{len(group)}; tracebacks {tracebacks}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
