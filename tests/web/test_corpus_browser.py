"""The corpus (``tests/corpus``) answered by the page's own ES modules in chromium: every
case of every kind must meet its stored expectation, as the Python tests' runs must
(``tests/*/test_corpus_*.py``), so a rule changed on one side alone fails the other's.

The package's static folder is served as it is (``/js/...``), with the corpus's
``page.js`` beside it and an empty page to run it in; one page load answers every case
(``answerAll``), then each case is its own test.  ``HANOI_CORPUS_ANSWERS=FILE`` writes
the page's answers to FILE (to read them beside the contract).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus.cases import HERE, KINDS, encoding_text, load, verdict
from support.browser import WAIT_MS, keep_problems

STATIC = Path(__file__).resolve().parents[2] / "hanoi_asp" / "web" / "static"
BLANK = b'<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>corpus</title>'
CASES = {kind: load(kind) for kind in KINDS}

pytestmark = pytest.mark.browser


class _Files(http.server.SimpleHTTPRequestHandler):
    """The static folder at ``/``, the corpus's ``page.js`` at ``/corpus/page.js``, an
    empty page at ``/corpus.html``; nothing logged."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(STATIC), **kwargs)

    def translate_path(self, path: str) -> str:
        if path.split("?", 1)[0] == "/corpus/page.js":
            return str(HERE / "page.js")
        return super().translate_path(path)

    def do_GET(self) -> None:
        if self.path != "/corpus.html":
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(BLANK)))
        self.end_headers()
        self.wfile.write(BLANK)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Files))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def given(kind: str, case: dict[str, Any]) -> dict[str, Any]:
    """What the page is handed: the case, a grade's encoding as its text."""
    if kind != "grades":
        return case
    return {**case, "encoding": encoding_text(case["encoding"])}


@pytest.fixture(scope="module")
def answers(chromium: Any, site: str) -> dict[str, Any]:
    """Every case answered in one page, with no console error or warning on the way."""
    page = chromium.new_page()
    problems: list[str] = []
    page.on("console", keep_problems(problems))
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(site + "corpus.html")
        page.set_default_timeout(WAIT_MS)
        corpus = {kind: [given(kind, case) for case in cases] for kind, cases in CASES.items()}
        found: dict[str, Any] = page.evaluate(
            "async (corpus) => (await import('/corpus/page.js')).answerAll(corpus)", corpus
        )
    finally:
        page.close()
    assert problems == []
    print("page seconds per kind:", found["seconds"], "slowest cases:", found["slowest"])
    if os.environ.get("HANOI_CORPUS_ANSWERS"):  # the page's answers, to read or to adopt
        Path(os.environ["HANOI_CORPUS_ANSWERS"]).write_text(json.dumps(found, indent=1))
    return found


PARAMS = [
    pytest.param(kind, index, id=f"{kind}:{case['name']}")
    for kind, cases in CASES.items()
    for index, case in enumerate(cases)
]


@pytest.mark.parametrize("kind, index", PARAMS)
def test_the_page_meets_the_corpus(answers: dict[str, Any], kind: str, index: int) -> None:
    case = CASES[kind][index]
    problem = verdict(case, answers[kind][index], "page")
    assert problem is None, problem
