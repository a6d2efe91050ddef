"""What one clingo thread costs where the engine used two (issue #46): the same solves
with ``--threads 1`` and ``--threads 2``, alternating, each in a fresh process.

    python -m benchmarks.threads [--runs 3] [--timeout 120] [--out results/threads.log]

The engine searched with two threads (clasp's parallel mode) wherever the pattern
propagator did not run: 3 pegs on the complete move graph (``distance3.lp``), a user's
encoding, ``--no-patterns``.  Two threads repeat no run (which thread finds what first
follows the machine's timing), so the default is one now.  The cases
(:func:`cases`): 3-peg partial goals of 13 and 14 disks (past the small spaces the
engine proves at once), 3-peg towers clingo must solve itself (``--no-first-plan``) or
refute every horizon of (``--bound none``), competition files without the propagator,
and the shipped incremental encoding given as a user's.  Printed per case: each run's
seconds, the median and the worst per thread count, and the ratio one thread / two.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

from benchmarks.harness.cases import tower, write_instance
from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import COMPETITION, ROOT, result_file
from benchmarks.harness.peers.ours import solve_command, solve_json
from hanoi_asp.inputs.generate import random_puzzle


def cases(folder: Path) -> list[tuple[str, Path, tuple[str, ...]]]:
    """(name, instance file, extra options) of every case, its files written to ``folder``."""
    rng = random.Random("benchmarks-threads")
    found: list[tuple[str, Path, tuple[str, ...]]] = []
    for disks in (13, 14):
        for index in range(2):
            path = folder / f"partial-3p-{disks}d-{index}.lp"
            write_instance(path, random_puzzle(rng, 3, disks, partial=True), "benchmarks/threads")
            found.append((path.stem, path, ()))
    for disks in (8, 10):
        path = folder / f"tower-3p-{disks}d.lp"
        write_instance(path, tower(3, disks), "benchmarks/threads")
        found.append((f"{path.stem} --no-first-plan", path, ("--no-first-plan",)))
    path = folder / "tower-3p-7d.lp"
    write_instance(path, tower(3, 7), "benchmarks/threads")
    found.append((f"{path.stem} --bound none", path, ("--bound", "none")))
    for name in ("0007", "0008", "0059"):
        (instance,) = COMPETITION.glob(f"{name}-*.asp")
        found.append((f"{name} --no-patterns", instance, ("--no-patterns",)))
    encoding = str(ROOT / "encodings" / "incremental.lp")
    classic = ROOT / "instances" / "classic" / "4pegs-6disks.lp"
    found.append(("4pegs-6disks --encoding incremental.lp", classic, ("--encoding", encoding)))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.threads", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--out", type=Path, default=result_file("threads", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "threads", sys.argv[1:] if argv is None else argv)
    folder = result_file("instances-threads", "")
    for name, path, extra in cases(folder):
        seconds: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.runs):
            for threads in (1, 2):
                command = solve_command(path, args.timeout, "--threads", str(threads), *extra)
                answer = solve_json(command, ROOT, kill_after=args.timeout + 10)
                data = answer.json or {}
                proven = data.get("result") == "OPTIMUM FOUND"
                seconds[threads].append(float(data["time_s"]) if proven else args.timeout)
        one, two = (statistics.median(seconds[t]) for t in (1, 2))
        worst = max(seconds[1]) / max(seconds[2])
        log(
            f"{name}: 1 thread {', '.join(f'{s:.2f}' for s in seconds[1])}; 2 threads "
            f"{', '.join(f'{s:.2f}' for s in seconds[2])}; median 1/2 {one / two:.2f}, "
            f"worst 1/2 {worst:.2f}"
        )
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
