"""The corpus's plans (``tests/corpus/plans.json``) replayed by the simulator
(``model/plan.py``, with ``grade``'s reason and board) and, given as a model's atoms,
read as the engine reads them: each must give its stored verdict, as the page's
simulator must (``tests/web/test_corpus_browser.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from corpus import python_side
from corpus.cases import ids, load, verdict

CASES = load("plans")


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_python_meets_the_corpus(case: dict[str, Any]) -> None:
    problem = verdict(case, python_side.plans(case), "python")
    assert problem is None, problem
