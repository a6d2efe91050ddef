"""The API's bodies as pydantic models: what a request holds, and the JSON each endpoint
answers, which is the CLI's (``solve --json``, ``explain --json``, ``grade --json``).

The request models are what FastAPI validates a body into.  The answers of solve,
explain and grade are the CLI's own objects, sent as the CLI builds them (byte for
byte); their models here document those shapes in the OpenAPI schema, and the tests
check every answer against them.  JSON version 1 only ever gains keys, so the models of
the CLI's objects allow extra ones.

>>> JobBody(instance="peg(a).").name
'instance.lp'
>>> HintAnswer.model_validate({"distance": 1, "move": {"disk": 1, "from": "a", "to": "b"},
...                            "proven": True}).model_dump(by_alias=True)["move"]["from"]
'a'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hanoi_asp.inputs.instance import parse_puzzle
from hanoi_asp.model.flags import Flag
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import BoundChoice, Encoding, SolveOptions, solve_flags
from hanoi_asp.model.proof import Phase, PlanSource, ProofKind, ReferenceMethod, Stop
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Method, Mode, Status, Verdict

MAX_TEXT = 100_000
"""Characters in a submitted instance or encoding (the shipped ones are under 10,000)."""
DEFAULT_SECONDS = 30.0
MAX_SECONDS = 120.0
MAX_RANDOM = 300
"""At most this many random puzzles per /api/grade call (about 15-60 s of grading)."""
LIMITS = Limits(moves=20_000)
"""The CLI's size limits, with plans cut at 20,000 moves (a page, not a file)."""

Format = Literal["lp", "aspcomp", "json", "toml"]
Where = Literal["instance", "encoding"]
SUFFIXES: dict[Format, str] = {"lp": "lp", "aspcomp": "asp", "json": "json", "toml": "toml"}
ENCODING_NAME = "encoding.lp"
TEXT_NAMES: dict[str, Where] = {
    **{f"instance.{suffix}": "instance" for suffix in SUFFIXES.values()},
    ENCODING_NAME: "encoding",
}
"""The names the submitted texts have in messages (an error's ``path``), and which
text each names."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class _Answer(BaseModel):
    """A JSON object the API answers with (documented; sent as built)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class _CliAnswer(BaseModel):
    """One of the CLI's versioned JSON objects: version 1 gains keys, never loses one."""

    model_config = ConfigDict(extra="allow", use_attribute_docstrings=True)


# -- requests ----------------------------------------------------------------------------


class InstanceBody(_Body):
    """The body of ``/api/parse``: an instance and its format."""

    instance: str = Field(max_length=MAX_TEXT)
    """The instance's text, as in a file (named ``instance.lp``, ``.asp``, ``.json`` or
    ``.toml`` in messages); read as data, never run."""
    format: Format = "lp"

    @property
    def name(self) -> str:
        """The instance's name in messages: ``instance.lp`` (``.asp``, ...)."""
        return f"instance.{SUFFIXES[self.format]}"

    def puzzle(self) -> Puzzle:
        """The puzzle, its size checked against :data:`LIMITS` before any work."""
        puzzle = parse_puzzle(self.instance, self.name, self.format)
        LIMITS.check_size(pegs=len(puzzle.pegs), disks=puzzle.disks, where=self.name)
        return puzzle


WEB_OPTIONS: dict[str, tuple[str, Flag]] = {
    flag.key: (name, flag) for name, flag in solve_flags("web")
}
"""The solve options the API takes, by key (``moves`` for ``--moves``): their field of
:class:`SolveOptions` and their declaration."""


def web_option(key: str, note: str = "", **caps: Any) -> Any:
    """The body's field for the solve option ``key``: its default (unless ``caps`` give
    the API's own) and its help, from its one declaration; ``caps`` bound what the API
    accepts."""
    name, flag = WEB_OPTIONS[key]
    caps.setdefault("default", getattr(SolveOptions(), name))
    here = f" Here: {note}." if note else ""
    return Field(description=f"As solve {flag.flag}: {flag.help}.{here}", **caps)


