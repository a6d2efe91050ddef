"""Where the command line writes for people: rich consoles on stdout and stderr, and the
live progress line (only at a terminal).

rich is imported only when one is asked for: ``solve --json`` skips it (25 ms of a
0.3 s run on a 3-peg tower, whose solve takes 0.04 s).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from hanoi_asp.outputs.progress import ProgressLine


def console(*, stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def progress_line(show: bool) -> AbstractContextManager[ProgressLine | None]:
    """The live line on stderr for a person at a terminal; nothing for ``--json``."""
    if not show:
        return nullcontext(None)
    from rich.console import Console

    from hanoi_asp.outputs.progress import live_progress

    return live_progress(Console(stderr=True))
