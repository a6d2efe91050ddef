"""``python -m benchmarks.hard``: the command line and the loop over cases, methods and
runs (what it measures: :mod:`benchmarks.hard`)."""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.hard.families import FAMILIES, Case, cases_of, select_families, write_case
from benchmarks.hard.report import header, report
from benchmarks.hard.runs import (
    COLUMNS,
    FAILED,
    METHODS,
    OURS,
    Run,
    Settings,
    applies,
    competition_command,
    cross_check,
    ours_command,
    run_once,
)
from benchmarks.harness.cases import matching
from benchmarks.harness.output import csv_rows
from benchmarks.harness.paths import COMPETITION, RESULTS, ROOT
from benchmarks.harness.peers import fast_downward, symk
from benchmarks.harness.peers.ours import baseline_tree, compile_tree
from hanoi_asp import load_puzzle


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.hard",
        description=(sys.modules["benchmarks.hard"].__doc__ or "").split("\n\n")[0],
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    families = select_families(args.families)
    cases = [c for f in families for c in cases_of(f, args.count, args.seed, args.instances)]
    if args.cases:
        chosen = matching([c.name for c in cases], args.cases)
        cases = [c for c in cases if c.name in chosen]
    methods = [m for m in METHODS if m in args.methods]
    if args.dry_run:
        dry_run(cases, methods, args)
        return 0
    title = header(
        "python -m benchmarks.hard " + shlex.join(sys.argv[1:]),
        args.cache,
        args.timeout,
        args.runs,
        args.memory_limit,
    )
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
    report(
        runs,
        complaints,
        methods,
        ours=args.ours,
        limit=args.timeout,
        title=title,
        out=args.out,
    )
    return 1 if complaints else 0


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


def benchmark(
    cases: list[Case], methods: list[str], args: argparse.Namespace, settings: Settings
) -> tuple[list[Run], list[str]]:
    """Every case, runs interleaved; the CSV is written case by case as they finish."""
    every: list[Run] = []
    complaints: list[str] = []
    given_up: dict[tuple[str, str], str] = {}  # (series, method) -> the family it failed

    def runs_of(method: str) -> int:
        runs = int(args.runs)
        peers = runs if args.peer_runs is None else min(runs, int(args.peer_runs))
        return runs if method == args.ours else peers

    total = sum(sum(runs_of(m) for m in methods if applies(m, c)) for c in cases)
    done = 0
    with csv_rows(args.out, COLUMNS) as rows:
        for family_cases in _by_family(cases):
            family = family_cases[0].family
            for case in family_cases:
                write_case(case, args.seed)
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
                    rows.write(record.row())
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


if __name__ == "__main__":
    sys.exit(main())
