"""Errors as types, each with the exit code the command line gives it.

Every error carries where it happened (file, line) and a one-line message, so the
one error funnel (:mod:`hanoi_asp.__main__`) prints ``file:line: message`` and nothing
else.  The exit codes of every command:

* 0 :data:`EXIT_FOUND`: a plan was found
* 1 :data:`EXIT_UNSAT`: UNSATISFIABLE, proven (no plan within the bound)
* 2 :data:`EXIT_BAD_INPUT`: bad input or usage, including a user's ``--encoding``
  that does not parse or whose plan the simulator rejects, and a plan handed to the
  simulator (``replay``) that breaks a rule
* 3 :data:`EXIT_UNKNOWN`: UNKNOWN, stopped by a timeout or Ctrl-C
* 4 :data:`EXIT_INTERNAL`: internal error: hanoi-asp's own engine produced a plan the
  simulator rejected (a bug in hanoi-asp, never the user's doing: :class:`InternalError`)

``hanoi-asp check`` has codes of its own for a plan it judged (see
:mod:`hanoi_asp.cli.check_command`).
"""

from __future__ import annotations

import signal
from typing import Any

EXIT_FOUND = 0
EXIT_UNSAT = 1
EXIT_BAD_INPUT = 2
EXIT_UNKNOWN = 3
EXIT_INTERNAL = 4

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""What stops a command as Ctrl-C does (exit 3, or a stopped solve's best plan): Ctrl-C;
what Slurm, systemd and ``timeout`` send; a closed terminal or SSH session."""


class HanoiError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def for_command_line(self) -> HanoiError:
        """The error as the command line says it (a limit's flag, not the API's way)."""
        return self

    def __str__(self) -> str:
        where = self.path or ""
        if self.path and self.line is not None:
            where += f":{self.line}"
        text = " ".join(self.message.split())
        return f"{where}: {text}" if where else text


class InputError(HanoiError):
    """The instance, spec, options or command line are malformed or inconsistent (exit 2)."""


class UsageError(InputError):
    """A command line the parser refuses (exit 2); ``prog`` is the command that refused
    it (``hanoi-asp solve``), which starts its one line."""

    def __init__(self, message: str, *, prog: str) -> None:
        super().__init__(message)
        self.prog = prog


class InvalidPuzzle(InputError):
    """A :class:`~hanoi_asp.model.puzzle.Puzzle` made from inconsistent data; ``problems``
    keeps every problem pydantic found (``loc``, ``msg``, ``type``), the message names
    the first."""

    def __init__(self, message: str, problems: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.problems = problems


class LimitError(InputError):
    """The instance or horizon is larger than a configured limit (exit 2).

    ``limit`` names the limit (a field of :class:`~hanoi_asp.model.limits.Limits`) and
    ``needed`` the value it would take (None: unknown); the message ends saying how to
    raise it, in the caller's terms: ``SolveOptions(limits=Limits(cells=N))`` through the
    Python API, ``--limit cells=N`` on the command line (:meth:`for_command_line`)."""

    def __init__(
        self,
        message: str,
        *,
        limit: str | None = None,
        needed: int | None = None,
        path: str | None = None,
        line: int | None = None,
        command_line: bool = False,
    ) -> None:
        super().__init__(message, path=path, line=line)
        self.limit, self.needed, self.command_line = limit, needed, command_line

    def __str__(self) -> str:
        text = super().__str__()
        if self.limit is None:
            return text
        value = "N" if self.needed is None else str(self.needed)
        if self.command_line:
            return f"{text} (raise it with --limit {self.limit}={value})"
        return f"{text} (raise it with SolveOptions(limits=Limits({self.limit}={value})))"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (errors cross from worker processes)."""
        return _rebuilt, (type(self), self.message, self.__dict__)

    def for_command_line(self) -> LimitError:
        error = LimitError(
            self.message,
            limit=self.limit,
            needed=self.needed,
            path=self.path,
            line=self.line,
            command_line=True,
        )
        return error


def _rebuilt(kind: type[HanoiError], message: str, state: dict[str, Any]) -> HanoiError:
    """An error of ``kind`` unpickled whole: its message and every field, whatever its
    constructor's keyword arguments (the default pickling calls ``kind(message)``)."""
    error = kind.__new__(kind)
    HanoiError.__init__(error, message)
    error.__dict__.update(state)
    return error


class EncodingError(HanoiError):
    """A user encoding failed to parse or ground, or cannot be used as asked (exit 2)."""


class EncodingPlanError(EncodingError):
    """A user's encoding produced a plan the simulator rejected (exit 2: the user's
    encoding is at fault, not hanoi-asp)."""


class VerificationError(HanoiError):
    """The simulator rejected a plan handed to it (exit 2: the plan is bad input).  A plan
    of hanoi-asp's own engine that the simulator rejects is an :class:`InternalError`
    instead (exit 4)."""


class RefusedMove(VerificationError):
    """A plan's step the simulator refuses: ``state`` is the state before it, ``rule``
    the rule it breaks (:data:`hanoi_asp.model.plan.RULES`) and ``reason`` why, in words."""

    def __init__(
        self,
        message: str,
        *,
        step: int,
        disk: int,
        target: str,
        state: tuple[int, ...],
        rule: str = "",
        reason: str = "",
    ) -> None:
        super().__init__(message)
        self.step, self.disk, self.target, self.state = step, disk, target, state
        self.rule, self.reason = rule, reason

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole, as its class (its keyword-only fields defeat the default)."""
        return _rebuilt, (type(self), self.message, self.__dict__)


class IllegalMove(RefusedMove):
    """A plan makes a move the rules forbid."""


class UnknownPeg(RefusedMove):
    """A plan moves a disk to a peg the puzzle does not have: no rule of the puzzle is
    broken, so it is no :class:`IllegalMove` (no board to draw), but it names its step,
    disk and peg as one, with ``rule`` ``unknown-peg``."""


class GoalNotReached(VerificationError):
    """A legal plan ends in a state where some goal fact does not hold: ``disk`` is the
    first such disk, ``steps`` the plan's length."""

    def __init__(
        self, message: str, *, state: tuple[int, ...], disk: int = 0, steps: int = 0
    ) -> None:
        super().__init__(message)
        self.state, self.disk, self.steps = state, disk, steps


class MalformedAnswer(VerificationError):
    """An encoding's answer that is no plan: a step with two moves, or with none.  ``step``
    is the first such step, ``moves`` every step's moves as the answer shows them
    (``(disk, peg)`` pairs, sorted), so that the board before it can be drawn."""

    def __init__(
        self, message: str, *, step: int, moves: dict[int, tuple[tuple[int, str], ...]]
    ) -> None:
        super().__init__(message)
        self.step, self.moves = step, moves


class InternalError(HanoiError):
    """A bug in hanoi-asp: its own engine made a plan the simulator rejects (exit 4)."""

    exit_code = EXIT_INTERNAL


class ResourceLimit(HanoiError):
    """A user's encoding ran past its hard time limit or memory cap where no partial
    answer can be given (exit 3, as UNKNOWN)."""

    exit_code = EXIT_UNKNOWN


class Interrupted(HanoiError):
    """The user pressed Ctrl-C (exit 3); the message says what was kept."""

    exit_code = EXIT_UNKNOWN
