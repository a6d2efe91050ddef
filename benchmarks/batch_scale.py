"""Batch scale: 1,000 small generated instances and one stuck one through the local pool
and ``--dask local:N``.

    python -m benchmarks.batch_scale                    # 3 runs each, about 2 minutes
    python -m benchmarks.batch_scale --runs 5 --count 1000 --workers 2
    python -m benchmarks.batch_scale --summarize benchmarks/results/batch_scale.csv

The instances (``hanoi-asp generate``, fixed seeds) are random 3- and 4-peg puzzles of
3-5 disks that solve in milliseconds, so the figures measure what a batch adds per
instance (starting work, scheduling, transport, writing), not solving; one more, a hard
4-peg 20-disk puzzle (``instances/hard``), runs until the batch's ``--timeout`` (2 s by
default) stops it, so every run also shows the hard time limit at work.

Each run is a fresh ``python -m hanoi_asp batch FOLDER --force --out TMP`` process, timed
from its start to its exit (imports and, for Dask, starting the LocalCluster count): the
local pool (``--workers N``) and ``--dask local:N`` alternate, the first of each round
swapped (L D, D L, ...) so that drift on the machine falls on both alike.  For each:

* median and worst wall time, instances per second;
* per-instance overhead = (wall x N - sum of the rows' ``time_s``) / instances, in ms;
* the ratio dask / local of the median and of the worst wall time;
* a check that every run's results file holds each instance exactly once, with the same
  answers (``result`` and ``length``) as the first local run.

Targets (issue 30): the local pool within 8 s and Dask within 15 s of wall time, an
overhead per instance of at most 5 ms (local) and 15 ms (Dask); each is printed as
met / not met with its median and worst figure.  Each run also
records the load average at its start and the CPU seconds that processes outside the
run used during it (sampled from ``/proc``), so a run disturbed by other work shows.
Writes ``results/batch_scale.csv`` (one row per run) and ``results/batch_scale.log``
(everything printed, with the core count and command line).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.harness.machine import OtherCPU, versions
from benchmarks.harness.output import Log, csv_rows, log_footer, log_header, read_csv
from benchmarks.harness.paths import HARD, ROOT, result_file, shown

GROUPS = ((3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5))
"""(pegs, disks) of the generated instances, the count shared evenly among them."""
STUCK = HARD / "4pegs-20disks-arbitrary.lp"
"""The instance no batch finishes within its time limit."""

TARGET_WALL_S = {"local": 8.0, "dask": 15.0}
TARGET_OVERHEAD_MS = {"local": 5.0, "dask": 15.0}
QUIET_SHARE = 0.02
"""A run is undisturbed when other processes used at most this share of all cores."""
COLUMNS = (
    "run",
    "kind",
    "order",
    "wall_s",
    "instances",
    "rows",
    "solve_s",
    "per_s",
    "overhead_ms",
    "exit",
    "once",
    "same_answers",
    "results",
    "load_1m",
    "other_cpu_s",
    "stuck_stopped",
)


def generate(folder: Path, count: int, seed: int, log: Log) -> list[str]:
    """``count`` instances in one sub-folder per group; their paths, sorted."""
    began = time.monotonic()
    share, extra = divmod(count, len(GROUPS))
    for index, (pegs, disks) in enumerate(GROUPS):
        how_many = share + (1 if index < extra else 0)
        if how_many == 0:
            continue
        command = [
            *(sys.executable, "-m", "hanoi_asp", "generate"),
            str(folder / f"{pegs}p-{disks}d"),
            *("--pegs", str(pegs), "--disks", str(disks)),
            *("--count", str(how_many), "--seed", str(seed + index)),
        ]
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    (folder / "stuck").mkdir()
    (folder / "stuck" / STUCK.name).write_bytes(STUCK.read_bytes())
    paths = sorted(str(p) for p in folder.rglob("*.lp"))
    mix = ", ".join(f"{p} pegs {d} disks" for p, d in GROUPS)
    log(
        f"generated {len(paths)} instances ({mix}; seeds {seed}..{seed + len(GROUPS) - 1}) "
        f"in {time.monotonic() - began:.1f} s"
    )
    return paths


def run_batch(
    folder: Path, out: Path, kind: str, workers: int, timeout: float
) -> tuple[float, int, float, str]:
    """One fresh batch process (a session of its own): wall time, exit code, CPU time
    of other processes during it, and the tail of its stderr."""
    where = ["--workers", str(workers)] if kind == "local" else ["--dask", f"local:{workers}"]
    command = [
        *(sys.executable, "-m", "hanoi_asp", "batch", str(folder), *where),
        *("--timeout", str(timeout), "--force", "--out", str(out)),
    ]
    with tempfile.TemporaryFile("w+") as err:
        began = time.monotonic()
        proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=err,
            text=True,
            cwd=ROOT,
            start_new_session=True,
        )
        others = OtherCPU(proc.pid)
        while proc.poll() is None:
            others.sample()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=OtherCPU.SAMPLE_S)
        wall = time.monotonic() - began
        others.sample()
        err.seek(0)
        tail = "\n".join(err.read().splitlines()[-5:])
    return wall, proc.returncode, others.seconds(), tail


def read_rows(out: Path) -> list[dict[str, Any]]:
    rows = []
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            rows.append({"instance": None, "result": "(not JSON)"})
    return rows


def check(
    rows: list[dict[str, Any]], paths: list[str], reference: dict[str, tuple[Any, Any]] | None
) -> tuple[bool, int | None]:
    """Is every instance there exactly once (and nothing else); how many answers differ
    from the reference run's (``None`` when this run is the reference)."""
    seen = Counter(row.get("instance") for row in rows)
    once = set(seen) == set(paths) and all(n == 1 for n in seen.values())
    if reference is None:
        return once, None
    answers = {row.get("instance"): (row.get("result"), row.get("length")) for row in rows}
    # the stuck one's best plan depends on how far it got in its time
    solved = [path for path in paths if not path.endswith(STUCK.name)]
    differ = sum(answers.get(path) != reference[path] for path in solved)
    return once, differ


