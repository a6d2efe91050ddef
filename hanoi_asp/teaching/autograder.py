"""``grade``'s report in the formats autograders read: JUnit XML and Gradescope's
``results.json``.  Pure rendering of :class:`~hanoi_asp.teaching.grade_report.GradeReport`.

JUnit has one test case per instance and horizon class (below the optimum: no plan may
exist; at it: a plan must; above it: any plan must replay), so a CI page (GitHub
Classroom, GitLab, Jenkins, Moodle's CodeRunner) lists what failed where.  Gradescope
has one test per instance, worth one point, and one per random puzzle not run after the
first failure (0 of 1: every point of ``max_score`` has its test), and the counterexample
in the output.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any

from hanoi_asp.outputs.safe_text import xml_text
from hanoi_asp.teaching.grade_report import Finding, GradeReport, InstanceGrade

CLASSES = ("below optimum", "at optimum", "above optimum")


def horizon_class(grade: InstanceGrade, horizon: int | None) -> str:
    optimum = grade.optimum
    if horizon is None:
        return "at optimum"
    if optimum is None or horizon < optimum:
        return "below optimum"
    return "at optimum" if horizon == optimum else "above optimum"


def _classes(grade: InstanceGrade) -> dict[str, list[Finding]]:
    """The horizon classes asked on an instance, each with its findings."""
    found: dict[str, list[Finding]] = {}
    for horizon in sorted(grade.answers):
        found.setdefault(horizon_class(grade, horizon), [])
    for finding in grade.findings:
        found.setdefault(horizon_class(grade, finding.horizon), []).append(finding)
    return {name: found[name] for name in CLASSES if name in found}


def counterexample_text(report: GradeReport) -> str:
    """The counterexample as a student reads it: the reason, then the instance file."""
    example = report.counterexample
    if example is None:
        return ""
    return (
        f"smallest counterexample ({example.kind}): {peg_names(example.puzzle.pegs)}, "
        f"{example.puzzle.disks} disks, {example.horizon} moves\n{example.reason}\n"
        + (f"{example.board}\n" if example.board else "")
        + "instance (run: python -m clingo counterexample.lp YOUR-ENCODING.lp):\n"
        + example.instance
    )


def peg_names(pegs: tuple[str, ...]) -> str:
    """``pegs a, b and d``: a shrunk puzzle keeps the names of the pegs it kept.

    >>> peg_names(("a", "b", "d")), peg_names(("c",))
    ('pegs a, b and d', 'peg c')
    """
    if len(pegs) == 1:
        return f"peg {pegs[0]}"
    return f"pegs {', '.join(pegs[:-1])} and {pegs[-1]}"


def junit_xml(report: GradeReport) -> str:
    """The report as JUnit XML, well-formed whatever the names and messages hold
    (:func:`~hanoi_asp.outputs.safe_text.xml_text`)."""
    suite = ElementTree.Element("testsuite", name=f"grade {report.encoding}")
    cases = failures = 0
    for grade in report.grades:
        for name, findings in _classes(grade).items():
            cases += 1
            case = ElementTree.SubElement(suite, "testcase", classname=grade.instance, name=name)
            if findings:
                failures += 1
                failure = ElementTree.SubElement(
                    case, "failure", type=findings[0].kind, message=findings[0].message
                )
                failure.text = "\n".join(
                    f"{f.kind}: {f.message}" + (f"\n{f.board}" if f.board else "") for f in findings
                )
    if report.counterexample is not None:
        out = ElementTree.SubElement(suite, "system-out")
        out.text = counterexample_text(report)
    suite.set("tests", str(cases))
    suite.set("failures", str(failures))
    ElementTree.indent(suite)
    return xml_text(ElementTree.tostring(suite, encoding="unicode", xml_declaration=True))


def gradescope_results(report: GradeReport) -> dict[str, Any]:
    tests = []
    for grade in report.grades:
        output = "\n".join(f"{f.kind}: {f.message}" for f in grade.findings) or "pass"
        tests.append(
            {
                "name": grade.instance,
                "score": 1 if grade.passed else 0,
                "max_score": 1,
                "status": "passed" if grade.passed else "failed",
                "output": output,
            }
        )
    ran = sum(grade.instance.startswith("random/") for grade in report.grades)
    for index in range(ran + 1, ran + report.random_skipped + 1):
        tests.append(
            {
                "name": f"random/{index:03d} (not run)",
                "score": 0,
                "max_score": 1,
                "status": "failed",
                "output": "not run: grading stops at the first failure (see the counterexample)",
            }
        )
    passed, total = report.score
    # random puzzles not run after the first failure count as lost points
    results: dict[str, Any] = {
        "score": passed,
        "max_score": total + report.random_skipped,
        "tests": tests,
    }
    summary = f"{passed}/{total} puzzles pass"
    if report.random_skipped:
        summary += f" ({report.random_skipped} random puzzles not run after the first failure)"
    results["output"] = summary + (
        "\n\n" + counterexample_text(report) if report.counterexample else ""
    )
    return results
