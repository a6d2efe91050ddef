"""The planners a benchmark runs side by side, each in fresh processes with hard limits:

* ours (:mod:`~benchmarks.harness.peers.ours`): ``python -m hanoi_asp solve FILE --json``
  from this checkout (the default engine, or ``--method astar``), or from a ``git
  worktree`` of a baseline revision;
* Fast Downward (:mod:`~benchmarks.harness.peers.fast_downward`), optimal A* on our
  PDDL translation (the product's `planner:` configurations, :mod:`hanoi_asp.batch.planners`);
* SymK (:mod:`~benchmarks.harness.peers.symk`), symbolic bidirectional search on the
  same PDDL;
* the ASP Competition's own encoding (:mod:`~benchmarks.harness.peers.competition`).

A peer other than ours answers with a :class:`PeerRun`; every plan it reports as an
optimum has been replayed by :func:`hanoi_asp.replay`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

STATUSES = ("OPTIMUM FOUND", "TIMEOUT", "MEMOUT", "UNSATISFIABLE", "ERROR")
"""A peer's outcome: a proven-minimal plan (checked by replay), over the time or memory
limit, proven without a plan, or anything else (``detail`` says what)."""


@dataclass(frozen=True)
class PeerRun:
    """What a peer answered for one instance."""

    status: str
    length: int | None
    seconds: float
    """Wall time of the peer's whole process (for Fast Downward: the driver with its
    translator and search, started and measured by
    :func:`~benchmarks.harness.processes.run_tree`)."""
    detail: str = ""
    peak_mib: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
