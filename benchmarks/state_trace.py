"""Where the run state travels (issue #46): the engine's modules a solve passes through
while it holds the search's state, in order.

    python -m benchmarks.state_trace FILE [--horizons 1] [--out results/state_trace.log]

Every call into a function of ``hanoi_asp/engine`` whose frame holds the search state
(a ``SearchState`` as an argument or as its object's ``run``) is a stop at that
function's module; consecutive stops at one module are one.  Printed: the stops in
order, how many modules, and how often the path comes back to a module it had left;
then the same with the scheduler's repeated turns counted once (:func:`one_pass`: a
run of stops repeated back to back is kept once), the path of one turn; then that path
from the strategy's entry on (:func:`from_strategy`).
The path is followed from the strategy's start through ``--horizons`` horizons of
clingo's (the loop repeats the same path each horizon after).  It runs in this
process, with the table cache off and no A* process (the race's own path is the
scheduler's, the same either way).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import result_file


def _holds_state(frame: FrameType, state_type: type) -> bool:
    for value in frame.f_locals.values():
        if isinstance(value, state_type):
            return True
        if isinstance(getattr(value, "run", None), state_type):
            return True
    return False


def trace(path: str, horizons: int) -> list[str]:
    """The modules the search state passes through, in order (repeats collapsed)."""
    from hanoi_asp import SolveOptions, load_puzzle, solve
    from hanoi_asp.engine.state import SearchState

    stops: list[str] = []
    asked = [0]
    engine = str(Path(sys.modules["hanoi_asp.engine"].__file__ or "").parent)

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or asked[0] > horizons:
            return
        filename = frame.f_code.co_filename
        if not filename.startswith(engine):
            return
        if frame.f_code.co_name == "ask":
            asked[0] += 1
        if _holds_state(frame, SearchState):
            module = filename[len(engine) + 1 :]
            if not stops or stops[-1] != module:
                stops.append(module)

    sys.setprofile(profile)
    try:
        solve(load_puzzle(path), SolveOptions(astar=False, table_cache=False))
    finally:
        sys.setprofile(None)
    return stops


def one_pass(stops: list[str]) -> list[str]:
    """``stops`` with every sequence repeated back to back kept once (``a b a b c`` ->
    ``a b c``): the loops' turns (the scheduler's quanta, the horizons) counted once."""
    path = list(stops)
    found = True
    while found:
        found = False
        for length in range(1, len(path) // 2 + 1):
            for start in range(len(path) - 2 * length + 1):
                middle = start + length
                if path[start:middle] == path[middle : middle + length]:
                    del path[middle : middle + length]
                    found = True
                    break
            if found:
                break
    return path


def from_strategy(stops: list[str]) -> list[str]:
    """``stops`` from the strategy's entry on (the issue's measure: the path "followed
    from the strategy through the calls"; before it, :mod:`hanoi_asp.engine.search`
    builds the state and its first plan and bound).  All of them if no strategy ran."""
    for index, module in enumerate(stops):
        if module.startswith("strategies/"):
            return stops[index:]
    return stops


def summary(stops: list[str]) -> str:
    """How many stops, modules and returns, and the most visited modules."""
    visits = Counter(stops)
    return (
        f"{len(stops)} stops in {len(visits)} modules; {len(stops) - len(visits)} returns "
        f"to a module left before; most visits: "
        + ", ".join(f"{module} {count}" for module, count in visits.most_common(4))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.state_trace", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("file")
    parser.add_argument("--horizons", type=int, default=1)
    parser.add_argument("--out", type=Path, default=result_file("state_trace", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "state_trace", sys.argv[1:] if argv is None else argv)
    stops = trace(args.file, args.horizons)
    log(" -> ".join(stops))
    log(summary(stops))
    turn = one_pass(stops)
    log("repeated turns once: " + " -> ".join(turn))
    log(summary(turn))
    strategy = from_strategy(turn)
    if strategy != turn:
        log("from the strategy on: " + " -> ".join(strategy))
        log(summary(strategy))
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
