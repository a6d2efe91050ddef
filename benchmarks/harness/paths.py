"""Where the benchmarks read and write: this checkout's folders, and the one results
folder that keeps the latest run of each benchmark under a stable name."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout the benchmarks belong to (its ``hanoi_asp`` is what ``ours`` runs)."""
RESULTS = ROOT / "benchmarks" / "results"
COMPETITION = ROOT / "instances" / "aspcomp"
"""The 20 ASP Competition instances (``*.asp``)."""
HARD = ROOT / "instances" / "hard"
"""Shipped hard instances (``*.lp``): minutes or more to prove minimal."""
QUICKSTART_ENCODING = ROOT / "encodings" / "quickstart.lp"
QUICKSTART_INSTANCE = ROOT / "instances" / "quickstart.lp"
TESTS = ROOT / "tests"


def result_file(name: str, suffix: str = ".csv") -> Path:
    """``results/NAME.csv`` (or another suffix): a benchmark's stable output name."""
    return RESULTS / f"{name}{suffix}"


def shown(path: Path) -> str:
    """``path`` relative to the checkout when it lies inside it (for logs)."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
