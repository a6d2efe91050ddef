"""Hard cases, our engine side by side with peers in the same run (issue #14).

    python benchmarks/hard.py --dry-run                      # what would run, nothing runs
    python benchmarks/hard.py                                # everything: many hours
    python benchmarks/hard.py --families 'random4-*' --methods asp fd-lmcut --runs 3
    python benchmarks/hard.py --families smoke4-n5-full smoke3-n6 --runs 1 --timeout 20

Methods (``--methods``, default all):

* ``asp``: our default engine, ``python -m hanoi_asp solve FILE --json --timeout T``;
* ``astar``: the same with ``--method astar`` (an ERROR row where the CLI refuses it);
* ``baseline``: the engine at ``--baseline-rev`` (default ``771bb6e``, before this issue),
  from a ``git worktree`` in a temporary folder, run with ``PYTHONPATH`` pointing there;
* ``fd-blind``, ``fd-lmcut``, ``fd-ms``: Fast Downward, optimal A* on our PDDL
  translation (:mod:`peers.fast_downward`, :mod:`peers.pddl`);
* ``symk``: SymK's symbolic bidirectional search ``sym_bd()`` on the same PDDL
  (:mod:`peers.symk`, PyPI ``up-symk``);
* ``competition``: the ASP Competition's own encoding (:mod:`peers.aspcomp_encoding`),
  on the competition instances only.

Families (``--families``, names or shell patterns; instances from fixed seeds, written
once as ``.lp`` files to ``--instances``): random puzzles from
:func:`hanoi_asp.inputs.generate.random_puzzle` on 4 pegs (10, 12, 14 disks) and 5 pegs
(10, 12 disks), each with full and with partial goals; on 3 pegs random full goals (11,
12 disks); whole towers (3 pegs 10 disks, 4 pegs 12 and 13, 5 pegs 12); the 20
competition instances.  ``smoke*`` families (tiny) run only when named.

How it measures: every run is a fresh process group (:func:`peers.runs.run_tree`),
killed at ``--timeout`` (Fast Downward, which cannot stop itself) or at ``--timeout`` +
``--grace`` (ours and the competition encoding stop themselves at ``--timeout``), or when
the tree's resident memory passes ``--memory-limit`` (MEMOUT).  ``seconds`` is the wall
time of the whole process: Python's start-up and imports included for ours and the
competition encoding, the driver, translator and search for Fast Downward.  Our checkouts
are compiled to bytecode first, as ``pip install`` does (:func:`compile_tree`).  A run that
proves its answer after ``--timeout`` counts as a TIMEOUT (its length still takes part in
the cross-check).  Peak memory is that of the whole tree.  Every plan is replayed by
:func:`hanoi_asp.model.plan.replay`; every method that proves an optimum must agree on
its length per case (a disagreement is printed and marked ``DISAGREE`` in the CSV), and
our bounds must bracket the agreed optimum (``BOUND CONFLICT``).  Runs interleave: per
case, run 1 of every method, then run 2, ...; the order of methods rotates from one run
to the next, so machine noise and caches hit all alike.  Unless ``--no-skip``, a method
whose first run of a case timed out skips that case's later runs, and a method that timed
out on every case of a family skips the larger families of the same series.

Writes ``results/hard.csv`` (one row per run), ``results/hard.log`` (the table: per case
and method the median and worst time, ``ours / peer`` ratios paired run by run, median
and worst) and ``results/hard.png`` (per family, the median time per case, one marker per
method, log scale, timeouts drawn at the limit).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import fnmatch
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's hanoi_asp
sys.path.insert(0, str(Path(__file__).resolve().parent))  # and ``peers``

from peers import aspcomp_encoding, fast_downward, symk
from peers.runs import last_line, run_tree

from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.inputs.generate import random_puzzle
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.model.errors import VerificationError
from hanoi_asp.model.plan import replay
from hanoi_asp.model.puzzle import Puzzle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COMPETITION = ROOT / "instances" / "aspcomp"
RESULTS = HERE / "results"
METHODS = ("asp", "astar", "baseline", "symk", "fd-blind", "fd-lmcut", "fd-ms", "competition")
OURS = ("asp", "astar", "baseline")
TIMING_KEYS = ("reading", "first_plan", "bounds", "grounding", "solving")
FAILED = ("TIMEOUT", "MEMOUT")
COLUMNS = (
    "family",
    "case",
    "pegs",
    "disks",
    "goal",
    "method",
    "run",
    "status",
    "proven",
    "length",
    "lower_bound",
    "upper_bound",
    "seconds",
    "peak_mib",
    "exit_code",
    "check",
    "agree",
    *(f"{key}_s" for key in TIMING_KEYS),
    "detail",
    "instance",
)


@dataclass(frozen=True)
class Family:
    name: str
    kind: str  # random, tower or aspcomp
    pegs: int
    disks: int
    partial: bool = False
    default: bool = True  # smoke families run only when named

    @property
    def series(self) -> str:
        """Families that differ only in their disk count (for skipping larger ones)."""
        return f"{self.kind}{self.pegs}-{'partial' if self.partial else 'full'}"


FAMILIES = (
    Family("random3-n11", "random", 3, 11),
    Family("random3-n12", "random", 3, 12),
    Family("tower3-n10", "tower", 3, 10),
    Family("random4-n10-full", "random", 4, 10),
    Family("random4-n10-partial", "random", 4, 10, partial=True),
    Family("random4-n12-full", "random", 4, 12),
    Family("random4-n12-partial", "random", 4, 12, partial=True),
    Family("random4-n13-full", "random", 4, 13),
    Family("random4-n14-full", "random", 4, 14),
    Family("random4-n14-partial", "random", 4, 14, partial=True),
    Family("random4-n15-full", "random", 4, 15),
    Family("tower4-n12", "tower", 4, 12),
    Family("tower4-n13", "tower", 4, 13),
    Family("random5-n10-full", "random", 5, 10),
    Family("random5-n10-partial", "random", 5, 10, partial=True),
    Family("random5-n12-full", "random", 5, 12),
    Family("random5-n12-partial", "random", 5, 12, partial=True),
    Family("random5-n13-full", "random", 5, 13),
    Family("tower5-n12", "tower", 5, 12),
    Family("random6-n11-full", "random", 6, 11),
    Family("aspcomp", "aspcomp", 4, 0),
    Family("smoke4-n5-full", "random", 4, 5, default=False),
    Family("smoke4-n5-partial", "random", 4, 5, partial=True, default=False),
    Family("smoke3-n6", "random", 3, 6, default=False),
)


@dataclass(frozen=True)
class Case:
    family: Family
    name: str
    path: Path
    puzzle: Puzzle
    generated: bool = True  # written to ``path`` by this script (else a shipped file)


@dataclass
class Run:
    """One row of the CSV."""

    case: Case
    method: str
    run: int
    status: str = ""
    proven: bool = False
    length: int | None = None
    lower_bound: int | None = None
    upper_bound: int | None = None
    seconds: float | None = None
    peak_mib: float | None = None
    exit_code: int | None = None
    check: str = ""
    agree: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    detail: str = ""

    def row(self) -> dict[str, Any]:
        return {
            "family": self.case.family.name,
            "case": self.case.name,
            "pegs": self.case.family.pegs,
            "disks": self.case.puzzle.disks,
            "goal": "partial" if self.case.family.partial else "full",
            "method": self.method,
            "run": self.run,
            "status": self.status,
            "proven": int(self.proven),
            "length": self.length,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "seconds": None if self.seconds is None else round(self.seconds, 4),
            "peak_mib": None if self.peak_mib is None else round(self.peak_mib, 1),
            "exit_code": self.exit_code,
            "check": self.check,
            "agree": self.agree,
            **{f"{key}_s": self.timings.get(key) for key in TIMING_KEYS},
            "detail": self.detail,
            "instance": str(self.case.path),
        }


# -- cases ---------------------------------------------------------------------------


def tower(pegs: int, disks: int) -> Puzzle:
    names = tuple("abcdefghijklmnopqrstuvwxyz"[:pegs])
    every = tuple(range(1, disks + 1))
    return Puzzle(pegs=names, disks=disks, init={names[0]: every}, goal={names[-1]: every})


def cases_of(family: Family, count: int, seed: int, folder: Path) -> list[Case]:
    """A family's cases; random ones from ``Random(f"hard-{seed}-{family}")``, so a
    larger ``--count`` keeps the first instances and families do not share a stream."""
    if family.kind == "aspcomp":
        return [
            Case(family, p.name[:4], p, load_puzzle(str(p)), generated=False)
            for p in sorted(COMPETITION.glob("*.asp"))
        ]
    if family.kind == "tower":
        puzzle = tower(family.pegs, family.disks)
        return [Case(family, family.name, folder / f"{family.name}.lp", puzzle)]
    rng = random.Random(f"hard-{seed}-{family.name}")
    cases = []
    for index in range(count):
        puzzle = random_puzzle(rng, family.pegs, family.disks, partial=family.partial)
        name = f"{family.name}-{index}"
        cases.append(Case(family, name, folder / f"{name}.lp", puzzle))
    return cases


def write_instance(case: Case, seed: int) -> None:
    if not case.generated:
        return
    case.path.parent.mkdir(parents=True, exist_ok=True)
    header = f"% benchmarks/hard.py: {case.name} (seed {seed})\n"
    case.path.write_text(header + to_facts(case.puzzle) + "\n", encoding="utf-8")


def applies(method: str, case: Case) -> bool:
    return method != "competition" or case.family.kind == "aspcomp"


# -- running one method once -----------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    timeout: float
    grace: float
    memory_limit: float | None
    baseline: Path | None  # the worktree, None if it could not be made
    baseline_error: str = ""
    tables: Path | None = None
    """The pattern-table cache our runs share (``--cache shared``); None: each run of
    ours gets an empty one of its own (``cold``), as a first solve on a new machine."""


def ours_command(method: str, path: Path, timeout: float) -> list[str]:
    command = [sys.executable, "-m", "hanoi_asp", "solve", str(path), "--json"]
    command += ["--timeout", f"{timeout:g}"]
    return command + (["--method", "astar"] if method == "astar" else [])


def competition_command(path: Path, timeout: float) -> list[str]:
    script = Path(aspcomp_encoding.__file__).resolve()
    return [sys.executable, str(script), str(path), "--timeout", f"{timeout:g}"]


def environment(tree: Path) -> dict[str, str]:
    """This environment with ``tree``'s ``hanoi_asp`` first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), env.get("PYTHONPATH")) if p)
    env["NO_COLOR"] = "1"
    return env


