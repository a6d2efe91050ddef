"""A warm batch worker's memory over many instances: clingo never frees the symbols a
process made, so a worker that solves instance after instance grows; this measures by
how much, to choose ``WORKER_TASKS`` (hanoi_asp/batch/worker.py), the instances a worker
solves before it is replaced.

    python -m benchmarks.worker_memory [--count 10000]

One process solves ``--count`` random small puzzles (3-4 pegs, 3-5 disks, fixed seeds)
with :func:`hanoi_asp.batch.worker.solve_file`, as a warm worker does, and prints its
resident memory (RSS) every 1,000 instances (``--every``); writes
``results/worker_memory.log`` (``--out``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness.cases import write_instance
from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import result_file
from hanoi_asp import SolveOptions
from hanoi_asp.batch.worker import solve_file
from hanoi_asp.inputs.generate import random_puzzle


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.worker_memory", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1000, help="instances between two lines")
    parser.add_argument("--out", type=Path, default=result_file("worker_memory", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "worker_memory", sys.argv[1:] if argv is None else argv)
    rng = random.Random(0)
    shapes = list(itertools.product((3, 4), (3, 4, 5)))
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index in range(50):  # 50 files, solved in turn: the same work as 50 distinct ones
            pegs, disks = shapes[index % len(shapes)]
            path = Path(folder) / f"p{index}.lp"
            write_instance(path, random_puzzle(rng, pegs, disks, partial=False), f"p{index}")
            paths.append(str(path))
        options = SolveOptions(timeout=2, threads=1)
        started = time.monotonic()
        log(f"start: RSS {rss_mib():.1f} MiB")
        for number in range(1, args.count + 1):
            row = solve_file(paths[number % len(paths)], options, 2 * 2**30)
            if row["result"] != "OPTIMUM FOUND":
                raise SystemExit(f"{row['instance']}: {row['result']} (expected OPTIMUM FOUND)")
            if number % args.every == 0:
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                log(
                    f"{number:>6} instances: RSS {rss_mib():.1f} MiB (peak {peak:.1f}), "
                    f"{(time.monotonic() - started) / number * 1000:.1f} ms each"
                )
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
