"""The checkout's paths and the instance files the tests share."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"
QUICKSTART = str(INSTANCES / "quickstart.lp")
SLOW = (INSTANCES / "hard" / "4pegs-20disks-arbitrary.lp").read_text()
"""4 pegs, 20 disks, arbitrary: a plan at once, never proven minimal in a test's time,
by clingo or by A* racing it (4 pegs with 12 disks, which served here before, A* now
proves in seconds)."""
STUCK = (  # a cyclic move graph: no plan built at once, none found in seconds
    "peg(a;b;c;d). disk(1..12). init_on(1..12,a). goal_on(1..12,c).\n"
    "edge(a,b). edge(b,c). edge(c,d). edge(d,a).\n"
)
CHROMIUM = Path(os.environ.get("HANOI_CHROMIUM", "/usr/bin/chromium"))
"""Debian's chromium, which the browser tests drive with Playwright (its own browser
download is not reachable here); CI installs it."""
ARTIFACTS = Path(os.environ.get("HANOI_ARTIFACTS", ROOT / "tests" / "artifacts"))
"""Where the browser tests leave screenshots for a person to look at."""


def wait_for_rows(path: Path, count: int, seconds: float = 60) -> None:
    """Wait until a batch has written ``count`` rows to ``path`` (or ``seconds`` pass)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_text().splitlines()) >= count:
            return
        time.sleep(0.05)


def mixed_folder(base: Path) -> Path:
    """Good, bad, unsolvable and (in a subfolder) slow and stuck instances, and a file
    that is no instance, in ``base``."""
    (base / "deep").mkdir(parents=True)
    shutil.copy(INSTANCES / "quickstart.lp", base / "a-quickstart.lp")
    shutil.copy(INSTANCES / "arbitrary.toml", base / "b-arbitrary.toml")
    shutil.copy(INSTANCES / "unsolvable-2pegs.lp", base / "c-unsolvable.lp")
    (base / "d-bad.lp").write_text("peg(a). disk(1..2). init_on(1,a).\n")
    (base / "deep" / "e-slow.lp").write_text(SLOW)
    (base / "deep" / "f-stuck.lp").write_text(STUCK)
    (base / "notes.txt").write_text("not an instance")
    return base
