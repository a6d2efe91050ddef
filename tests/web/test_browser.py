"""The playground of ``hanoi-asp serve`` in a real browser (issue 16, items 2 and 3).

The server runs as a subprocess on a free port; Debian's chromium, driven by Playwright,
sets a 3-disk puzzle by clicking, solves it, steps the plan, sees a syntax error at its
line in the encoding, plays two moves, asks for a hint, and plays to the goal.
Screenshots of every state go to ``$HANOI_ARTIFACTS`` (default ``tests/artifacts``) for a
person to look at.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from support.browser import WAIT_MS, PageWatch
from support.files import ROOT

from hanoi_asp import Puzzle, solve

START_SECONDS = 60
JOB_MS = WAIT_MS
"""How long a page waits for a solve (the machine may be busy with other tests)."""

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``python -m hanoi_asp serve --port 0``; its address, read from what it prints."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,  # its job processes too can be ended at teardown
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        try:
            for line in process.stdout:
                lines.put(line)
        except ValueError:
            pass  # teardown closed the pipe while a job process still held it open

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while True:
            try:
                line = lines.get(timeout=START_SECONDS)
            except queue.Empty:
                pytest.fail(f"the server printed no address in {START_SECONDS} s: {seen}")
            seen.append(line)
            found = re.search(r"http://127\.0\.0\.1:\d+", line)
            if found:
                break
            if process.poll() is not None and lines.empty():
                pytest.fail(f"the server stopped (exit {process.returncode}): {seen}")
        yield found.group(0)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # any job process left behind
        reader.join(timeout=10)
        assert process.stdout is not None
        process.stdout.close()


class Visit(PageWatch):
    """The playground opened in a new page, with what it logged and fetched."""

    prefix = "web"

    def __init__(self, chromium: Any, url: str) -> None:
        super().__init__(chromium.new_page(viewport={"width": 1400, "height": 1000}), url)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready=true]", timeout=JOB_MS)

    def click_peg(self, board: str, peg: str) -> None:
        self.page.click(f"#{board} [data-testid=peg-{peg}]")

    def disks_on(self, board: str) -> dict[int, str]:
        """Where each disk of a board is drawn (the boards record it as data-peg)."""
        found: dict[str, str] = self.page.evaluate(
            """(board) => Object.fromEntries([...document.querySelectorAll(
                 `#${board} .hanoi-disk`)].map(d => [d.dataset.disk, d.dataset.peg]))""",
            board,
        )
        return {int(disk): peg for disk, peg in found.items()}

    def refused_once(self, status: int) -> None:
        """The browser logs every 4xx answer: take the one the page just got."""
        logged = f"the server responded with a status of {status}"
        refused = [e for e in self.errors if logged in e]
        assert len(refused) == 1, self.errors
        self.errors.remove(refused[0])

    def clean(self) -> None:
        """No console errors, and nothing fetched from anywhere but the server."""
        assert self.errors == []
        assert self.requests and all(r.startswith(self.url) for r in self.requests), [
            r for r in self.requests if not r.startswith(self.url)
        ]


def distance(pegs: tuple[str, ...], placement: dict[str, tuple[int, ...]]) -> int:
    """The optimal distance from ``placement`` to the 3-disk tower on c."""
    puzzle = Puzzle(pegs=pegs, disks=3, init=placement, goal={"c": (1, 2, 3)})
    length = solve(puzzle).length
    assert length is not None
    return length


def test_solve_tab_edit_by_clicks_solve_step_and_a_syntax_error(chromium: Any, server: str) -> None:
    visit = Visit(chromium, server)
    page = visit.page
    assert visit.text("#disks-count") == "4 disks"  # the clingo quickstart's instance
    visit.shot("1-loaded")

    # a 3-disk puzzle by clicking: an arbitrary example, one disk fewer, then disks moved
    page.select_option("#examples", "05-arbitrary.lp")
    page.wait_for_selector("#start-board .hanoi-disk[data-disk='1'][data-peg='b']")
    page.click("#disks-minus")
    assert visit.wait_text("#disks-count", "^3 disks$") == "3 disks"
    assert visit.disks_on("start-board") == {1: "b", 2: "a", 3: "c"}
    assert visit.disks_on("goal-board") == {1: "a", 2: "c", 3: "c"}
    visit.click_peg("start-board", "b")  # picks disk 1, the largest: b's only disk
    assert page.locator("#start-board .hanoi-disk.is-picked").get_attribute("data-disk") == "1"
    visit.shot("2-disk-picked")
    visit.click_peg("start-board", "a")  # disk 1 goes under disk 2 on a
    visit.click_peg("start-board", "c")
    visit.click_peg("start-board", "a")
    visit.click_peg("goal-board", "a")
    visit.click_peg("goal-board", "c")
    assert visit.disks_on("start-board") == {1: "a", 2: "a", 3: "a"}
    assert visit.disks_on("goal-board") == {1: "c", 2: "c", 3: "c"}
    facts = page.input_value("#instance-text")
    assert facts == "peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\n"
    visit.shot("3-puzzle-set-by-clicks")

    page.click("#solve")
    assert visit.wait_text("[data-testid=verdict-length]", "moves") == "7 moves"
    assert visit.text("[data-testid=verdict-result]") == "OPTIMUM FOUND"
    assert "minimal" in visit.text("#proof")
    assert visit.text("#plan-player .hanoi-counter") == "step 0 / 7"
    page.click("#plan-player .hanoi-forward")
    page.click("#plan-player .hanoi-forward")
    assert visit.text("#plan-player .hanoi-counter") == "step 2 / 7"
    page.click("#plan-player .hanoi-back")
    assert visit.text("#plan-player .hanoi-counter") == "step 1 / 7"
    moved = page.locator("#plan-player .hanoi-main .hanoi-moved")
    assert moved.get_attribute("data-disk") == "3"  # the smallest disk moves first
    page.click("#plan-player .hanoi-forward")
    page.wait_for_timeout(700)  # the disk's glide
    visit.shot("4-solved-step-2")

    page.click("#explain")
    visit.wait_text("[data-testid=why-text]", "No plan of 6 moves")
    assert page.locator("#horizon-table tbody tr").count() >= 1
    assert page.locator("#horizon-chart svg .bar").count() >= 1
    visit.shot("5-explained")

    # a syntax error typed at the end of the encoding: shown under it, at its line
    editor = page.locator("#encoding-text")
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nthis is not ASP.")
    line = len(page.input_value("#encoding-text").split("\n"))
    page.click("#solve")
    message = visit.wait_text("#encoding-error", "syntax error")
    assert f"line {line}" in message
    gutter = page.locator("#encoding-editor .gutter-line.is-error")
    assert gutter.count() == 1 and gutter.inner_text() == str(line)
    assert page.is_visible("#encoding-editor .line-mark")
    assert "encoding" in visit.text("#run-error")
    assert page.is_hidden("#instance-error")
    visit.refused_once(400)
    page.locator("#encoding-error").scroll_into_view_if_needed()
    visit.shot("6-encoding-syntax-error")
    page.click("#encoding-reset")
    assert page.is_hidden("#encoding-error")
    visit.clean()


def test_play_tab_two_moves_a_refusal_a_hint_and_the_goal(chromium: Any, server: str) -> None:
    visit = Visit(chromium, server)
    page = visit.page
    page.click("#tab-play")
    page.select_option("#new-pegs", "3")
    page.select_option("#new-disks", "3")
    page.click("#new-game")
    assert visit.wait_text("#play-distance", "moves") == "7 moves"
    visit.shot("7-play-new-game")

    visit.click_peg("play-board", "a")  # disk 3 (the smallest) a -> c
    visit.click_peg("play-board", "c")
    visit.wait_text("#play-verdict", "kept")
    visit.click_peg("play-board", "a")  # disk 2 a -> b
    visit.click_peg("play-board", "b")
    assert visit.text("#play-count") == "2"
    assert page.locator("#play-moves li").all_inner_texts() == ["disk 3: a → c", "disk 2: a → b"]
    assert visit.wait_text("#play-distance", "^5 moves$") == "5 moves"
    assert visit.wait_text("#play-verdict", "kept").startswith("✓")

    visit.click_peg("play-board", "a")  # disk 1 onto disk 2: refused
    visit.click_peg("play-board", "b")
    assert "larger than disk 2" in visit.text("#play-status")
    assert visit.text("#play-count") == "2"
    visit.shot("8-play-refused")

    page.click("#hint")
    hint = visit.wait_text("#play-hint", "^Hint")
    found = re.search(r"move disk (\d+) from (\w+) to (\w+)", hint)
    assert found, hint
    disk, source, target = int(found.group(1)), found.group(2), found.group(3)
    here = {"a": (1,), "b": (2,), "c": (3,)}
    assert here[source][-1] == disk and (not here[target] or here[target][-1] < disk)  # legal
    after = {peg: tuple(d for d in disks if d != disk) for peg, disks in here.items()}
    after[target] = (*after[target], disk)
    after = {peg: disks for peg, disks in after.items() if disks}
    assert distance(("a", "b", "c"), after) == 5 - 1  # optimal
    shown = page.locator("#play-board .hanoi-disk.is-hint")
    assert shown.get_attribute("data-disk") == str(disk)
    goes = page.locator("#play-board .peg-target.is-hint-target")
    assert goes.get_attribute("data-peg") == target
    visit.shot("9-play-hint")

    for source, target in [("c", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("a", "c")]:
        visit.click_peg("play-board", source)
        visit.click_peg("play-board", target)
    done = visit.wait_text("#play-done", "Solved")
    assert done.startswith("Solved in 7 moves; the optimum from the start was 7.")
    assert visit.wait_text("#play-distance", "^0 moves$") == "0 moves"
    assert visit.wait_text("#play-verdict", "kept").startswith("✓")
    visit.shot("10-play-solved")
    page.click("#undo")
    assert visit.text("#play-count") == "6" and page.is_hidden("#play-done")
    page.click("#redo")
    assert visit.text("#play-count") == "7"
    visit.wait_text("#play-done", "Solved in 7 moves")
    visit.clean()


def test_stop_ends_a_long_solve(chromium: Any, server: str) -> None:
    """Stop aborts the request (the server kills the job) and the page is usable again."""
    visit = Visit(chromium, server)
    page = visit.page
    hard = (ROOT / "instances" / "hard" / "5pegs-14disks.lp").read_text()
    page.fill("#instance-text", hard)
    page.fill("#timeout", "100")
    page.click("#solve")
    visit.wait_text("#busy", "Solving")
    assert page.is_enabled("#stop") and page.is_disabled("#solve")
    visit.shot("11-busy")
    page.click("#stop")
    assert "Stopped" in visit.wait_text("#run-error", "Stopped")
    assert page.is_enabled("#solve") and page.is_disabled("#stop")
    visit.clean()


def test_what_clingo_did_explain_from_zero_grade_and_the_course_api(
    chromium: Any, server: str
) -> None:
    """Issue 31 item 6 and issue 32 item 6 on the server's back end: what clingo really
    did, Explain from 0, Grade on the teaching set and random puzzles with the
    counterexample opened on the board, and window.hanoiAsp."""
    visit = Visit(chromium, server)
    page = visit.page
    assert page.get_attribute("body", "data-backend") == "server"
    page.click("#solve")  # the quickstart's 4 disks: the plan built first is minimal
    visit.wait_text("[data-testid=verdict-length]", "moves")
    ran = visit.text("[data-testid=clingo-ran]")
    assert ran.startswith("no horizon: the plan built first (constructive, 15 moves)"), ran
    page.select_option("#bound", "none")
    page.click("#explain")
    visit.wait_text("[data-testid=why-text]", "No plan of 14 moves")
    statuses = page.locator("#horizon-table tbody tr td:nth-child(2)").all_inner_texts()
    assert statuses[:15] == ["UNSAT"] * 15 and statuses[-1] == "SAT"

    page.select_option("#encodings", "no-top-disk-test.lp")
    assert page.is_visible("#show-bug") and page.is_hidden("#spoiler")
    page.fill("#grade-count", "5")
    page.click("#grade")
    assert visit.wait_text("[data-testid=verdict-result]", "PASSED|FAILED") == "FAILED"
    items = page.locator("[data-testid=grade-item]").all()
    assert len(items) == 8  # the instance in the editor and the teaching set
    assert "illegal-plan" in visit.text("[data-testid=counterexample] h3")
    page.click("[data-testid=open-counterexample]")
    visit.wait_text("#disks-count", "^2 disks$")  # the shrunk counterexample on the boards
    assert page.locator("[data-testid=counterexample] .hanoi-peg.is-refused").count() == 1
    visit.shot("12-grade-counterexample")

    found = page.evaluate(
        "(i) => hanoiAsp.solve({instance: i, horizon: 9})",
        "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).",
    )
    assert found["result"] == "SATISFIABLE" and found["length"] == 9 and len(found["plan"]) == 9
    quickstart = (ROOT / "encodings" / "quickstart.lp").read_text()
    graded = page.evaluate("(e) => hanoiAsp.grade({encoding: e, random: 3})", quickstart)
    assert graded["score"] == graded["total"] == 7 + 3 and graded["findings"] == []
    visit.clean()


def test_the_page_findings_of_issue_47(chromium: Any, server: str) -> None:
    """window.hanoiAsp before the load event; boards of 5+ disks stacked, their numbers
    readable; the chart's ticks round; the lower bound of a search from 0 in words; a
    counterexample's pegs named; a plan checked in the page, pasted."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1000})
    page.add_init_script(
        "window.addEventListener('load', () => { window.seenAtLoad = typeof window.hanoiAsp; });"
    )
    visit = Visit.__new__(Visit)
    PageWatch.__init__(visit, page, server)
    page.on("request", lambda r: visit.requests.append(r.url))
    page.goto(server)
    page.wait_for_selector("body[data-ready=true]", timeout=JOB_MS)
    assert page.evaluate("window.seenAtLoad") == "object"

    page.fill("#instance-text", "peg(a;b;c;d). disk(1..7). init_on(1..7,a). goal_on(1..7,d).")
    visit.wait_text("#disks-count", "^7 disks$")
    assert page.evaluate("document.querySelector('.ends').classList.contains('stacked')")
    label = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector("
        "'#start-board .hanoi-disk[data-disk=\"7\"] text')).fontSize) * "
        "document.querySelector('#start-board svg').getBoundingClientRect().width / "
        "document.querySelector('#start-board svg').viewBox.baseVal.width"
    )
    assert label >= 10, label  # pixels on screen (about 5 side by side)
    visit.shot("47-stacked-boards")

    page.fill("#instance-text", "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).")
    visit.wait_text("#disks-count", "^3 disks$")
    page.select_option("#bound", "none")
    page.click("#explain")
    visit.wait_text("[data-testid=lower-bound]", "no bound used")
    assert visit.text("[data-testid=lower-bound]") == (
        "7 (no bound used: the search started at 0, and clingo refuted every horizon below 7)"
    )
    page.select_option("#chart-measure", "time_s")
    ticks = [
        float(t) for t in page.locator("#horizon-chart .tick[text-anchor=end]").all_text_contents()
    ]
    step = ticks[1] - ticks[0]
    assert ticks[0] == 0 and all(abs(b - a - step) < 1e-9 for a, b in itertools.pairwise(ticks))
    assert any(abs(step - f * 10**k) < 1e-9 for f in (1, 2, 5) for k in range(-4, 4)), ticks

    page.select_option("#encodings", "no-top-disk-test.lp")
    page.fill("#grade-count", "5")
    page.click("#grade")
    visit.wait_text("[data-testid=verdict-result]", "PASSED|FAILED")
    heading = visit.text("[data-testid=counterexample] h3")
    assert re.search(r"pegs \w+(, \w+)* and \w+", heading) and " pegs," not in heading, heading

    page.click("#check-box summary")
    page.fill("#plan-text", "move(3,c,1).\nmove(2,b,2).\nmove(2,c,3).\n")
    page.click("#check")
    visit.wait_text("[data-testid=verdict-result]", "ILLEGAL PLAN")
    assert visit.text("#proof").startswith(
        "illegal at step 3 (line 3): disk 2 from b to c: disk 2 would be put on a smaller disk"
    )
    assert page.locator("[data-testid=illegal-board]").count() == 1
    visit.shot("47-check-illegal")
    page.fill("#plan-text", "3 a c\n2 a b\n3 c b\n1 a c\n3 b a\n2 b c\n3 a c\n")
    page.click("#check")
    visit.wait_text("[data-testid=verdict-result]", "^OPTIMAL$")
    visit.clean()
