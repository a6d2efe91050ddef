"""The static site's speed (issue #31): export, size, and clingo in the page.

    python -m benchmarks.site_speed             # 3 runs of each
    python -m benchmarks.site_speed --runs 5

Measured, each as the median and worst of ``--runs``:

* export: a fresh ``python -m hanoi_asp site OUTDIR`` process, start to exit (target
  under 5 s), and the folder's size (target under 10 MB);
* in Debian's chromium (Playwright, a fresh browser context per run, so nothing is
  cached: the page, its modules and the WebAssembly are fetched and compiled every time),
  the site served by ``python -m http.server``:
  - quickstart: from the start of the page's load until it shows the 15 moves of the
    quickstart puzzle solved with the quickstart encoding (selected, then Solve minimal;
    target 3 s), with the lower bound (breadth-first search in the page) and from 0
    (every horizon 0..15 refuted or solved by clingo);
  - five disks: a 4-peg 5-disk arbitrary puzzle (optimum 10) solved upward from 0 to its
    optimum by window.hanoiAsp.solve with incremental.lp and with quickstart.lp, timed
    in the page from the call to the answer (target 10 s);
  - grade: quickstart.lp graded on the teaching set and 30 random puzzles.

Writes ``results/site_speed.log`` (``--out``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import QUICKSTART_ENCODING, ROOT, result_file
from benchmarks.harness.processes import last_line, run_tree
from benchmarks.harness.stats import Spread

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
FIVE_DISKS = (
    "peg(a;b;c;d). disk(1..5). init_on(1..4,c). init_on(5,d).\n"
    "goal_on(1,a). goal_on(2,c). goal_on(3,d). goal_on(4,b). goal_on(5,d).\n"
)
QUICKSTART = QUICKSTART_ENCODING.read_text()
UPWARD = "(a) => hanoiAsp.solve({instance: a[0], encoding: a[1], bound: 'none'})"


def export(runs: int, folder: Path) -> tuple[list[float], int]:
    """``runs`` exports to ``folder``, each a whole process: their times, and the
    folder's size in bytes."""
    times = []
    for _ in range(runs):
        command = [sys.executable, "-m", "hanoi_asp", "site", str(folder), "--force"]
        done = run_tree(command, timeout_s=120, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"site export: exit {done.returncode}: {last_line(done.stderr)}")
        times.append(done.seconds)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return times, size


def serve(folder: Path) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    found = re.search(r"port (\d+)", server.stdout.readline())
    assert found
    return server, f"http://127.0.0.1:{found.group(1)}/"


def quickstart(browser: Any, url: str, bound: str) -> float:
    """Seconds from the start of the page's load to the 15 moves on the screen."""
    context = browser.new_context()
    page = context.new_page()
    began = time.monotonic()
    page.goto(url, wait_until="commit")
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)
    page.select_option("#encodings", "quickstart.lp")
    page.select_option("#bound", bound)
    page.click("#solve")
    page.wait_for_function(
        "() => { const e = document.querySelector('[data-testid=verdict-length]');"
        " return e && e.textContent === '15 moves'; }",
        timeout=60_000,
    )
    seconds = time.monotonic() - began
    context.close()
    return seconds


def in_page(browser: Any, url: str, script: str, arg: Any) -> tuple[float, Any]:
    """Seconds the page took for ``script`` (a function of ``arg`` returning a promise),
    timed inside the page, and its answer."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)
    timed = page.evaluate(
        "async ([s, a]) => { const f = eval(s); const t = performance.now();"
        " const r = await f(a); return [(performance.now() - t) / 1000, r]; }",
        [script, arg],
    )
    context.close()
    return timed[0], timed[1]


def line(name: str, values: list[float], target: float | None, unit: str = "s") -> str:
    spread = Spread(values)
    verdict = (
        ""
        if target is None
        else f"  target {target:g} {unit}: " + ("met" if spread.worst < target else "MISSED")
    )
    return (
        f"{name:56s} median {spread.median:6.2f} {unit}, worst {spread.worst:6.2f} {unit} "
        f"({spread.listed()}){verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.site_speed", description=(__doc__ or "").split("\n", 1)[0]
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=result_file("site_speed", ".log"))
    args = parser.parse_args(argv)
    runs = args.runs
    from playwright.sync_api import sync_playwright

    log = Log()
    log_header(log, "site_speed", sys.argv[1:] if argv is None else argv)

    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "site"
        times, size = export(runs, folder)
        lines.append(line("export (hanoi-asp site, whole process)", times, 5.0))
        lines.append(
            f"{'folder size':56s} {size / 1e6:.2f} MB  target 10 MB: "
            + ("met" if size < 10e6 else "MISSED")
        )
        server, url = serve(folder)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for bound, name in (("auto", "from the lower bound"), ("none", "from 0")):
                    values = [quickstart(browser, url, bound) for _ in range(runs)]
                    lines.append(line(f"quickstart 15 moves, load to screen, {name}", values, 3.0))
                for encoding, name in ((None, "incremental.lp"), (QUICKSTART, "quickstart.lp")):
                    values = []
                    for _ in range(runs):
                        seconds, answer = in_page(
                            browser,
                            url,
                            UPWARD,
                            [FIVE_DISKS, encoding],
                        )
                        assert answer["result"] == "OPTIMUM FOUND" and answer["length"] == 10
                        values.append(seconds)
                    lines.append(line(f"4 pegs 5 disks upward from 0, {name}", values, 10.0))
                values = []
                for _ in range(runs):
                    seconds, answer = in_page(
                        browser, url, "(e) => hanoiAsp.grade({encoding: e, random: 30})", QUICKSTART
                    )
                    assert answer["score"] == answer["total"] == 37
                    values.append(seconds)
                lines.append(line("grade quickstart.lp, teaching set + 30 random", values, None))
                browser.close()
        finally:
            server.terminate()
            server.wait()
            if server.stdout is not None:
                server.stdout.close()
    for text in lines:
        log(text)
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
