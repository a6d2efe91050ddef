"""The reference methods side by side with the ASP planner on whole towers.

    python benchmarks/methods.py --runs 3

Each method runs ``--runs`` times in this process (they are deterministic; the
median is of wall times); prints a Markdown table of lengths and median seconds.
BFS is the one expected to grow: pegs^disks states.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.model.result import Method

CASES = [(3, 8), (3, 10), (3, 12), (4, 8), (4, 9), (4, 10), (5, 8)]


def tower(pegs: int, disks: int) -> Puzzle:
    names = tuple("abcdefgh"[:pegs])
    stack = tuple(range(1, disks + 1))
    return Puzzle(pegs=names, disks=disks, init={"a": stack}, goal={names[-1]: stack})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    methods: tuple[Method, ...] = ("recursive", "frame-stewart", "bfs", "asp")
    print("| pegs | disks | " + " | ".join(methods) + " |")
    print("|---|---|" + "---|" * len(methods))
    for pegs, disks in CASES:
        cells = []
        for method in methods:
            if method == "recursive" and pegs != 3:
                cells.append("n/a")
                continue
            times, result = [], None
            for _ in range(args.runs):
                started = time.perf_counter()
                result = solve(tower(pegs, disks), SolveOptions(method=method, max_moves=5000))
                times.append(time.perf_counter() - started)
            assert result is not None
            cells.append(f"{result.length} in {statistics.median(times):.2f} s")
        print(f"| {pegs} | {disks} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
