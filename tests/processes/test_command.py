"""An outside program as a capped process group (``hanoi_asp/processes/command.py``): its
time limit, its memory cap, and nothing it started left running."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from hanoi_asp.processes import run_command

LEAVES_A_CHILD = """
import subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(child.pid, flush=True)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_what_the_program_left_running_is_killed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    ended = run_command(
        [sys.executable, "-c", LEAVES_A_CHILD], tmp_path, out, seconds=60, memory=None
    )
    assert ended.exit_code == 0
    child = int(out.read_text())
    deadline = time.monotonic() + 60
    while alive(child):  # killed with the group; reaped by init
        assert time.monotonic() < deadline, "the program's child outlived it"
        time.sleep(0.05)


def test_a_program_past_its_time_limit_is_killed_with_its_group(tmp_path: Path) -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    ended = run_command(sleeper, tmp_path, tmp_path / "out", seconds=0.5, memory=None)
    assert ended.exit_code is None and ended.seconds < 600


def test_each_process_has_the_memory_cap(tmp_path: Path) -> None:
    hungry = [sys.executable, "-c", "x = bytearray(2**30)"]
    ended = run_command(hungry, tmp_path, tmp_path / "out", seconds=60, memory=256 * 2**20)
    assert ended.exit_code == 1 and "MemoryError" in (tmp_path / "out").read_text()
    fine = run_command(hungry, tmp_path, tmp_path / "out", seconds=60, memory=None)
    assert fine.exit_code == 0
