"""Shared by every test: the helpers' path (``tests/support``), a pattern-table cache of the
run's own, the hypothesis profiles, and the fixtures for the command line and chromium."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))  # the shared helpers: tests/support

from support.cli import RunCli
from support.files import CHROMIUM

# pattern tables go to a folder of this run's own, never the user's ~/.cache (child
# processes, the CLI's and batch workers', inherit it); removed at exit.  It is emptied
# before each test (cold_tables).  One folder for the run rather than one per test: batch
# workers are forked from multiprocessing's forkserver, which keeps the environment of the
# moment it started (an earlier test's), so a folder named per test would not reach them.
_TABLES = tempfile.mkdtemp(prefix="hanoi-asp-test-tables-")
os.environ["HANOI_ASP_CACHE_DIR"] = _TABLES
for _setting in ("HANOI_ASP_NO_CACHE", "HANOI_ASP_CACHE_MAX_MIB"):
    os.environ.pop(_setting, None)  # a developer's own settings would change answers
atexit.register(shutil.rmtree, _TABLES, ignore_errors=True)

# the tests stop the command line's processes as a terminal would (Ctrl-C, a closed
# terminal): when the test run itself was started with those signals ignored (a
# background job of a script ignores SIGINT and SIGQUIT, nohup ignores SIGHUP), every
# process it starts inherited the ignoring and no stop reached them; the tests that
# check an inherited ignoring (nohup) set it up themselves
for _number in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
    if signal.getsignal(_number) == signal.SIG_IGN:
        signal.signal(
            _number, signal.default_int_handler if _number == signal.SIGINT else signal.SIG_DFL
        )

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def cold_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with no pattern table built: the run's on-disk cache emptied
    (its child processes and batch workers use it) and none in this process.  Otherwise
    an answer depends on the tests run before: once one solve has cached a hard
    instance's strong tables, the next proves it optimal at once where a test expects it
    stopped with a plan (``SATISFIABLE`` at a timeout, a Ctrl-C that interrupts).  A test
    that wants warm tables builds them itself."""
    from hanoi_asp.methods.patterns import database

    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", _TABLES)  # a test may point it elsewhere
    for entry in os.scandir(_TABLES):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)
    database._CACHE.clear()


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> RunCli:
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


@pytest.fixture
def small_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pattern tables of at most 2 disks on 4 pegs (16 patterns): even puzzles of 3-6
    disks are cut into several runs, so the additive sums and the propagator's partial
    checks do real work (tests of the tables, A*, the bounds and the pruning)."""
    from hanoi_asp.methods.patterns import cuts, database

    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 16)
    database._CACHE.clear()
    yield
    database._CACHE.clear()


@pytest.fixture
def weak_strong_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """A*'s strong tables no larger than the bound's (runs of 10 disks): with its
    default, one table of all 12 disks of the 4-peg 12-disk hard instance, A* would
    walk straight down."""
    from hanoi_asp.methods.patterns import cuts

    monkeypatch.setattr(cuts, "STRONG_PATTERNS", cuts.TABLE_PATTERNS)


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
