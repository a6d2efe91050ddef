"""What a solve returns, as data: the result, its proof, and one record per horizon.

These types are shared by every layer above, so this module imports nothing but the
puzzle, plan and proof it describes.  ``Result.to_dict()`` is the object ``solve --json``
prints and ``batch`` appends (version 1 keys first): its shape, :class:`ResultJSON`, is
declared once, here, and the web API's OpenAPI page documents that same shape.
"""

from dataclasses import dataclass, field, replace
from typing import Annotated, Any, ClassVar, Literal

from typing_extensions import TypedDict

from hanoi_asp.model.choices import METHODS as METHODS
from hanoi_asp.model.choices import MODES as MODES
from hanoi_asp.model.choices import Method as Method
from hanoi_asp.model.choices import Mode as Mode
from hanoi_asp.model.errors import EXIT_FOUND, EXIT_UNKNOWN, EXIT_UNSAT
from hanoi_asp.model.json_shape import From, dump, shape
from hanoi_asp.model.plan import Move, MoveJSON
from hanoi_asp.model.proof import UNREACHABLE as UNREACHABLE
from hanoi_asp.model.proof import LowerBound as LowerBound
from hanoi_asp.model.proof import LowerBoundJSON, Phase, Proof, ProofJSON, Stop, to_tenth_ms
from hanoi_asp.model.puzzle import Puzzle

Verdict = Literal["OPTIMUM FOUND", "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"]
Status = Literal["SAT", "UNSAT", "UNKNOWN"]
AnswerMethod = Literal[Method, "planner"]
"""What made a result's plan: a method, or a classical planner (a batch configuration's
``planner:``, not a ``--method``)."""
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

    def as_phase(self, phase: Phase) -> "HorizonRun":
        return replace(self, phase=phase)


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
    method: AnswerMethod = "asp"
    """``asp`` (clingo), the reference method that made the plan, or ``planner`` (a
    classical planner: ``proof_data.planner`` says which)."""
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

    json_version: ClassVar[int] = JSON_VERSION
    """The version of :meth:`to_dict`'s object."""

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

    @property
    def graph(self) -> str:
        """The move graph: ``complete``, ``linear``, ``cyclic`` or ``custom``."""
        return self.puzzle.graph_name()

    def to_dict(self, instance: str | None = None) -> dict[str, Any]:
        """The ``solve --json`` object (:class:`ResultJSON`; ``instance`` defaults to
        :attr:`source`)."""
        if instance is None:
            return dump(ResultJSON, self)
        return dump(ResultJSON, self, instance=instance)


# -- the JSON shapes: solve --json, one line of batch results, the web's /api/solve ------


@shape
class HorizonJSON(TypedDict):
    """One clingo call at one horizon, from clingo's statistics."""

    horizon: int
    status: Status
    time_s: Annotated[float, From("seconds", to_tenth_ms)]
    choices: int
    conflicts: int
    atoms: int
    """Ground atoms of the program searched at this horizon (incremental: every step so
    far)."""
    rules: int
    phase: Phase
    """``full`` (the puzzle's goal at this horizon) or ``mirror-half`` (``horizon``
    moves of half a mirrored whole-tower plan)."""


@shape
class FirstPlanJSON(TypedDict):
    """The plan built before the search: the first upper bound."""

    length: int
    method: FirstPlanMethod
    time_s: Annotated[float, From("seconds", to_tenth_ms)]


@shape
class ResultJSON(TypedDict):
    """``hanoi-asp solve --json``'s object (README: JSON output), the answer of
    ``/api/solve``, and the start of each line of ``batch``'s results."""

    version: Annotated[int, From("json_version")]
    """1: keys are added, never removed or changed."""
    instance: Annotated[str, From("source")]
    """The instance file as the command line was given it."""
    result: Verdict
    """``OPTIMUM FOUND`` (minimal, proven), ``SATISFIABLE`` (a plan, not proven minimal),
    ``UNSATISFIABLE`` (proven: no plan within the bound, or none at all), ``UNKNOWN``
    (stopped before any plan)."""
    length: int | None
    """The plan's length; null when there is no plan."""
    lower_bound: int | None
    """Proven: no plan has fewer moves; null when no plan exists at all."""
    plan: list[MoveJSON]
    """The plan, replayed by the simulator; ``[]`` when there is none."""
    time_s: Annotated[float, From(convert=to_tenth_ms)]
    bound: LowerBoundJSON
    proof: str
    """Why the answer holds, in words (worded from ``proof_data``; the words may
    change, the data's keys do not)."""
    proof_data: ProofJSON
    mode: Mode | None
    """How clingo was driven; null for the reference methods."""
    max_moves: int | None
    """The user's bound (``--max-moves`` or ``moves/1``); null when there is none."""
    moves: Annotated[int | None, From("exact_moves")]
    """The exact question ``--moves M``; null for the minimal search."""
    stopped: Stop | None
    """Why the search ended before its proof; null when it did not."""
    horizons: list[HorizonJSON]
    method: AnswerMethod
    """``asp``, a reference method, or ``planner`` (a batch's planner configuration)."""
    proven_minimal: bool
    unreachable: bool
    """Proven: no plan of any length exists."""
    graph: str
    """``complete``, ``linear``, ``cyclic`` or ``custom``."""
    threads: int | None
    programs: list[str]
    """The encodings clingo was given, the main one first; ``[]`` for the reference
    methods."""
    upper_bound: int | None
    """The length of the best verified plan known (null: none)."""
    gap: int | None
    """``upper_bound - lower_bound`` (0 when proven minimal)."""
    first_plan: FirstPlanJSON | None
    timings: Annotated[
        dict[str, float], From(convert=lambda pairs: {k: to_tenth_ms(v) for k, v in pairs})
    ]
    """Seconds per phase: ``reading``, ``first_plan``, ``bounds``, ``grounding``,
    ``solving`` (``{}`` for the reference methods)."""
    warnings: list[str]


@shape
class ErrorJSON(TypedDict):
    """``solve --json``'s object for an instance that could not be solved at all (bad
    input, exit 2; stopped before any answer, exit 3), and its line in batch results."""

    version: int
    instance: str
    result: Literal["ERROR", "UNKNOWN"]
    length: None
    lower_bound: None
    upper_bound: None
    plan: list[MoveJSON]
    stopped: Literal["interrupt"] | None
    error: str
    """The one-line message the command line prints."""
    exit_code: int
