"""The corpus's encodings (``tests/corpus/grades.json``) graded by ``grade`` on one
instance each: the refusal, or the grade, clingo's warnings and (where asked) the
counterexample must be the stored ones, as the page's grader must give them
(``tests/web/test_corpus_browser.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from corpus import python_side
from corpus.cases import ids, load, verdict

CASES = load("grades")


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_python_meets_the_corpus(case: dict[str, Any], tmp_path: Path) -> None:
    problem = verdict(case, python_side.grades(case, tmp_path), "python")
    assert problem is None, problem
