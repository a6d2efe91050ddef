"""The machine a benchmark ran on and how busy it was: cores, memory, platform,
versions, the checkout's commit, the load average, and the CPU time other processes
took during a run (so a run disturbed by other work shows in its log).

>>> "cores" in describe()
True
"""

from __future__ import annotations

import os
import platform
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from benchmarks.harness.paths import ROOT


def describe() -> str:
    """``2 cores (2 usable), 24 GiB, Linux-...; Python 3.11.7``."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} cores ({len(os.sched_getaffinity(0))} usable), {memory:.0f} GiB, "
        f"{platform.platform()}; Python {platform.python_version()}"
    )


def load() -> str:
    """The load averages over 1, 5 and 15 minutes: ``load 0.52 0.61 0.70``."""
    return "load " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def versions(*packages: str) -> str:
    """``clingo 5.8.3, dask missing``: installed versions of ``packages``."""
    found = []
    for package in packages:
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} missing")
    return ", ".join(found)


def git_head(checkout: Path = ROOT) -> str:
    """The checkout's commit (``-dirty`` with uncommitted changes), or ``?``."""
    found = subprocess.run(
        ["git", "-C", str(checkout), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() or "?"


class OtherCPU:
    """CPU time used during a run by every process outside the run's own session (and
    this one): sampled from ``/proc`` every :attr:`SAMPLE_S`, so work of others that
    starts and ends between two samples shows only once its parent has reaped it (not
    at all when its parent is gone)."""

    SAMPLE_S = 0.5

    def __init__(self, session: int) -> None:
        self.session = session
        self.first: dict[tuple[int, int], float] = {}
        self.last: dict[tuple[int, int], float] = {}
        self.sample(first=True)

    def sample(self, first: bool = False) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:  # gone meanwhile
                continue
            pid = int(text[: text.index(" ")])
            fields = text[text.rindex(")") + 2 :].split()
            # fields[0] is stat's 3rd field: session is 6th, times 14th-17th, start 22nd
            if int(fields[3]) == self.session or pid == os.getpid():
                continue
            key = (pid, int(fields[19]))
            # a process's own time and its reaped children's; not init's children:
            # orphans it reaps include this run's own (its forkserver, at the end)
            used = sum(int(f) for f in fields[11 : 13 if pid == 1 else 15]) / tick
            if first:
                self.first[key] = used
            else:
                self.first.setdefault(key, 0.0)  # born during the run
                self.last[key] = used

    def seconds(self) -> float:
        return sum(max(0.0, used - self.first[key]) for key, used in self.last.items())
