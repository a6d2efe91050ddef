"""Results as JSON-ready dicts: the one object ``solve --json`` prints and ``batch`` appends.

>>> error_json("x.lp", "x.lp:3: unknown peg z")["result"]
'ERROR'
"""

from __future__ import annotations

from typing import Any

from hanoi_asp.search import Result

JSON_VERSION = 1


def result_json(result: Result, instance: str) -> dict[str, Any]:
    """The ``--json`` object: the version 1 keys first, then extras."""
    return {
        "version": JSON_VERSION,
        "instance": instance,
        "result": result.result,
        "length": result.length,
        # an unreachable goal: no plan within (or beyond) the bound
        "lower_bound": min(result.lower_bound.value, result.max_moves + 1),
        "plan": [move.as_dict() for move in result.plan or ()],
        "time_s": round(result.time_s, 4),
        "bound": result.lower_bound.as_dict(),
        "proof": result.proof,
        "mode": result.mode,
        "max_moves": result.max_moves,
        "moves": result.exact_moves,
        "stopped": result.stopped,
        "horizons": [run.as_dict() for run in result.horizons],
        "method": result.method,
        "proven_minimal": result.result == "OPTIMUM FOUND",
        "unreachable": result.unreachable,
        "graph": result.puzzle.graph_name(),
        "threads": result.threads,
    }


def error_json(instance: str, message: str, exit_code: int = 2) -> dict[str, Any]:
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
