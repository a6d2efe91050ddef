"""JSON objects for machines: a result's is :meth:`Result.to_dict`; this module adds the
object for an instance that could not be solved at all.

>>> error_json("x.lp", "x.lp:3: unknown peg z")["result"]
'ERROR'
"""

from __future__ import annotations

from typing import Any

from hanoi_asp.model.errors import EXIT_BAD_INPUT
from hanoi_asp.model.result import JSON_VERSION


def error_json(instance: str, message: str, exit_code: int = EXIT_BAD_INPUT) -> dict[str, Any]:
    """The object for an instance that could not be solved at all."""
    return {
        "version": JSON_VERSION,
        "instance": instance,
        "result": "ERROR",
        "length": None,
        "lower_bound": None,
        "plan": [],
        "error": message,
        "exit_code": exit_code,
    }
