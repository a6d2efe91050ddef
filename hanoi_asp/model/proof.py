"""Why an answer holds, as data: the ``proof_data`` of ``solve --json``.

>>> bound = LowerBound(4, "misplaced-disks", "4 disk(s) start off their goal peg; ...")
>>> proof = Proof(kind="refuted-horizons", lower=15, bound=bound, refuted=Horizons(4, 14),
...               plan=PlanOrigin("constructive", 15))
>>> proof.as_dict()["refuted"]
{'first': 4, 'last': 14, 'phase': 'full'}

The engine and the reference methods build a :class:`Proof` as they go; the ``proof``
sentence is worded from it in :mod:`hanoi_asp.outputs.proof`, so a script (or a test)
reads the structure, never the English.  Each kind names the argument's shape:

* ``meets-bound``: the plan's length equals a sound lower bound (``bound``).
* ``refuted-horizons``: clingo refuted every horizon from the bound up to the plan's
  length (``refuted``), with pruning that keeps every minimal plan.
* ``half-search``: a whole tower's optimum is 2H + 1; refuted half horizons raise H
  (``half_search``; :mod:`hanoi_asp.engine.mirror` has the theorem).
* ``over-limit``: no plan within ``max_moves``; ``lower`` moves are needed.
* ``unreachable``: no plan of any length (by the ``bound``, a search that visited every
  reachable state, or every horizon below the number of states refuted).
* ``exact-moves``: the question "a plan of exactly ``exact_moves`` moves?".
* ``stopped``: the search stopped (``stopped``) before its proof: what it proved, and
  the best plan so far.
* ``killed``: the process running a user's encoding was ended at a hard limit.
* ``method``: a reference method's own argument (``method``).
* ``planner``: a classical planner's own claim (``planner``): the plan of a search known
  to be optimal is minimal, a complete search's "unsolvable" means no plan exists.
  hanoi-asp replayed the plan; the claim is the planner's, not proven here.
"""

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from typing_extensions import TypedDict

from hanoi_asp.model.json_shape import From, dump, shape

ProofKind = Literal[
    "meets-bound",
    "refuted-horizons",
    "half-search",
    "over-limit",
    "unreachable",
    "exact-moves",
    "stopped",
    "killed",
    "method",
    "planner",
]
Stop = Literal["timeout", "interrupt", "limit", "max_moves", "memory", "states", "work"]
"""Why a solve stopped before its answer was proven: its time limit, Ctrl-C, the
grounding limit (``--limit cells``), a reference plan over ``--max-moves``, a memory
cap, A*'s budget of stored states, its work budget (``--work``)."""
Phase = Literal["full", "mirror-half"]
"""What a horizon asks: a plan for the puzzle's goal (``full``), or the first half of a
mirrored whole-tower plan (``mirror-half``, :mod:`hanoi_asp.engine.mirror`)."""
PlanSource = Literal[
    "constructive",
    "breadth-first",
    "beam",
    "clingo",
    "mirror",
    "recursive",
    "frame-stewart",
    "bfs",
    "astar",
    "planner",
]
"""Where a plan came from: built before the search (``constructive``, ``breadth-first``),
a beam search on the pattern tables, clingo at a horizon, a half found by clingo and
mirrored, a reference method, or a classical planner (a batch's ``planner:``
configuration)."""
ReferenceMethod = Literal["recursive", "frame-stewart", "bfs", "astar"]

UNREACHABLE = 10**1000
"""The value of a bound that proves the goal unreachable (no plan of any length): far
above any real plan length (a 3-peg tower of 64 disks needs 2^64 - 1 moves; a shortest
plan never has more moves than there are states, pegs^disks).  Never shown: JSON says
``null``."""


@dataclass(frozen=True)
class LowerBound:
    """No plan has fewer than ``value`` moves, because of ``argument`` (its proof)."""

    value: int
    name: str
    argument: str
    exact: bool = False
    """The bound is known to be the optimum itself (a plan of this length exists)."""

    @property
    def unreachable(self) -> bool:
        """The bound proves no plan exists (a pattern's goal is unreachable)."""
        return self.value >= UNREACHABLE


