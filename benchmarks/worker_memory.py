"""A warm batch worker's memory over many instances: clingo never frees the symbols a
process made, so a worker that solves instance after instance grows; this measures by
how much, to choose ``WORKER_TASKS`` (hanoi_asp/batch/worker.py), the instances a worker
solves before it is replaced.

    python -m benchmarks.worker_memory [--count 10000]

One process solves ``--count`` random small puzzles (3-4 pegs, 3-5 disks, fixed seeds)
with :func:`hanoi_asp.batch.worker.solve_file`, as a warm worker does, and prints its
resident memory (RSS) every 1,000 instances.
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import tempfile
import time
from pathlib import Path

from hanoi_asp.batch.worker import solve_file
from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.inputs.generate import random_puzzle
from hanoi_asp.model.options import SolveOptions


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(0)
    shapes = list(itertools.product((3, 4), (3, 4, 5)))
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index in range(50):  # 50 files, solved in turn: the same work as 50 distinct ones
            pegs, disks = shapes[index % len(shapes)]
            path = Path(folder) / f"p{index}.lp"
            path.write_text(to_facts(random_puzzle(rng, pegs, disks, partial=False)))
            paths.append(str(path))
        options = SolveOptions(timeout=2, threads=1)
        started = time.monotonic()
        print(f"start: RSS {rss_mib():.1f} MiB")
        for number in range(1, args.count + 1):
            row = solve_file(paths[number % len(paths)], options, 2 * 2**30)
            assert row["result"] == "OPTIMUM FOUND", row
            if number % 1000 == 0:
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                print(
                    f"{number:>6} instances: RSS {rss_mib():.1f} MiB (peak {peak:.1f}), "
                    f"{(time.monotonic() - started) / number * 1000:.1f} ms each",
                    flush=True,
                )


if __name__ == "__main__":
    main()
