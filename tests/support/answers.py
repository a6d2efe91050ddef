"""A solve's answer compared run to run: its JSON without what the clock decides."""

from __future__ import annotations

from typing import Any


def timeless(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` (``--json``'s object, or ``Result.to_dict()``) without its times:
    ``time_s``, ``timings``, ``first_plan.time_s`` and each horizon's ``time_s``."""
    kept = {key: value for key, value in answer.items() if key not in ("time_s", "timings")}
    if kept.get("first_plan"):
        kept["first_plan"] = {k: v for k, v in kept["first_plan"].items() if k != "time_s"}
    kept["horizons"] = [
        {k: v for k, v in horizon.items() if k != "time_s"} for horizon in kept["horizons"]
    ]
    return kept
