"""The corpus's instance texts (``tests/corpus/facts.json``) read as ``/api/parse`` reads
them (``inputs/read_facts.py`` and the size limits): each must give its stored puzzle or
refusal, as the page's reader must (``tests/web/test_corpus_browser.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from corpus import python_side
from corpus.cases import ids, load, verdict

CASES = load("facts")


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_python_meets_the_corpus(case: dict[str, Any]) -> None:
    problem = verdict(case, python_side.facts(case), "python")
    assert problem is None, problem
