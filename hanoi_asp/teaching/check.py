"""Check a plan someone hands you: legal or not (the step, the disk, the rule), the goal
reached or not, and optimal or not where the optimum is proven in time, with the gap.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> check_plan(p, [(2, "b"), (1, "c"), (2, "c")]).verdict
'optimal'
>>> check_plan(p, [(2, "c"), (2, "b"), (1, "c"), (2, "c")]).words
'legal, reaches the goal, 1 move over the optimum (3 moves)'

The plan is replayed by the simulator (:func:`~hanoi_asp.model.plan.replay`); the optimum
is the engine's, asked for a plan of at most one move fewer than the plan's: no such plan
(proven) means the plan is optimal, a plan found proves it is not.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypedDict

from hanoi_asp.engine import solve
from hanoi_asp.model.errors import (
    EXIT_FOUND,
    EXIT_UNKNOWN,
    EXIT_UNSAT,
    GoalNotReached,
    InternalError,
    RefusedMove,
)
from hanoi_asp.model.json_shape import From, dump, shape
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import RULES, Step, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import JSON_VERSION, Result
from hanoi_asp.outputs.board import draw_board

Verdict = Literal["optimal", "not-optimal", "unknown", "illegal", "goal-not-reached"]
"""``optimal`` (proven), ``not-optimal`` (a shorter plan exists), ``unknown`` (legal and
reaching the goal; the optimum not proven in time), ``illegal``, ``goal-not-reached``."""

EXIT_CODES: dict[Verdict, int] = {
    "optimal": EXIT_FOUND,
    "not-optimal": EXIT_UNSAT,
    "illegal": EXIT_UNSAT,
    "goal-not-reached": EXIT_UNSAT,
    "unknown": EXIT_UNKNOWN,
}
"""``check``'s exit codes: 0 an optimal plan, 1 a plan refused (illegal, the goal not
reached, or longer than the optimum), 3 a plan whose optimality was not decided in time
(2 for bad input, as every command)."""


@dataclass(frozen=True)
class IllegalStep:
    """The first move the rules forbid, and the board before it."""

    step: int
    line: int | None
    disk: int
    source: str | None
    """The peg the disk is on (None for a disk the puzzle does not have)."""
    target: str
    rule: str
    """:data:`~hanoi_asp.model.plan.RULES`' name of the broken rule (``not-on-top``, ...)."""
    reason: str
    board: str


@dataclass(frozen=True)
class PlanCheck:
    """What :func:`check_plan` found."""

    puzzle: Puzzle
    length: int
    """Moves in the plan handed in."""
    verdict: Verdict
    illegal: IllegalStep | None = None
    goal_missed: str | None = None
    """Why the goal does not hold after the last move (None: it does, or the plan is
    illegal before it ends)."""
    board: str | None = None
    """The board after the last move, when the goal does not hold there."""
    optimum: int | None = None
    lower_bound: int | None = None
    """Proven: no plan is shorter (for a legal plan that reaches the goal)."""
    shorter: int | None = None
    """The length of a shorter plan the engine found, when the optimum is not proven."""
    proof: str | None = None
    """Why the optimum (or the bound) holds, in words."""
    time_s: float = 0.0

    @property
    def legal(self) -> bool:
        return self.illegal is None

    @property
    def goal_reached(self) -> bool | None:
        """None when an illegal move stops the replay first."""
        return None if self.illegal is not None else self.goal_missed is None

    @property
    def gap(self) -> int | None:
        """Moves over the optimum, when it is proven."""
        return None if self.optimum is None else self.length - self.optimum

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    @property
    def words(self) -> str:
        """The verdict in one line."""
        if self.illegal is not None:
            where = "" if self.illegal.line is None else f" (line {self.illegal.line})"
            return (
                f"illegal at step {self.illegal.step}{where}: disk {self.illegal.disk} "
                f"{_arrow(self.illegal)}: {self.illegal.reason}"
            )
        if self.goal_missed is not None:
            return f"legal, but the goal is not reached: {self.goal_missed}"
        if self.verdict == "optimal":
            return f"legal, reaches the goal, optimal ({_moves(self.length)})"
        if self.gap is not None:
            return (
                f"legal, reaches the goal, {_moves(self.gap)} over the optimum "
                f"({_moves(self.optimum or 0)})"
            )
        if self.shorter is not None:
            return (
                f"legal, reaches the goal, not optimal: a plan of {_moves(self.shorter)} "
                f"exists (the optimum is {self.lower_bound}-{self.shorter} moves)"
            )
        return (
            f"legal, reaches the goal; optimal not proven in time (the optimum is "
            f"{self.lower_bound}-{self.length} moves)"
        )


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _arrow(step: IllegalStep) -> str:
    return f"to {step.target}" if step.source is None else f"from {step.source} to {step.target}"


