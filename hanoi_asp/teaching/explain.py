"""Teaching mode: the encoding section by section, the solver's work per horizon, and
why no shorter plan exists.

>>> sections = encoding_sections("% Generate\\n% pick one\\n{ a; b } = 1.\\n% Test\\n:- a.\\n")
>>> [(s.name, [r.text for r in s.rules]) for s in sections]
[('Generate', ['{ a; b } = 1.']), ('Test', [':- a.'])]
>>> sections[0].rules[0].comment
'pick one'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

import clingo

from hanoi_asp.engine import TEACHING_THREADS, ClingoCalls, read_encoding, solve
from hanoi_asp.inputs.facts import instance_facts, peg_term, to_facts
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.json_shape import dump
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import LowerBound, Result
from hanoi_asp.teaching.json_shapes import ExplanationJSON

SECTION_NAMES = ("Generate", "Define", "Test", "Display", "Heuristic")
CORE_SECONDS = 10.0
"""Budget for shrinking the unsatisfiable core of the horizon below the optimum."""


@dataclass(frozen=True)
class Rule:
    text: str
    comment: str
    line: int
    program: str
    """The ``#program`` part the rule belongs to (``base`` for one-shot encodings)."""


@dataclass
class Section:
    name: str
    intro: str = ""
    rules: list[Rule] = field(default_factory=list)


def encoding_sections(text: str) -> list[Section]:
    """Split an encoding at its ``% Generate`` / ``% Define`` / ``% Test`` / ``% Display``
    comment lines; each rule keeps the comment lines just above it.  Rules before the
    first such line land in a section called ``Preamble``."""
    sections: list[Section] = []
    comment: list[str] = []
    statement: list[str] = []
    start, program = 0, "base"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not statement and line.startswith("%"):
            words = line.lstrip("%").strip()
            if words in SECTION_NAMES:
                sections.append(Section(words))
                comment = []
            else:
                comment.append(words)
            continue
        if not line:
            if not statement:
                if comment and sections and not sections[-1].rules and not sections[-1].intro:
                    sections[-1].intro = " ".join(comment)
                comment = []
            continue
        code = _strip_comment(line)
        if not statement:
            start = number
        statement.append(code)
        if code.endswith("."):
            rule = " ".join(statement)
            statement = []
            if rule.startswith("#program"):
                program = rule.removeprefix("#program").strip().rstrip(".").strip()
                comment = []
                continue
            if not sections:
                sections.append(Section("Preamble"))
            sections[-1].rules.append(Rule(rule, " ".join(comment), start, program))
            comment = []
    return sections


