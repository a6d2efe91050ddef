"""One small exception hierarchy; the CLI maps each kind to an exit code.

Every error carries where it happened (file, line) and a one-line message, so the
CLI can print ``file:line: message`` and nothing else.
"""

from __future__ import annotations


class HanoiError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = self.path or ""
        if self.path and self.line is not None:
            where += f":{self.line}"
        text = " ".join(self.message.split())
        return f"{where}: {text}" if where else text


class InputError(HanoiError):
    """The instance, spec or command line is malformed or inconsistent (exit 2)."""


class LimitError(InputError):
    """The instance or horizon is larger than a configured limit (exit 2)."""


class EncodingError(HanoiError):
    """A user encoding failed to parse or ground (exit 2)."""


class VerificationError(HanoiError):
    """The simulator rejected a plan a solver produced: a bug or a broken encoding (exit 4)."""

    exit_code = 4


class IllegalMove(VerificationError):
    """A plan makes a move the rules forbid; ``state`` is the state before it."""

    def __init__(
        self, message: str, *, step: int, disk: int, target: str, state: tuple[int, ...]
    ) -> None:
        super().__init__(message)
        self.step, self.disk, self.target, self.state = step, disk, target, state


class GoalNotReached(VerificationError):
    """A legal plan ends in a state where some goal fact does not hold."""

    def __init__(self, message: str, *, state: tuple[int, ...]) -> None:
        super().__init__(message)
        self.state = state
