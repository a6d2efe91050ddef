"""An outside program run as a capped child (a classical planner): a session of its own
(one process group, killed as one), death with its parent, its memory cap as each of
its processes' address space, and a CPU-time limit just past its time limit, which every
process it starts inherits (a backstop should the group outlive its parent).

>>> import sys, tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> ended = run_command([sys.executable, "-c", "print(6 * 7)"], folder, folder / "out",
...                     seconds=60, memory=None)
>>> ended.exit_code, (folder / "out").read_text()
(0, '42\\n')
"""

from __future__ import annotations

import math
import os
import resource
import signal
import subprocess
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from hanoi_asp.processes.memory import cap_address_space
from hanoi_asp.processes.parent import die_with_parent

CPU_GRACE_S = 2
"""The CPU-time limit of each of the program's processes is its time limit plus this."""


@dataclass(frozen=True)
class Ended:
    """How the program's process group ended."""

    exit_code: int | None
    """Its leader's exit code (negative: the signal that ended it); None: killed at the
    time limit."""
    seconds: float


def run_command(
    command: list[str], cwd: Path, output: Path, *, seconds: float | None, memory: int | None
) -> Ended:
    """Run ``command`` in ``cwd`` as a process group of its own, killed as one after
    ``seconds`` (None: no limit), each of its processes capped at ``memory`` bytes of
    address space; its output and errors go to the file ``output`` (a pipe could fill up
    and block it).  Whatever it left running is killed when it ends."""
    parent = os.getpid()
    with output.open("wb") as log:
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: _capped(parent, memory, seconds),
        )
        try:
            code: int | None = process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            code = None
        except BaseException:  # Ctrl-C, or the worker told to stop: nothing left
            _kill_group(process.pid)
            process.wait()
            raise
        took = time.monotonic() - started
        _kill_group(process.pid)  # what the leader left behind, or all of it at the limit
        process.wait()
    return Ended(code, took)


def _capped(parent: int, memory: int | None, seconds: float | None) -> None:
    """In the program's process, before it starts."""
    die_with_parent(parent)
    if memory is not None:
        cap_address_space(memory)
    if seconds is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        cpu = math.ceil(seconds) + CPU_GRACE_S
        resource.setrlimit(resource.RLIMIT_CPU, (cpu if hard < 0 else min(cpu, hard), hard))


def _kill_group(group: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
