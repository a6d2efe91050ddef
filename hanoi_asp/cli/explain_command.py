"""``hanoi-asp explain``: the teaching view of a solve."""

from __future__ import annotations

import argparse
import json
import time
from typing import Final

from hanoi_asp.cli.console import console
from hanoi_asp.cli.solve_options import add_solve_arguments, memory_limit, puzzle_and_options
from hanoi_asp.model.errors import ResourceLimit

NAME: Final = "explain"
HELP = "teaching mode: facts, encoding, solver work per horizon, why not shorter"
DESCRIPTION = (
    "Show the instance as facts, the encoding section by section "
    "(Generate / Define / Test / Display) with each rule's comment, every horizon's "
    "ground program size and solver work, why one move fewer is impossible, and "
    "the plan with boards."
)


def add_arguments(command: argparse.ArgumentParser) -> None:
    add_solve_arguments(command, NAME, capped=True)
    command.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.engine import HARD_GRACE_S
    from hanoi_asp.processes import Stopped, run_capped
    from hanoi_asp.teaching.explain import explain
    from hanoi_asp.teaching.views import explanation_view

    puzzle, options = puzzle_and_options(args, NAME)
    if options.encoding is None:
        explanation = explain(puzzle, options)
    else:  # a user's encoding: in a capped child process
        left = options.time_left(time.monotonic())
        seconds = None if left is None else left + HARD_GRACE_S
        try:
            explanation = run_capped(
                explain, (puzzle, options), seconds=seconds, memory=memory_limit(args)
            )
        except Stopped as stop:
            raise ResourceLimit(f"stopped: {stop}", path=options.encoding.name) from None
    if args.json:
        print(json.dumps(explanation.as_dict(args.file)))
    else:
        console().print(explanation_view(explanation, args.file))
    return explanation.result.exit_code
