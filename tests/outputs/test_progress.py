"""The live line (``hanoi_asp/outputs/progress.py``): the bounds and the gap, and none off
a terminal."""

from __future__ import annotations

import io

from hanoi_asp.model.result import Progress


def test_the_live_line_shows_the_bounds_and_the_gap() -> None:
    from rich.console import Console

    from hanoi_asp.outputs.progress import ProgressLine, live_progress

    line = ProgressLine()
    assert "solving" in line.__rich__().plain
    line(Progress(lower=30, upper=47, horizon=31))
    text = line.__rich__().plain
    assert "lower bound 30, best plan 47 moves (gap 17), trying 31" in text
    with live_progress(Console(file=io.StringIO(), force_terminal=False)) as shown:
        assert shown is None  # not a terminal: no live line
