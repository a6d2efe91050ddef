"""``hanoi-asp solve``: a minimal plan, or the answer to "exactly M moves?"."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from hanoi_asp.cli.console import console, progress_line
from hanoi_asp.cli.grammar import INSTANCE_HELP, Commands, add_command, natural
from hanoi_asp.cli.solve_options import (
    ASTAR_HELP,
    CACHE_HELP,
    FIRST_PLAN_HELP,
    MAX_MOVES_HELP,
    METHOD_HELP,
    PATTERNS_HELP,
    add_asp_options,
    add_common,
    memory_limit,
    puzzle_and_options,
)
from hanoi_asp.model.result import METHODS

NAME = "solve"


def add_parser(commands: Commands) -> None:
    command = add_command(
        commands,
        NAME,
        "find a minimal plan (or decide a plan of exactly --moves moves)",
        "Solve an instance: .lp facts (peg/1, disk/1, init_on/2, goal_on/2, moves/1, "
        "edge/2; disk 1 is the largest), an .asp file of the ASP Competition, or a "
        ".json/.toml spec.",
    )
    command.add_argument("file", help=INSTANCE_HELP)
    horizon = command.add_mutually_exclusive_group()
    horizon.add_argument(
        "--moves",
        type=natural,
        metavar="M",
        help="decide whether a plan of exactly M moves exists",
    )
    horizon.add_argument("--max-moves", type=natural, metavar="N", help=MAX_MOVES_HELP)
    add_common(command, max_moves=False)
    add_asp_options(command)
    command.add_argument("--no-first-plan", action="store_true", help=FIRST_PLAN_HELP)
    command.add_argument("--no-patterns", action="store_true", help=PATTERNS_HELP)
    command.add_argument("--no-astar", action="store_true", help=ASTAR_HELP)
    command.add_argument("--no-cache", action="store_true", help=CACHE_HELP)
    command.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
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
    puzzle, options = puzzle_and_options(args)
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
        from hanoi_asp.outputs.text import result_view

        console().print(result_view(result, args.file, boards=args.boards))
    return result.exit_code