class JobBody(InstanceBody):
    """The body of ``/api/solve``, ``/api/explain``, ``/api/grade`` and ``/api/hint``:
    the instance, the solve options of :data:`WEB_OPTIONS`, and grade's own."""

    encoding: str | None = web_option(
        "encoding",
        "the encoding's text (named encoding.lp in messages), null for the engine's own; "
        "#script and #include are refused",
        max_length=MAX_TEXT,
    )
    moves: int | None = web_option("moves", ge=0, le=LIMITS.moves)
    timeout: float = web_option(
        "timeout",
        "the job's process is killed shortly after",
        default=DEFAULT_SECONDS,
        gt=0,
        le=MAX_SECONDS,
        allow_inf_nan=False,
    )
    bound: BoundChoice = web_option(
        "bound", "none starts at 0, so Explain shows every refuted horizon (the lesson)"
    )
    random: int | None = Field(default=None, ge=0, le=MAX_RANDOM)
    """/api/grade only: grade the teaching set and this many random puzzles too."""
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    """/api/grade only: the seed of the random puzzles."""

    def options(self, **changes: Any) -> SolveOptions:
        """The body's solve options, each as its field takes it (the encoding is the
        text, never a path), the API's size limits, and ``changes``."""
        given = {name: getattr(self, key) for key, (name, _) in WEB_OPTIONS.items()}
        if self.encoding is not None:
            given["encoding"] = Encoding(self.encoding, ENCODING_NAME)
        fixed = {
            "limits": LIMITS,
            "source": self.name,
            "astar": False,  # the server's jobs share its cores already: no second one each
        }
        return SolveOptions(**{**given, **fixed, **changes})


# -- errors ------------------------------------------------------------------------------


class ErrorBody(_Answer):
    """Every refusal: bad input (400), a foreign page (403), a body too large (413),
    not JSON-typed (415), malformed (422), busy or stopping (503, with
    ``Retry-After``), past the job's hard limit (504)."""

    error: str
    """One line: the CLI's message (``instance.lp:2: syntax error, ...``)."""
    where: Where | None
    """The text the error is in, when it is in one."""
    line: int | None
    """Its line in that text, when known."""


# -- the CLI's objects -------------------------------------------------------------------


class Step(_Answer):
    """One move of a plan."""

    step: int
    disk: int
    """1 is the largest disk."""
    from_: str = Field(alias="from")
    to: str


class LowerBoundJSON(_CliAnswer):
    value: int | None
    """null when the bound proves the goal unreachable."""
    name: str
    argument: str


class HorizonJSON(_CliAnswer):
    """One clingo call at one horizon."""

    horizon: int
    status: Status
    time_s: float
    choices: int
    conflicts: int
    atoms: int
    rules: int
    phase: str


class ProofBoundJSON(_CliAnswer):
    name: str
    value: int | None
    """null when the bound proves the goal unreachable."""


class RefutedJSON(_CliAnswer):
    """The horizons clingo refuted, first to last."""

    first: int
    last: int
    phase: Phase


class HalfSearchJSON(_CliAnswer):
    """A whole tower's optimum is 2H + 1: H >= ``first`` from the bound or the half's
    tables (``tables``), raised to ``reached`` by refuted half horizons."""

    first: int
    tables: int
    reached: int


class PlanOriginJSON(_CliAnswer):
    source: PlanSource
    length: int
    width: int | None
    """A beam search's width, for its plans."""
    half: int | None
    """A mirrored plan: the moves of the half clingo found."""


class MethodRunJSON(_CliAnswer):
    method: ReferenceMethod
    lower: int
    states: int | None
    pegs: int | None
    stopped: Stop | None


class StateSpaceJSON(_CliAnswer):
    pegs: int
    disks: int


class ProofJSON(_CliAnswer):
    """Why the answer holds, as data (``hanoi_asp.model.proof``; the README's JSON
    section): the ``proof`` sentence is worded from it."""

    kind: ProofKind
    lower_bound: int | None
    bound: ProofBoundJSON | None
    refuted: RefutedJSON | None
    half_search: HalfSearchJSON | None
    plan: PlanOriginJSON | None
    method: MethodRunJSON | None
    stopped: Stop | None
    time_limit: float | None
    memory_limit: int | None
    max_moves: int | None
    exact_moves: int | None
    state_space: StateSpaceJSON | None


