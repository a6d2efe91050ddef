"""``hanoi-asp``'s grammar: the program's own options and one sub-parser per command
(each declared in its command's module, :data:`~hanoi_asp.cli.commands.COMMANDS`).

Usage errors are one line on stderr and exit 2 (:data:`EXIT_BAD_INPUT`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from hanoi_asp import __version__
from hanoi_asp.cli.commands import COMMANDS
from hanoi_asp.cli.grammar import EPILOG, UsageParser
from hanoi_asp.model.errors import EXIT_BAD_INPUT as EXIT_BAD_INPUT


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; given the arguments it is for, of their command
    alone when they start with one (``hanoi-asp solve ...``): a run reads no other
    command's options, and making all eleven sub-parsers is start-up every run would
    pay.  Anything else (``--help``, ``--version``, a misspelt command) gets them all,
    so the help lists every command and an unknown one is told the choices."""
    parser = UsageParser(
        prog="hanoi-asp",
        description="Proven-minimal Towers of Hanoi plans with clingo.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hanoi-asp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=UsageParser)
    named = [command for command in COMMANDS if argv and argv[0] == command.NAME]
    for command in named or COMMANDS:
        command.add_parser(commands)
    return parser
