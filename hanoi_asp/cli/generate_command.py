"""``hanoi-asp generate``: random instance files, the same for the same seed."""

from __future__ import annotations

import argparse
from pathlib import Path

from hanoi_asp.cli.grammar import positive_int
from hanoi_asp.model.errors import EXIT_FOUND
from hanoi_asp.outputs.safe_text import visible_text

NAME = "generate"
HELP = "write random instance files (arbitrary start and goal)"
DESCRIPTION = (
    "Write COUNT random .lp instances to OUTDIR: every disk on a random peg at the "
    "start and in the goal.  The same seed writes the same files."
)
EPILOG = "exit codes:\n  0  files written\n  2  bad usage, or OUTDIR cannot be written\n"


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("outdir", help="folder to write to (made if missing)")
    command.add_argument("--pegs", type=positive_int, required=True, help="pegs per instance")
    command.add_argument("--disks", type=positive_int, required=True, help="disks per instance")
    command.add_argument("--count", type=positive_int, required=True, help="how many instances")
    command.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    command.add_argument(
        "--partial", action="store_true", help="goals name only some disks (each with p=1/2)"
    )


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.inputs.generate import write_instances

    written = write_instances(
        Path(args.outdir),
        pegs=args.pegs,
        disks=args.disks,
        count=args.count,
        seed=args.seed,
        partial=args.partial,
    )
    print(visible_text(f"wrote {len(written)} instance(s) to {args.outdir}"))
    return EXIT_FOUND
