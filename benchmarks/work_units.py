"""The exchange rates of the work units (``hanoi_asp/methods/work.py``,
``hanoi_asp/engine/ledger.py``): seconds per unit of each worker, in one process, on the
same puzzles, one after the other, so that a loaded machine slows them alike.

    python -m benchmarks.work_units FILE... [--rounds 3] [--out results/work_units.log]

Times are the process's CPU time (a shared machine's load changes the wall time far
more).  Per file and round: the bound's pattern tables built (no cache: every table built; per
unit of :func:`~hanoi_asp.methods.work.table_work`), A* on them for
:data:`ASTAR_WORK` units, beams of width 1024 and 4096, and clingo with the pattern
propagator up the horizons from the bound for :data:`CLINGO_TICKS` propagator calls
(per :data:`~hanoi_asp.engine.ledger.PROPAGATE` units).  A unit is meant to take the
same time whoever does it: the ratios printed (each worker's seconds per unit over A*'s)
should be near 1; the median over files and rounds is what a constant should be scaled
by.  The A* racing clingo meets it at equal work, so a ratio far from 1 is time one side
waits (``docs/decisions/work-units.md``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import result_file
from hanoi_asp import SolveOptions, load_puzzle
from hanoi_asp.engine.bounds import lower_bound
from hanoi_asp.engine.ledger import PROPAGATE
from hanoi_asp.engine.policy import choose_strategy
from hanoi_asp.engine.solvers import make_solver
from hanoi_asp.methods import astar, beam, table_cache
from hanoi_asp.methods.patterns import database, goal_database, tables_price
from hanoi_asp.model.puzzle import Puzzle

ASTAR_WORK = 3_000_000
CLINGO_TICKS = 4_000
WIDTHS = (1024, 4096)


def _tables(puzzle: Puzzle) -> tuple[float, int]:
    database._CACHE.clear()
    began = time.process_time()
    tables = goal_database(puzzle)
    return time.process_time() - began, tables_price(puzzle, tables)


def _astar(puzzle: Puzzle) -> tuple[float, int]:
    tables = goal_database(puzzle)
    began = time.process_time()
    found = astar.search(puzzle, tables, rent=ASTAR_WORK)
    return time.process_time() - began, found.work


def _beam(puzzle: Puzzle) -> tuple[float, int]:
    tables = goal_database(puzzle)
    seconds, work = 0.0, 0
    for width in WIDTHS:
        began = time.process_time()
        found = beam.search(puzzle, tables, width)
        seconds, work = seconds + time.process_time() - began, work + found.work
    return seconds, work


def _clingo(puzzle: Puzzle) -> tuple[float, int]:
    """Propagator calls and seconds, up the horizons from the bound (timing the solve
    calls alone: grounding and set-up aside)."""
    options = SolveOptions(threads=1)
    strategy = choose_strategy(puzzle, options, None)
    ticks = [0]

    def checkpoint(count: int, horizon: int) -> bool:
        ticks[0] = count
        return count < CLINGO_TICKS

    solver = make_solver(
        puzzle, strategy, minimal=True, tables=goal_database(puzzle), checkpoint=checkpoint
    )
    horizon = lower_bound(puzzle).value
    began = time.process_time()
    while ticks[0] < CLINGO_TICKS:
        record, steps = solver.run(horizon, time.monotonic() + 120)
        if steps is not None or record.status == "UNKNOWN":
            break
        horizon += 1
    return time.process_time() - began, ticks[0] * PROPAGATE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.work_units", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=result_file("work_units", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "work_units", sys.argv[1:] if argv is None else argv)
    workers = {"tables": _tables, "astar": _astar, "beam": _beam, "clingo": _clingo}
    ratios: dict[str, list[float]] = {name: [] for name in workers}
    with table_cache.disabled():
        for round_ in range(args.rounds):
            for path in args.files:
                puzzle = load_puzzle(str(path))
                pace = {}
                for name, measure in workers.items():
                    seconds, work = measure(puzzle)
                    pace[name] = seconds / work if work else float("nan")
                for name in workers:
                    ratios[name].append(pace[name] / pace["astar"])
                cells = "  ".join(
                    f"{name} {pace[name] * 1e6:.3f} us/unit ({pace[name] / pace['astar']:.2f})"
                    for name in workers
                )
                log(f"round {round_ + 1} {path.name}: {cells}")
    log("median ratio to A* over files and rounds (1: a unit takes as long as A*'s):")
    for name, values in ratios.items():
        finite = [v for v in values if v == v]
        low, high = min(finite), max(finite)
        log(f"  {name}: {statistics.median(finite):.2f} (from {low:.2f} to {high:.2f})")
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
