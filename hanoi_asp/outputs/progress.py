"""A live line for a long solve on a terminal: the bounds closing in, and the time.

The engine reports a :class:`~hanoi_asp.model.result.Progress` whenever a bound moves;
the line keeps the last one and rich redraws it a few times a second (elapsed time
goes on while clingo works), on stderr, only on a terminal, and gone at the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.live import Live
from rich.text import Text

from hanoi_asp.model.result import Progress


class ProgressLine:
    """Call it with each :class:`Progress`; rich renders it through ``__rich__``."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.last: Progress | None = None

    def __call__(self, progress: Progress) -> None:
        self.last = progress

    def __rich__(self) -> Text:
        elapsed = f"{time.monotonic() - self.started:.1f} s"
        last = self.last
        if last is None:
            return Text(f"solving... {elapsed}", style="dim")
        best = "no plan yet" if last.upper is None else f"best plan {last.upper} moves"
        gap = "" if last.upper is None else f" (gap {last.upper - last.lower})"
        trying = "" if last.horizon is None else f", trying {last.horizon}"
        return Text(f"lower bound {last.lower}, {best}{gap}{trying}, {elapsed}", style="dim")


@contextmanager
def live_progress(console: Console, *, show: bool = True) -> Iterator[ProgressLine | None]:
    """A :class:`ProgressLine` shown on ``console`` if ``show`` and it is a terminal,
    else None."""
    if not (show and console.is_terminal):
        yield None
        return
    line = ProgressLine()
    with Live(line, console=console, transient=True, refresh_per_second=4):
        yield line
