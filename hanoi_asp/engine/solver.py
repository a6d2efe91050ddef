"""One horizon at a time: ground the encoding for a plan length and ask clingo.

Two drivers share one interface (:class:`HorizonSolver`):

* :class:`OneShotSolver` grounds the whole one-shot encoding afresh for every
  horizon, with ``moves(M)`` as a fact: the quickstart's way, kept for teaching and
  as the benchmark baseline.
* :class:`IncrementalSolver` keeps one ``clingo.Control`` and grounds one more
  ``step(t)`` per horizon (clingo's multi-shot pattern), so clauses learnt while
  refuting short horizons are reused at the longer ones.

Both load a list of :class:`Program` (the strategy's, :mod:`hanoi_asp.engine.policy`)
after the instance's facts.  Nothing here decides what a horizon means for minimality;
the strategies do (:mod:`hanoi_asp.engine.strategies`).  Nothing here prints.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import clingo

from hanoi_asp.engine.clingo_calls import ClingoCalls, Steps
from hanoi_asp.engine.pruning import Checkpoint, PatternPruning
from hanoi_asp.inputs.facts import instance_facts
from hanoi_asp.methods.patterns import Partitioned
from hanoi_asp.model.proof import Phase
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import HorizonRun

GROUND_CHUNK = 32
"""Steps per ground call: one call per step spends far more time in the grounder's
set-up than the step takes; a chunk still lets the deadline be checked between calls."""


@dataclass(frozen=True)
class Program:
    """A program clingo is given: its name (as the result reports it), its text (with
    the facts it needs), and the horizons that load it: ``full`` (the puzzle's goal) or
    ``mirror-half`` (half a mirrored whole-tower plan)."""

    name: str
    text: str
    phases: tuple[Phase, ...] = ("full", "mirror-half")


class HorizonSolver(Protocol):
    calls: ClingoCalls

    def run(self, horizon: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        """Solve at ``horizon``; stop by ``deadline`` (a ``time.monotonic()`` value)."""
        ...

    def retable(self, tables: Partitioned) -> None:
        """Check ``tables`` from the next solve call on (where the pattern propagator
        runs; elsewhere nothing)."""
        ...


class OneShotSolver:
    """Ground a one-shot encoding afresh for every horizon (``moves(M)`` as a fact)."""

    def __init__(
        self,
        puzzle: Puzzle,
        programs: Sequence[Program],
        *,
        options: Sequence[str] = (),
        threads: int | None = None,
        warnings: bool = False,
    ) -> None:
        self.facts = instance_facts(puzzle)
        self.programs = programs
        self.calls = ClingoCalls(programs[0].name, options, threads, warnings=warnings)

    def run(self, horizon: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        started = time.monotonic()
        ctl = self.calls.new_control()
        self.calls.add(ctl, "base", [], f"{self.facts}\nmoves({horizon}).")
        for program in self.programs:
            self.calls.add(ctl, "base", [], program.text)
        self.calls.ground(ctl, [("base", [])])
        return self.calls.solve(ctl, horizon, deadline, started)

    def retable(self, tables: Partitioned) -> None:
        return None


class IncrementalSolver:
    """One control for all horizons: ground ``step(t)`` once each, switch ``query(t)``.

    ``prune`` adds the encoding's ``prune(t)`` program, whose constraints keep every
    minimal plan but not every plan: use it for the minimal search only.  Programs
    after the first (e.g. ``distance3.lp`` and its facts) may add the parts
    ``distance(t)`` and ``distance_check(t)``.  With ``tables`` the pattern propagator
    (:mod:`hanoi_asp.engine.pruning`) checks them, told each horizon before it is solved,
    and asks ``checkpoint`` as it goes (stopping the solve call where it says so);
    ``halt`` is set when a solve is cancelled (:class:`ClingoCalls`).
    """

    def __init__(
        self,
        puzzle: Puzzle,
        programs: Sequence[Program],
        *,
        prune: bool,
        options: Sequence[str] = (),
        threads: int | None = None,
        warnings: bool = False,
        tables: Partitioned | None = None,
        checkpoint: Checkpoint | None = None,
        halt: threading.Event | None = None,
    ) -> None:
        self.calls = ClingoCalls(programs[0].name, options, threads, warnings=warnings, halt=halt)
        self.ctl = self.calls.new_control()
        self.propagator: PatternPruning | None = None
        if tables is not None:
            self.propagator = PatternPruning(
                puzzle, tables, checkpoint=checkpoint, stop=self.ctl.interrupt
            )
            self.ctl.register_propagator(self.propagator)  # type: ignore[arg-type]
        self.calls.add(self.ctl, "base", [], instance_facts(puzzle))
        for program in programs:
            self.calls.add(self.ctl, "base", [], program.text)
        self.prune = prune
        self.grounded = -1  # the last horizon solved (its check(t) is ground)
        self.stepped = -1  # the last step(t) ground
        self.calls.ground(self.ctl, [("base", [])])

    def _unfinished(self, horizon: int, started: float) -> HorizonRun:
        seconds = time.monotonic() - started
        return HorizonRun(horizon, "UNKNOWN", seconds, 0, 0, 0, 0)

    def run(self, horizon: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        if horizon < self.grounded:
            raise ValueError(f"horizons must not decrease: {horizon} after {self.grounded}")
        started = time.monotonic()
        if horizon == self.grounded:  # asked again (a cancelled solve): all is ground
            return self.calls.solve(self.ctl, horizon, deadline, started)
        # steps go to the grounder GROUND_CHUNK at a time: far faster than one call per
        # step, and the deadline is still checked between calls
        for first in range(self.stepped + 1, horizon + 1, GROUND_CHUNK):
            if deadline is not None and time.monotonic() >= deadline:
                # out of time while grounding: ground no further, report UNKNOWN
                return self._unfinished(horizon, started), None
            parts: list[tuple[str, list[clingo.Symbol]]] = []
            last = min(first + GROUND_CHUNK - 1, horizon)
            for t in range(first, last + 1):
                number = [clingo.Number(t)]
                if t > 0:
                    parts.append(("step", number))
                    if self.prune:
                        parts.append(("prune", number))
                # programs an encoding lacks are simply not grounded
                parts.append(("distance", number))
            self.calls.ground(self.ctl, parts)
            self.stepped = last
        # goal tests only where a horizon is solved
        number = [clingo.Number(horizon)]
        self.calls.ground(self.ctl, [("check", number), ("distance_check", number)])
        if self.grounded >= 0:
            self.ctl.release_external(clingo.Function("query", [clingo.Number(self.grounded)]))
        self.grounded = horizon
        self.ctl.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)
        if self.propagator is not None:
            self.propagator.horizon = horizon
        return self.calls.solve(self.ctl, horizon, deadline, started)

    def retable(self, tables: Partitioned) -> None:
        if self.propagator is not None:
            self.propagator.retable(tables)
