"""Render ``results/*.csv`` from ``speed.py`` as the Markdown table in README.md.

python benchmarks/table.py
"""

from __future__ import annotations

import csv
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
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


if __name__ == "__main__":
    main()