def check_plan(puzzle: Puzzle, plan: Sequence[dict[str, Any]]) -> str:
    """``ok``, or why :func:`replay` rejects the JSON plan."""
    try:
        replay(puzzle, [(int(move["disk"]), str(move["to"])) for move in plan])
    except (VerificationError, KeyError, ValueError, TypeError) as error:
        return f"failed: {error}"
    return "ok"


def run_ours(record: Run, puzzle: Puzzle, settings: Settings) -> None:
    """``asp``, ``astar`` or ``baseline``: the CLI in a fresh process."""
    tree = ROOT
    if record.method == "baseline":
        if settings.baseline is None:
            record.status, record.detail = "ERROR", settings.baseline_error
            return
        tree = settings.baseline
    command = ours_command(record.method, record.case.path, settings.timeout)
    # ``-m`` puts the working folder first on the path
    with tempfile.TemporaryDirectory(prefix="hanoi-tables-") as empty:
        tables = settings.tables or Path(empty)
        answer = launch(record, command, tree, settings, {"HANOI_ASP_CACHE_DIR": str(tables)})
    if answer is None:
        return
    result = str(answer.get("result"))
    record.length = answer.get("length")
    record.lower_bound = answer.get("lower_bound")
    record.upper_bound = answer.get("upper_bound")
    record.proven = result == "OPTIMUM FOUND"
    timings = answer.get("timings")
    if isinstance(timings, dict):
        record.timings = {k: v for k, v in timings.items() if isinstance(v, int | float)}
    if answer.get("plan"):
        record.check = check_plan(puzzle, answer["plan"])
    if record.check.startswith("failed"):
        record.status, record.proven = "INVALID PLAN", False
        record.detail = record.check
    elif answer.get("stopped") == "timeout":
        record.status = "TIMEOUT"
        record.detail = f"stopped with bounds {record.lower_bound}..{record.upper_bound}"
    elif result == "ERROR":
        record.status, record.detail = "ERROR", str(answer.get("error", ""))
    else:
        record.status = result
        record.detail = str(answer.get("bound", {}).get("name", ""))


