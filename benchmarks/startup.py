"""Start-up: whole processes of small commands, ours beside Fast Downward and a baseline
revision, run in turn in the same loop (issue #47).

    python -m benchmarks.startup                 # 10 rounds, baseline 5c69f29
    python -m benchmarks.startup --runs 3 --baseline none

Each round runs, one after the other: ``python -c pass`` (the interpreter alone), the
floor (:data:`FLOOR`: pydantic and clingo alone, as any command line on them pays),
``hanoi-asp --help``, ``hanoi-asp solve instances/quickstart.lp``, then for a 3-peg
10-disk tower and a random 3-peg 11-disk puzzle our ``solve`` and Fast Downward
(``astar(lmcut())``, the ``planner:fast-downward`` configuration's search, on our PDDL,
written before the clock starts), and the same commands of the baseline revision.  Our
commands are ``python -m hanoi_asp`` with both trees compiled to bytecode first (as
``pip install`` leaves them).  Every plan is checked: ours by the exit code and the
optimum's length, Fast Downward's by replaying its plan.  Prints median and worst per
command, and where our start-up goes (``python -X importtime``, the largest imports of
the quickstart solve).  Targets: quickstart at most 0.15 s, ``--help`` at most 0.1 s
(medians), ours ahead of Fast Downward on both puzzles.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import QUICKSTART_INSTANCE, ROOT, result_file
from benchmarks.harness.peers.fast_downward import driver
from benchmarks.harness.peers.ours import baseline_tree, compile_tree, environment
from benchmarks.harness.processes import last_line, run_tree
from benchmarks.harness.stats import Spread, met
from hanoi_asp import Puzzle, replay
from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.inputs.generate import random_puzzle
from hanoi_asp.inputs.pddl_plan import plan_steps
from hanoi_asp.outputs.pddl import hanoi_pddl

TARGETS = {"quickstart": 0.15, "--help": 0.10}
FLOOR = """
import argparse, gc, json
import clingo
from pydantic import BaseModel, Field, field_validator
class Floor(BaseModel):
    disks: int = Field(ge=1)
    @field_validator("disks")
    @classmethod
    def _same(cls, disks: int) -> int:
        return disks
