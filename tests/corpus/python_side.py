"""Python's answer to a corpus case, in the corpus's terms (see ``README.md``).

Each function answers one kind from the modules the page mirrors: the server's
``/api/parse`` (``inputs/read_facts.py`` and the size limits), the simulator
(``model/plan.py``) and the engine's reading of a model's ``move/3`` atoms, the bounds
(``engine/bounds.py``, ``methods/bfs.py``), and ``grade`` (``teaching/grade.py``,
``teaching/shrink.py``).  ``page.js`` answers the same from the page's ES modules.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import clingo

from corpus.cases import encoding_text
from hanoi_asp.engine.bounds import best_lower_bound, misplaced_disks, zero_bound
from hanoi_asp.engine.clingo_calls import extract_steps
from hanoi_asp.inputs.read_facts import read_facts
from hanoi_asp.methods.bfs import search
from hanoi_asp.model.errors import EncodingError, GoalNotReached, IllegalMove, VerificationError
from hanoi_asp.model.options import Encoding
from hanoi_asp.model.plan import replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.teaching.grade import grade
from hanoi_asp.teaching.shrink import _as_moves, _illegal, with_counterexample
from hanoi_asp.web.errors import ApiError
from hanoi_asp.web.routes.lists import parse
from hanoi_asp.web.schemas import InstanceBody

INSTANCE = "instance.lp"
ENCODING = "encoding.lp"
GRADE_SECONDS = 30.0
"""Per horizon: far more than a corpus encoding needs (a timeout would be a finding)."""
RULE = "; the rule broken: "
PLACE = re.compile(r"^instance\.lp(?::\d+)?: ")


def facts(case: dict[str, Any]) -> dict[str, Any]:
    """``/api/parse``'s answer: the puzzle as the page draws it, or the refusal's
    message (without its ``instance.lp:LINE:`` place) and line."""
    try:
        parsed = asyncio.run(parse(InstanceBody(instance=case["text"])))
    except ApiError as error:
        return {"error": {"message": PLACE.sub("", str(error)), "line": error.line}}
    drawn = parsed.model_dump()
    if drawn["graph"] is not None:
        drawn["graph"] = [list(edge) for edge in drawn["graph"]]
    return {"puzzle": drawn}


def puzzle_of(text: str) -> Puzzle:
    return read_facts(text, INSTANCE)


def plans(case: dict[str, Any]) -> dict[str, Any]:
    """The plan (given as steps, or as a model's atoms at a horizon) replayed: legal or
    not, the goal reached or not, the first illegal step, the rule it breaks, the
    simulator's words and board (``shrink``'s reason), the moves."""
    puzzle = puzzle_of(case["instance"])
    if "atoms" in case:
        try:
            symbols = [clingo.parse_term(atom) for atom in case["atoms"]]
            steps = extract_steps(symbols, case["horizon"])
        except VerificationError as error:
            return {"malformed": str(error)}
    else:
        steps = [(int(disk), str(peg)) for disk, peg in case["steps"]]
    legal, moves = True, None
    goal: bool | None = True
    try:
        moves = [move.as_dict() for move in replay(puzzle, steps)]
    except GoalNotReached:
        goal = False
    except (IllegalMove, VerificationError):
        legal, goal = False, None
    reason, board = _illegal(puzzle, steps)
    return told(legal, goal, reason, board, moves, _as_moves(puzzle, steps))


def told(
    legal: bool,
    goal: bool | None,
    reason: str,
    board: str | None,
    moves: list[dict[str, Any]] | None,
    plan: list[dict[str, Any]],
) -> dict[str, Any]:
    """A replay's verdict; the step and the rule are read from the simulator's words
    (``step N: ...``, ``...; the rule broken: RULE``), as ``page.js`` reads them."""
    step = re.match(r"step (\d+):", reason)
    return {
        "legal": legal,
        "goal": goal,
        "step": int(step.group(1)) if step and not legal else None,
        "rule": reason.split(RULE, 1)[1] if RULE in reason else None,
        "reason": reason,
        "board": board,
        "moves": moves,
        "plan": plan,
    }


def bfs_optimum(puzzle: Puzzle) -> int | None:
    """The optimum by breadth-first search (None: no plan at all)."""
    found = search(puzzle, max_moves=None)
    assert found.steps is not None or found.exhausted
    return None if found.steps is None else len(found.steps)


def bounds(case: dict[str, Any]) -> dict[str, Any]:
    """Python's value for each bound the page names: ``page-bfs`` is breadth-first
    search's optimum (``methods/bfs.py``; its argument is the page's own words and is
    taken as stored), ``misplaced-disks`` and ``none`` are ``engine/bounds.py``'s."""
    puzzle = puzzle_of(case["instance"])
    expect = case["expect"]
    optimum = bfs_optimum(puzzle) if expect["bfs"] is not None else None
    answer: dict[str, Any] = {"bfs": None if expect["bfs"] is None else {"optimum": optimum}}
    for choice in ("auto", "misplaced", "none"):
        named = expect[choice]["name"]
        if named == "page-bfs":
            value = bfs_optimum(puzzle) if optimum is None else optimum
            answer[choice] = {"value": value, "name": named, "argument": expect[choice]["argument"]}
        else:
            bound = misplaced_disks(puzzle) if named == "misplaced-disks" else zero_bound(puzzle)
            answer[choice] = {"value": bound.value, "name": bound.name, "argument": bound.argument}
    return answer


def best_bound_problem(case: dict[str, Any]) -> str | None:
    """The engine's strongest bound must hold beside the page's exact one: at most the
    breadth-first optimum, and equal to it where the engine calls its bound exact."""
    bfs = case["expect"]["bfs"]
    if bfs is None or bfs["optimum"] is None:
        return None
    bound = best_lower_bound(puzzle_of(case["instance"]))
    if bound.value > bfs["optimum"] or (bound.exact and bound.value != bfs["optimum"]):
        return f"{bound.name} gives {bound.value} (exact: {bound.exact}), BFS {bfs['optimum']}"
    return None


def grades(case: dict[str, Any], folder: Path) -> dict[str, Any]:
    """``grade``'s answer on one instance: refused, or the instance's grade and
    clingo's warnings, and (when the case asks) the counterexample, its instance read
    as a puzzle."""
    encoding = Encoding(encoding_text(case["encoding"]), ENCODING)
    path = folder / INSTANCE
    path.write_text(case["instance"])
    try:
        report = grade(encoding, [str(path)], GRADE_SECONDS, names=[INSTANCE])
    except EncodingError as error:
        return {"refused": {"message": error.message, "line": error.line}}
    wanted = bool(case.get("counterexample"))
    if wanted:
        report = with_counterexample(encoding, report, GRADE_SECONDS)
    shown = report.as_dict()
    answer = {"grade": shown["instances"][0], "warnings": shown["warnings"]}
    if wanted:
        answer["counterexample"] = counterexample(shown["counterexample"])
    return answer


COUNTEREXAMPLE_KEYS = ("pegs", "disks", "horizon", "kind", "plan", "reason", "rules")


def counterexample(shown: dict[str, Any] | None) -> dict[str, Any] | None:
    if shown is None:
        return None
    puzzle = facts({"text": shown["instance"]})
    return {"instance": puzzle, **{key: shown[key] for key in COUNTEREXAMPLE_KEYS}}
