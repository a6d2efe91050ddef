"""The same answer on every run (issue #46): ``solve --json`` run several times per file
gives the same plan, proof, horizons and statistics, times aside; cold (``--no-cache``),
warm (a table cache filled by a first run), and with the machine slowed.

    python -m benchmarks.determinism FILE... [--runs 3] [--warm] [--hogs 0]
        [--timeout 300] [--work [NAME=]N ...] [--out results/determinism.log]

Each run is a fresh process (``python -m hanoi_asp solve FILE --json``).  Cold runs use
``--no-cache``; with ``--warm``, a first run fills a cache folder of its own and
``--runs`` more read it, and their answers are compared with the cold ones too (a
table read from the cache is priced as if built: the same decisions).  ``--hogs K``
keeps K busy processes running beside every solve, each in a session of its own: Linux
shares the CPU between sessions first (autogroup), and a solve runs in its own, so hogs
sharing one session would take at most half of it whatever K.  With K hogs on C cores
the solve's session gets about C/(K+1) cores: on 2 cores, ``--hogs 2`` makes a solve
racing A* on both about 3x slower, one on a single core about 1.5x.

Compared: the whole JSON object but its times (``time_s``, ``timings``,
``first_plan.time_s``, each horizon's ``time_s``).  A run stopped by ``--timeout`` is
reported, not compared: the time limit decides where it stops.  A puzzle no run proves
is compared under a work budget instead (``--work N``: every file's solve runs with
``solve --work N``, the machine-independent twin of ``--timeout``; ``--work NAME=N``: the
file named NAME only, repeatable), keeping ``--timeout`` as a guard: runs stopped by
the budget (``stopped`` ``work``) are compared like proven ones.  Exit 1 if any file's
runs differ.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import ROOT, result_file
from benchmarks.harness.peers.ours import solve_command, solve_json

TIMES = ("time_s", "timings")


def timeless(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` without the figures the clock decides."""
    kept = {key: value for key, value in answer.items() if key not in TIMES}
    if isinstance(kept.get("first_plan"), dict):
        kept["first_plan"] = {k: v for k, v in kept["first_plan"].items() if k != "time_s"}
    kept["horizons"] = [
        {k: v for k, v in horizon.items() if k != "time_s"}
        for horizon in kept.get("horizons") or []
    ]
    return kept


def difference(a: Any, b: Any, where: str = "") -> str | None:
    """Where two JSON values first differ (None: equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            found = difference(a.get(key), b.get(key), f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items against {len(b)}"
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found = difference(x, y, f"{where}[{index}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {str(a)[:80]!r} against {str(b)[:80]!r}"


def _busy() -> None:
    os.setsid()  # a scheduling group of its own (see the module docstring)
    while True:
        pass


@contextmanager
def hogs(count: int) -> Iterator[None]:
    """``count`` processes spinning on a core each, for the block."""
    spinning = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(count)]
    for process in spinning:
        process.start()
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.join()


def solve_once(
    path: Path, timeout: float, cache: Path | None, work: int | None = None
) -> dict[str, Any] | str:
    """One solve's JSON (with the work budget ``work``), or why there is none."""
    extra: tuple[str, ...] = () if cache is not None else ("--no-cache",)
    if work is not None:
        extra += ("--work", str(work))
    answer = solve_json(
        solve_command(path, timeout, *extra), ROOT, kill_after=timeout + 10, tables=cache
    )
    return answer.json if answer.json is not None else answer.why


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.determinism", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm", action="store_true", help="also warm runs, compared too")
    parser.add_argument("--hogs", type=int, default=0, help="busy processes beside each run")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument(
        "--work",
        action="append",
        default=[],
        metavar="[NAME=]N",
        help="solve with --work N (every file, or the file named NAME); repeatable",
    )
    parser.add_argument("--out", type=Path, default=result_file("determinism", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "determinism", sys.argv[1:] if argv is None else argv)
    budgets = work_budgets(args.work)
    differing = 0
    with hogs(args.hogs):
        for path in args.files:
            work = budgets.get(path.name, budgets.get(""))
            answers: list[tuple[str, dict[str, Any] | str]] = []
            for run in range(args.runs):
                answer = solve_once(path, args.timeout, None, work)
                answers.append((f"cold {run + 1}", answer))
            if args.warm:
                with tempfile.TemporaryDirectory(prefix="hanoi-determinism-") as folder:
                    solve_once(path, args.timeout, Path(folder), work)  # fills the cache
                    for run in range(args.runs):
                        answer = solve_once(path, args.timeout, Path(folder), work)
                        answers.append((f"warm {run + 1}", answer))
            verdict = _compare(answers)
            differing += verdict.startswith("DIFFER")
            budget = "" if work is None else f" (--work {work})"
            log(f"{path.name}{budget}: {verdict}")
    log(f"{differing} of {len(args.files)} files differ between runs")
    log_footer(log)
    log.save(args.out)
    return 1 if differing else 0


def work_budgets(given: list[str]) -> dict[str, int]:
    """``--work`` values by file name (``""``: every file)."""
    found: dict[str, int] = {}
    for item in given:
        name, _, value = item.rpartition("=")
        found[name] = int(value)
    return found


def _compare(answers: list[tuple[str, dict[str, Any] | str]]) -> str:
    """``same`` (with the answer's gist), ``DIFFER`` (where first), or why not compared."""
    failed = [f"{name}: {answer}" for name, answer in answers if isinstance(answer, str)]
    if failed:
        return "no answer: " + "; ".join(failed)
    kept = [(name, answer) for name, answer in answers if isinstance(answer, dict)]
    stopped = [name for name, answer in kept if answer.get("stopped") not in (None, "work")]
    if stopped:
        return f"stopped by the time limit in {', '.join(stopped)}: not compared"
    first_name, first = kept[0]
    for name, answer in kept[1:]:
        found = difference(timeless(first), timeless(answer))
        if found:
            return f"DIFFER: {first_name} and {name} at {found}"
    if "error" in first:  # the same error every run (not an instance, a bad file)
        return f"same error in {len(kept)} runs: {first['error']}"
    seconds = ", ".join(f"{answer['time_s']:.2f}" for _, answer in kept)
    gist = f"{first['result']} {first['length']} ({first['bound']['name']})"
    if first.get("stopped") == "work":
        gist += f", stopped at its work budget, lower bound {first['lower_bound']}"
    horizons = len(first.get("horizons") or [])
    return f"same in {len(kept)} runs: {gist}; {horizons} horizons; seconds {seconds}"


if __name__ == "__main__":
    sys.exit(main())
