"""How a solve option is given, declared beside its field of
:class:`~hanoi_asp.model.options.SolveOptions`: its flag, help, the commands that take it,
``batch --config``, and the web API.

>>> limit = Flag("--limit", "a size limit", frozenset({"solve"}), many=True, value=sorted)
>>> limit.dest, limit.key, limit.field_value(["b", "a"])
('limit', 'limit', ['a', 'b'])
>>> Flag("--no-cache", "memory only", frozenset({"solve"}), switch=True).field_value(True)
False

The command line's parsers and the ``--config`` grammar (:mod:`hanoi_asp.cli.solve_options`)
and the web's request model (:mod:`hanoi_asp.web.schemas`) are made from these, so an
option is added in one place: its field, with its :class:`Flag`.  The ``parse``
functions here raise :class:`ValueError` with the message a user sees.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hanoi_asp.model.limits import Limits

MAX_THREADS = 64
"""clingo runs at most 64 search threads."""
Place = Literal["solve", "explain", "render", "batch", "config", "web"]
"""Where an option can be given: a command, ``batch --config NAME=OPTIONS``, or a body
of the web API (``/api/solve``, ``/api/explain``, ``/api/grade``, ``/api/hint``)."""

FLAG = "flag"
"""The key of a field's :class:`Flag` in its ``metadata``."""


@dataclass(frozen=True)
class Flag:
    """One option as the command line, ``--config`` and the web API take it."""

    flag: str
    """``--max-moves``; the web API's key is the same without the dashes."""
    help: str
    """The command line's help (argparse: a literal ``%`` is written ``%%``)."""
    takes: frozenset[Place]
    parse: Callable[[str], Any] | None = None
    """The argument's text to its value (a :class:`ValueError` is a usage error)."""
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    switch: bool = False
    """An off switch (``--no-cache``): given, the field is False."""
    many: bool = False
    """Repeatable: the values given, in order, are one list."""
    value: Callable[[Any], Any] | None = None
    """The field's value from what was given, when it is not that itself (a path to an
    :class:`~hanoi_asp.model.options.Encoding`, ``KEY=N`` items to
    :class:`~hanoi_asp.model.limits.Limits`)."""
    exclusive: str | None = None
    """Options with the same name here cannot be given together (``--moves`` and
    ``--max-moves``: the question is one or the other)."""
    help_in: Mapping[Place, str] = field(default_factory=dict)
    """Another help text where a command means something more by it."""

    @property
    def key(self) -> str:
        """The web API's key: ``moves`` for ``--moves``."""
        return self.flag.removeprefix("--")

    @property
    def dest(self) -> str:
        """argparse's attribute: ``no_cache`` for ``--no-cache``."""
        return self.key.replace("-", "_")

    @property
    def meta(self) -> dict[str, Flag]:
        """The ``metadata`` of its :class:`SolveOptions` field."""
        return {FLAG: self}

    def help_for(self, place: Place) -> str:
        return self.help_in.get(place, self.help)

    def field_value(self, given: Any) -> Any:
        """The field's value from what was given (None: None)."""
        if self.switch:
            return not given
        if given is None or self.value is None:
            return given
        return self.value(given)


def natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"not an integer: {text!r}") from None
    if value < 0:
        raise ValueError(f"must not be negative: {value}")
    return value


def positive_int(text: str) -> int:
    value = natural(text)
    if value == 0:
        raise ValueError("must be at least 1")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"not a number: {text!r}") from None
    if not value > 0:
        raise ValueError(f"must be positive: {text}")
    return value


def thread_count(text: str) -> int:
    value = positive_int(text)
    if value > MAX_THREADS:
        raise ValueError(f"clingo runs at most {MAX_THREADS} threads")
    return value


def limit_item(text: str) -> str:
    """A ``--limit KEY=N`` item, checked (the items are read together by
    :meth:`Limits.parse`)."""
    Limits.parse([text])
    return text
