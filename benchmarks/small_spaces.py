"""Small state spaces proven at once (issue #46): every puzzle of at most 2^20 states
(3 pegs up to 12 disks, 4 pegs up to 10, 5 pegs up to 8, 6 pegs up to 7), of every
shape, proven minimal within 1 s of solving (0.5 s median).

    python -m benchmarks.small_spaces [--per-size 10] [--seed 0] [--runs 1]
        [--baseline-rev REV] [--no-check] [--out results/small_spaces.csv]

The family (:func:`family`): per size (pegs, disks), ``--per-size`` puzzles cycling
through the shapes of :data:`SHAPES`: random full and partial goals, a whole tower,
gathering a random start into one tower, spreading one tower to a random goal, and
random full or partial goals on a restricted move graph (in a line, in a cycle, or
random moves, which may leave the goal unreachable).  On 3 pegs the move graphs stop at
10 disks: in a line a plan of 11 disks can take 177,146 moves, past what a table
holds.  Each puzzle is written to ``results/instances-small/`` (not kept in git) and
solved by ``python -m hanoi_asp solve FILE --json --no-cache`` in a fresh process; its
plan is replayed here and its length checked against breadth-first search
(:func:`hanoi_asp.methods.bfs.search`, which shares no code with the engine's tables;
``--no-check`` skips it).  The time is the solve's own (``time_s``: from reading the
file to the answer, Python's start-up aside), the median and the worst over the family;
with ``--baseline-rev`` the same puzzles run on that revision too, alternating.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness.cases import write_instance
from benchmarks.harness.output import Log, csv_rows, log_footer, log_header
from benchmarks.harness.paths import ROOT, result_file
from benchmarks.harness.peers.ours import baseline_tree, check_plan, solve_command, solve_json
from hanoi_asp import Puzzle
from hanoi_asp.methods import bfs

SIZES = ((3, 9), (3, 10), (3, 11), (3, 12), (4, 8), (4, 9), (4, 10), (5, 7), (5, 8), (6, 6), (6, 7))
"""Every (pegs, disks) of the family: each has at most 2^20 states."""
SHAPES = (
    "full",
    "partial",
    "tower",
    "partial",
    "gather",
    "graph-full",
    "spread",
    "graph-partial",
    "full",
    "partial",
)
"""The shapes, in the order a size's puzzles take them."""
GRAPHS = ("linear", "cyclic", "random")
GRAPH_DISKS_3 = 10
"""The most disks of a 3-peg puzzle on a restricted move graph in the family."""
TARGET_WORST, TARGET_MEDIAN = 1.0, 0.5


@dataclass(frozen=True)
class Small:
    name: str
    shape: str
    puzzle: Puzzle


def family(per_size: int, seed: int) -> Iterator[Small]:
    """The family's puzzles, the same for the same ``seed``."""
    rng = random.Random(f"small-spaces-{seed}")
    for pegs, disks in SIZES:
        for index in range(per_size):
            shape = SHAPES[index % len(SHAPES)]
            if shape.startswith("graph") and pegs == 3 and disks > GRAPH_DISKS_3:
                shape = shape.removeprefix("graph-")
            name = f"small-{pegs}p-{disks}d-{index}-{shape}"
            yield Small(name, shape, _puzzle(rng, pegs, disks, shape))


def _puzzle(rng: random.Random, pegs: int, disks: int, shape: str) -> Puzzle:
    names = tuple("abcdefghij"[:pegs])
    every = range(1, disks + 1)
    start = {d: rng.choice(names) for d in every}
    goal = {d: rng.choice(names) for d in every}
    if shape in ("tower", "gather", "spread"):
        source, target = rng.sample(names, 2)
        if shape != "gather":
            start = dict.fromkeys(every, source)
        if shape != "spread":
            goal = dict.fromkeys(every, target)
    if shape.endswith("partial"):
        goal = {d: p for d, p in goal.items() if rng.random() < 0.5} or {disks: goal[disks]}
    edges: tuple[tuple[str, str], ...] | str | None = None
    if shape.startswith("graph"):
        edges = rng.choice(GRAPHS)
        if edges == "random":
            pairs = [(a, b) for a in names for b in names if a != b]
            edges = tuple(pair for pair in pairs if rng.random() < 0.6) or (pairs[0],)
    return Puzzle(
        pegs=names,
        disks=disks,
        init=_stacks(start),
        goal=_stacks(goal),
        moves_allowed=edges,
    )


