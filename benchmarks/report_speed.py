"""Report speed: ``hanoi-asp report`` on 10,000 rows of two configurations (issue #30).

    python benchmarks/report_speed.py              # 3 runs of each variant
    python benchmarks/report_speed.py --runs 5 --rows 20000

The rows are made from a real one: a ``hanoi-asp batch`` of the quickstart instance
writes a row, which is copied to ``--rows`` rows (half per configuration, ``"config"``
set) over 20 families, with times spread log-uniformly from 1 ms to 10 s, 10% timed out
(``UNKNOWN``, stopped ``timeout``, time 10 s), 2% ``ERROR``, and every optimum's length
the same in both configurations (no DISAGREE: exit 0 is checked).

Each run is a fresh ``python -m hanoi_asp report`` process, timed from its start to its
exit (interpreter start, imports, reading, the table; with ``--html --csv --plots`` also
matplotlib's import and both plots, drawn twice: inline SVG and the files).  Prints the
median and worst wall time per variant against the target (5 s) and writes
``results/report_speed.log``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 5.0


def real_row(folder: Path) -> dict[str, object]:
    """The row a batch writes for the quickstart instance."""
    out = folder / "one.jsonl"
    instance = ROOT / "instances" / "quickstart.lp"
    command = [sys.executable, "-m", "hanoi_asp", "batch", str(instance), "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=environment())
    row: dict[str, object] = json.loads(out.read_text().splitlines()[0])
    return row


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def make_rows(template: dict[str, object], count: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    lines = []
    per_config = count // 2
    for index in range(per_config):
        instance = f"sweep/family{index % 20:02d}/p{index:05d}.lp"
        for config in ("clingo-default", "clingo-tweety"):
            row = dict(template, instance=instance, config=config)
            draw = rng.random()
            if draw < 0.02:
                row.update(result="ERROR", length=None, plan=[], status="error", time_s=0.01)
            elif draw < 0.12:
                row.update(result="UNKNOWN", length=None, plan=[], stopped="timeout")
                row.update(status="timeout", time_s=10.0)
            else:
                row.update(time_s=round(10 ** rng.uniform(-3, 1), 4), status="ok")
            lines.append(json.dumps(row))
    return lines


def timed(command: list[str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, cwd=ROOT, env=environment())
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"exit {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10_000)
    args = parser.parse_args()
    log: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        log.append(text)

    say(f"$ {' '.join(sys.argv)}  ({os.cpu_count()} cores, load {os.getloadavg()[0]:.2f})")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        results = folder / "sweep.jsonl"
        results.write_text("\n".join(make_rows(real_row(folder), args.rows)) + "\n")
        size = results.stat().st_size / 1e6
        say(f"{args.rows} rows, 2 configurations, {size:.1f} MB: {results.name}")
        base = [sys.executable, "-m", "hanoi_asp", "report", str(results)]
        outputs = ["--csv", str(folder / "s.csv"), "--html", str(folder / "r.html")]
        variants = {
            "table": base,
            "table --csv --html --plots": [*base, *outputs, "--plots", str(folder / "plots")],
        }
        for name, command in variants.items():
            times = [timed(command) for _ in range(args.runs)]
            median, worst = statistics.median(times), max(times)
            verdict = "met" if worst < TARGET_S else "NOT met"
            say(
                f"report {name}: median {median:.2f} s, worst {worst:.2f} s over {args.runs} "
                f"runs ({', '.join(f'{t:.2f}' for t in times)}); target < {TARGET_S:g} s: "
                f"{verdict}"
            )
    out = ROOT / "benchmarks" / "results" / "report_speed.log"
    out.write_text("\n".join(log) + "\n")


if __name__ == "__main__":
    main()
