"""The static site of ``hanoi-asp site`` in a real browser (issue 31): exported once,
served by ``python -m http.server`` (a static host, nothing of hanoi-asp's server),
driven in Debian's chromium by Playwright.  The page runs clingo (WebAssembly) in a Web
Worker: it solves, explains, grades, shrinks a counterexample, gives hints, stops, and
shares; every answer is checked against hanoi-asp's own (breadth-first search, the
simulator, ``grade``), and no request may leave the folder's origin.  Screenshots of
each tab go to ``$HANOI_ARTIFACTS`` (default ``tests/artifacts``) as ``site-*.png``.
The speed targets (15 moves within 3 s of the page's load, ...) are measured by
``python -m benchmarks.site_speed``, not here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.browser import WAIT_MS, PageWatch
from support.files import CHROMIUM, ROOT

from hanoi_asp.inputs.instance import parse_puzzle
from hanoi_asp.methods.bfs import search
from hanoi_asp.model.options import Encoding
from hanoi_asp.model.plan import replay
from hanoi_asp.teaching.grade import HORIZON_SECONDS, grade
from hanoi_asp.teaching.shrink import with_counterexample
from hanoi_asp.teaching.teaching_set import teaching_set
from hanoi_asp.teaching.views import shown_path
from hanoi_asp.web.site import export_site

"""How long a page waits for an answer (the machine may be busy with other tests)."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
FIVE_DISKS = (  # 4 pegs, 5 disks, an arbitrary start and a scattered goal: optimum 10
    "peg(a;b;c;d). disk(1..5). init_on(1..4,c). init_on(5,d).\n"
    "goal_on(1,a). goal_on(2,c). goal_on(3,d). goal_on(4,b). goal_on(5,d).\n"
)
QUICKSTART = (ROOT / "encodings" / "quickstart.lp").read_text()
ONLY_FOUR = QUICKSTART.replace(  # right on every teaching instance, wrong on 5 disks
    "{ move(D,P,T) : disk(D), peg(P) } = 1", "{ move(D,P,T) : disk(D), peg(P), D <= 4 } = 1"
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The exported site under ``python -m http.server`` on a free port: its address."""
    folder = tmp_path_factory.mktemp("site") / "out"
    export_site(folder)
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"port (\d+)", line)
        assert found, line
        yield f"http://127.0.0.1:{found.group(1)}/"
    finally:
        server.terminate()
        server.wait(timeout=10)
        if server.stdout is not None:
            server.stdout.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"no chromium at {CHROMIUM}: apt-get install chromium, or set HANOI_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Visit(PageWatch):
    """The site opened in a new page, with what it logged and requested."""

    prefix = "site"

    def __init__(self, browser: Any, url: str, path: str = "") -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        super().__init__(self.context.new_page(), url)
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.open(path)

    def open(self, path: str = "") -> None:
        self.page.goto(self.url + path)
        self.page.wait_for_selector("body[data-ready=true][data-backend=page]", timeout=WAIT_MS)

    def evaluate(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)

    def close(self) -> None:
        """No console errors, nothing requested from another origin (the worker's and
        the WebAssembly's requests included: they are the context's), then closed."""
        try:
            assert self.errors == []
            own = (self.url, "blob:" + self.url.rstrip("/"))  # a download is a blob of the page's
            assert self.requests and all(r.startswith(own) for r in self.requests), [
                r for r in self.requests if not r.startswith(own)
            ]
        finally:
            self.context.close()


def optimum(text: str) -> int:
    found = search(parse_puzzle(text, "x.lp"), max_moves=None).steps
    assert found is not None
    return len(found)


def test_solve_and_explain_the_quickstart_in_the_page(browser: Any, site: str) -> None:
    visit = Visit(browser, site)
    page = visit.page
    assert visit.text("#disks-count") == "4 disks" and "in this page" in visit.text("#connection")
    page.select_option("#encodings", "quickstart.lp")
    page.click("#solve")
    assert visit.wait_text("[data-testid=verdict-length]", "moves") == "15 moves"
    assert visit.text("[data-testid=verdict-result]") == "OPTIMUM FOUND"
    assert "page-bfs" in visit.text("[data-testid=lower-bound]")
    assert visit.text("[data-testid=clingo-ran]").endswith("on horizon 15: a plan at 15")
    page.click("#plan-player .hanoi-forward")
    assert visit.text("#plan-player .hanoi-counter") == "step 1 / 15"

    page.select_option("#bound", "none")  # the lesson: every horizon below refuted
    page.click("#explain")
    assert visit.wait_text("[data-testid=why-text]", "No plan of 14 moves").startswith("No plan")
    statuses = page.locator("#horizon-table tbody tr td:nth-child(2)").all_inner_texts()
    assert statuses == ["UNSAT"] * 15 + ["SAT"]
    assert "horizons 0..14 proven unsatisfiable by clingo" in visit.text("#proof")
    assert page.locator("#horizon-chart svg .bar").count() == 16
    page.set_viewport_size({"width": 1024, "height": 900})  # the last column stays in view
    box = page.locator("#horizon-table th:last-child").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1024
    visit.shot("1-solve-explained-at-1024px")
    page.set_viewport_size({"width": 1400, "height": 1000})

    # a plan the simulator refuses is drawn where it goes wrong, not played
    page.select_option("#encodings", "no-top-disk-test.lp")
    page.select_option("#bound", "auto")
    page.click("#solve")
    assert "not on top" in visit.wait_text("#encoding-error", "illegal")
    assert visit.text("[data-testid=verdict-result]") == "ILLEGAL PLAN"
    refused = page.locator("#illegal .hanoi-disk.is-picked")
    assert refused.count() == 1 and page.locator("#illegal .hanoi-peg.is-refused").count() == 1
    visit.shot("2-solve-illegal-plan")
    visit.close()


def test_the_javascript_api_solves_upward_to_the_optimum(browser: Any, site: str) -> None:
    visit = Visit(browser, site)
    best = optimum(FIVE_DISKS)
    puzzle = parse_puzzle(FIVE_DISKS, "x.lp")
    for encoding in (None, QUICKSTART):  # incremental (clingo's incmode), one-shot
        found = visit.evaluate(
            "([i, e]) => hanoiAsp.solve({instance: i, encoding: e, bound: 'none'})",
            [FIVE_DISKS, encoding],
        )
        assert found["result"] == "OPTIMUM FOUND" and found["length"] == best
        steps = [(move["disk"], move["to"]) for move in found["plan"]]
        assert len(replay(puzzle, steps)) == best  # the plan drawn is a legal one
    exact = visit.evaluate(
        "(i) => hanoiAsp.solve({instance: i, horizon: 5})",
        "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c).",
    )
    assert exact["result"] == "SATISFIABLE" and exact["length"] == 5
    refused = visit.evaluate(
        "(i) => hanoiAsp.solve({instance: i, encoding: '#script (lua) x = 1 #end.\\n'})"
        ".then(() => 'ran', (e) => e.message)",
        FIVE_DISKS,
    )
    assert refused.startswith("encoding.lp:1: #script is not allowed")
    visit.close()


def test_check_in_the_page_gives_the_command_lines_verdicts(browser: Any, site: str) -> None:
    """hanoiAsp.check on the page's own back end: the verdicts, words and illegal move of
    ``check --json`` (the page proves the optimum by its breadth-first search)."""
    from hanoi_asp import solve
    from hanoi_asp.teaching.check import check_json, check_plan

    visit = Visit(browser, site)
    puzzle = parse_puzzle(FIVE_DISKS, "x.lp")
    plan = solve(puzzle).plan
    assert plan is not None
    moves = [m.as_dict() for m in plan]
    detour = [{"disk": 5, "from": "d", "to": "a"}, {"disk": 5, "from": "a", "to": "d"}]
    bare = [{"disk": m["disk"], "to": m["to"]} for m in moves]  # no "step" to renumber
    plans: list[Any] = [moves, {"plan": moves}, bare[:-1], bare[1:], detour + bare]
    keys = [
        *("verdict", "words", "length", "legal", "goal_reached", "illegal", "goal_missed"),
        *("optimum", "gap", "exit_code"),
    ]
    for given in plans:
        steps = given["plan"] if isinstance(given, dict) else given
        ours = check_json(check_plan(puzzle, steps), "instance.lp", "plan.txt")
        paged = visit.evaluate(
            "([i, p]) => hanoiAsp.check({instance: i, plan: p})", [FIVE_DISKS, json.dumps(given)]
        )
        assert {k: paged[k] for k in keys} == {k: ours[k] for k in keys}, given
    assert (paged["verdict"], paged["gap"]) == ("not-optimal", 2)  # the detour
    refused = visit.evaluate(
        "([i, p]) => hanoiAsp.check({instance: i, plan: p}).then(() => 'ran', (e) => e.data)",
        [FIVE_DISKS, "4 a b\nfour a c\n"],
    )
    assert refused == {
        "error": "plan.txt:2: not a move: 'four a c' (a line is DISK FROM TO, e.g. '4 a b')",
        "where": "plan",
        "line": 2,
    }
    visit.close()


def test_grade_verdicts_are_the_command_lines(browser: Any, site: str) -> None:
    """Every shipped exercise and whole encoding on every teaching instance: the page's
    grades equal ``grade``'s (pass, optimum, answer per horizon, findings), and so do the
    counterexamples, shrunk in the page as on the command line."""
    visit = Visit(browser, site)
    names = [shown_path(i) for i in teaching_set()]
    encodings = sorted((ROOT / "encodings" / "exercises").glob("*.lp"))
    encodings += [ROOT / "encodings" / "quickstart.lp", ROOT / "encodings" / "incremental.lp"]
    compared = compared_examples = 0
    for path in encodings:
        text = path.read_text()
        encoding = Encoding(text, "encoding.lp")
        report = grade(encoding, teaching_set(), names=names)
        cli = with_counterexample(encoding, report, HORIZON_SECONDS).as_dict()
        paged = visit.evaluate("(e) => hanoiAsp.grade({encoding: e, random: 0})", text)
        assert paged["total"] == len(cli["instances"]), path.name
        for ours, theirs in zip(paged["report"]["instances"], cli["instances"], strict=True):
            assert ours == theirs, (path.name, ours["instance"])
            compared += 1
        assert paged["report"]["warnings"] == cli["warnings"], path.name
        ours_, theirs_ = paged["counterexample"], cli["counterexample"]
        assert (ours_ is None) == (theirs_ is None), path.name
        if theirs_ is not None:  # shrunk alike: the same puzzle, horizon, kind and reason
            keys = ("pegs", "disks", "horizon", "kind", "reason", "plan", "rules")
            assert {k: ours_[k] for k in keys} == {k: theirs_[k] for k in keys}, path.name
            same = parse_puzzle(ours_["instance"], "x.lp") == parse_puzzle(
                theirs_["instance"], "x.lp"
            )
            assert same, path.name
            compared_examples += 1
        expect = re.search(r"% Expect: (\S+)", text)
        if expect:  # every exercise fails as its header says (or passes the teaching set)
            kinds = {f["kind"] for f in paged["findings"]}
            assert expect.group(1) in kinds or path.name == "no-move-graph-test.lp", path.name
    assert compared == 70 and compared_examples == 7
    visit.close()


def test_a_bug_only_on_five_disks_is_caught_and_shown(browser: Any, site: str) -> None:
    visit = Visit(browser, site)
    page = visit.page
    page.fill("#encoding-text", ONLY_FOUR)
    page.fill("#grade-count", "30")
    page.click("#grade")
    assert visit.wait_text("[data-testid=verdict-result]", "PASSED|FAILED") == "FAILED"
    items = page.locator("[data-testid=grade-item]")
    taught = [i for i in items.all() if i.get_attribute("data-instance").startswith("teaching/")]
    assert taught and all("passed" in (i.get_attribute("class") or "") for i in taught)
    reason = visit.text("[data-testid=counterexample-reason]")
    assert "D <= 4" in reason and "cannot make the reference plan's move" in reason
    heading = visit.text("[data-testid=counterexample] h3")
    assert "too-strict on 5 disks" in heading  # shrunk: no puzzle of 4 disks shows it
    page.click("[data-testid=open-counterexample]")
    visit.wait_text("#disks-count", "^5 disks$")
    assert page.locator("[data-testid=counterexample] .hanoi-counter").count() == 1
    marked = page.locator("#encoding-editor .gutter-line.is-marked").all_inner_texts()
    line = 1 + QUICKSTART[: QUICKSTART.index("{ move(D,P,T)")].count("\n")
    assert marked == [str(line)]  # the choice rule that cannot make disk 5's move
    visit.shot("3-grade-counterexample")
    visit.close()


def test_play_hints_stop_time_limit_share_keep_and_download(
    browser: Any, site: str, tmp_path: Path
) -> None:
    visit = Visit(browser, site)
    page = visit.page
    page.click("#tab-play")
    page.select_option("#new-pegs", "4")
    page.select_option("#new-disks", "5")
    page.click("#new-game")
    assert visit.wait_text("#play-distance", "moves") == "13 moves"  # Frame-Stewart's 13
    page.click("#hint")
    hint = visit.wait_text("#play-hint", "^Hint")
    assert "minimal plan" in hint and page.locator("#play-board .is-hint").count() == 1
    visit.shot("4-play-hint")

    # a position too large to search and off the stored plans: the page says it cannot
    page.click("#tab-solve")
    page.fill(
        "#instance-text",
        "peg(a;b;c;d). disk(1..10). init_on(1..9,a). init_on(10,b).\ngoal_on(1..10,d).\n",
    )
    page.click("#tab-play")
    page.click("#play-instance")
    assert "cannot give one here" in visit.wait_text("#play-distance", "no answer")

    # Stop ends clingo's worker at once; the time limit ends a run too
    page.click("#tab-solve")
    page.fill("#instance-text", (ROOT / "instances" / "hard" / "5pegs-14disks.lp").read_text())
    page.click("#solve")
    visit.wait_text("#busy", "Solving")
    page.click("#stop")
    assert "worker in this page was ended" in visit.wait_text("#run-error", "Stopped")
    page.fill("#timeout", "1")
    page.click("#solve")
    assert visit.wait_text("[data-testid=verdict-result]", "UNKNOWN") == "UNKNOWN"
    assert "time limit of 1 s" in visit.text("#proof")

    # an exercise's spoiler stays hidden until asked; the edit is shared, kept, downloaded
    page.select_option("#encodings", "no-goal-test.lp")
    assert "hidden until you ask" in page.input_value("#encoding-text")
    assert "goal test is missing" not in page.input_value("#encoding-text")
    assert page.is_hidden("#spoiler")
    page.click("#show-bug")
    assert "goal test is missing" in visit.text("#spoiler")
    edited = page.input_value("#encoding-text") + "% my fix comes here\n"
    page.fill("#encoding-text", edited)
    page.click("#share")
    page.wait_for_function("document.querySelector('#share-link').value !== ''", timeout=WAIT_MS)
    link = page.input_value("#share-link")
    assert "#encoding=no-goal-test.lp:" in link
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "saved.lp"
    download.value.save_as(saved)
    assert saved.read_text() == edited and download.value.suggested_filename.endswith(".lp")
    visit.close()

    shared = Visit(browser, site, link.removeprefix(site))  # a fresh browser: the link alone
    assert shared.page.input_value("#encoding-text") == edited
    assert shared.page.input_value("#encodings") == "no-goal-test.lp"
    shared.page.fill("#encoding-text", edited + "% kept\n")
    shared.page.wait_for_timeout(600)  # the editor's text is kept after a pause
    shared.open()  # the page again, without the fragment: local storage has it
    assert shared.page.input_value("#encoding-text") == edited + "% kept\n"
    shared.close()


def test_opened_from_a_file_it_says_to_serve_the_folder(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("file-site") / "out"
    export_site(folder)
    page = browser.new_page()
    try:
        page.goto((folder / "index.html").as_uri())
        message = page.wait_for_selector("#connection.bad", timeout=WAIT_MS)
        assert "python -m http.server" in message.inner_text()
    finally:
        page.close()
    assert json.loads((folder / "static" / "site.json").read_text())["version"] == 1