class FirstPlanJSON(_CliAnswer):
    length: int
    method: str
    time_s: float


class SolveAnswer(_CliAnswer):
    """``hanoi-asp solve --json``'s object (see the README's JSON section)."""

    version: int
    instance: str
    result: Verdict
    length: int | None
    lower_bound: int | None
    plan: list[Step]
    time_s: float
    bound: LowerBoundJSON
    proof: str
    proof_data: ProofJSON
    mode: Mode | None
    max_moves: int | None
    moves: int | None
    stopped: str | None
    horizons: list[HorizonJSON]
    method: Method
    proven_minimal: bool
    unreachable: bool
    graph: str
    threads: int | None
    programs: list[str]
    upper_bound: int | None
    gap: int | None
    first_plan: FirstPlanJSON | None
    timings: dict[str, float]
    warnings: list[str]


class RuleJSON(_CliAnswer):
    text: str
    comment: str
    line: int
    program: str


class SectionJSON(_CliAnswer):
    name: str
    intro: str
    rules: list[RuleJSON]


class WhyNotShorterJSON(_CliAnswer):
    horizon: int
    status: str
    reason: str
    core: list[str]


class ExplainAnswer(_CliAnswer):
    """``hanoi-asp explain --json``'s object: the encoding by section, the search
    horizon by horizon, why no shorter plan exists, and the solve object."""

    instance: str
    facts: str
    encoding: str
    extras: list[str]
    sections: list[SectionJSON]
    horizons: list[HorizonJSON]
    why_not_shorter: WhyNotShorterJSON | None
    result: SolveAnswer


class FindingJSON(_CliAnswer):
    kind: str
    message: str
    horizon: int | None
    board: str | None


class InstanceGradeJSON(_CliAnswer):
    instance: str
    passed: bool
    optimum: int | None
    answers: dict[str, Status]
    """The encoding's answer per horizon."""
    findings: list[FindingJSON]


class ScoreJSON(_CliAnswer):
    passed: int
    total: int


class RuleAtJSON(_CliAnswer):
    file: str
    line: int
    text: str


class CounterexampleJSON(_CliAnswer):
    instance: str
    """The smallest failing puzzle as facts, with ``moves/1``."""
    pegs: int
    disks: int
    horizon: int
    kind: str
    plan: list[Step]
    reason: str
    rules: list[RuleAtJSON]


class GradeAnswer(_CliAnswer):
    """``hanoi-asp grade --json``'s object, for the submitted instance (with
    ``random``: then the teaching set and the random puzzles)."""

    encoding: str
    passed: bool
    score: ScoreJSON
    instances: list[InstanceGradeJSON]
    warnings: list[str]
    counterexample: CounterexampleJSON | None


# -- the page's own objects --------------------------------------------------------------


class HintMove(_Answer):
    disk: int
    from_: str = Field(alias="from")
    to: str


class HintAnswer(_Answer):
    """The first move of a minimal plan from the instance's start."""

    distance: int | None
    """Moves to the goal; null when no plan exists (or none was found in time)."""
    move: HintMove | None
    """null at the goal, or when there is no plan."""
    proven: bool
    """The distance is proven minimal (or no plan proven to exist)."""


class ParsedPuzzle(_Answer):
    """The puzzle as the page draws it."""

    pegs: list[str]
    disks: int
    start: dict[str, list[int]]
    """Each peg's disks, bottom first."""
    goal: dict[str, list[int]]
    """The pegs the goal names, with their disks."""
    graph: list[tuple[str, str]] | None
    """The allowed moves as [from, to] pairs; null: every move."""
    max_moves: int | None


class EncodingText(_Answer):
    name: str
    title: str
    text: str
    default: bool
    """The engine's own encoding, used when a job's ``encoding`` is null."""


class EncodingList(_Answer):
    encodings: list[EncodingText]
    """The shipped whole encodings (the engine's first) and every exercise."""


class ExampleText(_Answer):
    name: str
    text: str
    format: Format


class ExampleList(_Answer):
    examples: list[ExampleText]
    """The teaching instances."""
