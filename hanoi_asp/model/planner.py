"""A classical planner as a batch configuration (``--config NAME=planner:...``), as data.

>>> Planner.parse("fast-downward:astar(lmcut())")
Planner(kind='fast-downward', search='astar(lmcut())', optimal=True)
>>> Planner.parse("fast-downward:lazy_greedy([ff()])").optimal
False
>>> Planner.parse("symk").search
'sym_bd()'
>>> Planner.parse("command:my-planner --fast {domain} {problem} {plan}").words()
('my-planner', '--fast', '{domain}', '{problem}', '{plan}')

The spec after ``planner:`` is one of

* ``fast-downward[:SEARCH]``: Fast Downward's driver with ``--search SEARCH`` (default
  ``astar(lmcut())``);
* ``symk[:SEARCH]``: SymK's driver (default ``sym_bd()``, symbolic bidirectional search);
* ``command:PROGRAM ARGS...`` or ``optimal-command:PROGRAM ARGS...``: any planner on the
  PATH that reads a PDDL domain and problem and writes a plan file in IPC's format;
  ``{domain}``, ``{problem}`` and ``{plan}`` in ARGS are the files' paths (without any,
  the three are added at the end, in that order).  ``optimal-command`` says the planner
  returns optimal plans: its plans are then ``OPTIMUM FOUND`` by its claim.

Whether a Fast Downward or SymK search is optimal is read from the search (see
:func:`optimal_search`): only a search known to return optimal plans makes its plan
``OPTIMUM FOUND``; any other plan is ``SATISFIABLE``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Literal

from hanoi_asp.model.errors import InputError

PlannerKind = Literal["fast-downward", "symk", "command"]
KINDS = ("fast-downward", "symk", "command", "optimal-command")
DEFAULT_SEARCH = {"fast-downward": "astar(lmcut())", "symk": "sym_bd()"}
PLACEHOLDERS = ("{domain}", "{problem}", "{plan}")

ADMISSIBLE = frozenset(
    {
        "blind",
        "lmcut",
        "hmax",
        "hm",
        "merge_and_shrink",
        "ipdb",
        "cpdbs",
        "pdb",
        "zopdbs",
        "cegar",
        "operatorcounting",
        "max",
    }
)
"""Fast Downward heuristics that never overestimate (with ``astar``: an optimal search);
``max`` of admissible ones is admissible."""
SYMBOLIC_OPTIMAL = frozenset({"sym_bd", "sym_fw", "sym_bw"})
"""SymK's optimal symbolic searches (uniform cost, forward, backward or both)."""
_CALL = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*\(", re.IGNORECASE)


def optimal_search(search: str) -> bool:
    """Is ``search`` known to return optimal plans: A* whose heuristic's every function is
    an admissible one (or a structural option of one, such as merge-and-shrink's
    strategies), or one of SymK's optimal searches with no options?

    >>> searches = ("astar(blind())", "astar(ff())", "sym_bd()", "eager_greedy([ff()])")
    >>> [optimal_search(s) for s in searches]
    [True, False, True, False]
    """
    head = _CALL.match(search)
    if head is None:
        return False
    name = head.group(1).lower()
    if name in SYMBOLIC_OPTIMAL:
        return search.strip().lower() == f"{name}()"
    if name != "astar":
        return False
    inner = search[head.end() :]
    heuristic = _CALL.match(inner)
    return (
        heuristic is not None
        and heuristic.group(1).lower() in ADMISSIBLE
        and all(
            call.lower() in ADMISSIBLE or not _is_heuristic_name(call)
            for call in re.findall(r"([a-z_][a-z0-9_]*)\s*\(", inner, re.IGNORECASE)
        )
    )


def _is_heuristic_name(call: str) -> bool:
    """Names of Fast Downward's inadmissible heuristics (anything that is not an option
    of an admissible one: merge and shrink strategies, label reductions, ...)."""
    return call.lower() in {
        "ff",
        "add",
        "cg",
        "cea",
        "goalcount",
        "lmcount",
        "landmark_sum",
        "landmark_cost_partitioning",
        "const",
        "pref",
        "weight",
        "sum",
    }


@dataclass(frozen=True)
class Planner:
    """A planner configuration: which driver, and its search (Fast Downward, SymK) or
    its command line (``command``)."""

    kind: PlannerKind
    search: str
    """Fast Downward's or SymK's ``--search``; for ``command``, the command line."""
    optimal: bool

    @classmethod
    def parse(cls, spec: str) -> Planner:
        """The planner of a ``planner:SPEC`` configuration (``SPEC`` without the prefix);
        an :class:`InputError` saying what is wrong."""
        kind, _, rest = spec.partition(":")
        if kind in ("fast-downward", "symk"):
            search = rest.strip() or DEFAULT_SEARCH[kind]
            return cls(kind, search, optimal_search(search))  # type: ignore[arg-type]
        if kind in ("command", "optimal-command"):
            try:
                words = shlex.split(rest)
            except ValueError as error:
                raise InputError(f"planner:{kind}: {error}") from None
            if not words:
                raise InputError(f"planner:{kind} needs the program to run: {kind}:PROGRAM ARGS...")
            return cls("command", rest.strip(), kind == "optimal-command")
        raise InputError(
            f"unknown planner {kind!r}: planner:fast-downward[:SEARCH], planner:symk[:SEARCH], "
            "planner:command:PROGRAM ARGS or planner:optimal-command:PROGRAM ARGS"
        )

    def words(self) -> tuple[str, ...]:
        """A ``command`` planner's command line, its placeholders not yet filled."""
        words = tuple(shlex.split(self.search))
        if not any(p in word for word in words for p in PLACEHOLDERS):
            words += PLACEHOLDERS
        return words

    @property
    def name(self) -> str:
        """Who makes the claim, for people: ``Fast Downward``, ``SymK``, or the program."""
        if self.kind == "fast-downward":
            return "Fast Downward"
        if self.kind == "symk":
            return "SymK"
        return self.words()[0]

    @property
    def spec(self) -> str:
        """The configuration as given after ``planner:`` (its default search filled in)."""
        if self.kind == "command":
            return f"{'optimal-' if self.optimal else ''}command:{self.search}"
        return f"{self.kind}:{self.search}"


def planner_spec(text: str) -> Planner:
    """:meth:`Planner.parse` as an option's parse (:class:`~hanoi_asp.model.flags.Flag`):
    a bad SPEC is a :class:`ValueError` with the message a user sees."""
    try:
        return Planner.parse(text)
    except InputError as error:
        raise ValueError(error.message) from None
