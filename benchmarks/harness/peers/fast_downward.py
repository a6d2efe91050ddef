"""Fast Downward as a peer: the product's planner configuration
(:mod:`hanoi_asp.batch.planners`: ``planner:fast-downward:SEARCH``, the same PDDL, driver
command and plan translation a batch uses), run here as one process tree timed and
measured by :func:`~benchmarks.harness.processes.run_tree` like every peer, its plan
replayed.

    python -m benchmarks.harness.peers.fast_downward INSTANCE --config lmcut --timeout 60

Configurations (all optimal: A* with an admissible heuristic):

* ``blind``: ``astar(blind())``, breadth-first in effect, the floor;
* ``lmcut``: ``astar(lmcut())``, the standard optimal landmark heuristic;
* ``ms``: A* with merge-and-shrink, bisimulation shrinking, SCC-based DFP merging and
  exact label reduction, the configuration Fast Downward's documentation recommends.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.peers import PeerRun
from benchmarks.harness.processes import last_line, run_tree
from hanoi_asp import Puzzle, VerificationError, load_puzzle, replay
from hanoi_asp.batch.planners import OUT_OF_MEMORY, UNSOLVABLE, planner_command
from hanoi_asp.batch.planners import driver as planner_driver
from hanoi_asp.inputs.pddl_plan import plan_steps
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.planner import Planner
from hanoi_asp.outputs.pddl import Domain, choose_domain, hanoi_pddl

MERGE_AND_SHRINK = (
    "astar(merge_and_shrink("
    "shrink_strategy=shrink_bisimulation(greedy=false),"
    "merge_strategy=merge_sccs(order_of_sccs=topological,"
    "merge_selector=score_based_filtering("
    "scoring_functions=[goal_relevance(),dfp(),total_order()])),"
    "label_reduction=exact(before_shrinking=true,before_merging=false),"
    "max_states=50k,threshold_before_merge=1))"
)
CONFIGS = {
    "blind": "astar(blind())",
    "lmcut": "astar(lmcut())",
    "ms": MERGE_AND_SHRINK,
}


def driver() -> Path:
    """The ``fast-downward.py`` driver the product's ``planner:fast-downward`` runs."""
    return Path(planner_driver(Planner.parse("fast-downward"))[-1])


def version() -> str:
    """Fast Downward's release, as its driver states it."""
    try:
        text = (driver().parent / "driver" / "version.py").read_text(encoding="utf-8")
    except (OSError, InputError):
        return "not installed"
    found = re.search(r'__version__ = "([^"]+)"', text)
    return found.group(1) if found else "?"


def _search_stats(log: str) -> str:
    """Expanded states and search time from the planner's log, for ``detail``."""
    parts = []
    for label, pattern in (
        ("expanded", r"Expanded (\d+) state"),
        ("search_s", r"Search time: ([\d.]+)s"),
        ("translate_s", r"Done! \[([\d.]+)s CPU"),
    ):
        found = re.findall(pattern, log)
        if found:
            parts.append(f"{label}={found[-1]}")
    return " ".join(parts)


def solve_fd(
    puzzle: Puzzle,
    config: str,
    timeout_s: float,
    *,
    memory_limit_mib: float | None = None,
    keep: Path | None = None,
    domain: Domain | None = None,
) -> PeerRun:
    """Fast Downward with ``config`` (a key of :data:`CONFIGS`) on ``puzzle``, killed
    with its whole process group at ``timeout_s``; an optimum is reported only for a
    plan that :func:`~hanoi_asp.model.plan.replay` accepts.  ``keep``: a folder to copy
    the PDDL files and the planner's log into; ``domain``: force the ``located`` domain
    (default: :func:`~hanoi_asp.outputs.pddl.choose_domain`)."""
    if config not in CONFIGS:
        raise ValueError(f"unknown Fast Downward config {config!r} (one of {', '.join(CONFIGS)})")
    planner = Planner.parse(f"fast-downward:{CONFIGS[config]}")
    return run_planner(
        puzzle, planner, timeout_s, memory_limit_mib=memory_limit_mib, keep=keep, domain=domain
    )


def run_planner(
    puzzle: Puzzle,
    planner: Planner,
    timeout_s: float,
    *,
    memory_limit_mib: float | None = None,
    keep: Path | None = None,
    domain: Domain | None = None,
) -> PeerRun:
    """A planner configuration of the product's (Fast Downward or SymK) on ``puzzle``:
    its PDDL and command line as a batch runs them, timed as a whole process tree, as
    :func:`solve_fd` describes."""
    kind = domain or choose_domain(puzzle)
    domain_pddl, problem = hanoi_pddl(puzzle, kind)
    with tempfile.TemporaryDirectory(prefix="hanoi-fd-") as folder:
        work = Path(folder)
        (work / "domain.pddl").write_text(domain_pddl, encoding="utf-8")
        (work / "problem.pddl").write_text(problem, encoding="utf-8")
        command = planner_command(planner, work)
        run = run_tree(command, timeout_s=timeout_s, cwd=work, memory_limit_mib=memory_limit_mib)
        log = run.stdout + run.stderr
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for name in ("domain.pddl", "problem.pddl", "plan"):
                if (work / name).is_file():
                    (keep / name).write_text((work / name).read_text())
            (keep / "fd.log").write_text(log)
        stats = f"{kind} domain {_search_stats(log)}".strip()

        def outcome(status: str, length: int | None = None, why: str = "") -> PeerRun:
            detail = f"{why}; {stats}" if why else stats
            return PeerRun(status, length, run.seconds, detail, run.peak_mib)

        if run.stopped == "timeout":
            return outcome("TIMEOUT")
        if run.stopped == "memory" or run.returncode in OUT_OF_MEMORY:
            return outcome("MEMOUT", why=f"exit {run.returncode}")
        if run.returncode in UNSOLVABLE:
            return outcome("UNSATISFIABLE")
        plan_file = work / "plan"
        if run.returncode != 0 or not plan_file.is_file():
            return outcome("ERROR", why=f"exit {run.returncode}: {last_line(log)}")
        try:
            steps = plan_steps(puzzle, plan_file.read_text(encoding="utf-8"))
            replay(puzzle, steps)
        except (ValueError, VerificationError) as error:
            return outcome("ERROR", why=f"plan rejected: {error}")
        return outcome("OPTIMUM FOUND", len(steps))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("instance")
    parser.add_argument("--config", choices=tuple(CONFIGS), default="lmcut")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--memory-limit", type=float, default=None, help="MiB")
    parser.add_argument("--keep", type=Path, default=None, help="copy PDDL, plan and log here")
    args = parser.parse_args(argv)
    run = solve_fd(
        load_puzzle(args.instance),
        args.config,
        args.timeout,
        memory_limit_mib=args.memory_limit,
        keep=args.keep,
    )
    print(json.dumps(run.to_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
