"""``hanoi-asp check`` as a whole process: on every shipped instance with the engine's plan
(target: each within 2 s), and on random 4-peg 14-disk puzzles with an optimal plan
(target: "optimal" within 10 s) and a legal plan 2 moves longer ("2 moves over the
optimum") (issue #47).

    python -m benchmarks.check_speed                    # 3 random puzzles, --timeout 10
    python -m benchmarks.check_speed --random 1 --methods astar

The plans are made first, in this process, and are not timed: the engine's plan of each
shipped instance (``solve`` under a 30 s limit: the best plan where it is not proven; an
empty plan where there is none), and for each random puzzle the optimum (``solve`` with
no limit) and the same plan with the smallest disk moved away and back first.  Each check
is then a fresh ``python -m hanoi_asp check INSTANCE PLAN --json`` (default ``--timeout``
on the shipped instances; ``--timeout 10`` and each ``--method`` on the random ones),
timed from its start to its exit; its verdict is printed beside its time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import ROOT, result_file
from benchmarks.harness.peers.ours import compile_tree, environment
from benchmarks.harness.processes import run_tree
from hanoi_asp import Puzzle, SolveOptions, load_puzzle, solve
from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.inputs.generate import random_puzzle
from hanoi_asp.inputs.instance import KNOWN_SUFFIXES

SHIPPED_TARGET_S = 2.0
RANDOM_TARGET_S = 10.0
KILL_AFTER_S = 120.0


def shipped() -> list[Path]:
    return sorted(p for p in (ROOT / "instances").rglob("*") if p.suffix in KNOWN_SUFFIXES)


def plan_of(puzzle: Puzzle, timeout: float | None) -> list[dict[str, Any]]:
    result = solve(puzzle, SolveOptions(timeout=timeout))
    return [move.as_dict() for move in result.plan or ()]


def detour(puzzle: Puzzle, plan: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The smallest disk away and back first: legal on the complete graph, 2 moves more."""
    disk = puzzle.disks
    home = puzzle.pegs[puzzle.initial_state()[disk - 1]]
    away = next(p for p in puzzle.pegs if p != home)
    moves = [{"disk": m["disk"], "to": m["to"]} for m in plan]
    return [{"disk": disk, "to": away}, {"disk": disk, "to": home}, *moves]


def check(instance: Path, plan: Path, *extra: str) -> tuple[float, str]:
    command = [sys.executable, "-m", "hanoi_asp", "check", str(instance), str(plan), "--json"]
    done = run_tree([*command, *extra], timeout_s=KILL_AFTER_S, cwd=ROOT, env=environment(ROOT))
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        return done.seconds, f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
    return done.seconds, str(data.get("words") or data.get("error"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.check_speed", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--random", type=int, default=3, help="random 4-peg 14-disk puzzles")
    parser.add_argument("--methods", nargs="+", default=["asp", "astar"])
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--out", type=Path, default=result_file("check_speed", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "check_speed", sys.argv[1:] if argv is None else argv)
    compile_tree(ROOT)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        worst = 0.0
        log(
            f"shipped instances, the engine's plan, default --timeout (target "
            f"{SHIPPED_TARGET_S} s):"
        )
        for index, instance in enumerate(shipped()):
            plan = folder / f"shipped-{index}.json"
            plan.write_text(json.dumps(plan_of(load_puzzle(str(instance)), 30.0)))
            seconds, words = check(instance, plan)
            worst = max(worst, seconds)
            log(f"  {seconds:6.2f} s  {instance.relative_to(ROOT)}: {words}")
        log(f"  slowest {worst:.2f} s: {'met' if worst <= SHIPPED_TARGET_S else 'NOT met'}")
        rng = random.Random(args.seed)
        for number in range(args.random):
            puzzle = random_puzzle(rng, 4, 14, partial=False)
            instance = folder / f"random4-n14-{number}.lp"
            instance.write_text(to_facts(puzzle) + "\n")
            optimal = plan_of(puzzle, None)
            plans = {"optimal": optimal, "2 longer": detour(puzzle, optimal)}
            log(f"{instance.name} (optimum {len(optimal)}), --timeout {RANDOM_TARGET_S:g}:")
            for kind, moves in plans.items():
                plan = folder / f"{instance.stem}-{kind.replace(' ', '-')}.json"
                plan.write_text(json.dumps(moves))
                for method in args.methods:
                    seconds, words = check(
                        instance, plan, "--timeout", str(RANDOM_TARGET_S), "--method", method
                    )
                    log(f"  {seconds:6.2f} s  {kind:9s} --method {method:5s}: {words}")
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
