"""Figures over repeated runs: the median and the worst (the largest), ratios paired
run by run, and a target's verdict.

>>> spread = Spread((1.0, 3.0, 2.0))
>>> spread.median, spread.worst, spread.listed()
(2.0, 3.0, '1.00, 3.00, 2.00')
>>> paired_ratios({1: 1.0, 2: 2.0}, {1: 2.0, 2: math.inf}, limit=10.0)
('<0.35', '0.50')
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Spread:
    """Values of one measurement over repeated runs, in the order they ran."""

    values: Sequence[float]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def worst(self) -> float:
        return max(self.values)

    def listed(self, digits: int = 2) -> str:
        """Every run's value, in order: ``1.00, 3.00, 2.00``."""
        return ", ".join(f"{v:.{digits}f}" for v in self.values)


def paired_ratios(
    ours: Mapping[int, float], peer: Mapping[int, float], limit: float
) -> tuple[str, str]:
    """``ours / peer`` per run number (run i with run i), median and worst (largest),
    as text.  Times are seconds, ``inf`` for no answer within ``limit`` and NaN for a
    run that takes no part (an error, a skipped run).  A ratio built on a run over the
    limit counts that run as the limit and is a bound, marked ``<`` or ``>``; two such
    runs make no ratio; ("", "") when no pair is left."""
    values: list[tuple[float, str]] = []
    for run, a in ours.items():
        b = peer.get(run, math.nan)
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


def met(ok: bool, words: tuple[str, str] = ("met", "NOT met")) -> str:
    """A target's verdict in a benchmark's own words (``met`` / ``NOT met`` by default;
    the scripts keep the words their closing notes quote)."""
    return words[0] if ok else words[1]
