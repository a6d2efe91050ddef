from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# pattern tables go to a folder of this run's own, never the user's ~/.cache (child
# processes, the CLI's and batch workers', inherit it); removed at exit
_TABLES = tempfile.mkdtemp(prefix="hanoi-asp-test-tables-")
os.environ["HANOI_ASP_CACHE_DIR"] = _TABLES
os.environ.pop("HANOI_ASP_NO_CACHE", None)
atexit.register(shutil.rmtree, _TABLES, ignore_errors=True)

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
SLOW = (INSTANCES / "hard" / "4pegs-12disks-arbitrary.lp").read_text()
"""4 pegs, 12 disks, arbitrary: minutes to prove minimal, a plan at once."""
STUCK = (  # a cyclic move graph: no plan built at once, none found in seconds
    "peg(a;b;c;d). disk(1..12). init_on(1..12,a). goal_on(1..12,c).\n"
    "edge(a,b). edge(b,c). edge(c,d). edge(d,a).\n"
)
CHROMIUM = Path(os.environ.get("HANOI_CHROMIUM", "/usr/bin/chromium"))
"""Debian's chromium, which the browser tests drive with Playwright (its own browser
download is not reachable here); CI installs it."""

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def wait_for_rows(path: Path, count: int, seconds: float = 60) -> None:
    """Wait until a batch has written ``count`` rows to ``path`` (or ``seconds`` pass)."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_text().splitlines()) >= count:
            return
        time.sleep(0.05)


def mixed_folder(base: Path) -> Path:
    """Good, bad, unsolvable and (in a subfolder) slow and stuck instances, and a file
    that is no instance, in ``base``."""
    import shutil

    (base / "deep").mkdir(parents=True)
    shutil.copy(INSTANCES / "quickstart.lp", base / "a-quickstart.lp")
    shutil.copy(INSTANCES / "arbitrary.toml", base / "b-arbitrary.toml")
    shutil.copy(INSTANCES / "unsolvable-2pegs.lp", base / "c-unsolvable.lp")
    (base / "d-bad.lp").write_text("peg(a). disk(1..2). init_on(1,a).\n")
    (base / "deep" / "e-slow.lp").write_text(SLOW)
    (base / "deep" / "f-stuck.lp").write_text(STUCK)
    (base / "notes.txt").write_text("not an instance")
    return base


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]):
    """Run the CLI in-process: (exit code, stdout, stderr)."""
    from hanoi_asp.__main__ import main

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exit_:  # argparse usage errors
            code = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium under Playwright; a missing one fails, it is never skipped."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"no chromium at {CHROMIUM}: install it (apt-get install chromium) or point "
            "HANOI_CHROMIUM at one; deselect with -m 'not browser' to run without it"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install 'playwright>=1.40'")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()