@dataclass(frozen=True)
class Horizons:
    """Horizons ``first`` .. ``last`` (both included), each proven by clingo to hold no
    plan (of the ``phase``'s kind)."""

    first: int
    last: int
    phase: Phase = "full"


@dataclass(frozen=True)
class PlanOrigin:
    """Where the plan (the best plan, if the search stopped) came from, and its length."""

    source: PlanSource
    length: int
    width: int | None = None
    """A beam search's width (how many states each of its layers kept)."""
    half: int | None = None
    """A mirrored plan: the moves of the half clingo found."""


@dataclass(frozen=True)
class HalfSearch:
    """The half search's argument: every plan of a whole tower has at least 2H + 1
    moves, H the fewest moves clearing the smaller disks off the start peg and one
    other."""

    first: int
    """H >= ``first`` before any half horizon was solved: the larger of the half's
    pattern tables' estimate and half the bound."""
    tables: int
    """The half's pattern tables' estimate of H."""
    reached: int
    """H >= ``reached``: ``first`` raised by one per refuted half horizon; H itself when
    a half of that length was found."""


@dataclass(frozen=True)
class MethodRun:
    """What a search other than clingo's proved: a reference method, or the
    breadth-first search for the first plan (which may visit every reachable state)."""

    method: ReferenceMethod
    lower: int = 0
    """The method's own proof: no plan has fewer moves."""
    states: int | None = None
    """States breadth-first search stored, or A* expanded."""
    pegs: int | None = None
    """Frame-Stewart's pegs: its plan is proven minimal for 3 and 4 only."""
    stopped: Stop | None = None
    """The method's search stopped early (A* at its deadline or budget of states)."""


@dataclass(frozen=True)
class PlannerRun:
    """What a classical planner did (:mod:`hanoi_asp.batch.planners`): whose claim an
    answer is, and how the planner's run ended."""

    planner: str
    """The configuration after ``planner:``, e.g. ``fast-downward:astar(lmcut())``."""
    name: str
    """Who claims it, for people: ``Fast Downward``, ``SymK``, or the program."""
    optimal: bool
    """The planner's search is known to return optimal plans (its plan is then minimal
    by its claim)."""
    exit_code: int | None
    """The planner's exit code (None: killed at a limit)."""
    time_s: float
    """The planner's own wall time (its processes, from start to exit)."""


@dataclass(frozen=True, kw_only=True)
class Proof:
    """Why a result holds: its ``kind`` (see the module's docstring) and the parts the
    argument uses; a part it does not use is None."""

    kind: ProofKind
    lower: int | None = None
    """Proven: no plan has fewer moves (None: nothing proven, or no plan exists)."""
    bound: LowerBound | None = None
    """The sound lower bound the argument starts from."""
    refuted: Horizons | None = None
    """The horizons clingo refuted."""
    half_search: HalfSearch | None = None
    plan: PlanOrigin | None = None
    """The plan, or the best plan of a stopped search (also one over ``max_moves``)."""
    method: MethodRun | None = None
    planner: PlannerRun | None = None
    stopped: Stop | None = None
    time_limit: float | None = None
    """Seconds: the ``--timeout`` that stopped the search, or the hard limit at which a
    user's encoding's process was killed."""
    memory_limit: int | None = None
    """Bytes: the cap a user's encoding's process went over."""
    work_limit: int | None = None
    """Units of work: the ``--work`` budget that stopped the search."""
    max_moves: int | None = None
    """The user's bound on the plan's length."""
    exact_moves: int | None = None
    """The length asked about by ``--moves``."""
    state_space: tuple[int, int] | None = None
    """(pegs, disks): a shortest plan visits each of the pegs^disks states at most once,
    so it has fewer moves than that."""

    def as_dict(self) -> dict[str, Any]:
        """The ``proof_data`` object of ``solve --json`` (:class:`ProofJSON`): every key
        always present."""
        return dump(ProofJSON, self)


