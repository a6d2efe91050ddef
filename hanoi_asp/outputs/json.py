"""JSON objects for machines: a result's is :meth:`Result.to_dict`; this module adds the
object for an instance that could not be solved at all (its shape:
:class:`~hanoi_asp.model.result.ErrorJSON`).

>>> error_json("x.lp", "x.lp:3: unknown peg z")["result"]
'ERROR'
>>> error_json("x.lp", "interrupted", 3)["result"]
'UNKNOWN'
"""

from __future__ import annotations

from hanoi_asp.model.errors import EXIT_BAD_INPUT, EXIT_UNKNOWN
from hanoi_asp.model.result import JSON_VERSION, ErrorJSON


def error_json(instance: str, message: str, exit_code: int = EXIT_BAD_INPUT) -> ErrorJSON:
    """The object for an instance that could not be solved at all.  Stopped before any
    answer (exit 3: Ctrl-C while starting, a killed worker) it is ``UNKNOWN``, as a
    stopped search without a plan is, not ``ERROR``."""
    stopped = exit_code == EXIT_UNKNOWN
    return {
        "version": JSON_VERSION,
        "instance": instance,
        "result": "UNKNOWN" if stopped else "ERROR",
        "length": None,
        "lower_bound": None,
        "upper_bound": None,
        "plan": [],
        "stopped": "interrupt" if stopped else None,
        "error": message,
        "exit_code": exit_code,
    }
