"""SymK as a peer: symbolic bidirectional uniform-cost search (``sym_bd()``), optimal,
on the same PDDL translation as Fast Downward, plan checked by replay.

    python -m benchmarks.harness.peers.symk INSTANCE --timeout 60

SymK (David Speck's fork of Fast Downward with BDD-based search) comes from PyPI
(``up-symk``, the Unified Planning project's build). ``sym_bd()`` is what its
``OneshotPlanner(name="symk-opt")`` runs (``sym_bd(bound=...)`` with no cost bound);
like Fast Downward (:mod:`benchmarks.harness.peers.fast_downward`) we call its driver
directly on our own domain and problem files, so the whole planner run is one process
group we time and kill, without Unified Planning's PDDL parsing and writing in between.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from importlib.util import find_spec
from pathlib import Path

from benchmarks.harness.peers import PeerRun
from benchmarks.harness.peers.fast_downward import run_planner
from hanoi_asp import Puzzle, load_puzzle

SEARCH = "sym_bd()"
"""Symbolic bidirectional uniform-cost search: what ``up-symk``'s optimal one-shot planner
runs."""


def driver() -> Path:
    """SymK's ``fast-downward.py`` inside the installed ``up_symk`` (found without
    importing it, which would import all of Unified Planning)."""
    spec = find_spec("up_symk")
    folders = list(spec.submodule_search_locations or []) if spec else []
    path = Path(folders[0] if folders else ".") / "symk" / "fast-downward.py"
    if not path.is_file():
        raise FileNotFoundError(f"no SymK driver at {path} (pip install up-symk)")
    return path


def version() -> str:
    """SymK's release, as its driver states it."""
    try:
        text = (driver().parent / "driver" / "version.py").read_text(encoding="utf-8")
    except (OSError, FileNotFoundError):
        return "not installed"
    found = re.search(r'__version__ = "([^"]+)"', text)
    return found.group(1) if found else "?"


def solve_symk(
    puzzle: Puzzle,
    timeout_s: float,
    *,
    memory_limit_mib: float | None = None,
    keep: Path | None = None,
) -> PeerRun:
    """SymK's ``sym_bd()`` on ``puzzle``, killed with its process group at ``timeout_s``;
    an optimum only for a plan :func:`~hanoi_asp.model.plan.replay` accepts."""
    return run_planner(
        puzzle, driver(), SEARCH, timeout_s, memory_limit_mib=memory_limit_mib, keep=keep
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("instance")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--memory-limit", type=float, default=None, help="MiB")
    parser.add_argument("--keep", type=Path, default=None, help="copy PDDL, plan and log here")
    args = parser.parse_args(argv)
    run = solve_symk(
        load_puzzle(args.instance),
        args.timeout,
        memory_limit_mib=args.memory_limit,
        keep=args.keep,
    )
    print(json.dumps(run.to_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
