"""The server the web app's job workers are forked from (``hanoi_asp/web/worker.py``):
it imported numpy once, so its workers share numpy's pages rather than each importing a
copy of its own after its fork, and the app's own process imports no numpy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support.files import ROOT

OWNER = """
import sys

from hanoi_asp.processes import outcome
from hanoi_asp.web.runner import Runner


def loaded(name):
    return name in sys.modules


if __name__ == "__main__":  # (the workers import this script: loaded is theirs too)
    runner = Runner(1)
    try:
        first = outcome(runner.lanes["main"].pool.submit(loaded, "numpy", timeout=60))
    finally:
        runner.stop()
    print("numpy" in sys.modules, first)
"""


def test_a_worker_has_numpy_before_its_first_job_and_the_app_has_none(tmp_path: Path) -> None:
    """In a fresh process: a forkserver already running (an earlier test's, made with
    another preload) would not import this one's."""
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
