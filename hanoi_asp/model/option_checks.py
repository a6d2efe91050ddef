"""What a solve option's value must be, checked when :class:`~hanoi_asp.model.options.SolveOptions`
is made: a script learns at once what it asked wrong, in the words the command line uses.

>>> one_of("method", "dfs", ("asp", "bfs"))
Traceback (most recent call last):
...
hanoi_asp.model.errors.InputError: unknown method 'dfs' (use one of: asp, bfs)
>>> threads_in_range(True)
Traceback (most recent call last):
...
hanoi_asp.model.errors.InputError: threads must be 1-64, not True

The checks take values, not the options, so that the options' module imports them and
nothing here imports it back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeGuard

from hanoi_asp.model.choices import MAX_INTEGER
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.flags import MAX_THREADS


def one_of(name: str, value: object, choices: Sequence[str]) -> None:
    """A choice among names (``method``, ``mode``, ``bound``)."""
    if value not in choices:
        raise InputError(f"unknown {name} {value!r} (use one of: {', '.join(choices)})")


def threads_in_range(value: object) -> None:
    """clingo's search threads: 1 to :data:`~hanoi_asp.model.flags.MAX_THREADS`."""
    if not (_integer(value) and 1 <= value <= MAX_THREADS):
        raise InputError(f"threads must be 1-{MAX_THREADS}, not {value!r}")


def moves_in_range(name: str, value: object) -> None:
    """A number of moves: an integer clingo can hold, 0 included."""
    if not (_integer(value) and 0 <= value <= MAX_INTEGER):
        raise InputError(
            f"{name} must be a non-negative integer (at most {MAX_INTEGER}), not {value!r}"
        )


def positive_seconds(value: object) -> None:
    """A time limit: a positive, finite number of seconds."""
    if not (isinstance(value, int | float) and value > 0 and math.isfinite(value)):
        raise InputError(f"timeout must be a positive number of seconds, not {value!r}")


def work_budget(
    value: object,
    method: str,
    encoding: object,
    exact_moves: int | None,
    mode: str | None,
    patterns: bool,
    planner: object,
    threads: int | None,
) -> None:
    """A work budget (``--work``): a positive number of units, where the search on
    pattern tables runs (the budget counts its work): refused, not ignored, elsewhere;
    and with one clingo thread (several race, so their calls differ from run to run)."""
    if not (_integer(value) and value >= 1):
        raise InputError(f"work must be a positive number of units, not {value!r}")
    others = {
        f"--method {method}": method != "asp",
        "--encoding": encoding is not None,
        "--moves": exact_moves is not None,
        "--mode oneshot": mode == "oneshot",
        "--no-patterns": not patterns,
        "a planner": planner is not None,
        f"--threads {threads}": threads is not None and threads > 1,
    }
    refused = [flag for flag, given in others.items() if given]
    if refused:
        raise uncounted_work(f"{refused[0]} does not run: give --timeout")


def uncounted_work(why: str, path: str | None = None) -> InputError:
    """The one refusal of a work budget where what runs is not counted (``why``: what,
    and what to give instead), here for the options and in the engine for a puzzle's
    search (:mod:`hanoi_asp.engine.search`)."""
    return InputError(
        f"--work counts the work of hanoi-asp's search on pattern tables, which {why} instead",
        path=path,
    )


def _integer(value: object) -> TypeGuard[int]:
    """An int and not a bool (``True`` is an int to Python, not a number of moves)."""
    return isinstance(value, int) and not isinstance(value, bool)
