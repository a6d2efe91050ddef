"""Render ``results/*.csv`` from ``speed.py`` as the Markdown table in README.md, and
redraw ``results/speed.png`` from ``results/speed.csv`` (which may merge several runs of
``speed.py``, one per family).

python benchmarks/table.py [--limit 60]
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

from speed import plot

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0, help="the runs' time limit")
    args = parser.parse_args()
    rows: dict[str, dict[str, dict[str, str]]] = {}
    for name in ("speed.csv", "aspcomp.csv"):
        path = RESULTS / name
        if path.exists():
            with path.open() as handle:
                for row in csv.DictReader(handle):
                    rows.setdefault(row["case"], {})[row["method"]] = row
    print("| case | length | bound | baseline s | fast s | speed-up | peak MiB (fast) |")
    print("|---|---|---|---|---|---|---|")
    for case, methods in rows.items():
        base, fast = methods.get("baseline", {}), methods.get("fast", {})

        def shown(row: dict[str, str]) -> str:
            if not row:
                return ""
            if row["median_s"]:
                return f"{float(row['median_s']):.2f}"
            return "skipped" if row["result"] == "SKIPPED" else "timeout"

        ratio = ""
        if base.get("median_s") and fast.get("median_s"):
            ratio = f"{float(base['median_s']) / float(fast['median_s']):.1f}x"
        elif fast.get("median_s") and base.get("result") in ("TIMEOUT", "SKIPPED"):
            ratio = "baseline timed out"
        length = fast.get("length") or base.get("length") or "-"
        peak = fast.get("peak_mib")
        peak_text = f"{float(peak):.0f}" if peak else ""
        bound = fast.get("bound") or base.get("bound") or ""
        print(
            f"| {case} | {length} | {bound} | {shown(base)} | {shown(fast)} | {ratio} "
            f"| {peak_text} |"
        )
    redraw(args.limit)


def redraw(limit: float) -> None:
    path = RESULTS / "speed.csv"
    if not path.exists():
        return
    with path.open() as handle:
        rows: list[dict[str, Any]] = list(csv.DictReader(handle))
    for row in rows:
        row["disks"] = int(row["disks"])
        row["median_s"] = float(row["median_s"]) if row["median_s"] else None
    plot(rows, path.with_suffix(".png"), limit)


if __name__ == "__main__":
    main()
