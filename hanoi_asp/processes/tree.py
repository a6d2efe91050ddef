"""Killing a process's whole tree, found through Linux's ``/proc``: for what may have
started processes that are no children of ours (a pool's forkserver forks its workers,
and they their own children)."""

from __future__ import annotations

import os
import signal
from contextlib import suppress
from pathlib import Path


def descendants(root: int) -> list[int]:
    """Every process ``root`` started, at any depth (parents before their children)."""
    children: dict[int, list[int]] = {}
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        children.setdefault(int(fields[1]), []).append(int(stat_file.parent.name))
    found: list[int] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def kill_descendants(root: int | None = None) -> int:
    """SIGKILL every process ``root`` (default: this one) started, at any depth; the
    number killed.  A server that stops must leave none: a cancelled job's process is
    killed by a pebble thread that may never run once the server exits."""
    found = descendants(os.getpid() if root is None else root)
    for pid in found:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(found)
