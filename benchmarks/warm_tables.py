"""Table time of a first and a second solve of the same puzzle (issue #28: a second
solve with a warm on-disk cache spends under 0.1 s on its pattern tables).

    python benchmarks/warm_tables.py FILE... [--out benchmarks/results/warm_tables.log]

Per file, in one process with an empty cache folder of its own: a solve (cold: every
table built and stored), the in-memory tables dropped (as a new process would start),
the same solve again (warm: read from disk).  "Table time" is the wall time spent in
:func:`hanoi_asp.methods.patterns.goal_database` (building or reading every table the
solve asks for: the bound's, the strong ones); the solve's own total is beside it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hanoi_asp import SolveOptions, solve
from hanoi_asp.engine import bounds, reference, search
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.methods import patterns, table_cache


def timed_tables() -> list[float]:
    """Wrap ``goal_database`` where the engine calls it; the list collects seconds."""
    spent: list[float] = []
    original = patterns.goal_database

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - began)

    for module in (bounds, search, reference):
        module.goal_database = wrapped  # type: ignore[attr-defined]
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--method", default="asp")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    spent = timed_tables()
    lines = [f"benchmarks/warm_tables.py, method {args.method}: table time / whole solve (s)"]
    for path in args.files:
        puzzle = load_puzzle(path)
        row = [Path(path).name]
        with tempfile.TemporaryDirectory(prefix="hanoi-warm-") as folder, table_cache.using(folder):
            for label in ("cold", "warm"):
                patterns._CACHE.clear()
                spent.clear()
                began = time.perf_counter()
                result = solve(puzzle, SolveOptions(method=args.method, timeout=args.timeout))
                total = time.perf_counter() - began
                row.append(
                    f"{label} {sum(spent):.3f} / {total:.2f} ({result.result} {result.length})"
                )
        lines.append("  ".join(row))
        print(lines[-1], flush=True)
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