def launch(
    record: Run,
    command: Sequence[str],
    cwd: Path,
    settings: Settings,
    extra: dict[str, str] | None = None,
) -> dict[str, Any] | None:
    """Run ``command`` in a fresh process tree (``extra`` added to its environment) and
    parse the JSON it prints; None (the record says why) if it was killed or printed no
    JSON."""
    done = run_tree(
        command,
        timeout_s=settings.timeout + settings.grace,
        cwd=cwd,
        env={**environment(cwd), **(extra or {})},
        memory_limit_mib=settings.memory_limit,
    )
    record.seconds, record.peak_mib, record.exit_code = done.seconds, done.peak_mib, done.returncode
    if done.stopped:
        record.status = "TIMEOUT" if done.stopped == "timeout" else "MEMOUT"
        record.detail = f"killed ({done.stopped}) at {done.seconds:.1f} s"
        return None
    try:
        answer: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        record.status = "ERROR"
        record.detail = f"exit {done.returncode}: {last_line(done.stderr or done.stdout)}"
        return None
    return answer


def run_competition(record: Run, settings: Settings) -> None:
    answer = launch(record, competition_command(record.case.path, settings.timeout), ROOT, settings)
    if answer is None:
        return
    record.status, record.length = answer["status"], answer["length"]
    record.proven = record.status == "OPTIMUM FOUND"
    record.check = "ok" if record.proven else ""  # replayed by the peer before it answers
    record.detail = answer.get("detail", "")


