"""Batch scale: 1,000 random instances (3-4 pegs, at most 5 disks) through ``hanoi-asp batch``.

    python benchmarks/batch_scale.py [--count 1000] [--workers 2]

Reports the batch's wall time, the summed solve time inside the workers, and the
per-instance overhead (worker start, transport, writing): wall x workers / count
minus the mean solve time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from hanoi_asp.inputs.generate import write_instances

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        half = args.count // 2
        for index, (pegs, count) in enumerate(((3, half), (4, args.count - half))):
            for disks in range(1, 6):
                share = count // 5 + (1 if disks <= count % 5 else 0)
                write_instances(
                    base / "in" / f"{pegs}-{disks}",
                    pegs=pegs,
                    disks=disks,
                    count=share,
                    seed=100 * index + disks,
                    partial=disks % 2 == 0,
                )
        out = base / "results.jsonl"
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "hanoi_asp",
                "batch",
                str(base / "in"),
                "--workers",
                str(args.workers),
                "--timeout",
                "30",
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )
        wall = time.monotonic() - started
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    solve_s = sum(float(r.get("time_s") or 0) for r in rows)
    results: dict[str, int] = {}
    for row in rows:
        results[row["result"]] = results.get(row["result"], 0) + 1
    overhead = wall * args.workers / len(rows) - solve_s / len(rows)
    print(
        f"{len(rows)} instances, {args.workers} workers: wall {wall:.1f} s "
        f"(target < 60 s), summed solve time {solve_s:.1f} s, "
        f"per-instance overhead {overhead * 1000:.0f} ms; results {results}; "
        f"exit {done.returncode}"
    )
    return 0 if len(rows) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