Floor(disks=4)
gc.freeze()
"""
"""What a solve cannot go below while ``Puzzle`` is a pydantic model and instances are
read into clingo symbols: the interpreter, argparse and json, clingo, pydantic with one
model (a constraint, a validator) made and used, and Python's exit as hanoi-asp's (its
objects frozen, ``hanoi_asp/__main__.py``)."""
KILL_AFTER_S = 60.0
Check = Callable[[int | None, Path], str]
"""What is wrong with a finished run (its exit code, its folder), or ""."""
Commands = dict[str, tuple[list[str], Path, dict[str, str]]]


def puzzles() -> dict[str, Puzzle]:
    """A 3-peg 10-disk tower and a random 3-peg 11-disk puzzle (seed 47)."""
    disks = tuple(range(1, 11))
    tower = Puzzle(pegs=("a", "b", "c"), disks=10, init={"a": disks}, goal={"c": disks})
    chosen = random_puzzle(random.Random(47), 3, 11, partial=False)
    return {"tower 3p10": tower, "random 3p11": chosen}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.startup", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--baseline", default="5c69f29", help="a revision, or none")
    parser.add_argument("--out", type=Path, default=result_file("startup", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "startup", sys.argv[1:] if argv is None else list(argv))
    with (
        tempfile.TemporaryDirectory() as temp,
        baseline_tree(args.baseline, args.baseline != "none") as (base, why),
    ):
        if why:
            log(f"baseline: {why}")
        folder = Path(temp)
        commands, checks = _commands(folder, base)
        for tree in (ROOT, base):
            if tree is not None:
                compile_tree(tree)
        times: dict[str, list[float]] = {name: [] for name in commands} if args.runs else {}
        for _ in range(args.runs):
            for name, (command, cwd, env) in commands.items():
                done = run_tree(command, timeout_s=KILL_AFTER_S, cwd=cwd, env=env)
                problem = checks[name](done.returncode, cwd)
                if problem:
                    raise SystemExit(f"{name}: {problem}: {last_line(done.stderr)}")
                times[name].append(done.seconds)
        log(f"{args.runs} rounds, every command once a round, in this order:")
        for name, values in times.items():
            spread = Spread(values)
            target = TARGETS.get(name)
            verdict = (
                "" if target is None else f"; target {target} s: {met(spread.median <= target)}"
            )
            log(f"  {name:26s} median {spread.median:.3f} s, worst {spread.worst:.3f} s{verdict}")
        if args.runs:
            over = (
                Spread(times["quickstart"]).median - Spread(times["pydantic+clingo floor"]).median
            )
            log(f"quickstart over the floor (medians): {over:.3f} s")
        for puzzle in puzzles() if args.runs else ():
            ours = Spread(times[f"ours {puzzle}"])
            fd = Spread(times[f"fast-downward {puzzle}"])
            ahead = met(ours.median < fd.median, ("ahead", "NOT ahead"))
            log(
                f"{puzzle}: ours / Fast Downward, medians {ours.median / fd.median:.2f}, "
                f"worst {ours.worst / fd.worst:.2f}: {ahead}"
            )
        _import_times(log)
    log_footer(log)
    log.save(args.out)
    return 0


def _commands(folder: Path, base: Path | None) -> tuple[Commands, dict[str, Check]]:
    """Every command of a round, in order, and how each run is checked."""
    ours = [sys.executable, "-m", "hanoi_asp"]
    env = environment(ROOT)
    commands: Commands = {
        "python -c pass": ([sys.executable, "-c", "pass"], ROOT, env),
        "pydantic+clingo floor": ([sys.executable, "-c", FLOOR], ROOT, env),
        "--help": ([*ours, "--help"], ROOT, env),
        "quickstart": ([*ours, "solve", str(QUICKSTART_INSTANCE)], ROOT, env),
    }
    checks: dict[str, Check] = {name: _exit_zero for name in commands}
    if base is not None:
        # run from the baseline's folder: python -m puts the current folder first on the
        # path, before PYTHONPATH, so from ROOT it would import this checkout's package
        base_env = environment(base)
        commands["baseline --help"] = ([*ours, "--help"], base, base_env)
        quickstart = [*ours, "solve", str(QUICKSTART_INSTANCE)]
        commands["baseline quickstart"] = (quickstart, base, base_env)
        checks["baseline --help"] = checks["baseline quickstart"] = _exit_zero
    fd = [sys.executable, str(driver()), "--plan-file", "plan", "domain.pddl", "problem.pddl"]
    for name, puzzle in puzzles().items():
        path = folder / f"{name.replace(' ', '-')}.lp"
        path.write_text(to_facts(puzzle) + "\n", encoding="utf-8")
        commands[f"ours {name}"] = ([*ours, "solve", str(path)], ROOT, env)
        checks[f"ours {name}"] = _exit_zero
        work = folder / name.replace(" ", "-")
        work.mkdir()
        domain, problem = hanoi_pddl(puzzle)
        (work / "domain.pddl").write_text(domain, encoding="utf-8")
        (work / "problem.pddl").write_text(problem, encoding="utf-8")
        commands[f"fast-downward {name}"] = ([*fd, "--search", "astar(lmcut())"], work, env)
        checks[f"fast-downward {name}"] = _plan_replays(puzzle)
        if base is not None:
            commands[f"baseline {name}"] = ([*ours, "solve", str(path)], base, environment(base))
            checks[f"baseline {name}"] = _exit_zero
    return commands, checks


def _exit_zero(code: int | None, _cwd: Path) -> str:
    return "" if code == 0 else f"exit {code}"


def _plan_replays(puzzle: Puzzle) -> Check:
    def check(code: int | None, cwd: Path) -> str:
        if code != 0:
            return f"exit {code}"
        replay(puzzle, plan_steps(puzzle, (cwd / "plan").read_text(encoding="utf-8")))
        return ""

    return check


def _import_times(log: Log, runs: int = 5) -> None:
    """Where a quickstart solve's imports go: each module's own import time (the least of
    ``runs``), summed per package (ours per subpackage)."""
    best: dict[str, int] = {}
    command = [sys.executable, "-X", "importtime", "-m", "hanoi_asp", "solve"]
    for _ in range(runs):
        done = run_tree(
            [*command, str(QUICKSTART_INSTANCE)],
            timeout_s=KILL_AFTER_S,
            cwd=ROOT,
            env=environment(ROOT),
        )
        for line in done.stderr.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
            if found:
                name, micros = found.group(2), int(found.group(1))
                best[name] = min(best.get(name, micros), micros)
    groups: dict[str, int] = {}
    for name, micros in best.items():
        parts = name.split(".")
        group = ".".join(parts[:2]) if parts[0] == "hanoi_asp" else parts[0]
        groups[group] = groups.get(group, 0) + micros
    total = sum(groups.values())
    log(
        f"python -X importtime -m hanoi_asp solve instances/quickstart.lp: {total / 1000:.1f} ms "
        f"of imports (each module's own time, least of {runs}), by package:"
    )
    for group, micros in sorted(groups.items(), key=lambda item: -item[1])[:14]:
        log(f"  {micros / 1000:7.1f} ms  {group}")


if __name__ == "__main__":
    sys.exit(main())