def run_fd(record: Run, puzzle: Puzzle, settings: Settings) -> None:
    """A Fast Downward configuration or SymK."""
    if record.method == "symk":
        answer = symk.solve_symk(puzzle, settings.timeout, memory_limit_mib=settings.memory_limit)
    else:
        config = record.method.removeprefix("fd-")
        answer = fast_downward.solve_fd(
            puzzle, config, settings.timeout, memory_limit_mib=settings.memory_limit
        )
    record.status, record.length, record.seconds = answer.status, answer.length, answer.seconds
    record.peak_mib, record.detail = answer.peak_mib, answer.detail
    record.proven = answer.status == "OPTIMUM FOUND"
    record.check = "ok" if record.proven else ""  # replayed inside solve_fd


def run_once(record: Run, puzzle: Puzzle, settings: Settings) -> Run:
    try:
        if record.method in OURS:
            run_ours(record, puzzle, settings)
        elif record.method == "competition":
            run_competition(record, settings)
        else:
            run_fd(record, puzzle, settings)
    except Exception as error:  # a broken run is a row, not the end of the benchmark
        record.status, record.detail = "ERROR", f"{type(error).__name__}: {error}"
    if record.status == "OPTIMUM FOUND" and (record.seconds or 0) > settings.timeout:
        record.status = "TIMEOUT"
        record.detail = f"optimum proven after the limit ({record.seconds:.2f} s)"
    return record


# -- cross-check -----------------------------------------------------------------------


def cross_check(runs: list[Run]) -> list[str]:
    """Mark ``agree`` on a case's runs; return the complaints (empty when all agree)."""
    optima = sorted({r.length for r in runs if r.proven and r.length is not None})
    if not optima:
        return []
    if len(optima) > 1:
        by_length = {
            n: sorted({r.method for r in runs if r.proven and r.length == n}) for n in optima
        }
        for r in runs:
            if r.proven:
                r.agree = "DISAGREE"
        shown = "; ".join(f"{n} by {', '.join(m)}" for n, m in by_length.items())
        return [f"DISAGREEMENT on {runs[0].case.name}: optimum {shown}"]
    optimum, complaints = optima[0], []
    for r in runs:
        if r.proven:
            r.agree = "ok"
        elif (r.lower_bound is not None and r.lower_bound > optimum) or (
            r.upper_bound is not None and r.upper_bound < optimum
        ):
            r.agree = "BOUND CONFLICT"
            complaints.append(
                f"BOUND CONFLICT on {r.case.name}: {r.method} run {r.run} has bounds "
                f"{r.lower_bound}..{r.upper_bound}, the optimum is {optimum}"
            )
    return complaints


# -- the baseline checkout ---------------------------------------------------------------


@contextlib.contextmanager
def baseline_tree(rev: str, wanted: bool) -> Iterator[tuple[Path | None, str]]:
    """A detached ``git worktree`` of ``rev`` in a temporary folder, removed after."""
    if not wanted:
        yield None, ""
        return
    folder = Path(tempfile.mkdtemp(prefix="hanoi-baseline-"))
    made = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), rev],
        capture_output=True,
        text=True,
    )
    try:
        if made.returncode != 0:
            yield None, f"git worktree add {rev} failed: {last_line(made.stderr)}"
        else:
            yield folder, ""
    finally:
        if made.returncode == 0:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                capture_output=True,
            )
        shutil.rmtree(folder, ignore_errors=True)


