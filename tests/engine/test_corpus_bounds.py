"""The corpus's puzzles (``tests/corpus/bounds.json``) and the lower bounds the page
starts from: each value must be Python's for the bound it names (breadth-first search's
optimum for ``page-bfs``, ``engine/bounds.py``'s for the others), and the engine's own
strongest bound must be sound beside it; the page must compute the same
(``tests/web/test_corpus_browser.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from corpus import python_side
from corpus.cases import ids, load, verdict

CASES = load("bounds")


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_python_meets_the_corpus(case: dict[str, Any]) -> None:
    problem = verdict(case, python_side.bounds(case), "python")
    assert problem is None, problem


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_the_engines_bound_is_sound_beside_the_pages(case: dict[str, Any]) -> None:
    assert python_side.best_bound_problem(case) is None
