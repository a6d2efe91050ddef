"""What the browser tests (Playwright on Debian's chromium) share."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support.files import ROOT

ARTIFACTS = Path(os.environ.get("HANOI_ARTIFACTS", ROOT / "tests" / "artifacts"))
"""Where the browser tests put their screenshots (looked at by a person)."""
WAIT_MS = 60_000
"""How long a page may take to show what a test waits for."""


def keep_problems(into: list[str]) -> Callable[[Any], None]:
    """A listener for a page's ``console`` event that keeps the text of its errors and
    warnings in ``into`` (a test then asserts there are none)."""

    def listen(message: Any) -> None:
        if message.type in ("error", "warning"):
            into.append(message.text)

    return listen


class PageWatch:
    """A page with the errors it logged, its screenshots named ``<prefix>-<name>.png``
    and its text read or waited for; the requests it made are the subclass's to collect
    (from the page or from its whole browser context)."""

    prefix = "page"

    def __init__(self, page: Any, url: str) -> None:
        self.page, self.url = page, url
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", keep_problems(self.errors))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{self.prefix}-{name}.png"), full_page=True)

    def text(self, selector: str) -> str:
        return str(self.page.inner_text(selector)).strip()

    def wait_text(self, selector: str, pattern: str) -> str:
        """Wait until the element's text matches ``pattern`` (a regular expression)."""
        self.page.wait_for_function(
            "([s, p]) => { const e = document.querySelector(s);"
            " return e && new RegExp(p).test(e.textContent); }",
            arg=[selector, pattern],
            timeout=WAIT_MS,
        )
        return self.text(selector)
