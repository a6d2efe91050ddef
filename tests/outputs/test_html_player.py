"""``render --html``: one self-contained page that plays a plan (issue 16, item 6).

The page is checked as text (no network, instance names escaped, the assets in the
wheel), then in a real headless browser: Debian's chromium driven by Playwright, which
CI installs (``browser`` marker).  Screenshots go to ``$HANOI_ARTIFACTS`` (default
``tests/artifacts``) for a person to look at.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from support.browser import keep_problems
from support.cli import RunCli
from support.files import INSTANCES, ROOT

from hanoi_asp import Puzzle, load_puzzle, solve
from hanoi_asp.outputs.html import plan_html, player_data, script_json

ARTIFACTS = Path(os.environ.get("HANOI_ARTIFACTS", ROOT / "tests" / "artifacts"))
HOSTILE = "</script><script>window.hacked = 1</script><!--"


def test_page_is_self_contained_and_escapes_names() -> None:
    puzzle = Puzzle(pegs=("a", HOSTILE, "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
    result = solve(puzzle)
    assert result.plan is not None
    page = plan_html(puzzle, result.plan, f"<b>{HOSTILE}</b>", "3 moves")
    assert page.count("<script") == page.count("</script>") == 3  # data, player, mount
    assert HOSTILE not in page and "&lt;b&gt;" in page
    data = re.search(r'<script type="application/json" id="puzzle">(.*?)</script>', page, re.S)
    assert data is not None and json.loads(data.group(1)) == player_data(puzzle, result.plan)
    assert json.loads(script_json({"x": "<&>\u2028"})) == {"x": "<&>\u2028"}
    # nothing to fetch: no src or href attributes, no url(), and a policy that forbids it
    assert not re.search(r"\b(src|href)\s*=|url\(|@import", page)
    assert "default-src 'none'" in page


def test_player_data_is_the_documented_object() -> None:
    puzzle = load_puzzle(str(INSTANCES / "partial-goal.toml"))
    result = solve(puzzle)
    assert result.plan is not None
    data = player_data(puzzle, result.plan)
    assert data["pegs"] == ["a", "b", "c"] and data["disks"] == 4
    assert data["start"] == {"a": [1, 2, 3, 4]} and data["goal"] == {"c": [1, 3]}
    plan: Any = data["plan"]
    assert plan[0] == {"disk": result.plan[0].disk, "from": "a", "to": result.plan[0].target}
    assert len(plan) == result.length
    # the same moves as the `solve --json` object, which the web app hands the player
    assert [{k: m[k] for k in ("disk", "from", "to")} for m in result.to_dict()["plan"]] == plan


def test_player_assets_ship_in_the_wheel() -> None:
    from hatchling.builders.wheel import WheelBuilder

    shipped = {f.distribution_path for f in WheelBuilder(str(ROOT)).recurse_included_files()}
    assert {"hanoi_asp/outputs/player/player.js", "hanoi_asp/outputs/player/player.css"} <= shipped


def test_render_html_keeps_the_exit_codes(run_cli: RunCli, tmp_path: Path) -> None:
    page = tmp_path / "plan.html"
    code, out, _ = run_cli("render", str(INSTANCES / "quickstart.lp"), "--html", str(page))
    assert code == 0 and "a player for 15 moves" in out and "HanoiPlayer" in page.read_text()
    unsolvable = str(INSTANCES / "unsolvable-2pegs.lp")
    code, out, _ = run_cli("render", unsolvable, "--html", str(tmp_path / "none.html"))
    assert code == 1 and "no plan to draw" in out and not (tmp_path / "none.html").exists()
    code, _, err = run_cli("render", str(INSTANCES / "quickstart.lp"))
    assert code == 2 and "--html" in err


# -- in a browser ------------------------------------------------------------------------------


class Visit:
    """A page opened from a file, with what it logged and fetched."""

    def __init__(self, chromium: Any, path: Path) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page = chromium.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", keep_problems(self.errors))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))

        def dismiss(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.dismiss()

        self.page.on("dialog", dismiss)
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)

    def counter(self) -> str:
        return str(self.page.inner_text(".hanoi-counter"))

    def shot(self, name: str, full_page: bool = True) -> None:
        """A screenshot to look at (chromium cannot take a full page of a bare SVG)."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)

    def pegs_of_disks(self) -> dict[int, str]:
        """Where each disk of the animated board is drawn: the peg under its centre."""
        found: dict[int, str] = self.page.evaluate(
            """() => {
              const board = document.querySelector(".hanoi-main"), out = {};
              const pegs = [...board.querySelectorAll(".hanoi-peg")].map(p => {
                const box = p.getBoundingClientRect();
                return [p.dataset.peg, box.left + box.width / 2];
              });
              for (const disk of board.querySelectorAll(".hanoi-disk")) {
                const box = disk.getBoundingClientRect(), x = box.left + box.width / 2;
                const near = pegs.filter(([, px]) => Math.abs(px - x) < 1);
                out[disk.dataset.disk] = near.length === 1 ? near[0][0] : null;
              }
              return out;
            }"""
        )
        return {int(disk): peg for disk, peg in found.items()}

    def settled(self) -> None:
        """Wait out a disk's glide (at most 0.6 s)."""
        self.page.wait_for_timeout(700)