def check_plan(
    puzzle: Puzzle,
    steps: Sequence[Step],
    options: SolveOptions | None = None,
    lines: Sequence[int | None] | None = None,
) -> PlanCheck:
    """Replay ``steps`` on ``puzzle`` and, for a legal plan that reaches the goal, ask the
    engine (``options``: its method and time limit) whether a shorter plan exists.
    ``lines`` gives each step's line in its file, to name it."""
    began = time.monotonic()
    options = options or SolveOptions()
    try:
        replay(puzzle, steps)
    except RefusedMove as error:
        line = lines[error.step - 1] if lines and error.step <= len(lines) else None
        held = 1 <= error.disk <= puzzle.disks
        illegal = IllegalStep(
            step=error.step,
            line=line,
            disk=error.disk,
            source=puzzle.pegs[error.state[error.disk - 1]] if held else None,
            target=error.target,
            rule=error.rule,
            reason=error.reason,
            board=draw_board(puzzle, error.state),
        )
        return PlanCheck(puzzle, len(steps), "illegal", illegal, time_s=time.monotonic() - began)
    except GoalNotReached as error:
        missed = error.message.removeprefix("goal not reached: ")
        return PlanCheck(
            puzzle,
            len(steps),
            "goal-not-reached",
            goal_missed=missed,
            board=draw_board(puzzle, error.state),
            time_s=time.monotonic() - began,
        )
    return _against_optimum(puzzle, len(steps), options, began)


def _against_optimum(puzzle: Puzzle, length: int, options: SolveOptions, began: float) -> PlanCheck:
    """A valid plan of ``length`` moves, against the engine's answer for at most
    ``length - 1`` moves."""
    if length == 0:
        return PlanCheck(
            puzzle, 0, "optimal", optimum=0, lower_bound=0, proof="the start meets the goal"
        )
    asked = replace(options, max_moves=length - 1, exact_moves=None)
    return judged(puzzle, length, solve(puzzle, asked), time.monotonic() - began)


def judged(puzzle: Puzzle, length: int, result: Result, spent: float = 0.0) -> PlanCheck:
    """A valid plan of ``length`` moves against ``result``, the engine's answer asked for
    at most ``length - 1`` moves: no such plan (or a lower bound of ``length``, proven by
    a search stopped in time) makes it optimal; the optimum proven shorter, or a shorter
    plan found, makes it not; else it is not decided."""
    lower = result.lower_bound
    found = result.length
    if result.result == "UNSATISFIABLE" or (
        found is None and lower is not None and lower >= length
    ):
        return PlanCheck(
            puzzle,
            length,
            "optimal",
            optimum=length,
            lower_bound=length,
            proof=result.proof,
            time_s=spent,
        )
    if found is not None and (result.result == "OPTIMUM FOUND" or lower == found):
        # the engine may answer with the optimum although it is over max_moves (A*'s
        # race does): the plan is then optimal itself
        if found > length:
            raise InternalError(
                f"the engine's optimum, {found} moves, is longer than a valid plan of {length}"
            )
        return PlanCheck(
            puzzle,
            length,
            "optimal" if found == length else "not-optimal",
            optimum=found,
            lower_bound=found,
            proof=result.proof,
            time_s=spent,
        )
    if found is not None and found < length:
        return PlanCheck(
            puzzle,
            length,
            "not-optimal",
            lower_bound=lower,
            shorter=found,
            proof=result.proof,
            time_s=spent,
        )
    return PlanCheck(puzzle, length, "unknown", lower_bound=lower, proof=result.proof, time_s=spent)


IllegalStepJSON = TypedDict(
    "IllegalStepJSON",
    {
        "step": int,
        "line": Annotated[
            int | None,
            Field(description="Its line in the plan's file (null for a JSON plan)."),
        ],
        "disk": int,
        "from": Annotated[str | None, From("source"), Field(description="Where the disk is.")],
        "to": Annotated[str, From("target")],
        "rule": Annotated[
            str,
            Field(
                description="unknown-peg, no-such-disk, same-peg, wrong-source, move-graph, "
                "not-on-top or larger-on-smaller"
            ),
        ],
        "rule_text": Annotated[str, From("rule", RULES.get), Field(description="The rule.")],
        "reason": str,
        "board": Annotated[str, Field(description="The pegs before the move, as text.")],
    },
)
shape(IllegalStepJSON)
"""The first illegal move of a plan."""


@shape
class CheckJSON(TypedDict):
    """``hanoi-asp check --json``'s object."""

    version: int
    instance: str
    plan_file: str
    verdict: str
    """``optimal``, ``not-optimal``, ``unknown``, ``illegal`` or ``goal-not-reached``."""
    words: str
    """The verdict in one line, as the text output says it."""
    length: int
    """Moves in the plan."""
    legal: bool
    goal_reached: bool | None
    """null when an illegal move stops the replay first."""
    illegal: IllegalStepJSON | None
    goal_missed: str | None
    optimum: int | None
    """The proven optimum (null when not proven in time, or for a plan refused)."""
    gap: int | None
    """Moves over the optimum."""
    lower_bound: int | None
    shorter: int | None
    """A shorter plan's length, when one was found but the optimum not proven."""
    proof: str | None
    max_moves: Annotated[int | None, From("puzzle.max_moves")]
    """The instance's own bound (``moves/1``), if it has one."""
    time_s: float
    exit_code: int


def check_json(check: PlanCheck, instance: str, plan_file: str) -> dict[str, object]:
    """``check --json``'s object (:class:`CheckJSON`)."""
    return dump(
        CheckJSON,
        check,
        version=JSON_VERSION,
        instance=instance,
        plan_file=plan_file,
        time_s=round(check.time_s, 4),
    )
