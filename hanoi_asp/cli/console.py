"""Where the command line writes for people: rich consoles on stdout and stderr, and the
live progress line (only at a terminal).

rich is imported only when one is asked for: ``solve --json`` skips it (25 ms of a
0.3 s run on a 3-peg tower, whose solve takes 0.04 s).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from hanoi_asp.outputs.progress import ProgressLine


def console(*, stderr: bool = False) -> Console:
    return _safe_console_class()(stderr=stderr, highlight=False, soft_wrap=True)


@cache
def _safe_console_class() -> type[Console]:
    """A rich console that shows every character of the text it prints: an instance,
    peg or file name holding a terminal's escape (``\\x1b[2J`` clears the screen) is
    written as that escape (:func:`~hanoi_asp.outputs.safe_text.terminal_text`), so no
    view needs to remember it.  It works on the rendered segments, where rich's own
    styles are still apart from the text; control segments (cursor moves of the live
    line) are rich's and pass."""
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.segment import Segment

    from hanoi_asp.outputs.safe_text import terminal_text

    class SafeConsole(Console):
        def render(
            self, renderable: RenderableType, options: ConsoleOptions | None = None
        ) -> Iterator[Segment]:
            for segment in super().render(renderable, options):
                if segment.control or segment.text.isprintable():
                    yield segment
                else:
                    yield Segment(terminal_text(segment.text), segment.style)

    return SafeConsole


def progress_line(show: bool) -> AbstractContextManager[ProgressLine | None]:
    """The live line on stderr for a person at a terminal; nothing for ``--json``."""
    if not show:
        return nullcontext(None)
    from hanoi_asp.outputs.progress import live_progress

    return live_progress(_safe_console_class()(stderr=True))
