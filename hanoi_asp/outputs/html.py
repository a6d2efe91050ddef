"""One self-contained HTML page that animates a plan, to put on a course page or mail.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "</script>"), disks=1, init={"a": (1,)}, goal={"</script>": (1,)})
>>> page = plan_html(p, [], "demo")
>>> page.count("</script"), "HanoiPlayer.mount" in page
(3, True)

The player is plain JavaScript and CSS (``player/player.js``, ``player/player.css``,
shipped in the wheel and served as they are by the web app); here they are inlined with
the puzzle as JSON, so the page needs no network, and a Content-Security-Policy says so.
In the JSON every ``<``, ``>`` and ``&`` is escaped, so no peg name ends the script early.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from importlib import resources

from hanoi_asp.model.plan import Move
from hanoi_asp.model.puzzle import Puzzle, placement
from hanoi_asp.outputs.safe_text import xml_text

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{title}</title>
<style>
body {{ margin: 1.5rem; background: #ffffff; }}
h1 {{ font: bold 1.5rem system-ui, sans-serif; margin: 0 0 0.25rem; }}
.note {{ font: 1rem system-ui, sans-serif; margin: 0 0 1rem; color: #333333; }}
{css}</style>
</head>
<body>
<h1>{title}</h1>
{note}
<div id="player"></div>
<script type="application/json" id="puzzle">{data}</script>
<script>{js}</script>
<script>
HanoiPlayer.mount(document.getElementById("player"),
                  JSON.parse(document.getElementById("puzzle").textContent), {{keys: "page"}});
</script>
</body>
</html>
"""


def player_data(puzzle: Puzzle, plan: Sequence[Move]) -> dict[str, object]:
    """The object ``HanoiPlayer.mount`` draws (see the top of ``player.js``)."""
    start = dict(enumerate(puzzle.initial_state(), start=1))

    def on_pegs(where: dict[int, int]) -> dict[str, list[int]]:
        by_peg = placement({disk: puzzle.pegs[peg] for disk, peg in where.items()})
        return {peg: list(disks) for peg, disks in by_peg.items()}

    return {
        "pegs": list(puzzle.pegs),
        "disks": puzzle.disks,
        "start": on_pegs(start),
        "goal": on_pegs(puzzle.goal_pegs()),
        "plan": [{"disk": m.disk, "from": m.source, "to": m.target} for m in plan],
    }


def graph_data(puzzle: Puzzle) -> dict[str, object]:
    """The player's ``graph`` and ``graph_name`` for a restricted move graph (shown and
    named above the plan); nothing for the classic game, where every move is allowed."""
    if puzzle.edges() is None:
        return {}
    return {
        "graph": [list(edge) for edge in puzzle.moves_allowed or ()],
        "graph_name": puzzle.graph_name(),
    }


def player_asset(name: str) -> str:
    """``player.js`` or ``player.css``, from the installed package."""
    return resources.files("hanoi_asp.outputs").joinpath("player", name).read_text("utf-8")


def script_json(data: object) -> str:
    """JSON safe inside ``<script>``: no ``</script>``, ``<!--`` or ``&`` entity can form."""
    text = json.dumps(data, ensure_ascii=False)
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(raw, escaped)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def plan_html(puzzle: Puzzle, plan: Sequence[Move], title: str, note: str = "") -> str:
    """The page: ``title`` and ``note`` above the start, the goal and the animated plan."""
    js, css = player_asset("player.js"), player_asset("player.css")
    if "</" in js or "</" in css:
        raise AssertionError("a player asset holds '</' and would end its tag early")
    return PAGE.format(
        title=escape(xml_text(title)),
        note=f'<p class="note">{escape(xml_text(note))}</p>' if note else "",
        css=css,
        js=js,
        data=script_json({**player_data(puzzle, plan), **graph_data(puzzle)}),
    )
