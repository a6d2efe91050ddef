"""A plan someone hands you, as text: ``move(D,P,T)`` facts (what ``solve --facts`` and an
encoding's answer show), the JSON ``solve --json`` writes, or ``disk from to`` lines.

>>> [(s.disk, s.target) for s in read_plan("move(2,b,1). move(1,c,2).", "p.lp")]
[(2, 'b'), (1, 'c')]
>>> [s.source for s in read_plan("2 a b\\n1 a c  % the big one\\n", "p.txt")]
['a', 'a']

The format is told by the text: JSON starts with ``{`` or ``[``, facts hold ``move(``,
anything else is lines.  Lines may also be as ``solve`` prints a plan (``1. disk 4: a ->
b``).  Each step keeps its line, so an illegal move is named where the file has it.
Nothing in the text is run: it is matched, never parsed as a program.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from hanoi_asp.model.errors import InputError

PlanFormat = Literal["facts", "json", "lines"]
PLAN_FORMATS: tuple[PlanFormat, ...] = ("facts", "json", "lines")
MAX_STEPS = 1_000_000
"""Most moves a plan may have (a 3-peg tower of 20 disks has 1,048,575)."""

_PEG = r'[a-z][A-Za-z0-9_\']*|-?[0-9]+|"(?:[^"\\]|\\.)*"'
_MOVE = re.compile(rf"\bmove\(\s*([0-9]+)\s*,\s*({_PEG})\s*,\s*([0-9]+)\s*\)")
_ANY_MOVE = re.compile(r"\bmove\(")
_LINE = re.compile(r"(\S+)\s+(\S+)\s+(\S+)")
_PRINTED = re.compile(r"(?:[0-9]+\.\s*)?disk\s+([0-9]+)\s*:\s*(\S+)\s*->\s*(\S+)")


@dataclass(frozen=True)
class PlanStep:
    """One move as the text gives it: the disk, the peg it goes to, and the peg it leaves
    where the format names it."""

    line: int | None
    """The line it is on (None in JSON, where the move's place in the list says it)."""
    disk: int
    target: str
    source: str | None = None

    def as_step(self) -> dict[str, Any]:
        """The move as :func:`~hanoi_asp.model.plan.replay` takes it."""
        step: dict[str, Any] = {"disk": self.disk, "to": self.target}
        if self.source is not None:
            step["from"] = self.source
        return step


def plan_format(text: str) -> PlanFormat:
    """The format the text is in.

    >>> plan_format('{"plan": []}'), plan_format("move(1,c,1)."), plan_format("1 a c")
    ('json', 'facts', 'lines')
    """
    if text.lstrip().startswith(("{", "[")):
        return "json"
    code = "\n".join(line.split("%", 1)[0] for line in text.splitlines())
    return "facts" if _ANY_MOVE.search(code) else "lines"


def read_plan(text: str, path: str, fmt: PlanFormat | None = None) -> list[PlanStep]:
    """The steps of a plan's text, in order; an :class:`InputError` naming ``path`` and
    the line for anything that is no move."""
    fmt = fmt or plan_format(text)
    if fmt == "json":
        steps = _json_steps(text, path)
    elif fmt == "facts":
        steps = _fact_steps(text, path)
    else:
        steps = _line_steps(text, path)
    if len(steps) > MAX_STEPS:
        raise InputError(f"the plan has over {MAX_STEPS} moves", path=path)
    return steps


def _fact_steps(text: str, path: str) -> list[PlanStep]:
    """``move(D,P,T)`` atoms, with or without periods (clingo prints an answer's atoms
    without them); other atoms and words (``Answer: 1``) are left alone.  Steps count
    from 1, one move each, as ``solve --facts`` writes them."""
    by_step: dict[int, PlanStep] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("%", 1)[0]
        found = list(_MOVE.finditer(code))
        if len(found) != len(_ANY_MOVE.findall(code)):
            raise InputError(
                "a move is move(D,P,T): disk D, peg P, step T (integers from 1)",
                path=path,
                line=number,
            )
        for match in found:
            disk, peg, step = int(match.group(1)), _peg(match.group(2)), int(match.group(3))
            if step < 1:
                raise InputError(
                    f"move({match.group(1)},{match.group(2)},{step}): steps count from 1 "
                    "(as solve --facts writes them)",
                    path=path,
                    line=number,
                )
            if step in by_step:
                raise InputError(
                    f"two moves at step {step} (lines {by_step[step].line} and {number})",
                    path=path,
                    line=number,
                )
            by_step[step] = PlanStep(number, disk, peg)
            if len(by_step) > MAX_STEPS:
                raise InputError(f"the plan has over {MAX_STEPS} moves", path=path)
    missing = next((t for t in range(1, len(by_step) + 1) if t not in by_step), None)
    if missing is not None:
        raise InputError(f"no move at step {missing} (the last is {max(by_step)})", path=path)
    return [by_step[t] for t in range(1, len(by_step) + 1)]


def _peg(term: str) -> str:
    """A peg's name from its term (the inverse of :func:`~hanoi_asp.inputs.facts.peg_term`)."""
    if term.startswith('"'):
        return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), term[1:-1])
    return term


