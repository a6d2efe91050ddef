"""The API's bodies as pydantic models: what a request holds, and the API's own replies.

The request models are what FastAPI validates a body into; the solve options among
their fields are made from the options' one declaration
(:func:`~hanoi_asp.model.options.solve_flags`).  The answers of solve, explain and
grade are the CLI's own objects, sent as the CLI builds them (byte for byte), and their
shapes are the CLI's too (:class:`~hanoi_asp.model.result.ResultJSON`,
:mod:`hanoi_asp.teaching.json_shapes`): the OpenAPI page documents exactly what
``--json`` prints.  What is left here is the API's own: a hint, a parsed puzzle, the
lists, a refusal.

>>> JobBody(instance="peg(a).").name
'instance.lp'
>>> Hint.model_validate({"distance": 1, "move": {"disk": 1, "from": "a", "to": "b"},
...                      "proven": True}).model_dump(by_alias=True)["move"]["from"]
'a'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hanoi_asp.inputs.instance import TextFormat, parse_puzzle
from hanoi_asp.model.flags import Flag
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import BoundChoice, Encoding, SolveOptions, solve_flags
from hanoi_asp.model.puzzle import Puzzle

MAX_TEXT = 100_000
"""Characters in a submitted instance or encoding (the shipped ones are under 10,000)."""
DEFAULT_SECONDS = 30.0
MAX_SECONDS = 120.0
MAX_RANDOM = 300
"""At most this many random puzzles per /api/grade call (about 15-60 s of grading)."""
LIMITS = Limits(moves=20_000)
"""The CLI's size limits, with plans cut at 20,000 moves (a page, not a file)."""

Where = Literal["instance", "encoding", "plan"]
SUFFIXES: dict[TextFormat, str] = {"lp": "lp", "aspcomp": "asp", "json": "json", "toml": "toml"}
ENCODING_NAME = "encoding.lp"
PLAN_NAME = "plan.txt"
MAX_PLAN = 400_000
"""Characters in a submitted plan (20,000 moves as facts, one a line)."""
TEXT_NAMES: dict[str, Where] = {
    **{f"instance.{suffix}": "instance" for suffix in SUFFIXES.values()},
    ENCODING_NAME: "encoding",
    PLAN_NAME: "plan",
}
"""The names the submitted texts have in messages (an error's ``path``), and which
text each names."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class _Reply(BaseModel):
    """A JSON object of the API's own (not one of the CLI's), documented; sent as built."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


# -- requests ----------------------------------------------------------------------------


class InstanceBody(_Body):
    """The body of ``/api/parse``: an instance and its format."""

    instance: str = Field(max_length=MAX_TEXT)
    """The instance's text, as in a file (named ``instance.lp``, ``.asp``, ``.json`` or
    ``.toml`` in messages); read as data, never run."""
    format: TextFormat = "lp"

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
    plan: str | None = Field(default=None, max_length=MAX_PLAN)
    """/api/check only: the plan's text as ``hanoi-asp check`` reads it (``move(D,P,T)``
    facts, ``solve --json``'s object or its list of moves, or ``DISK FROM TO`` lines;
    named ``plan.txt`` in messages)."""

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


class ErrorBody(_Reply):
    """Every refusal: bad input (400), a foreign page (403), a body too large (413),
    not JSON-typed (415), malformed (422), busy or stopping (503, with
    ``Retry-After``), past the job's hard limit (504)."""

    error: str
    """One line: the CLI's message (``instance.lp:2: syntax error, ...``)."""
    where: Where | None
    """The text the error is in, when it is in one."""
    line: int | None
    """Its line in that text, when known."""


# -- the page's own objects --------------------------------------------------------------


class HintMove(_Reply):
    disk: int
    from_: str = Field(alias="from")
    to: str


class Hint(_Reply):
    """The first move of a minimal plan from the instance's start."""

    distance: int | None
    """Moves to the goal; null when no plan exists (or none was found in time)."""
    move: HintMove | None
    """null at the goal, or when there is no plan."""
    proven: bool
    """The distance is proven minimal (or no plan proven to exist)."""


class ParsedPuzzle(_Reply):
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


class EncodingText(_Reply):
    name: str
    title: str
    text: str
    default: bool
    """The engine's own encoding, used when a job's ``encoding`` is null."""


class EncodingList(_Reply):
    encodings: list[EncodingText]
    """The shipped whole encodings (the engine's first) and every exercise."""


class ExampleText(_Reply):
    name: str
    text: str
    format: TextFormat


class ExampleList(_Reply):
    examples: list[ExampleText]
    """The teaching instances."""
