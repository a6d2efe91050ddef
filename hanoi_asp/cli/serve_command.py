"""``hanoi-asp serve``: the web playground on this machine."""

from __future__ import annotations

import argparse

from hanoi_asp.cli.grammar import natural
from hanoi_asp.model.errors import EXIT_FOUND

NAME = "serve"
HELP = "the playground in a browser: edit, solve, explain, grade, play"
DESCRIPTION = (
    "Start the local web playground: instance and encoding editors, Solve minimal, "
    "Exactly M moves, Explain and Grade with the plan animated, and a Play tab with "
    "optimal hints.  Every solve runs in its own process with a hard time limit."
)
EPILOG = """exit codes:
  0  stopped by Ctrl-C
  2  bad usage, or the address cannot be listened on (e.g. the port is taken)

The API (POST JSON to /api/solve, /api/explain, /api/grade, /api/hint) answers with
the CLI's --json objects; README's "Web playground" section documents it.
"""


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; another "
        "address lets other machines in)",
    )
    command.add_argument(
        "--port", type=natural, default=8000, help="port (default 8000; 0: any free one)"
    )
    command.add_argument("--open", action="store_true", help="open the page in a browser")


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.web.serve import serve

    serve(args.host, args.port, open_browser=args.open, say=print)
    return EXIT_FOUND
