"""A local server under a flood: ``python fuzz/server_flood.py [--rounds 3] [--hard 50]``.

Issue 29's server target, measured rather than asserted: ``hanoi-asp serve`` on loopback,
``--hard`` concurrent hard solves (a random 4-peg 12-disk puzzle, 8 s each) from as many
clients, then, while they run and wait, 3-disk solves from another client one after the
other; each round ends with SIGINT or SIGTERM to the server (alternating).  Prints, per
round, every small solve's wait, the statuses of the flood (200 ran, 503 refused with
``Retry-After``), the peak resident memory of the server's whole process tree (sampled
every 0.1 s with psutil) and whether any process of the server's session outlived it.
The tree's RSS counts a page shared by several processes once in each (every worker
maps the pages of the forkserver it was forked from); its PSS (Linux) shares each such
page out among them, so it is the tree's own memory.  Needs the ``test`` extra (psutil).
Target: every small solve answered within 3 s, no process left.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
HARD = (ROOT / "instances" / "hard" / "4pegs-12disks-arbitrary.lp").read_text()
THREE = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c)."
TARGET_S = 3.0


def start_server() -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert server.stdout is not None
    match = re.search(r"http://(\S+?):(\d+)/", server.stdout.readline())
    if match is None:
        raise SystemExit("the server did not start")
    return server, f"http://{match.group(1)}:{match.group(2)}/api/solve"


def post(url: str, body: dict[str, Any], timeout: float) -> tuple[int, float]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, time.monotonic() - started
    except OSError:
        return 0, time.monotonic() - started


class TreeMemory:
    """The peaks of the summed resident memory (RSS) and proportional set size (PSS)
    of a process and its descendants."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0
        self.peak_pss = 0
        self.running = True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        while self.running:
            total = pss = 0
            try:
                for process in [self.root, *self.root.children(recursive=True)]:
                    try:
                        memory = process.memory_full_info()  # smaps_rollup: rss and pss
                    except psutil.Error:
                        continue
                    total += memory.rss
                    pss += getattr(memory, "pss", 0)  # Linux only
            except psutil.Error:
                return
            self.peak = max(self.peak, total)
            self.peak_pss = max(self.peak_pss, pss)
            time.sleep(0.1)

    def stop(self) -> tuple[int, int]:
        """The peaks: RSS, PSS (bytes)."""
        self.running = False
        self.thread.join()
        return self.peak, self.peak_pss


def session_left(session: int) -> list[int]:
    """Processes still alive in the server's session (its jobs, forkserver, tracker);
    a zombie is dead (no memory, no work), waiting for init to reap it."""
    left = []
    for process in psutil.process_iter(["pid"]):
        try:
            if os.getsid(process.pid) == session and process.status() != psutil.STATUS_ZOMBIE:
                left.append(process.pid)
        except (OSError, psutil.Error):
            continue
    return left


def one_round(number: int, hard: int, smalls: int) -> tuple[list[float], bool]:
    server, url = start_server()
    memory = TreeMemory(server.pid)
    statuses: list[int] = []
    flood = [
        threading.Thread(
            target=lambda: statuses.append(post(url, {"instance": HARD, "timeout": 8}, 60)[0])
        )
        for _ in range(hard)
    ]
    for thread in flood:
        thread.start()
    time.sleep(1.5)  # the flood is running and queued
    waits = []
    for _ in range(smalls):
        status, seconds = post(url, {"instance": THREE, "timeout": 10}, 60)
        waits.append(seconds if status == 200 else float("inf"))
    for thread in flood:
        thread.join(timeout=120)
    stop = signal.SIGINT if number % 2 else signal.SIGTERM
    peak, peak_pss = memory.stop()
    server.send_signal(stop)
    server.communicate(timeout=30)
    time.sleep(1.0)
    left = session_left(server.pid)
    print(
        f"round {number} ({stop.name}): small waits {', '.join(f'{w:.2f}' for w in waits)} s; "
        f"flood {dict(sorted(Counter(statuses).items()))}; peak RSS of the tree "
        f"{peak / 2**20:.0f} MiB (PSS {peak_pss / 2**20:.0f} MiB); processes left {len(left)}",
        flush=True,
    )
    return waits, not left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hard", type=int, default=50, help="concurrent hard solves")
    parser.add_argument("--smalls", type=int, default=5, help="small solves per round")
    args = parser.parse_args()
    waits: list[float] = []
    clean = True
    for number in range(1, args.rounds + 1):
        round_waits, round_clean = one_round(number, args.hard, args.smalls)
        waits += round_waits
        clean = clean and round_clean
    met = max(waits) <= TARGET_S and clean
    print(
        f"\n{len(waits)} small solves: median {statistics.median(waits):.2f} s, worst "
        f"{max(waits):.2f} s (target {TARGET_S:g} s); no process left after every stop: "
        f"{'yes' if clean else 'NO'}; target {'met' if met else 'NOT MET'}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
