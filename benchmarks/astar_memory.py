"""Memory A* takes per stored state, for ``ASTAR_STATE_BYTES`` in
``hanoi_asp/engine/reference.py`` (its default budget is half the available memory
divided by that figure).

    python -m benchmarks.astar_memory [INSTANCE]

Each budget runs in a fresh process (peak RSS is per process): the tables are built,
then A* runs until it has stored the budget; the bytes per state are the growth of the
peak RSS over a run with a tiny budget, divided by the extra states stored.
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = """
import json, resource, sys
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.methods import astar
from hanoi_asp.methods.patterns import goal_database
puzzle = load_puzzle(sys.argv[1])
tables = goal_database(puzzle)
found = astar.search(puzzle, tables, max_states=int(sys.argv[2]))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"stored": found.stored, "peak": peak, "stopped": found.stopped}))
"""


def main() -> None:
    instance = sys.argv[1] if len(sys.argv) > 1 else "instances/hard/4pegs-12disks-arbitrary.lp"
    runs = []
    for budget in (10_000, 500_000, 1_000_000, 2_000_000):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, instance, str(budget)],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout))
    base = runs[0]
    print(f"{instance}: baseline {base['stored']} states, peak {base['peak'] / 2**20:.0f} MiB")
    for run in runs[1:]:
        per = (run["peak"] - base["peak"]) / (run["stored"] - base["stored"])
        print(
            f"  {run['stored']:>9} states ({run['stopped']}): peak {run['peak'] / 2**20:.0f} MiB,"
            f" {per:.0f} bytes per extra state"
        )


if __name__ == "__main__":
    main()
