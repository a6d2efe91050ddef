"""What racing A* in step costs (issue #46): how long the engine waits for A* at its
checkpoints, per solve, against the solve's time.

    python -m benchmarks.race_wait FILE... [--runs 1] [--out results/race_wait.log]

Each solve runs in a fresh process (``spawn``), cold (no table cache), with the
engine's defaults; the engine's waits for A*'s word (:meth:`Rival._receive
<hanoi_asp.engine.astar_race.Rival._receive>` blocking on the pipe) are timed there.
A wait is time the main process did no work because A*, on the other core, had not yet
said it had done as much work: it is what stepping costs over racing freely, where the
first to answer on the clock won.  The answer's gist is printed beside it, to see
whether A* or clingo proved the puzzle.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import result_file
from benchmarks.harness.processes import in_fresh_process


def _timed_solve(path: str, answers: Any) -> None:
    """In the fresh process: one cold solve, its waits for A* timed."""
    from hanoi_asp import SolveOptions, load_puzzle, solve
    from hanoi_asp.engine import astar_race

    waited = [0.0, 0]
    receive = astar_race.Rival._receive

    def timed(self: astar_race.Rival) -> Any:
        began = time.perf_counter()
        try:
            return receive(self)
        finally:
            waited[0] += time.perf_counter() - began
            waited[1] += 1

    astar_race.Rival._receive = timed  # type: ignore[method-assign]
    result = solve(load_puzzle(path), SolveOptions(table_cache=False))
    origin = result.proof_data.plan
    answers.put(
        {
            "time_s": result.time_s,
            "waited": waited[0],
            "waits": waited[1],
            "result": f"{result.result} {result.length} ({result.bound.name}, plan from "
            f"{origin.source if origin else '-'}, {len(result.horizons)} horizons)",
        }
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.race_wait", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per solve")
    parser.add_argument("--out", type=Path, default=result_file("race_wait", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "race_wait", sys.argv[1:] if argv is None else argv)
    shares: list[float] = []
    for path in args.files:
        for run in range(args.runs):
            answer = in_fresh_process(_timed_solve, (str(path),), args.limit)
            if isinstance(answer, str):
                log(f"{path.name} run {run + 1}: {answer}")
                continue
            share = answer["waited"] / answer["time_s"] if answer["time_s"] else 0.0
            shares.append(share)
            log(
                f"{path.name} run {run + 1}: {answer['time_s']:.2f} s, waited for A* "
                f"{answer['waited']:.2f} s in {answer['waits']} reads ({share:.0%}): "
                f"{answer['result']}"
            )
    if shares:
        median, worst = statistics.median(shares), max(shares)
        log(f"waiting, share of the solve: median {median:.0%}, worst {worst:.0%}")
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