def summary(rows: list[dict[str, Any]], kind: str, log: Log) -> dict[str, float]:
    mine = [row for row in rows if row["kind"] == kind]
    walls = [row["wall_s"] for row in mine]
    over = [row["overhead_ms"] for row in mine]
    count = mine[0]["instances"]
    figures = {
        "median": statistics.median(walls),
        "worst": max(walls),
        "overhead": statistics.median(over),
        "overhead_worst": max(over),
    }
    log(
        f"{kind:5}: wall median {figures['median']:.1f} s, worst {figures['worst']:.1f} s "
        f"(runs: {', '.join(f'{w:.1f}' for w in walls)}); "
        f"{count / figures['median']:.1f} instances/s at the median "
        f"({count / figures['worst']:.1f} at the worst); overhead per instance median "
        f"{figures['overhead']:.0f} ms, worst {figures['overhead_worst']:.0f} ms"
    )
    return figures


def report(rows: list[dict[str, Any]], log: Log) -> bool:
    """The summary, the targets met or not, then the same figures over the undisturbed
    runs alone; whether every results file passed the checks."""
    local = summary(rows, "local", log)
    dask = summary(rows, "dask", log)
    ratio = dask["median"] / local["median"]
    ratio_worst = dask["worst"] / local["worst"]
    log(f"dask/local wall: median {ratio:.2f}x, worst {ratio_worst:.2f}x")
    met = {True: "met", False: "NOT MET"}
    for kind, figures in (("local", local), ("dask", dask)):
        wall, over = TARGET_WALL_S[kind], TARGET_OVERHEAD_MS[kind]
        log(
            f"target {kind} wall at most {wall:.0f} s: {met[figures['worst'] <= wall]} "
            f"(median {figures['median']:.1f} s; worst {figures['worst']:.1f} s)"
        )
        log(
            f"target {kind} overhead at most {over:.0f} ms/instance: "
            f"{met[figures['overhead_worst'] <= over]} (median "
            f"{figures['overhead']:.1f} ms; worst {figures['overhead_worst']:.1f} ms)"
        )
    checks = all(
        str(r["once"]) == "True"
        and r["same_answers"] in ("yes", "reference")
        and str(r.get("stuck_stopped", "True")) == "True"
        for r in rows
    )
    log(
        "every results file: each instance exactly once, same answers as the first local run, "
        "the stuck one stopped by its limit: " + ("yes" if checks else "NO")
    )
    cores = os.cpu_count() or 1
    quiet = [r for r in rows if r["other_cpu_s"] <= QUIET_SHARE * r["wall_s"] * cores]
    kinds = Counter(r["kind"] for r in quiet)
    log(
        f"undisturbed runs (other processes used at most {QUIET_SHARE:.0%} of the machine's "
        f"CPU during them): {kinds['local']} local, {kinds['dask']} dask"
    )
    if kinds["local"] and kinds["dask"] and len(quiet) < len(rows):
        calm_local = summary(quiet, "local", log)
        calm_dask = summary(quiet, "dask", log)
        log(
            f"undisturbed dask/local wall: median "
            f"{calm_dask['median'] / calm_local['median']:.2f}x, worst "
            f"{calm_dask['worst'] / calm_local['worst']:.2f}x"
        )
    return checks