# -- the JSON shapes: proof_data, and the bound of solve's object ------------------------


def finite(value: int) -> int | None:
    """A bound's value as printed: null for :data:`UNREACHABLE`."""
    return None if value >= UNREACHABLE else value


@shape
class LowerBoundJSON(TypedDict):
    """The sound lower bound the search started from, and its argument."""

    value: Annotated[int | None, From(convert=finite)]
    """No plan has fewer moves; null when it proves that no plan exists at all."""
    name: str
    argument: str


@shape
class ProofBoundJSON(TypedDict):
    """The sound bound an argument starts from (``astar``: A* racing clingo proved it)."""

    name: str
    value: Annotated[int | None, From(convert=finite)]
    """null when the bound proves the goal unreachable."""


@shape
class HorizonsJSON(TypedDict):
    """Horizons ``first`` .. ``last``, each proven by clingo to hold no plan."""

    first: int
    last: int
    phase: Phase
    """``full`` (the puzzle's goal), or ``mirror-half`` (half horizons)."""


@shape
class HalfSearchJSON(TypedDict):
    """A whole tower's optimum is 2H + 1: H >= ``first`` from the bound or the half's
    tables (``tables``), raised to ``reached`` by refuted half horizons."""

    first: int
    tables: int
    reached: int


@shape
class PlanOriginJSON(TypedDict):
    """Where the plan (or a stopped search's best plan) came from."""

    source: PlanSource
    length: int
    width: int | None
    """A beam search's width, for its plans."""
    half: int | None
    """A mirrored plan: the moves of the half clingo found."""


@shape
class MethodRunJSON(TypedDict):
    """A reference method's own argument."""

    method: ReferenceMethod
    lower: int
    """No plan has fewer moves, by the method alone."""
    states: int | None
    """States stored by ``bfs``, expanded by ``astar``."""
    pegs: int | None
    """Frame-Stewart is proven minimal on 3 and 4 pegs only."""
    stopped: Stop | None


def to_tenth_ms(seconds: float) -> float:
    """A time as printed: to 0.1 ms."""
    return round(seconds, 4)


@shape
class PlannerRunJSON(TypedDict):
    """What a classical planner did: whose claim the answer is."""

    planner: str
    """The configuration after ``planner:``, e.g. ``fast-downward:astar(lmcut())``."""
    name: str
    optimal: bool
    """Its search is known to return optimal plans."""
    exit_code: int | None
    """null: killed at a limit."""
    time_s: Annotated[float, From(convert=to_tenth_ms)]
    """The planner's own wall time."""


@shape
class StateSpaceJSON(TypedDict):
    """A shortest plan visits each of the pegs^disks states at most once."""

    pegs: int
    disks: int


@shape
class ProofJSON(TypedDict):
    """Why the answer holds, as data (README: JSON output, ``proof_data``): the ``proof``
    sentence is worded from it.  Every key is always there, null where the argument
    does not use it."""

    kind: ProofKind
    lower_bound: Annotated[int | None, From("lower")]
    """Proven: no plan has fewer moves (null: nothing proven, or no plan exists)."""
    bound: ProofBoundJSON | None
    refuted: HorizonsJSON | None
    half_search: HalfSearchJSON | None
    plan: PlanOriginJSON | None
    method: MethodRunJSON | None
    stopped: Stop | None
    time_limit: float | None
    """Seconds: the ``--timeout`` that stopped the search, or the hard limit at which a
    user's encoding's process was killed."""
    memory_limit: int | None
    """Bytes: the cap a user's encoding's process went over."""
    max_moves: int | None
    exact_moves: int | None
    state_space: StateSpaceJSON | None
    planner: PlannerRunJSON | None
    """A classical planner's run, in a batch's planner configuration (kind ``planner``)."""
    work_limit: int | None
    """Units of work: the ``--work`` budget that stopped the search."""
