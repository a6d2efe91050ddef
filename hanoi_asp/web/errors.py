"""The API's refusals: ``{"error": ONE LINE, "where": "instance"|"encoding"|null,
"line": N|null}`` (:class:`~hanoi_asp.web.schemas.ErrorBody`).

Where an error points is read from the error itself: a
:class:`~hanoi_asp.model.errors.HanoiError` carries its ``path`` and ``line``, and the
path names the text it is in (``instance.lp``, ``encoding.lp``); the message is only
ever shown, never parsed.

>>> from hanoi_asp.model.errors import InputError
>>> ApiError.of(InputError("syntax error", path="instance.lp", line=2)).as_dict()
{'error': 'instance.lp:2: syntax error', 'where': 'instance', 'line': 2}
>>> invalid([{"loc": ("body", "timeout"), "msg": "Input should be a number"}]).as_dict()
{'error': 'timeout: Input should be a number', 'where': None, 'line': None}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hanoi_asp.model.errors import HanoiError
from hanoi_asp.web.schemas import TEXT_NAMES, Where

RETRY_AFTER_S = 5
"""What a 503 (the queue is full, or the server is stopping) asks a client to wait."""


class ApiError(Exception):
    """A request the app refuses: its HTTP status, the one-line message, and the text
    (``instance`` or ``encoding``) and line it points at, when it points at one."""

    def __init__(
        self, status: int, message: str, *, where: Where | None = None, line: int | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.where = where
        self.line = line if where is not None else None

    @classmethod
    def of(cls, error: HanoiError, status: int = 400) -> ApiError:
        """The refusal for an error of the package's own: its message, and where it
        points from its ``path`` and ``line`` attributes."""
        where = TEXT_NAMES.get(error.path) if error.path is not None else None
        return cls(status, str(error.for_command_line()), where=where, line=error.line)

    def as_dict(self) -> dict[str, Any]:
        return {"error": str(self), "where": self.where, "line": self.line}


def invalid(errors: Sequence[Any]) -> ApiError:
    """A body that does not fit its model (422): the first problem, as ``field:
    message`` (``body`` for the body as a whole)."""
    first = errors[0]
    loc = [str(part) for part in first["loc"]]
    if loc[:1] == ["body"]:
        loc = loc[1:]
    return ApiError(422, f"{'.'.join(loc) or 'body'}: {first['msg']}")