def _line_steps(text: str, path: str) -> list[PlanStep]:
    """``disk from to`` lines (or ``1. disk 4: a -> b`` as ``solve`` prints them); blank
    lines and comments (``%``, ``#``) are skipped."""
    steps: list[PlanStep] = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = re.split(r"[%#]", line, maxsplit=1)[0].strip()
        if not code:
            continue
        found = _PRINTED.fullmatch(code) or _LINE.fullmatch(code)
        if found is None or not found.group(1).isdigit():
            raise InputError(
                f"not a move: {code[:60]!r} (a line is DISK FROM TO, e.g. '4 a b')",
                path=path,
                line=number,
            )
        steps.append(PlanStep(number, int(found.group(1)), found.group(3), found.group(2)))
        if len(steps) > MAX_STEPS:
            raise InputError(f"the plan has over {MAX_STEPS} moves", path=path)
    return steps


def _json_steps(text: str, path: str) -> list[PlanStep]:
    """``solve --json``'s object (its ``plan``), or a list of its moves."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", path=path, line=error.lineno) from None
    if isinstance(data, dict):
        if not isinstance(data.get("plan"), list):
            raise InputError(
                'a JSON plan is solve --json\'s object (its "plan") or a list of moves', path=path
            )
        result = data.get("result")
        if not data["plan"] and result not in (None, "OPTIMUM FOUND", "SATISFIABLE"):
            raise InputError(f"the JSON holds no plan (its result is {result})", path=path)
        data = data["plan"]
    if not isinstance(data, list):
        raise InputError("a JSON plan is a list of moves", path=path)
    steps: list[PlanStep] = []
    for index, move in enumerate(data, start=1):
        if not isinstance(move, dict):
            raise InputError(f'move {index}: a move is {{"disk": D, "to": P}}', path=path)
        unknown = sorted(set(move) - {"step", "disk", "from", "to"})
        disk, target, source = move.get("disk"), move.get("to"), move.get("from")
        if (
            unknown
            or not isinstance(disk, int)
            or isinstance(disk, bool)
            or not isinstance(target, str)
            or not (source is None or isinstance(source, str))
        ):
            why = (
                f"unknown key {unknown[0]!r}"
                if unknown
                else 'it needs "disk" (a number) and "to" (a peg)'
            )
            raise InputError(f'move {index}: a move is {{"disk": D, "to": P}}: {why}', path=path)
        if "step" in move and move["step"] != index:
            raise InputError(f'move {index} says "step": {move["step"]!r}', path=path)
        steps.append(PlanStep(None, disk, target, source))
    return steps
