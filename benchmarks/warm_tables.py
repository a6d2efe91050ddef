"""Table time of a first and a second solve of the same puzzle (issue #28: a second
solve with a warm on-disk cache spends under 0.1 s on its pattern tables).

    python -m benchmarks.warm_tables FILE... [--method asp] [--warm-runs 3]
        [--out results/warm_tables.log]

Per file, in one process with an empty cache folder of its own: a solve (cold: every
table built and stored), then ``--warm-runs`` times the in-memory tables dropped (as a
new process would start) and the same solve again (warm: read from disk); the median
and the worst warm run are given.  "Table time" is the wall time spent in
``goal_database`` and ``beam_database`` (:mod:`hanoi_asp.methods.patterns`: building or
reading every table the solve asks for: the bound's, the strong ones, the beam's),
wherever the engine calls them; the solve's own total is beside it.  Writes
``results/warm_tables.log`` (``--out``).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import result_file
from hanoi_asp import SolveOptions, load_puzzle, solve


def timed_tables() -> tuple[list[float], Callable[[], None]]:
    """Wrap ``goal_database`` and ``beam_database`` wherever the engine imported them: the
    list collects the seconds of each call; the function drops the tables built in
    memory.  Every module of ``hanoi_asp.engine`` and ``hanoi_asp.methods`` is imported
    first, so no caller is missed.  (Both and their in-memory cache are internals of the
    pattern tables, which ``hanoi_asp`` does not export.)"""
    import hanoi_asp.engine
    import hanoi_asp.methods
    from hanoi_asp.methods.patterns import beam_database, goal_database

    for package in (hanoi_asp.engine, hanoi_asp.methods):
        for found in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(found.name)
    in_memory: dict[Any, Any] = sys.modules[goal_database.__module__]._CACHE
    spent: list[float] = []

    def timing(function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent.append(time.perf_counter() - began)

        return wrapped

    for function in (goal_database, beam_database):
        name, wrapped = function.__name__, timing(function)
        for module_name, module in list(sys.modules.items()):
            if module_name.startswith("hanoi_asp.") and getattr(module, name, None) is function:
                setattr(module, name, wrapped)
    return spent, in_memory.clear


def main(argv: list[str] | None = None) -> int:
    from hanoi_asp.methods import table_cache

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.warm_tables", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("files", nargs="+")
    parser.add_argument("--method", default="asp")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--warm-runs", type=int, default=3, help="warm solves per file")
    parser.add_argument("--out", type=Path, default=result_file("warm_tables", ".log"))
    args = parser.parse_args(argv)
    if args.warm_runs < 1:
        parser.error("--warm-runs must be at least 1")
    log = Log()
    log_header(log, "warm_tables", sys.argv[1:] if argv is None else argv)
    log(f"method {args.method}: table time / whole solve (s)")
    spent, drop_tables = timed_tables()
    options = SolveOptions(method=args.method, timeout=args.timeout)
    for path in args.files:
        puzzle = load_puzzle(path)
        row = [Path(path).name]
        with tempfile.TemporaryDirectory(prefix="hanoi-warm-") as folder, table_cache.using(folder):
            warm: list[tuple[float, float, str]] = []
            for run in range(1 + args.warm_runs):
                drop_tables()
                spent.clear()
                began = time.perf_counter()
                result = solve(puzzle, options)
                total = time.perf_counter() - began
                answer = f"{result.result} {result.length}"
                if run == 0:
                    row.append(f"cold {sum(spent):.3f} / {total:.2f} ({answer})")
                else:
                    warm.append((sum(spent), total, answer))
        tables, totals = [t for t, _, _ in warm], [t for _, t, _ in warm]
        answers = ", ".join(sorted({a for _, _, a in warm}))
        row.append(
            f"warm x{len(warm)}: {statistics.median(tables):.3f} (worst {max(tables):.3f}) / "
            f"{statistics.median(totals):.2f} (worst {max(totals):.2f}) ({answers})"
        )
        log("  ".join(row))
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
