"""SymK as a peer: symbolic bidirectional uniform-cost search (``sym_bd()``), optimal,
on the same PDDL translation as Fast Downward, plan checked by replay.

    python -m benchmarks.harness.peers.symk INSTANCE --timeout 60

SymK (David Speck's fork of Fast Downward with BDD-based search) comes from PyPI
(``up-symk``, the Unified Planning project's build). ``sym_bd()`` is what its
``OneshotPlanner(name="symk-opt")`` runs (``sym_bd(bound=...)`` with no cost bound);
like Fast Downward (:mod:`benchmarks.harness.peers.fast_downward`) it is the product's
planner configuration (``planner:symk``, :mod:`hanoi_asp.batch.planners`): its driver on
the product's PDDL, one process group we time and kill, its plan read back and replayed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from benchmarks.harness.peers import PeerRun
from benchmarks.harness.peers.fast_downward import run_planner
from hanoi_asp import InputError, Puzzle, load_puzzle
from hanoi_asp.batch.planners import driver as planner_driver
from hanoi_asp.model.planner import Planner

SEARCH = "sym_bd()"
"""Symbolic bidirectional uniform-cost search: what ``up-symk``'s optimal one-shot planner
runs."""


def driver() -> Path:
    """SymK's ``fast-downward.py``, the one the product's ``planner:symk`` runs."""
    return Path(planner_driver(Planner.parse("symk"))[-1])


def version() -> str:
    """SymK's release, as its driver states it."""
    try:
        text = (driver().parent / "driver" / "version.py").read_text(encoding="utf-8")
    except (OSError, InputError):
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
    planner = Planner.parse(f"symk:{SEARCH}")
    return run_planner(puzzle, planner, timeout_s, memory_limit_mib=memory_limit_mib, keep=keep)


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
