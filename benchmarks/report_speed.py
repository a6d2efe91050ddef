"""Report speed: ``hanoi-asp report`` on 10,000 rows of two configurations (issue #30).

    python -m benchmarks.report_speed                   # 3 runs of each variant
    python -m benchmarks.report_speed --runs 5 --rows 20000

The rows are made from a real one: a ``hanoi-asp batch`` of the quickstart instance
writes a row, which is copied to ``--rows`` rows (half per configuration, ``"config"``
set) over 20 families, with times spread log-uniformly from 1 ms to 10 s, 10% timed out
(``UNKNOWN``, stopped ``timeout``, time 10 s), 2% ``ERROR``, and every optimum's length
the same in both configurations (no DISAGREE: exit 0 is checked).

Each run is a fresh ``python -m hanoi_asp report`` process, timed from its start to its
exit (interpreter start, imports, reading, the table; with ``--html --csv --plots`` also
matplotlib's import and both plots, drawn twice: inline SVG and the files).  Prints the
median and worst wall time per variant against the target (5 s) and writes
``results/report_speed.log`` (``--out``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import QUICKSTART_INSTANCE, ROOT, result_file
from benchmarks.harness.peers.ours import environment
from benchmarks.harness.processes import last_line, run_tree
from benchmarks.harness.stats import Spread, met

TARGET_S = 5.0
KILL_AFTER_S = 120.0
"""A ``report`` process still going after this long is killed."""


def real_row(folder: Path) -> dict[str, object]:
    """The row a batch writes for the quickstart instance."""
    out = folder / "one.jsonl"
    command = [sys.executable, "-m", "hanoi_asp", "batch", str(QUICKSTART_INSTANCE)]
    timed([*command, "--out", str(out)])
    row: dict[str, object] = json.loads(out.read_text().splitlines()[0])
    return row


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
    """The wall time of ``command``, a whole process; SystemExit if it fails."""
    done = run_tree(command, timeout_s=KILL_AFTER_S, cwd=ROOT, env=environment(ROOT))
    if done.returncode != 0:
        raise SystemExit(f"exit {done.returncode}: {last_line(done.stderr)}")
    return done.seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.report_speed", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=result_file("report_speed", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "report_speed", sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        results = folder / "sweep.jsonl"
        results.write_text("\n".join(make_rows(real_row(folder), args.rows)) + "\n")
        size = results.stat().st_size / 1e6
        log(f"{args.rows} rows, 2 configurations, {size:.1f} MB: {results.name}")
        base = [sys.executable, "-m", "hanoi_asp", "report", str(results)]
        outputs = ["--csv", str(folder / "s.csv"), "--html", str(folder / "r.html")]
        variants = {
            "table": base,
            "table --csv --html --plots": [*base, *outputs, "--plots", str(folder / "plots")],
        }
        for name, command in variants.items():
            times = Spread([timed(command) for _ in range(args.runs)])
            log(
                f"report {name}: median {times.median:.2f} s, worst {times.worst:.2f} s over "
                f"{args.runs} runs ({times.listed()}); target < {TARGET_S:g} s: "
                f"{met(times.worst < TARGET_S)}"
            )
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
