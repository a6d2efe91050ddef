"""grade's JUnit XML and Gradescope JSON, whatever the names and messages hold."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree

from hypothesis import example, given
from hypothesis import strategies as st

from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.outputs.safe_text import xml_text
from hanoi_asp.teaching.autograder import gradescope_results, junit_xml
from hanoi_asp.teaching.counterexample import Counterexample
from hanoi_asp.teaching.grade_report import Finding, GradeReport, InstanceGrade

ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=12)
"""Any code points: control characters, lone surrogates (a file name's bytes that are
not UTF-8), U+FFFE and U+FFFF included."""
HOSTILE = "in\x01st\x1b[31m\udcff\ufffe\uffff\x00.lp"


def report_of(instance: str, encoding: str, message: str, board: str) -> GradeReport:
    finding = Finding("illegal-plan", message, horizon=1, board=board)
    grade = InstanceGrade(instance, 1, {0: "UNSAT", 1: "SAT"}, (finding,))
    puzzle = Puzzle(pegs=("a", "b"), disks=1, init={"a": (1,)}, goal={"b": (1,)})
    example_ = Counterexample(puzzle, 1, "illegal-plan", (), reason=message, board=board)
    return GradeReport(encoding, [grade], counterexample=example_)


@given(ANY_TEXT, ANY_TEXT, ANY_TEXT, ANY_TEXT)
@example(HOSTILE, "en\x1bc.lp", 'rule: ":- p(\x01)."', "\x0c")
def test_junit_is_always_well_formed(
    instance: str, encoding: str, message: str, board: str
) -> None:
    """A control character in an instance's name, the encoding's or a string of the
    student's rule made the file malformed, and an autograder refused all of it."""
    text = junit_xml(report_of(instance, encoding, message, board))
    suite = ElementTree.fromstring(text.encode("utf-8"))  # strict: no lone surrogate left
    case = suite.find("testcase")
    assert case is not None and case.get("classname") == xml_text(instance)
    assert suite.get("name") == xml_text(f"grade {encoding}")
    failure = suite.find("testcase/failure")
    assert failure is not None and failure.get("message") == xml_text(message)


@given(ANY_TEXT, ANY_TEXT)
def test_gradescope_json_is_always_valid(instance: str, message: str) -> None:
    results = gradescope_results(report_of(instance, "e.lp", message, ""))
    text = json.dumps(results)  # ASCII: every character escaped
    assert json.loads(text)["tests"][0]["name"] == instance
