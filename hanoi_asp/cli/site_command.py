"""``hanoi-asp site``: the playground as a static folder, clingo running in the page."""

from __future__ import annotations

import argparse
import shlex
import time
from pathlib import Path

from hanoi_asp.cli.console import console
from hanoi_asp.model.errors import EXIT_FOUND
from hanoi_asp.outputs.safe_text import visible_text

NAME = "site"
HELP = "export the playground as a static folder: clingo runs in the browser"
DESCRIPTION = (
    "Write OUTDIR: the playground's page with clingo compiled to WebAssembly, the "
    "shipped encodings, the exercises and the instances, with reference answers "
    "(optimum, proof, a plan, the verdict at every horizon) computed now.  Serve it "
    "from any static host (python -m http.server -d OUTDIR, GitHub Pages, a course "
    "page); nothing is fetched from anywhere else."
)
EPILOG = (
    "exit codes:\n  0  the folder was written\n  2  bad usage, an unreadable "
    "instance or exercise, or an OUTDIR that is not empty (without --force)\n"
)


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("outdir", help="the folder to write (made if missing)")
    command.add_argument(
        "--instances",
        nargs="+",
        default=[],
        metavar="FILE",
        help="instance files or folders (default: the teaching set and the quickstart "
        "puzzle); they are also the set the page grades on",
    )
    command.add_argument(
        "--exercises", metavar="DIR", help="a folder of .lp exercises (default: the shipped ones)"
    )
    command.add_argument(
        "--title", default="hanoi-asp playground", help="the page's title (default: %(default)s)"
    )
    command.add_argument(
        "--force", action="store_true", help="replace what a non-empty OUTDIR holds"
    )


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.web.site import export_site

    began = time.monotonic()
    document = export_site(
        Path(args.outdir),
        instances=args.instances,
        exercises=args.exercises,
        title=args.title,
        force=args.force,
    )
    for item in document.instances:
        if item.answers.result in ("SATISFIABLE", "UNKNOWN"):  # the export's time ran out
            note = f"{item.name}: optimum not proven: {item.answers.proof}"
            console(stderr=True).print(note, markup=False)
    # the folder resolved as the export resolved it: after ``site ne/sub/.. --force``
    # the path as typed may name nothing (sub was replaced), and the command would fail
    folder = visible_text(shlex.quote(str(Path(args.outdir).resolve())))
    print(
        f"wrote {folder}: {len(document.instances)} instance(s), "
        f"{len(document.exercises)} exercise(s) in {time.monotonic() - began:.1f} s; "
        f"serve it with: python -m http.server -d {folder}"
    )
    return EXIT_FOUND