def numbers(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """An earlier run's rows, numbers as numbers."""
    parsed: list[dict[str, Any]] = []
    for row in rows:
        data: dict[str, Any] = dict(row)
        for key in ("wall_s", "solve_s", "per_s", "overhead_ms", "load_1m", "other_cpu_s"):
            data[key] = float(row[key])
        for key in ("run", "order", "instances", "rows", "exit"):
            data[key] = int(row[key])
        data.setdefault("stuck_stopped", "True")
        parsed.append(data)
    return parsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.batch_scale", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--count", type=int, default=1000, help="instances (default 1000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind (default 3)")
    parser.add_argument("--workers", type=int, default=2, help="N: --workers N, --dask local:N")
    parser.add_argument("--timeout", type=float, default=2.0, help="batch --timeout")
    parser.add_argument("--seed", type=int, default=15, help="first generate --seed")
    parser.add_argument("--out", type=Path, default=result_file("batch_scale"))
    parser.add_argument(
        "--summarize",
        type=Path,
        metavar="CSV",
        help="print the summary of an earlier CSV (with this machine's core count); run nothing",
    )
    args = parser.parse_args(argv)
    if args.summarize:
        return 0 if report(numbers(read_csv(args.summarize)), Log()) else 1
    log = Log()
    log_header(log, "batch_scale", sys.argv[1:] if argv is None else argv)
    log(f"versions: {versions('dask', 'distributed', 'pebble')}")
    rows: list[dict[str, Any]] = []
    reference: dict[str, tuple[Any, Any]] | None = None
    with tempfile.TemporaryDirectory(prefix="batch-scale-") as temp:
        base = Path(temp)
        paths = generate(base / "in", args.count, args.seed, log)
        for run in range(1, args.runs + 1):
            order = ("local", "dask") if run % 2 else ("dask", "local")
            for position, kind in enumerate(order, 1):
                out = base / f"{kind}-{run}.jsonl"
                load = os.getloadavg()[0]
                wall, code, other, tail = run_batch(
                    base / "in", out, kind, args.workers, args.timeout
                )
                found = read_rows(out) if out.exists() else []
                if reference is None and kind == "local":
                    once, differ = check(found, paths, None)
                    reference = {
                        str(r.get("instance")): (r.get("result"), r.get("length")) for r in found
                    }
                    same = "reference"
                else:
                    # a Dask run before any local run cannot happen: run 1 starts local
                    assert reference is not None
                    once, differ = check(found, paths, reference)
                    same = "yes" if differ == 0 else f"no ({differ} differ)"
                solve = sum(float(r.get("time_s") or 0) for r in found)
                stuck = [r for r in found if str(r.get("instance", "")).endswith(STUCK.name)]
                stopped = len(stuck) == 1 and stuck[0].get("stopped") in ("timeout", "killed")
                answers = Counter(str(r.get("result")) for r in found)
                row = {
                    "run": run,
                    "kind": kind,
                    "order": position,
                    "wall_s": round(wall, 3),
                    "instances": len(paths),
                    "rows": len(found),
                    "solve_s": round(solve, 3),
                    "per_s": round(len(paths) / wall, 2),
                    "overhead_ms": round((wall * args.workers - solve) / len(paths) * 1000, 1),
                    "exit": code,
                    "once": once,
                    "same_answers": same,
                    "results": " ".join(f"{k}={v}" for k, v in sorted(answers.items())),
                    "load_1m": round(load, 2),
                    "other_cpu_s": round(other, 1),
                    "stuck_stopped": stopped,
                }
                rows.append(row)
                log(" ".join(f"{k}={v}" for k, v in row.items()))
                if not once or not stopped:
                    log(f"  stderr tail: {tail}")
    log()
    log(f"summary: {args.count} instances, {args.workers} workers each, {args.runs} runs each")
    checks = report(rows, log)
    log_footer(log)
    with csv_rows(args.out, COLUMNS) as written:
        for row in rows:
            written.write(row)
    log.save(args.out.with_suffix(".log"))
    print(f"csv: {shown(args.out)}")
    return 0 if checks else 1


if __name__ == "__main__":
    sys.exit(main())