def _stacks(where: dict[int, str]) -> dict[str, tuple[int, ...]]:
    stacks: dict[str, tuple[int, ...]] = {}
    for disk in sorted(where):
        stacks[where[disk]] = (*stacks.get(where[disk], ()), disk)
    return stacks


def optimum(puzzle: Puzzle) -> int | None:
    """Breadth-first search's optimum (None: no plan at all)."""
    space = len(puzzle.pegs) ** puzzle.disks
    found = bfs.search(puzzle, max_moves=None, max_states=space + 1)
    return None if found.steps is None else len(found.steps)


def solve_once(path: Path, puzzle: Puzzle, tree: Path, timeout: float) -> dict[str, Any]:
    """One cold solve (``--no-cache``): its answer, time and plan check."""
    command = solve_command(path, timeout, "--no-cache")
    answer = solve_json(command, tree, kill_after=timeout + 5)
    data = answer.json or {}
    plan = data.get("plan") or []
    return {
        "result": data.get("result", answer.why or "ERROR"),
        "length": data.get("length"),
        "lower_bound": data.get("lower_bound"),
        "time_s": data.get("time_s"),
        "wall_s": answer.run.seconds,
        "bound": (data.get("bound") or {}).get("name"),
        "proof": (data.get("proof_data") or {}).get("kind"),
        "horizons": len(data.get("horizons") or []),
        "check": check_plan(puzzle, plan) if plan else "no plan",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.small_spaces", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--per-size", type=int, default=10, help="puzzles per (pegs, disks)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=1, help="solves of each puzzle")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--baseline-rev", help="also solve on this revision, alternating")
    parser.add_argument("--no-check", action="store_true", help="skip breadth-first search")
    parser.add_argument("--out", type=Path, default=result_file("small_spaces"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "small_spaces", sys.argv[1:] if argv is None else argv)
    folder = result_file("instances-small", "")
    columns = ["engine", "case", "shape", "run", "optimum", "result", "length", "lower_bound"]
    columns += ["time_s", "wall_s", "bound", "proof", "horizons", "check", "verdict"]
    times: dict[str, list[float]] = {}
    failed: list[str] = []
    with (
        baseline_tree(args.baseline_rev or "", bool(args.baseline_rev)) as (base, why),
        csv_rows(args.out, columns) as rows,
    ):
        if args.baseline_rev and base is None:
            raise SystemExit(why)
        engines = [("ours", ROOT)] + ([(f"base {args.baseline_rev}", base)] if base else [])
        for case in family(args.per_size, args.seed):
            path = folder / f"{case.name}.lp"
            write_instance(path, case.puzzle, f"benchmarks/small_spaces: {case.name}")
            best = None if args.no_check else optimum(case.puzzle)
            for run in range(args.runs):
                for engine, tree in engines:
                    assert tree is not None
                    row = solve_once(path, case.puzzle, tree, args.timeout)
                    verdict = _verdict(row, best, args.no_check)
                    row.update(engine=engine, case=case.name, shape=case.shape, run=run)
                    row.update(optimum=best, verdict=verdict)
                    rows.write(row)
                    times.setdefault(engine, []).append(float(row["time_s"] or args.timeout))
                    if verdict != "ok" and engine == "ours":
                        failed.append(f"{case.name}: {verdict}")
                    log(
                        f"{engine:>14} {case.name:<34} {row['result']:<14} {row['length']} "
                        f"(optimum {best}) {row['time_s']} s {row['bound']} {verdict}"
                    )
    for engine, seconds in times.items():
        median, worst = statistics.median(seconds), max(seconds)
        met = "met" if median <= TARGET_MEDIAN and worst <= TARGET_WORST else "NOT met"
        log(
            f"{engine}: {len(seconds)} solves, median {median:.3f} s, worst {worst:.3f} s "
            f"(target: median {TARGET_MEDIAN} s, worst {TARGET_WORST} s: {met})"
        )
    for line in failed:
        log(f"FAILED {line}")
    log_footer(log)
    log.save(args.out.with_suffix(".log"))
    return 1 if failed else 0


def _verdict(row: dict[str, Any], best: int | None, unchecked: bool) -> str:
    """``ok`` when the answer is proven and agrees with breadth-first search."""
    if row["check"].startswith("failed"):
        return f"invalid plan ({row['check']})"
    if row["result"] == "UNSATISFIABLE" and best is None and not unchecked:
        return "ok"
    if row["result"] != "OPTIMUM FOUND":
        return f"not proven ({row['result']})"
    if not unchecked and row["length"] != best:
        return f"length {row['length']} against the optimum {best}"
    return "ok"


if __name__ == "__main__":
    sys.exit(main())