def compile_tree(checkout: Path) -> None:
    """Compile ``checkout``'s package to bytecode first, as ``pip install`` does, so that
    no run pays for compiling our sources: with ``PYTHONDONTWRITEBYTECODE`` set (as on
    this machine) every run would, about 0.1 s each, which a user of the installed
    package never pays.  The peers come installed, so compiled, already."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(checkout / "hanoi_asp")],
        check=True,
        capture_output=True,
    )


# -- the benchmark ---------------------------------------------------------------------


def select_families(patterns: Sequence[str] | None) -> list[Family]:
    if not patterns:
        return [f for f in FAMILIES if f.default]
    chosen = [f for f in FAMILIES if any(fnmatch.fnmatchcase(f.name, p) for p in patterns)]
    unknown = [p for p in patterns if not any(fnmatch.fnmatchcase(f.name, p) for f in FAMILIES)]
    if unknown:
        names = ", ".join(f.name for f in FAMILIES)
        raise SystemExit(f"unknown family {', '.join(unknown)} (families: {names})")
    return chosen


def dry_run(cases: list[Case], methods: Sequence[str], args: argparse.Namespace) -> None:
    runs = 0
    for case in cases:
        used = [m for m in methods if applies(m, case)]
        runs += len(used) * args.runs
        made = " (to be written)" if case.generated and not case.path.exists() else ""
        print(f"{case.family.name:20} {case.name:24} {', '.join(used)}  {case.path}{made}")
    print(f"\n{len(cases)} cases, {runs} runs of at most {args.timeout + args.grace:g} s each")
    print(f"(at most {runs * (args.timeout + args.grace) / 3600:.1f} h, before any skipping)")
    example = cases[0].path if cases else Path("FILE")
    if any(m in OURS for m in methods):
        print("ours:        " + " ".join(ours_command("asp", example, args.timeout)))
    if "baseline" in methods:
        print(f"baseline:    the same, from a git worktree of {args.baseline_rev}")
    if "competition" in methods:
        print("competition: " + " ".join(competition_command(COMPETITION / "FILE", args.timeout)))
    if "symk" in methods:
        print(f"symk:        {symk.driver().name} --search {symk.SEARCH!r}")
    for method in methods:
        if method.startswith("fd-"):
            config = fast_downward.CONFIGS[method.removeprefix("fd-")]
            print(f"{method + ':':12} fast-downward.py --search {config!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="families: " + " ".join(f.name for f in FAMILIES),
    )
    parser.add_argument("--families", nargs="*", help="names or patterns (default: all but smoke*)")
    parser.add_argument("--cases", nargs="*", help="only cases whose names match (patterns)")
    parser.add_argument("--count", type=int, default=3, help="instances per random family")
    parser.add_argument("--runs", type=int, default=5, help="runs per case and method")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument(
        "--grace", type=float, default=10.0, help="before the hard kill of a run that stops itself"
    )
    parser.add_argument(
        "--memory-limit", type=float, default=6144.0, help="MiB per process tree (0: none)"
    )
    parser.add_argument("--methods", nargs="*", choices=METHODS, default=list(METHODS))
    parser.add_argument(
        "--ours",
        choices=METHODS,
        default="asp",
        help="the method whose ratios to the others are shown",
    )
    parser.add_argument("--baseline-rev", default="771bb6e")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--instances", type=Path, default=RESULTS / "instances-hard")
    parser.add_argument("--out", type=Path, default=RESULTS / "hard.csv")
    parser.add_argument("--no-skip", action="store_true", help="run every run, even after timeouts")
    parser.add_argument(
        "--peer-runs",
        type=int,
        default=None,
        help="runs per case for methods other than --ours (default: --runs)",
    )
    parser.add_argument(
        "--cache",
        choices=("cold", "shared"),
        default="cold",
        help="pattern tables: each run of ours builds its own in an empty cache (cold, "
        "default), or runs share one cache for the whole benchmark (shared: run 1 of a "
        "case builds, later runs read)",
    )
    parser.add_argument("--dry-run", action="store_true", help="list what would run")
    args = parser.parse_args(argv)
    families = select_families(args.families)
    cases = [c for f in families for c in cases_of(f, args.count, args.seed, args.instances)]
    if args.cases:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c.name, p) for p in args.cases)]
    methods = [m for m in METHODS if m in args.methods]
    if args.dry_run:
        dry_run(cases, methods, args)
        return 0
    with baseline_tree(args.baseline_rev, "baseline" in methods) as (tree, why):
        for checkout in (ROOT, tree):
            if checkout is not None:
                compile_tree(checkout)
        with tempfile.TemporaryDirectory(prefix="hanoi-tables-shared-") as shared:
            settings = Settings(
                args.timeout,
                args.grace,
                args.memory_limit or None,
                tree,
                why,
                tables=Path(shared) if args.cache == "shared" else None,
            )
            runs, complaints = benchmark(cases, methods, args, settings)
    report(runs, complaints, methods, args)
    return 1 if complaints else 0


def benchmark(
    cases: list[Case], methods: list[str], args: argparse.Namespace, settings: Settings
) -> tuple[list[Run], list[str]]:
    """Every case, runs interleaved; the CSV is written case by case as they finish."""
    every: list[Run] = []
    complaints: list[str] = []
    given_up: dict[tuple[str, str], str] = {}  # (series, method) -> the family it failed
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def runs_of(method: str) -> int:
        runs = int(args.runs)
        peers = runs if args.peer_runs is None else min(runs, int(args.peer_runs))
        return runs if method == args.ours else peers

    total = sum(sum(runs_of(m) for m in methods if applies(m, c)) for c in cases)
    done = 0
    with open(args.out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, COLUMNS)
        writer.writeheader()
        for family_cases in _by_family(cases):
            family = family_cases[0].family
            for case in family_cases:
                write_instance(case, args.seed)
                puzzle = load_puzzle(str(case.path))
                used = [m for m in methods if applies(m, case)]
                case_runs: list[Run] = []
                for number in range(1, args.runs + 1):
                    now = [m for m in used if number <= runs_of(m)]
                    shift = (number - 1) % len(now)
                    for method in now[shift:] + now[:shift]:
                        record = Run(case, method, number)
                        skip = _skip_reason(case, method, case_runs, given_up, args.no_skip)
                        if skip:
                            record.status, record.detail = "SKIPPED", skip
                        else:
                            run_once(record, puzzle, settings)
                        case_runs.append(record)
                        done += 1
                        _progress(done, total, record)
                found = cross_check(case_runs)
                for complaint in found:
                    print(f"\n!!! {complaint} !!!\n", flush=True)
                complaints += found
                for record in sorted(case_runs, key=lambda r: (methods.index(r.method), r.run)):
                    writer.writerow({k: _csv(v) for k, v in record.row().items()})
                handle.flush()
                every += case_runs
            if not args.no_skip:
                for method in methods:
                    firsts = [r for r in every if r.case.family == family and r.method == method]
                    firsts = [r for r in firsts if r.run == 1]
                    if firsts and all(r.status in FAILED for r in firsts):
                        given_up.setdefault((family.series, method), family.name)
    return every, complaints


def _by_family(cases: list[Case]) -> list[list[Case]]:
    groups: dict[str, list[Case]] = {}
    for case in cases:
        groups.setdefault(case.family.name, []).append(case)
    return list(groups.values())


def _skip_reason(
    case: Case, method: str, so_far: list[Run], given_up: dict[tuple[str, str], str], keep: bool
) -> str:
    if keep:
        return ""
    failed_family = given_up.get((case.family.series, method))
    if failed_family:
        return f"timed out on every case of {failed_family}"
    first = next((r for r in so_far if r.method == method and r.run == 1), None)
    if first is not None and first.status in FAILED:
        return f"run 1 ended {first.status}"
    return ""


def _progress(done: int, total: int, record: Run) -> None:
    seconds = "" if record.seconds is None else f"{record.seconds:.2f}s"
    peak = "" if record.peak_mib is None else f"{record.peak_mib:.0f}MiB"
    print(
        f"[{done}/{total}] {record.case.name:24} {record.method:11} run {record.run}: "
        f"{record.status:13} len={record.length} {seconds} {peak} {record.detail[:70]}",
        flush=True,
    )


def _csv(value: Any) -> Any:
    return "" if value is None else value


# -- the table, the log and the plot -----------------------------------------------------


ANSWERED = ("OPTIMUM FOUND", "UNSATISFIABLE")


def _time(run: Run) -> float:
    """Seconds to a proven answer in time; ``inf`` over the time or memory limit; NaN
    for anything else (an error, a rejected plan, a skipped run), which takes no part
    in medians or ratios."""
    if run.status in ANSWERED and run.seconds is not None:
        return run.seconds
    return math.inf if run.status in FAILED else math.nan


def _times(runs: list[Run]) -> list[float]:
    return [t for t in map(_time, runs) if not math.isnan(t)]


def _show_time(value: float, limit: float) -> str:
    return f">{limit:g}" if math.isinf(value) else f"{value:.2f}"


def paired_ratios(ours: list[Run], peer: list[Run], limit: float) -> tuple[str, str]:
    """``ours / peer`` per run number (run i with run i), median and worst (largest).
    A run without an answer in time counts as the limit; a ratio built on one is a
    bound, marked ``<`` or ``>``; two such runs make no ratio."""
    peers = {r.run: _time(r) for r in peer}
    values: list[tuple[float, str]] = []
    for mine in ours:
        a, b = _time(mine), peers.get(mine.run, math.nan)
        if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)):
            continue
        mark = "<" if math.isinf(b) else ">" if math.isinf(a) else ""
        values.append((min(a, limit) / min(b, limit), mark))
    if not values:
        return "", ""
    values.sort()
    middle = values[(len(values) - 1) // 2 : len(values) // 2 + 1]  # one or two
    median = statistics.fmean(v for v, _ in middle)
    median_mark = next((mark for _, mark in middle if mark), "")
    worst, worst_mark = values[-1]
    return f"{median_mark}{median:.2f}", f"{worst_mark}{worst:.2f}"


def report(
    runs: list[Run], complaints: list[str], methods: list[str], args: argparse.Namespace
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(record=True, width=160)
    console.print(
        f"benchmarks/hard.py {datetime.now().isoformat(timespec='seconds')} on "
        f"{platform.node()} ({os.cpu_count()} cores); git {_git_head()}; "
        f"Fast Downward {fast_downward.version()}; SymK {symk.version()}; tables "
        f"{args.cache}; timeout {args.timeout:g} s, "
        f"{args.runs} runs, memory limit {args.memory_limit:g} MiB"
    )
    console.print(f"command: {' '.join(sys.argv)}")
    console.print("our checkouts compiled to bytecode before the runs (compile_tree)")
    table = Table(
        title=(
            f"wall seconds per case and method (whole process; '>{args.timeout:g}': no proven "
            f"optimum in time); {args.ours}/peer: paired by run, '<' '>' bounds from timeouts"
        )
    )
    for column in ("case", "method", "optimum", "length", "median s", "worst s", "peak MiB"):
        table.add_column(column, justify="right")
    table.add_column(f"{args.ours}/peer median", justify="right")
    table.add_column(f"{args.ours}/peer worst", justify="right")
    table.add_column("note")
    by_case: dict[str, list[Run]] = {}
    for r in runs:
        by_case.setdefault(r.case.name, []).append(r)
    for name, case_runs in by_case.items():
        mine = [r for r in case_runs if r.method == args.ours]
        for index, method in enumerate(m for m in methods if any(r.method == m for r in case_runs)):
            these = sorted((r for r in case_runs if r.method == method), key=lambda r: r.run)
            times = _times(these)
            ran = [r for r in these if r.status != "SKIPPED"]
            proven = sum(r.status == "OPTIMUM FOUND" for r in ran)
            lengths = {r.length for r in these if r.proven and r.length is not None}
            statuses = sorted({r.status for r in ran if r.status != "OPTIMUM FOUND"})
            skipped = len(these) - len(ran)
            note = ", ".join(statuses + ([f"{skipped} skipped"] if skipped else []))
            if any(r.agree in ("DISAGREE", "BOUND CONFLICT") for r in these):
                note = (
                    "[bold red]"
                    + ", ".join(sorted({r.agree for r in these if r.agree}))
                    + "[/] "
                    + note
                )
            peaks = [r.peak_mib for r in ran if r.peak_mib is not None]
            ratio = ("", "") if method == args.ours else paired_ratios(mine, these, args.timeout)
            table.add_row(
                name if index == 0 else "",
                method,
                f"{proven}/{len(ran)}",
                "/".join(str(n) for n in sorted(lengths)) or "-",
                _show_time(statistics.median(times), args.timeout) if times else "no time",
                _show_time(max(times), args.timeout) if times else "no time",
                f"{max(peaks):.0f}" if peaks else "",
                ratio[0],
                ratio[1],
                note,
            )
        table.add_section()
    console.print(table)
    console.print(family_summary(runs, methods, args))
    if complaints:
        console.print("[bold red]cross-check FAILED:[/]")
        for complaint in complaints:
            console.print(f"  [red]{complaint}[/]")
    else:
        console.print("cross-check: every proven optimum agrees per case, bounds bracket it")
    console.print(f"csv: {args.out}")
    log = args.out.with_suffix(".log")
    console.save_text(str(log))
    print(f"log: {log}")
    plot(runs, methods, args.out.with_suffix(".png"), args.timeout)


def family_summary(runs: list[Run], methods: list[str], args: argparse.Namespace) -> Any:
    """Per family and method: cases proven in every run, the median over cases of each
    case's worst run, and the worst case by name; per family, how many cases had their
    optimum proven by two methods or more (the cross-check)."""
    from rich.table import Table

    table = Table(
        title="per family: each case's worst run; cross-checked: optimum proven by 2+ methods"
    )
    for column in ("family", "method", "all runs proven", "median of worst s", "worst case"):
        table.add_column(column, justify="right")
    table.add_column("cross-checked", justify="right")
    families: dict[str, list[Run]] = {}
    for r in runs:
        families.setdefault(r.case.family.name, []).append(r)
    for name, family_runs in families.items():
        cases = list(dict.fromkeys(r.case.name for r in family_runs))
        checked = sum(
            len({r.method for r in family_runs if r.case.name == c and r.proven}) >= 2
            for c in cases
        )
        for index, method in enumerate(
            m for m in methods if any(r.method == m for r in family_runs)
        ):
            worst: list[tuple[float, str]] = []
            for case in cases:
                times = _times(
                    [r for r in family_runs if r.case.name == case and r.method == method]
                )
                if times:
                    worst.append((max(times), case))
            proven = sum(not math.isinf(t) for t, _ in worst)
            median = statistics.median(t for t, _ in worst) if worst else math.nan
            top = max(worst) if worst else (math.nan, "-")
            table.add_row(
                name if index == 0 else "",
                method,
                f"{proven}/{len(cases)}",
                _show_time(median, args.timeout) if worst else "-",
                f"{top[1]} {_show_time(top[0], args.timeout)}" if worst else "-",
                f"{checked}/{len(cases)}" if index == 0 else "",
            )
        table.add_section()
    return table


def _git_head() -> str:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
    )
    return found.stdout.strip() or "?"


def plot(runs: list[Run], methods: list[str], path: Path, limit: float) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install '.[bench]')")
        return
    families: dict[str, list[Run]] = {}
    for r in runs:
        families.setdefault(r.case.family.name, []).append(r)
    if not families:
        return
    columns = min(3, len(families))
    rows = math.ceil(len(families) / columns)
    figure, axes_grid = plt.subplots(
        rows, columns, figsize=(5 * columns, 3.6 * rows), squeeze=False
    )
    markers = dict(zip(METHODS, "os^*vDPX", strict=True))
    for axes, (family, family_runs) in zip(axes_grid.flat, families.items(), strict=False):
        names = list(dict.fromkeys(r.case.name for r in family_runs))
        used = [m for m in methods if any(r.method == m for r in family_runs)]
        for offset, method in enumerate(used):
            xs, ys, xs_out = [], [], []
            for x, name in enumerate(names):
                these = [r for r in family_runs if r.case.name == name and r.method == method]
                times = _times(these)
                if not times:
                    continue
                median = statistics.median(times)
                shift = x + (offset - (len(used) - 1) / 2) * 0.08
                if math.isinf(median):
                    xs_out.append(shift)
                else:
                    xs.append(shift)
                    ys.append(median)
            (line,) = axes.plot(xs, ys, linestyle="none", marker=markers[method], label=method)
            if xs_out:
                axes.plot(
                    xs_out,
                    [limit] * len(xs_out),
                    linestyle="none",
                    marker=markers[method],
                    markerfacecolor="none",
                    color=line.get_color(),
                )
        axes.axhline(limit, color="grey", linewidth=0.8, linestyle="--")
        axes.set_yscale("log")
        axes.set_title(family, fontsize="medium")
        axes.set_xlim(-0.5, len(names) - 0.5)
        axes.set_xticks(range(len(names)))
        axes.set_xticklabels(
            [n.removeprefix(f"{family}-") for n in names], rotation=90, fontsize="x-small"
        )
        axes.set_ylabel("seconds (median)")
    for axes in list(axes_grid.flat)[len(families) :]:
        axes.axis("off")
    legend: dict[str, Any] = {}
    for axes in axes_grid.flat:
        for handle, label in zip(*axes.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
    figure.legend(
        list(legend.values()), list(legend), loc="lower center", ncol=len(legend), fontsize="small"
    )
    figure.suptitle(
        f"hanoi-asp and peers: median wall time per case (hollow on the dashed line: "
        f"no proven optimum within {limit:g} s)",
        fontsize="medium",
    )
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    figure.savefig(path, dpi=100)
    plt.close(figure)
    print(f"plot: {path}")


if __name__ == "__main__":
    sys.exit(main())
