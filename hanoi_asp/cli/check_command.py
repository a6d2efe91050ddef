"""``hanoi-asp check``: is a plan someone hands you legal, does it reach the goal, and is
it optimal (:mod:`hanoi_asp.teaching.check`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Final

from hanoi_asp.cli.grammar import INSTANCE_HELP, positive_float

NAME: Final = "check"
HELP = "check a plan: legal, reaches the goal, optimal (with the gap)"
DESCRIPTION = (
    "Check PLAN on INSTANCE: replay it move by move (the first illegal move with its "
    "step, disk and the rule it breaks), whether it reaches the goal, and whether it "
    "is optimal where the optimum is proven within --timeout (else the bounds).  PLAN "
    "is move(D,P,T) facts (as solve --facts and clingo show them), the JSON solve "
    "--json writes, or DISK FROM TO lines (as '4 a b'); - reads it from stdin."
)
DEFAULT_TIMEOUT_S = 2.0
"""Seconds the optimum may take by default, counted from the command's start: a valid
plan's answer comes within about that long (``--timeout`` for more)."""
PROVERS = ("asp", "astar", "bfs")
"""The methods that prove an optimum on any puzzle."""

EPILOG = """exit codes:
  0  the plan is legal, reaches the goal and is optimal (proven)
  1  the plan is refused: an illegal move (its step, disk and rule are named), the
     goal not reached, or longer than the optimum (by how many moves)
  2  bad input or usage (one line on stderr naming the file and line)
  3  the plan is legal and reaches the goal, but its optimality was not decided
     within --timeout (the lower bound and the plan's length are given)
  4  internal error (a bug in hanoi-asp)
"""


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", metavar="instance", help=INSTANCE_HELP)
    command.add_argument("plan", help="the plan's file, or - for stdin")
    command.add_argument(
        "--format",
        choices=("lp", "aspcomp", "json", "toml"),
        default=None,
        help="the instance's format (default: from the file name)",
    )
    command.add_argument(
        "--plan-format",
        choices=("facts", "json", "lines"),
        default=None,
        help="the plan's format (default: from its text)",
    )
    command.add_argument(
        "--timeout",
        type=positive_float,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help="seconds for the optimum, counted from the command's start (default "
        f"{DEFAULT_TIMEOUT_S:g}); past it the plan's optimality is UNKNOWN (exit 3)",
    )
    command.add_argument(
        "--method",
        choices=PROVERS,
        default="asp",
        help="how the optimum is proven: asp (the engine, default), astar (often faster "
        "on 4+ pegs) or bfs",
    )
    command.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.cli.solve_options import command_started
    from hanoi_asp.inputs.instance import load_puzzle
    from hanoi_asp.inputs.plan_text import read_plan
    from hanoi_asp.model.files import read_user_file
    from hanoi_asp.model.options import SolveOptions
    from hanoi_asp.model.plan import RULES
    from hanoi_asp.teaching.check import check_json, check_plan

    started = command_started()
    puzzle = load_puzzle(args.file, args.format)
    name = "<stdin>" if args.plan == "-" else args.plan
    text = sys.stdin.read() if args.plan == "-" else read_user_file(args.plan, what="plan")
    steps = read_plan(text, name, args.plan_format)
    options = SolveOptions(
        method=args.method, timeout=args.timeout, started=started, source=args.file
    )
    check = check_plan(puzzle, [s.as_step() for s in steps], options, [s.line for s in steps])
    if args.json:
        print(json.dumps(check_json(check, args.file, name)))
        return check.exit_code
    from hanoi_asp.cli.console import console

    out = console()
    out.print(
        f"instance: {args.file} ({len(puzzle.pegs)} pegs, {puzzle.disks} disks)", markup=False
    )
    out.print(f"plan:     {name} ({check.length} moves)", markup=False)
    out.print(f"verdict:  {check.words}", markup=False)
    if check.illegal is not None:
        rule = check.illegal.rule
        out.print(f"rule:     {rule}: {RULES.get(rule, rule)}", markup=False)
        out.print(f"before step {check.illegal.step}:\n{check.illegal.board}", markup=False)
    elif check.board is not None:
        out.print(f"after the last move:\n{check.board}", markup=False)
    if check.proof is not None:
        out.print(f"proof:    {check.proof}", markup=False)
    if puzzle.max_moves is not None and check.length > puzzle.max_moves:
        out.print(
            f"note:     the instance allows at most {puzzle.max_moves} moves (moves/1)",
            markup=False,
        )
    return check.exit_code
