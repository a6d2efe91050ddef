"""What a solve returns, as data: the result, its proof, and one record per horizon.

These types are shared by every layer above, so this module imports nothing but the
puzzle, plan and proof it describes.  ``Result.to_dict()`` is the object ``solve --json``
prints and ``batch`` appends (version 1 keys first).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hanoi_asp.model.errors import EXIT_FOUND, EXIT_UNKNOWN, EXIT_UNSAT
from hanoi_asp.model.plan import Move
from hanoi_asp.model.proof import UNREACHABLE as UNREACHABLE
from hanoi_asp.model.proof import LowerBound as LowerBound
from hanoi_asp.model.proof import Phase, Proof, Stop
from hanoi_asp.model.puzzle import Puzzle

Verdict = Literal["OPTIMUM FOUND", "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"]
Status = Literal["SAT", "UNSAT", "UNKNOWN"]
Mode = Literal["incremental", "oneshot"]
Method = Literal["asp", "recursive", "frame-stewart", "bfs", "astar"]
METHODS: tuple[Method, ...] = ("asp", "recursive", "frame-stewart", "bfs", "astar")
MODES: tuple[Mode, ...] = ("incremental", "oneshot")
FirstPlanMethod = Literal["constructive", "breadth-first"]

EXIT_CODES: dict[Verdict, int] = {
    "OPTIMUM FOUND": EXIT_FOUND,
    "SATISFIABLE": EXIT_FOUND,
    "UNSATISFIABLE": EXIT_UNSAT,
    "UNKNOWN": EXIT_UNKNOWN,
}

JSON_VERSION = 1


@dataclass(frozen=True)
class HorizonRun:
    """What one solver call at one horizon did, from clingo's statistics.

    ``atoms`` counts the ground atoms of the program clingo searched at this horizon and
    ``rules`` its ground rules (for the incremental engine: everything ground so far,
    all steps up to it);
    ``choices`` and ``conflicts`` the search's decisions and dead ends at this call.
    """

    horizon: int
    status: Status
    seconds: float
    choices: int
    conflicts: int
    atoms: int
    rules: int
    phase: Phase = "full"
    """``full``: the puzzle's own goal at this horizon; ``mirror-half``: half a mirrored
    whole-tower plan (:mod:`hanoi_asp.engine.mirror`), ``horizon`` moves of it."""

    def as_phase(self, phase: Phase) -> HorizonRun:
        return replace(self, phase=phase)

    def as_dict(self) -> dict[str, object]:
        return {
            "horizon": self.horizon,
            "status": self.status,
            "time_s": round(self.seconds, 4),
            "choices": self.choices,
            "conflicts": self.conflicts,
            "atoms": self.atoms,
            "rules": self.rules,
            "phase": self.phase,
        }


@dataclass(frozen=True)
class Progress:
    """What a search knows so far, for a live display: no plan is shorter than
    ``lower``; the best verified plan has ``upper`` moves (None: none yet);
    ``horizon`` is the plan length clingo is trying now (None: not searching)."""

    lower: int
    upper: int | None
    horizon: int | None = None


@dataclass(frozen=True)
class FirstPlan:
    """The plan built before the proof search (its first upper bound), as data."""

    length: int
    method: FirstPlanMethod
    """How it was built: ``constructive`` or ``breadth-first`` (restricted move graphs)."""
    seconds: float

    def as_dict(self) -> dict[str, object]:
        return {"length": self.length, "method": self.method, "time_s": round(self.seconds, 4)}


@dataclass(frozen=True, kw_only=True)
class Result:
    """The answer for one puzzle; the command line turns it into text or JSON.

    In a notebook a result shows its plan as SVG frames (long plans shortened).
    """

    puzzle: Puzzle
    result: Verdict
    """``OPTIMUM FOUND`` (a plan proven minimal), ``SATISFIABLE`` (a plan, not claimed
    minimal), ``UNSATISFIABLE`` (proven: no plan within ``max_moves``, or none at all
    when ``unreachable``), ``UNKNOWN`` (stopped before an answer)."""
    plan: tuple[Move, ...] | None
    """The plan, replayed and accepted by the simulator; None when there is none."""
    bound: LowerBound
    """The sound lower bound the search started from, with its argument."""
    lower_bound: int | None
    """Proven: no plan has fewer moves (the bound, raised by every horizon clingo
    refuted; the plan's length when it is minimal).  None for an unreachable goal."""
    upper_bound: int | None = None
    """The length of the best verified plan known, even one beyond ``max_moves``; None
    if there is none."""
    max_moves: int | None
    """The user's bound on the plan length (``--max-moves`` or the instance's
    ``moves/1``; ``--moves`` for an exact question); None: no bound but the truth."""
    proof: str
    """Why the answer holds, in words (the argument for minimality, or what was
    refuted), worded from :attr:`proof_data` (:mod:`hanoi_asp.outputs.proof`)."""
    proof_data: Proof
    """Why the answer holds, as data: its kind, the lower bound and what proved it, the
    refuted horizons, where the plan came from (:mod:`hanoi_asp.model.proof`)."""
    time_s: float
    method: Method = "asp"
    """``asp`` (clingo) or the reference method that made the plan."""
    mode: Mode | None = None
    """How clingo was driven; None for a reference method."""
    exact_moves: int | None = None
    """Set when the question was "is there a plan of exactly this many moves?"."""
    stopped: Stop | None = None
    """Why the search stopped before its answer was proven: ``timeout``, ``interrupt``,
    ``limit`` (the next horizon is over the grounding limit), ``max_moves`` (a
    reference method's plan is over the user's bound), ``memory`` (a user's encoding
    over its memory cap) or ``states`` (A*'s budget of stored states); None when it
    was not."""
    first_plan: FirstPlan | None = None
    """The plan built before the proof search, if one was."""
    horizons: tuple[HorizonRun, ...] = field(default=())
    """One record per clingo call, in order."""
    unreachable: bool = False
    """Proven: no plan of any length exists (not only none within ``max_moves``)."""
    threads: int | None = None
    """clingo's search threads (None: no clingo search, e.g. a reference method)."""
    programs: tuple[str, ...] = ()
    """The encodings clingo was given, the main one first (e.g. ``incremental.lp``,
    ``distance3.lp``); empty for a reference method."""
    source: str = "<puzzle>"
    """Where the puzzle came from: the ``instance`` of the JSON object."""
    timings: tuple[tuple[str, float], ...] = ()
    """Seconds per phase, in order: ``reading`` (set by the command line),
    ``first_plan``, ``bounds`` (lower bound and pattern tables), ``grounding``,
    ``solving`` (clingo's search, including the propagator's checks)."""

    @property
    def length(self) -> int | None:
        return None if self.plan is None else len(self.plan)

    @property
    def gap(self) -> int | None:
        """``upper_bound - lower_bound``: 0 when the plan is proven minimal."""
        if self.upper_bound is None or self.lower_bound is None:
            return None
        return self.upper_bound - self.lower_bound

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the user should know although nothing failed: a goal that names no disk
        is met by the start (an instance with no ``goal_on/2`` facts answers 0 moves)."""
        if not self.puzzle.goal_pegs():
            return ("the goal names no disk (no goal_on/2 facts): the start already meets it",)
        return ()

    @property
    def exit_code(self) -> int:
        """0 a plan, 1 UNSATISFIABLE, 3 UNKNOWN (see :mod:`hanoi_asp.model.errors`)."""
        return EXIT_CODES[self.result]

    @property
    def proven_minimal(self) -> bool:
        return self.result == "OPTIMUM FOUND"

    def to_dict(self, instance: str | None = None) -> dict[str, Any]:
        """The ``solve --json`` object (``instance`` defaults to :attr:`source`)."""
        return {
            "version": JSON_VERSION,
            "instance": self.source if instance is None else instance,
            "result": self.result,
            "length": self.length,
            "lower_bound": self.lower_bound,
            "plan": [move.as_dict() for move in self.plan or ()],
            "time_s": round(self.time_s, 4),
            "bound": self.bound.as_dict(),
            "proof": self.proof,
            "proof_data": self.proof_data.as_dict(),
            "mode": self.mode,
            "max_moves": self.max_moves,
            "moves": self.exact_moves,
            "stopped": self.stopped,
            "horizons": [run.as_dict() for run in self.horizons],
            "method": self.method,
            "proven_minimal": self.proven_minimal,
            "unreachable": self.unreachable,
            "graph": self.puzzle.graph_name(),
            "threads": self.threads,
            "programs": list(self.programs),
            "upper_bound": self.upper_bound,
            "gap": self.gap,
            "first_plan": None if self.first_plan is None else self.first_plan.as_dict(),
            "timings": {phase: round(seconds, 4) for phase, seconds in self.timings},
            "warnings": list(self.warnings),
        }
