"""How to solve, as validated data: :class:`SolveOptions`, each option given on the command
line, in ``batch --config`` or the web API declared once, with its field.

>>> SolveOptions(threads=0)
Traceback (most recent call last):
...
hanoi_asp.model.errors.InputError: threads must be 1-64, not 0
>>> SolveOptions(encoding="encodings/quickstart.lp")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanoi_asp.model.errors.InputError: encoding takes an Encoding, not a str: ...

Options are checked when they are made, so a script learns at once what it asked
wrong, in the same words the command line uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from hanoi_asp.model import option_checks
from hanoi_asp.model.choices import METHODS, MODES, Method, Mode
from hanoi_asp.model.encoding import Encoding as Encoding
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.flags import (
    FLAG,
    Flag,
    Place,
    limit_item,
    natural,
    positive_float,
    positive_int,
    thread_count,
)
from hanoi_asp.model.flags import MAX_THREADS as MAX_THREADS
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.option_checks import moves_in_range, one_of, positive_seconds, threads_in_range
from hanoi_asp.model.planner import Planner, planner_spec

if TYPE_CHECKING:
    from hanoi_asp.model.puzzle import Puzzle

BoundChoice = Literal["auto", "misplaced", "none"]
BOUND_CHOICES: tuple[BoundChoice, ...] = ("auto", "misplaced", "none")
SOLVING: frozenset[Place] = frozenset({"solve", "explain", "render", "batch", "config"})
"""Every command that solves, and ``--config``: an option of the search as a whole."""
SEARCH: frozenset[Place] = frozenset({"solve", "batch", "config"})
"""``solve``, ``batch`` and ``--config``: a switch to measure what a part of the engine
brings (``explain`` and ``render`` show the engine as it is)."""
ENGINE_RUN: frozenset[Place] = frozenset({"solve", "explain", "batch", "config"})
"""``solve``, ``explain``, ``batch`` and ``--config``: how the engine runs (clingo's mode
and threads, the table cache)."""
WITH_ENCODING: frozenset[Place] = frozenset({"solve", "explain", "config", "web"})
"""``solve``, ``explain``, ``--config`` and the web API: a user's encoding and where the
search starts (``batch --encoding`` is the batch's own option: a configuration per file)."""
MODE_HELP = (
    "incremental: multi-shot solving, one control for all horizons (default); oneshot: "
    "re-ground the quickstart encoding per horizon (the benchmark's baseline)"
)


def off_switch(flag: str, help_: str, takes: frozenset[Place]) -> bool:
    """A field on by default that ``flag`` (``--no-...``) turns off: the dataclass
    field, typed as its value as :func:`dataclasses.field` is."""
    on: bool = field(default=True, metadata=Flag(flag, help_, takes, switch=True).meta)
    return on


@dataclass(frozen=True)
class SolveOptions:
    """How to search; the defaults are what ``hanoi-asp solve FILE`` does.

    Each field given on the command line (or in ``batch --config``, or the web API)
    carries its :class:`~hanoi_asp.model.flags.Flag`: that declaration is the only one
    (:func:`solve_flags`)."""

    method: Method = field(
        default="asp",
        metadata=Flag(
            "--method",
            "asp (default): clingo, proven minimal; recursive: the classic 3-peg recursion "
            "(whole tower); frame-stewart: whole tower on 3+ pegs (minimal for 3 and 4 "
            "pegs); bfs: breadth-first search over states (any instance, minimal); astar: "
            "A* with pattern-database estimates (any instance, minimal)",
            frozenset({"solve", "render", "batch", "config"}),
            choices=METHODS,
        ).meta,
    )
    """``asp`` (clingo, proven minimal), or a reference method: ``recursive``,
    ``frame-stewart``, ``bfs``, ``astar`` (:mod:`hanoi_asp.methods`)."""
    mode: Mode | None = field(
        default=None,
        metadata=Flag(
            "--mode",
            MODE_HELP + "; with --encoding, from its layout (#program step(t) or not)",
            ENGINE_RUN,
            choices=MODES,
            help_in={"batch": MODE_HELP},
        ).meta,
    )
    """``incremental`` (multi-shot, the default) or ``oneshot`` (re-ground per horizon,
    the quickstart way); None: incremental, or one-shot for a one-shot user encoding."""
    max_moves: int | None = field(
        default=None,
        metadata=Flag(
            "--max-moves",
            "no plan longer than N (default: the instance's moves/1, else no bound: the "
            "search ends with a proven-minimal plan or a proof that none exists)",
            SOLVING,
            parse=natural,
            metavar="N",
            exclusive="horizon",
        ).meta,
    )
    """Search no horizon above this; None: the instance's ``moves/1``, else no bound
    (a plan exists or the goal is proven unreachable)."""
    exact_moves: int | None = field(
        default=None,
        metadata=Flag(
            "--moves",
            "decide whether a plan of exactly M moves exists",
            frozenset({"solve", "config", "web"}),
            parse=natural,
            metavar="M",
            exclusive="horizon",
        ).meta,
    )
    """Instead of the minimal search, decide whether a plan of exactly this many moves
    exists (``solve --moves``)."""
    timeout: float | None = field(
        default=None,
        metadata=Flag(
            "--timeout",
            "stop after S seconds with the best plan found so far (SATISFIABLE, exit 0), "
            "or UNKNOWN (exit 3) if there is none",
            frozenset({"solve", "explain", "render", "web"}),  # a batch's is its own
            parse=positive_float,
            metavar="S",
        ).meta,
    )
    """Seconds before the search stops with the best plan found so far (UNKNOWN if
    none); None: no limit."""
    started: float | None = None
    """The ``time.monotonic()`` reading the time limit counts from: the command's start
    (the command line sets it, so ``--timeout T`` bounds the whole command, Python's
    start-up and the reading of the files included); None: the solve's own start."""

    def time_left(self, now: float) -> float | None:
        """Seconds of the time limit left at ``now``, if the limit counts from
        :attr:`started`; else the whole limit (None: no limit)."""
        if self.timeout is None or self.started is None:
            return self.timeout
        return max(0.0, self.started + self.timeout - now)

    first_plan: bool = off_switch(
        "--no-first-plan",
        "do not build a plan before the search: clingo finds every plan (no upper "
        "bound until it does; for measuring the ASP engine alone)",
        SEARCH,
    )
    """Build a plan at once (:mod:`hanoi_asp.methods.constructive`) as the first upper
    bound; off, clingo finds every plan (``--no-first-plan``)."""
    encoding: Encoding | None = field(
        default=None,
        metadata=Flag(
            "--encoding",
            "your own encoding using the same predicates",
            WITH_ENCODING,
            metavar="FILE",
            value=Encoding.from_file,
        ).meta,
    )
    """A user's encoding instead of the shipped one."""
    clingo_options: tuple[str, ...] = ()
    """Extra command-line options for clingo."""
    bound: BoundChoice = field(
        default="auto",
        metadata=Flag(
            "--bound",
            "where the upward search starts: the best sound lower bound (default), the "
            "misplaced-disk count, or 0 (clingo refutes every shorter horizon)",
            WITH_ENCODING,
            choices=BOUND_CHOICES,
        ).meta,
    )
    """Where the upward search starts: the best sound lower bound, the misplaced-disk
    count, or 0 (``none``: clingo refutes every shorter horizon)."""
    distance: bool = True
    """With 3 pegs, add the redundant distance constraints of ``distance3.lp``."""
    patterns: bool = off_switch(
        "--no-patterns",
        "4+ pegs: do not check pattern-database estimates inside clingo's search (the "
        "lower bound still uses them); to measure what the check brings",
        SEARCH,
    )
    """With 4+ pegs, check pattern-database estimates inside clingo's search
    (:mod:`hanoi_asp.engine.pruning`); off, only the lower bound uses the tables."""
    mirror: bool = off_switch(
        "--no-mirror",
        "whole towers: neither look for a mirrored plan first nor search half "
        "horizons: clingo searches the puzzle's own horizons; to measure what the "
        "mirror brings",
        SEARCH,
    )
    """For a whole tower, first look for a mirrored plan, or search half horizons
    (:mod:`hanoi_asp.engine.mirror`); off (``--no-mirror``), the full horizons are
    searched directly."""
    astar: bool = off_switch(
        "--no-astar",
        "4+ pegs: do not race A* on the pattern tables against clingo on a spare core; "
        "clingo's refutations alone prove the bound (slower on some hard puzzles)",
        SEARCH,
    )
    """With the pattern tables, let A* on them race clingo on a spare core once clingo's
    refutations prove costly (:mod:`hanoi_asp.engine.astar_race`); off (``--no-astar``),
    clingo's refutations alone raise the bound."""
    threads: int | None = field(
        default=None,
        metadata=Flag(
            "--threads",
            f"clingo's search threads, 1-{MAX_THREADS} (default: 1, so that every run "
            "gives the same plan and statistics; more threads race clasp's configurations, "
            "which repeats no run)",
            ENGINE_RUN,
            parse=thread_count,
            metavar="N",
            help_in={
                "batch": "clingo's search threads per worker (default: the cores shared "
                "among the workers, at least 1)"
            },
        ).meta,
    )
    """clingo's search threads, 1-64; None: the engine's policy decides
    (:mod:`hanoi_asp.engine.policy`)."""
    table_cache: bool = off_switch(
        "--no-cache",
        "build pattern tables in memory only: neither read nor write the on-disk cache "
        "($HANOI_ASP_CACHE_DIR, else $XDG_CACHE_HOME/hanoi-asp or ~/.cache/hanoi-asp)",
        ENGINE_RUN,
    )
    """Read and keep pattern tables in the on-disk cache
    (:mod:`hanoi_asp.methods.table_cache`); off (``--no-cache``), every table is built
    in memory and nothing is written."""
    limits: Limits = field(
        default_factory=Limits,
        metadata=Flag(
            "--limit",
            "raise or lower a size limit checked before grounding: disks=N (default 64), "
            "pegs=N (32), cells=N (horizon x disks x pegs, 400000), states=N (stored by "
            "--method bfs, 5000000), moves=N (longest plan built without clingo, "
            "200000); repeatable",
            SOLVING,
            parse=limit_item,
            metavar="KEY=N",
            many=True,
            value=Limits.parse,
        ).meta,
    )
    """Size limits checked before grounding."""
    source: str = "<puzzle>"
    """Where the puzzle came from, for error messages and the JSON ``instance``."""
    planner: Planner | None = field(
        default=None,
        metadata=Flag(
            "--planner",
            "a classical planner instead of hanoi-asp's search: fast-downward[:SEARCH], "
            "symk[:SEARCH], command:PROGRAM ARGS or optimal-command:PROGRAM ARGS (a "
            "configuration NAME=planner:SPEC says the same)",
            frozenset({"config"}),
            parse=planner_spec,
            metavar="SPEC",
        ).meta,
    )
    """A classical planner instead of hanoi-asp's search (a batch's ``--config
    NAME=planner:SPEC``; :mod:`hanoi_asp.batch.planners` runs it)."""

    work: int | None = field(
        default=None,
        metadata=Flag(
            "--work",
            "stop once the search has done N units of work (about one state estimated by "
            "A* each: the scheduler's ledger of clingo's propagator calls, the beam's states "
            "and the pattern tables) with the best plan so far: --timeout's machine-"
            "independent twin, the same answer on every run. Refused where it cannot count "
            "the search: another method, an encoding, the exact-moves question, one-shot "
            "mode, no patterns, threads, 3 pegs' clingo search, a whole tower's mirror phase",
            frozenset({"solve", "render", "batch", "config"}),
            parse=positive_int,
            metavar="N",
        ).meta,
    )
    """Units of work (:mod:`hanoi_asp.engine.ledger`) after which the search stops, at a
    checkpoint at the same point of the work on every run (None: no budget)."""

    def __post_init__(self) -> None:
        one_of("method", self.method, METHODS)
        if self.mode is not None:
            one_of("mode", self.mode, MODES)
        one_of("bound", self.bound, BOUND_CHOICES)
        if self.threads is not None:
            threads_in_range(self.threads)
        for name in ("max_moves", "exact_moves"):
            if getattr(self, name) is not None:
                moves_in_range(name, getattr(self, name))
        if self.max_moves is not None and self.exact_moves is not None:
            raise InputError(
                "max_moves bounds the minimal search and exact_moves asks for a plan of "
                "exactly that many moves: give one, not both"
            )
        if self.timeout is not None:
            positive_seconds(self.timeout)
        if self.work is not None:
            given = (self.encoding, self.exact_moves, self.mode, self.patterns)
            option_checks.work_budget(self.work, self.method, *given, self.planner, self.threads)
        if self.encoding is not None and not isinstance(self.encoding, Encoding):
            raise InputError(
                f"encoding takes an Encoding, not a {type(self.encoding).__name__}: "
                "Encoding.from_file(path) for a file, Encoding(text) for program text"
            )
        if self.planner is not None and not isinstance(self.planner, Planner):
            raise InputError("planner takes a Planner: Planner.parse('fast-downward')")
        if not isinstance(self.limits, Limits):
            raise InputError("limits takes a Limits object")

    @classmethod
    def given(cls, values: Mapping[str, Any], **fixed: Any) -> SolveOptions:
        """The options from what was given for each flagged field (by field name, as
        the flag takes it: a path for ``encoding``, ``KEY=N`` items for ``limits``,
        whether an off switch was given), and ``fixed`` fields as they are."""
        flags = dict(solve_flags())
        made = {name: flags[name].field_value(value) for name, value in values.items()}
        return cls(**made, **fixed)

    def move_limit(self, puzzle: Puzzle) -> int | None:
        """The user's bound on the plan length: ``max_moves``, else the instance's
        ``moves/1``; None when neither gives one."""
        return self.max_moves if self.max_moves is not None else puzzle.max_moves


def solve_flags(place: Place | None = None) -> tuple[tuple[str, Flag], ...]:
    """The flagged fields of :class:`SolveOptions` (field name, flag), in their order;
    with ``place``, those that ``place`` takes."""
    found = ((item.name, item.metadata.get(FLAG)) for item in fields(SolveOptions))
    return tuple(
        (name, flag)
        for name, flag in found
        if isinstance(flag, Flag) and (place is None or place in flag.takes)
    )
