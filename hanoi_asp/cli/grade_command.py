"""``hanoi-asp grade``: a student's encoding against the reference, with random puzzles
and the smallest counterexample; text, JSON, JUnit or Gradescope."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from hanoi_asp.cli.console import console
from hanoi_asp.cli.grammar import natural, positive_float, positive_int
from hanoi_asp.cli.solve_options import add_memory_limit, memory_limit
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.options import Encoding

if TYPE_CHECKING:
    from hanoi_asp.processes import Stopped
    from hanoi_asp.teaching.grade_report import GradeReport
    from hanoi_asp.teaching.random_puzzles import Trial

NAME = "grade"
HELP = "check a student's encoding against the reference on a set of instances"
DESCRIPTION = (
    "Run ENCODING on each instance (default: the shipped teaching set) at every "
    "horizon up to the optimum and compare with the reference: illegal plans (the "
    "first illegal move drawn), goals not reached, plans longer than optimal, "
    "UNSATISFIABLE where a plan exists, horizons answered differently; clingo's "
    "warnings about the encoding are shown too."
)
EPILOG = """exit codes:
  0  every instance passes
  1  some instance fails
  2  bad input (unreadable encoding or instance, or not a whole encoding)
  3  interrupted (Ctrl-C)
"""


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "instances", nargs="*", metavar="INSTANCE", help="instance files (default: teaching set)"
    )
    command.add_argument(
        "--encoding", required=True, metavar="FILE", help="the encoding to grade (a whole one)"
    )
    command.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="per horizon (default 10)",
    )
    command.add_argument("--json", action="store_true", help="print one JSON object")
    _add_random(command)
    add_memory_limit(command)


def _add_random(command: argparse.ArgumentParser) -> None:
    """grade's random puzzles, counterexample and autograder formats (issue 32)."""
    command.add_argument(
        "--random",
        type=natural,
        default=0,
        metavar="N",
        help="after the instances, N random puzzles from small to large (default 0); the "
        "first failure is shrunk to a smallest counterexample",
    )
    command.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    command.add_argument(
        "--max-disks", type=positive_int, default=7, metavar="D", help="(default 7)"
    )
    command.add_argument(
        "--max-pegs", type=positive_int, default=5, metavar="K", help="(default 5)"
    )
    command.add_argument(
        "--graphs",
        action="store_true",
        help="random puzzles include restricted move graphs (the default when the "
        "encoding mentions edge/2)",
    )
    command.add_argument(
        "--format",
        choices=("text", "junit", "gradescope"),
        default="text",
        help="junit: JUnit XML; gradescope: Gradescope's results.json (default: text)",
    )


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.engine import HARD_GRACE_S
    from hanoi_asp.inputs.instance import load_puzzle
    from hanoi_asp.processes import Stopped, run_capped
    from hanoi_asp.teaching.autograder import gradescope_results, junit_xml
    from hanoi_asp.teaching.random_puzzles import mentions_edges, random_trials
    from hanoi_asp.teaching.teaching_set import teaching_set
    from hanoi_asp.teaching.views import grade_view, shown_path

    if args.json and args.format != "text":
        raise InputError(f"give --json or --format {args.format}, not both")
    encoding = Encoding.from_file(args.encoding)
    instances: list[str] = []
    if args.instances:  # (the batch's modules only when asked: a quicker start)
        from hanoi_asp.batch.instances import find_instances

        instances = [str(p) for p in find_instances(args.instances)]
    instances = instances or teaching_set()
    trials = random_trials(
        args.random,
        args.seed,
        max_disks=args.max_disks,
        max_pegs=args.max_pegs,
        graphs=args.graphs or mentions_edges(encoding.text),
    )
    names = [shown_path(instance) for instance in instances]
    for instance in instances:
        load_puzzle(instance)  # bad input is exit 2 here, before the child starts
    try:  # the student's encoding runs in a capped child, each horizon watched
        report = run_capped(
            graded,
            (encoding, instances, args.timeout, trials, names),
            seconds=None,
            memory=memory_limit(args),
            heartbeat=args.timeout + HARD_GRACE_S,
            grounding=args.timeout,
        )
    except Stopped as stop:
        report = stopped_grade(
            encoding, stop, args.timeout, dict(zip(instances, names, strict=True))
        )
    if args.json:
        print(json.dumps(report.as_dict()))
    elif args.format == "junit":
        print(junit_xml(report))
    elif args.format == "gradescope":
        print(json.dumps(gradescope_results(report), indent=2))
    else:
        console().print(grade_view(report))
    return 0 if report.passed else 1


def graded(
    encoding: Encoding,
    instances: list[str],
    seconds: float,
    trials: list[Trial],
    names: list[str],
) -> GradeReport:
    """``grade`` and its counterexample, as the capped child runs them."""
    from hanoi_asp.teaching.grade import grade
    from hanoi_asp.teaching.shrink import with_counterexample

    report = grade(encoding, instances, seconds, trials, names=names)
    return with_counterexample(encoding, report, seconds)


def stopped_grade(
    encoding: Encoding, stop: Stopped, seconds: float, shown: dict[str, str]
) -> GradeReport:
    """The report of a grading whose child was ended: the horizon it was on ran past
    the time limit (or the memory cap), and grading stops there, said as a finding."""
    from hanoi_asp.teaching.grade_report import Finding, GradeReport, InstanceGrade

    horizon = stop.doing.get("horizon")
    where = "" if horizon is None else f" at {horizon} moves"
    limit = "the memory limit" if stop.why == "memory" else f"{seconds:g} s"
    message = (
        f"grading stopped{where}: grounding and solving the encoding ran past {limit} "
        f"and was ended ({stop}); clingo cannot interrupt grounding: does a rule derive "
        "atoms without end (e.g. p(X+1) :- p(X))?"
    )
    instance = str(stop.doing.get("instance", "?"))
    instance = shown.get(instance, instance)
    finding = Finding("error", message, horizon if isinstance(horizon, int) else None)
    return GradeReport(encoding.name, [InstanceGrade(instance, None, {}, (finding,))])
