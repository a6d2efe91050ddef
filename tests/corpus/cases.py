"""The corpus's cases and what it takes to meet one, the same for both sides.

A case is a JSON object: ``name``, its input (per kind), ``expect`` (the answer both
sides must give) and, where a side is known to answer otherwise, ``known``: ``{"page":
why}`` or ``{"python": why}``.  The stored ``expect`` is the contract: neither side's
answer is the oracle of the other.  A side named in ``known`` must still *differ*
(so a fix is noticed and the marker removed); every other side must meet ``expect``.

>>> meets({"expect": {"value": 1}}, {"value": 1}), meets({"expect": {"value": 1}}, {"value": 2})
(True, False)

One relaxation, for clingo's parser: an instance error marked ``"parser": true`` is a
syntax error whose words are clingo's own (bison's, naming its grammar's tokens:
``unexpected <IDENTIFIER>``, ``expecting ) or ;``), which the page's reader cannot spell
alike; there the line must be the same and the message of the same class (``syntax
error``, ``lexer error``: the words before the first comma).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

Side = Literal["python", "page"]
KINDS = ("facts", "plans", "bounds", "grades")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def load(kind: str) -> list[dict[str, Any]]:
    """The cases of one kind, in their file's order."""
    cases: list[dict[str, Any]] = json.loads((HERE / f"{kind}.json").read_text())["cases"]
    return cases


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [str(case["name"]) for case in cases]


def encoding_text(given: dict[str, Any]) -> str:
    """A grade case's encoding: a file of the checkout, with its ``replace`` pairs
    (``[old, new]``, each found exactly once) applied, or the ``text`` itself."""
    if "text" in given:
        return str(given["text"])
    text = (ROOT / str(given["file"])).read_text()
    for old, new in given.get("replace", []):
        assert text.count(old) == 1, (given["file"], old)
        text = text.replace(old, new)
    return text


def meets(case: dict[str, Any], answer: Any) -> bool:
    return not differences(case, answer)


def differences(case: dict[str, Any], answer: Any) -> str:
    """Empty when ``answer`` meets the case's ``expect``; else both, side by side."""
    expect = case["expect"]
    error = expect.get("error") if isinstance(expect, dict) else None
    if isinstance(error, dict) and error.get("parser"):
        given = answer.get("error") if isinstance(answer, dict) else None
        if isinstance(given, dict) and (
            given.get("line") == error["line"]
            and _class(str(given.get("message"))) == _class(error["message"])
        ):
            return ""
    elif answer == expect:
        return ""
    return f"expected {_show(expect)}\n     got {_show(answer)}"


def _class(message: str) -> str:
    """``syntax error`` of ``syntax error, unexpected EOF``."""
    return message.split(",", 1)[0]


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def verdict(case: dict[str, Any], answer: Any, side: Side) -> str | None:
    """What is wrong with ``side``'s ``answer`` to ``case``, or None: it meets the
    contract, or (marked ``known`` for this side) it still differs as reported."""
    diff = differences(case, answer)
    known = case.get("known", {}).get(side)
    if known is not None:
        if not diff:
            return f"{side} now meets the contract: remove the case's known marker ({known})"
        return None
    return f"{side} breaks the contract of {case['name']!r}:\n{diff}" if diff else None