@pytest.mark.browser
def test_the_page_plays_to_the_last_frame_and_steps(
    chromium: Any, run_cli: RunCli, tmp_path: Path
) -> None:
    page_file = tmp_path / "quickstart.html"
    code, _, _ = run_cli("render", str(INSTANCES / "quickstart.lp"), "--html", str(page_file))
    assert code == 0
    visit = Visit(chromium, page_file)
    page = visit.page
    assert visit.counter() == "step 0 / 15"
    assert visit.pegs_of_disks() == {1: "a", 2: "a", 3: "a", 4: "a"}
    assert page.locator(".hanoi-end figcaption").all_inner_texts() == ["start", "goal"]
    visit.shot("player-start")

    page.click(".hanoi-forward")
    page.click(".hanoi-forward")
    assert visit.counter() == "step 2 / 15"
    moved = page.locator(".hanoi-main .hanoi-moved")
    assert moved.count() == 1 and moved.get_attribute("data-disk") == "3"  # 2: disk 3 a->c
    page.click(".hanoi-back")
    assert visit.counter() == "step 1 / 15"
    assert page.locator(".hanoi-main .hanoi-moved").get_attribute("data-disk") == "4"
    page.focus(".hanoi-player")
    page.keyboard.press("ArrowRight")
    assert visit.counter() == "step 2 / 15"
    visit.settled()
    assert visit.pegs_of_disks() == {1: "a", 2: "a", 3: "c", 4: "b"}
    visit.shot("player-step-2")

    page.locator(".hanoi-speed input").fill("100")  # the slider's top: 20 moves a second
    assert page.inner_text(".hanoi-speed span") == "20 moves/s"
    page.click(".hanoi-play")
    assert page.inner_text(".hanoi-play").startswith("pause")
    page.wait_for_function(
        "() => document.querySelector('.hanoi-counter').textContent === 'step 15 / 15'",
        timeout=10_000,
    )
    visit.settled()
    assert page.inner_text(".hanoi-play").startswith("play")  # it stops at the end
    assert visit.pegs_of_disks() == {1: "c", 2: "c", 3: "c", 4: "c"}  # the goal peg
    assert page.locator(".hanoi-forward").is_disabled()
    visit.shot("player-end")

    page.click(".hanoi-back")
    assert visit.counter() == "step 14 / 15"
    page.click(".hanoi-forward")
    assert visit.counter() == "step 15 / 15"
    assert visit.errors == [] and visit.requests == [visit.url]


@pytest.mark.browser
def test_the_arrow_keys_work_before_any_click(
    chromium: Any, run_cli: RunCli, tmp_path: Path
) -> None:
    """A rendered page takes the keys from the whole page: a teacher projecting it
    steps with the arrows at once, without clicking the player first."""
    page_file = tmp_path / "keys.html"
    code, _, _ = run_cli("render", str(INSTANCES / "quickstart.lp"), "--html", str(page_file))
    assert code == 0
    visit = Visit(chromium, page_file)
    page = visit.page
    assert page.evaluate("document.activeElement === document.body")  # nothing focused
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert visit.counter() == "step 2 / 15"
    page.keyboard.press("ArrowLeft")
    assert visit.counter() == "step 1 / 15"
    page.keyboard.press("End")
    assert visit.counter() == "step 15 / 15"
    assert visit.errors == []


