"""``hanoi-asp export``: instances as PDDL (domain, problem and a replayed plan), for
classical planners."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Final

from hanoi_asp.cli.console import console
from hanoi_asp.cli.grammar import positive_float
from hanoi_asp.cli.solve_options import add_domain_option
from hanoi_asp.model.errors import EXIT_BAD_INPUT, EXIT_FOUND, InputError
from hanoi_asp.outputs.safe_text import visible_text

NAME: Final = "export"
HELP = "write instances as PDDL (domain, problem and a plan) for classical planners"
DESCRIPTION = (
    "Write each instance (files, or folders walked as batch walks them) as a PDDL "
    "problem STEM.pddl with its domain STEM-domain.pddl beside it (the textbook Hanoi "
    "domain; for partial goals and move graphs a variant that says which peg a disk "
    "is on), and the plan hanoi-asp finds, replayed, as STEM.plan in the planners' "
    "format.  A folder keeps its name and layout under OUTDIR."
)
EPILOG = (
    "exit codes:\n  0  files written\n  2  bad input (each bad instance one line and "
    "skipped, the others written),\n     or OUTDIR cannot be written\n"
)


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("paths", nargs="+", metavar="PATH", help="instance files or folders")
    command.add_argument("--pddl", required=True, metavar="OUTDIR", help="folder to write to")
    command.add_argument(
        "--no-plan", action="store_true", help="write domain and problem only (solve nothing)"
    )
    command.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="per instance: the plan is the best found within S seconds (default: none)",
    )
    add_domain_option(command)


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.batch.instances import find_instances
    from hanoi_asp.engine import solve
    from hanoi_asp.inputs.instance import load_puzzle
    from hanoi_asp.model.options import SolveOptions
    from hanoi_asp.outputs.pddl import write_pddl

    out = Path(args.pddl)
    written, failed = 0, 0
    err = console(stderr=True)
    for source in args.paths:
        top = Path(source)
        for path in find_instances([source]):
            try:  # a bad instance is one line; the others are still written
                puzzle = load_puzzle(str(path), domain=args.domain)
                options = SolveOptions(timeout=args.timeout, source=str(path))
                solved = None if args.no_plan else solve(puzzle, options)
            except InputError as error:
                err.print(f"{error} (skipped)", markup=False)
                failed += 1
                continue
            where = out / top.name / path.relative_to(top).parent if top.is_dir() else out
            files = write_pddl(puzzle, where, path.stem, solved)
            print(visible_text(" ".join(str(f) for f in files)), flush=True)
            written += 1
    skipped = f"; {failed} skipped" if failed else ""
    print(visible_text(f"wrote {written} instance(s) as PDDL to {out}{skipped}"))
    return EXIT_BAD_INPUT if failed else EXIT_FOUND
