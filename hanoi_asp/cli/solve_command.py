"""``hanoi-asp solve``: a minimal plan, or the answer to "exactly M moves?"."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from typing import Final

from hanoi_asp.cli.console import console, print_lines, progress_line
from hanoi_asp.cli.solve_options import add_solve_arguments, memory_limit, puzzle_and_options

NAME: Final = "solve"
HELP = "find a minimal plan (or decide a plan of exactly --moves moves)"
DESCRIPTION = (
    "Solve an instance: .lp facts (peg/1, disk/1, init_on/2, goal_on/2, moves/1, "
    "edge/2; disk 1 is the largest), an .asp file of the ASP Competition, or a "
    ".json/.toml spec."
)


def add_arguments(command: argparse.ArgumentParser) -> None:
    add_solve_arguments(command, NAME, capped=True)
    output = command.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument(
        "--facts",
        action="store_true",
        help="print the plan as ASP facts move(D,P,T). (nothing if there is no plan)",
    )
    command.add_argument("--boards", action="store_true", help="draw the pegs after every move")


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.engine import solve, solve_capped
    from hanoi_asp.inputs.facts import plan_facts

    began = time.monotonic()
    puzzle, options = puzzle_and_options(args, NAME)
    reading = time.monotonic() - began
    if options.encoding is not None:  # a user's encoding: in a capped child process
        result = solve_capped(puzzle, options, memory_limit(args))
    else:
        # the live line is for a person at a terminal, never for --json or --facts
        with progress_line(show=not (args.json or args.facts)) as line:
            result = solve(puzzle, options, line)
    result = replace(result, timings=(("reading", reading), *result.timings))
    for warning in result.warnings:
        console(stderr=True).print(f"{args.file}: warning: {warning}", markup=False)
    if args.json:
        print(json.dumps(result.to_dict(args.file)))
    elif args.facts:
        if result.plan is not None:
            print(plan_facts(result.plan) if result.plan else "% the start meets the goal")
    else:
        from hanoi_asp.outputs.text import result_lines

        print_lines(result_lines(result, args.file, boards=args.boards))
    return result.exit_code