@pytest.mark.browser
def test_the_player_api_and_a_partial_goal(chromium: Any, tmp_path: Path) -> None:
    """``HanoiPlayer.mount`` as the web app will call it; free goal disks greyed."""
    puzzle = load_puzzle(str(INSTANCES / "partial-goal.toml"))
    result = solve(puzzle)
    assert result.plan is not None
    page_file = tmp_path / "partial.html"
    page_file.write_text(plan_html(puzzle, result.plan, "partial goal"), encoding="utf-8")
    visit = Visit(chromium, page_file)
    page = visit.page
    assert page.inner_text(".hanoi-end:last-child figcaption") == "goal (grey: anywhere)"
    free = page.locator(".hanoi-end:last-child .hanoi-free")
    assert sorted(free.evaluate_all("ds => ds.map(d => d.dataset.disk)")) == ["2", "4"]
    visit.shot("player-partial-goal")
    seen = page.evaluate(
        """(data) => {
          const box = document.createElement("div");
          document.body.appendChild(box);
          const player = HanoiPlayer.mount(box, data, {ends: false, speed: 5});
          const events = [], heard = [];
          const off = player.on("change", s => events.push(s.step));
          box.addEventListener("hanoi:change", e => heard.push(e.detail.step));
          player.goto(4); player.step(); player.step(-2); player.goto(99);
          off(); player.goto(0);
          const state = player.state();
          const ends = box.querySelectorAll(".hanoi-end").length;
          player.destroy();
          return {events, heard, state, ends, left: box.childElementCount};
        }""",
        player_data(puzzle, result.plan),
    )
    total = len(result.plan)
    assert seen["events"] == [4, 5, 3, total] and seen["heard"] == [4, 5, 3, total, 0]
    assert seen["state"] == {"step": 0, "total": total, "playing": False, "speed": 5, "move": None}
    assert seen["ends"] == 0 and seen["left"] == 0
    assert visit.errors == [] and visit.requests == [visit.url]


@pytest.mark.browser
def test_a_restricted_move_graph_is_named_and_listed(
    chromium: Any, run_cli: RunCli, tmp_path: Path
) -> None:
    """A cyclic puzzle's page says which moves are allowed (its plan makes no other);
    the classic game's page says nothing of a graph."""
    page_file = tmp_path / "cyclic.html"
    path = str(INSTANCES / "variants" / "cyclic-3pegs-4disks.toml")
    code, _, _ = run_cli("render", path, "--html", str(page_file))
    assert code == 0
    visit = Visit(chromium, page_file)
    text = visit.page.inner_text(".hanoi-graph")
    assert text == "moves allowed (cyclic): a \u2192 b, b \u2192 c, c \u2192 a; no other move"
    visit.shot("player-cyclic-graph")
    assert visit.errors == []
    plain = tmp_path / "quickstart.html"
    run_cli("render", str(INSTANCES / "quickstart.lp"), "--html", str(plain))
    assert Visit(chromium, plain).page.locator(".hanoi-graph").count() == 0


@pytest.mark.browser
def test_hostile_names_stay_text(chromium: Any, tmp_path: Path) -> None:
    puzzle = Puzzle(pegs=("a", HOSTILE), disks=1, init={"a": (1,)}, goal={HOSTILE: (1,)})
    page_file = tmp_path / "hostile.html"
    page_file.write_text(plan_html(puzzle, solve(puzzle).plan or (), HOSTILE), encoding="utf-8")
    visit = Visit(chromium, page_file)
    assert visit.page.evaluate("window.hacked") is None and visit.dialogs == []
    names = visit.page.locator(".hanoi-main .hanoi-peg-name").all_text_contents()
    assert names == ["a", HOSTILE] and visit.page.inner_text("h1") == HOSTILE
    assert visit.counter() == "step 0 / 1" and visit.errors == []


@pytest.mark.browser
def test_svg_disk_labels_fit_in_a_browser(chromium: Any, tmp_path: Path) -> None:
    """The SVG's labels, measured in the browser's own font, lie on their disks."""
    from hanoi_asp.outputs.pictures import plan_svg

    disks = 10
    tower = tuple(range(1, disks + 1))
    puzzle = Puzzle(pegs=("a", "b", "c"), disks=disks, init={"a": tower}, goal={"c": tower})
    svg_file = tmp_path / "tower.svg"
    svg_file.write_text(plan_svg(puzzle, solve(puzzle).plan or (), limit=3), encoding="utf-8")
    visit = Visit(chromium, svg_file)
    outside = visit.page.evaluate(
        """() => {
          const bad = [];
          for (const text of document.querySelectorAll("g.frame text[text-anchor=middle]")) {
            const disk = text.previousElementSibling;
            if (!/^\\d+$/.test(text.textContent) || disk.tagName !== "rect") continue;
            const t = text.getBBox(), d = disk.getBBox();
            if (t.x < d.x || t.x + t.width > d.x + d.width) bad.push(text.textContent);
          }
          return bad;
        }"""
    )
    assert outside == []
    visit.page.set_viewport_size({"width": 1800, "height": 300})
    visit.shot("svg-10-disks", full_page=False)
