"""What the browser tests (Playwright on Debian's chromium) share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def keep_problems(into: list[str]) -> Callable[[Any], None]:
    """A listener for a page's ``console`` event that keeps the text of its errors and
    warnings in ``into`` (a test then asserts there are none)."""

    def listen(message: Any) -> None:
        if message.type in ("error", "warning"):
            into.append(message.text)

    return listen
