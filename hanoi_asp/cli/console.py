"""Where the command line writes for people: rich consoles on stdout and stderr, and the
live progress line (only at a terminal).

rich is imported only when one is asked for: ``solve --json`` skips it, and so does
``solve``'s text when it goes to no terminal (a pipe, a file), which rich would write
without styles (about 20 ms of CPU time of a 0.2 s quickstart solve).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console

    from hanoi_asp.outputs.progress import ProgressLine
    from hanoi_asp.outputs.text import StyledLine

RICH_TERMINAL_SETTINGS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS")
"""Settings with which rich may treat a pipe as a terminal: where one is set, rich decides."""


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


def no_terminal(stream: TextIO) -> bool:
    """Whether rich would surely see no terminal in ``stream`` (and so write its text as
    is, without styles); False where in doubt."""
    if any(name in os.environ for name in RICH_TERMINAL_SETTINGS):
        return False
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return False


def print_lines(lines: list[StyledLine]) -> None:
    """Print lines with their styles on stdout: through :func:`console` at a terminal; as
    they are elsewhere, where it would write the same (only printable text: a tab or a
    control character it would change or escape)."""
    if no_terminal(sys.stdout) and all(
        part.isprintable() for line, _ in lines for part in line.split("\n")
    ):
        sys.stdout.write("".join(f"{line}\n" for line, _ in lines))
        return
    from hanoi_asp.outputs.text import styled_view

    console().print(styled_view(lines))


def progress_line(show: bool) -> AbstractContextManager[ProgressLine | None]:
    """The live line on stderr for a person at a terminal; nothing for ``--json``."""
    if not show or no_terminal(sys.stderr):
        return nullcontext(None)
    from hanoi_asp.outputs.progress import live_progress

    return live_progress(_safe_console_class()(stderr=True))
