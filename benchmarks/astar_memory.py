"""Memory A* takes per stored state, for ``ASTAR_STATE_BYTES`` in
``hanoi_asp/engine/reference.py`` (its default budget is half the available memory
divided by that figure).

    python -m benchmarks.astar_memory [INSTANCE]

Each budget runs in a fresh process (peak RSS is per process): the tables are built,
then A* runs until it has stored the budget; the bytes per state are the growth of the
peak RSS over a run with a tiny budget, divided by the extra states stored.  Writes
``results/astar_memory.log`` (``--out``).
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import HARD, result_file, shown
from benchmarks.harness.processes import in_fresh_process
from hanoi_asp import load_puzzle

BUDGETS = (10_000, 500_000, 1_000_000, 2_000_000)
"""States A* may store; the first, tiny, is the baseline the others are measured from."""


def _astar_worker(instance: str, budget: int, answers: Any) -> None:
    # the pattern tables' builder, not exported by hanoi_asp: A* needs its tables
    from hanoi_asp.methods import astar
    from hanoi_asp.methods.patterns import goal_database

    puzzle = load_puzzle(instance)
    found = astar.search(puzzle, goal_database(puzzle), max_states=budget)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    answers.put({"stored": found.stored, "peak": peak, "stopped": found.stopped})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.astar_memory", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("instance", nargs="?", default=str(HARD / "4pegs-12disks-arbitrary.lp"))
    parser.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS))
    parser.add_argument("--out", type=Path, default=result_file("astar_memory", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "astar_memory", sys.argv[1:] if argv is None else argv)
    runs = []
    for budget in args.budgets:
        run = in_fresh_process(_astar_worker, (args.instance, budget), 3600)
        if isinstance(run, str):
            raise SystemExit(f"budget {budget}: {run}")
        runs.append(run)
    base = runs[0]
    name = shown(Path(args.instance))
    log(f"{name}: baseline {base['stored']} states, peak {base['peak'] / 2**20:.0f} MiB")
    for run in runs[1:]:
        extra = run["stored"] - base["stored"]
        per = (run["peak"] - base["peak"]) / extra if extra else float("nan")
        log(
            f"  {run['stored']:>9} states ({run['stopped']}): peak {run['peak'] / 2**20:.0f} MiB,"
            f" {per:.0f} bytes per extra state"
        )
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