def _strip_comment(line: str) -> str:
    """The line without a trailing ``%`` comment (outside strings)."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "%" and not quoted:
            return line[:index].rstrip()
    return line


# -- why not shorter? ------------------------------------------------------------------------


@dataclass(frozen=True)
class WhyNotShorter:
    horizon: int
    status: str
    """``UNSAT`` (proven here or by the search), or ``UNKNOWN`` if out of budget."""
    reason: str
    core: tuple[str, ...] = ()
    """goal_on facts that cannot all hold after ``horizon`` moves (a minimal set)."""


def why_not_shorter(result: Result, budget: float = CORE_SECONDS) -> WhyNotShorter | None:
    """For the horizon just below the optimum: the lower-bound argument if the bound
    rules it out, else a minimal set of goal facts that cannot hold together then
    (clingo's unsatisfiable core over the goal facts as assumptions, then shrunk by
    dropping one fact at a time while it stays unsatisfiable)."""
    if result.result != "OPTIMUM FOUND" or not result.length:
        return None
    horizon = result.length - 1
    bound: LowerBound = result.bound
    below = horizon < bound.value
    by_bound = f"below the lower bound {bound.value} ({bound.name}): {bound.argument}"
    deadline = time.monotonic() + budget
    goals = _goal_atoms(result.puzzle)
    core = _core(result.puzzle, horizon, goals, deadline)
    if core is None:
        if below:
            return WhyNotShorter(horizon, "UNSAT", by_bound)
        return WhyNotShorter(horizon, "UNKNOWN", "no answer within the time budget")
    # shrink: drop a fact whenever the rest is still unsatisfiable
    kept = list(core)
    for atom in list(kept):
        if time.monotonic() > deadline:
            break
        trial = [a for a in kept if a != atom]
        if trial and _core(result.puzzle, horizon, trial, deadline) is not None:
            kept = trial
    names = tuple(str(a) for a in kept)
    if len(kept) == len(goals):
        reason = f"after {horizon} moves the goal facts cannot all hold"
    else:
        reason = (
            f"after {horizon} moves these {len(kept)} of the {len(goals)} goal facts "
            "already cannot hold together"
        )
    if time.monotonic() <= deadline:
        reason += " (clingo's unsatisfiable core, shrunk until each fact is needed)"
    if below:
        reason = f"{by_bound}; and clingo agrees: {reason}"
    return WhyNotShorter(horizon, "UNSAT", reason, names)


def _goal_atoms(puzzle: Puzzle) -> list[clingo.Symbol]:
    return [
        clingo.parse_term(f"goal_on({disk},{peg_term(puzzle.pegs[peg])})")
        for disk, peg in sorted(puzzle.goal_pegs().items())
    ]


def _core(
    puzzle: Puzzle, horizon: int, goals: list[clingo.Symbol], deadline: float
) -> list[clingo.Symbol] | None:
    """The goal facts in clingo's core if the quickstart encoding with only ``goals``
    is unsatisfiable at ``horizon``, else None (satisfiable, or out of time)."""
    facts = instance_facts(puzzle).split("\n")
    facts = [line for line in facts if not line.startswith("goal_on")]
    calls = ClingoCalls("quickstart.lp", (), TEACHING_THREADS)
    ctl = calls.new_control()
    program = "\n".join(facts) + f"\nmoves({horizon}).\n" + read_encoding("quickstart")
    program += "\n#external want(G) : candidate(G). [free]\ngoal_on(D,P) :- want(goal_on(D,P)).\n"
    program += "\n".join(f"candidate({g})." for g in goals)
    calls.add(ctl, "base", [], program)
    calls.ground(ctl, [("base", [])])
    assumptions = [(clingo.Function("want", [g]), True) for g in goals]
    core = calls.core(ctl, assumptions, deadline)
    if core is None:
        return None
    literals: dict[int, clingo.Symbol] = {}
    for goal in goals:
        atom = ctl.symbolic_atoms[clingo.Function("want", [goal])]
        if atom is not None:
            literals[atom.literal] = goal
    found = [literals[lit] for lit in core if lit in literals]
    return found or list(goals)


# -- the whole explanation -------------------------------------------------------------------


@dataclass(frozen=True)
class Explanation:
    """Everything ``hanoi-asp explain`` shows, as data."""

    facts: str
    encoding_name: str
    sections: list[Section]
    extras: tuple[str, ...]
    """Shipped programs loaded beside the encoding (e.g. ``distance3.lp``)."""
    result: Result
    why: WhyNotShorter | None

    def as_dict(self, instance: str) -> dict[str, Any]:
        """``explain --json``'s object
        (:class:`~hanoi_asp.teaching.json_shapes.ExplanationJSON`)."""
        return dump(ExplanationJSON, self, instance=instance, result=self.result.to_dict(instance))


def explain(puzzle: Puzzle, options: SolveOptions) -> Explanation:
    """Solve as ``solve`` would, and gather what a student needs to follow it.  One
    clingo thread unless asked otherwise: the same statistics on every run.  No plan
    is built before the search and no Python propagator prunes it: clingo finds the
    plan, horizon by horizon, as the student's encoding would.  The encodings shown are
    the ones the engine reports it loaded (``result.programs``)."""
    if options.method != "asp":
        raise InputError(f"explain shows clingo's search, not --method {options.method}")
    options = replace(options, first_plan=False, patterns=False)
    if options.threads is None:
        options = replace(options, threads=TEACHING_THREADS)
    result = solve(puzzle, options)
    name, *extras = result.programs
    if options.encoding is not None:
        text = options.encoding.text
    else:
        text = read_encoding(name.removesuffix(".lp"))
    return Explanation(
        to_facts(puzzle),
        name,
        encoding_sections(text),
        tuple(extras),
        result,
        why_not_shorter(result),
    )
