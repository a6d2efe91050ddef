"""``hanoi-asp``'s grammar: the program's own options and one sub-parser per command
(each declared in its command's module, :data:`~hanoi_asp.cli.commands.COMMANDS`).

Usage errors are one line on stderr and exit 2 (:data:`EXIT_BAD_INPUT`).
"""

from __future__ import annotations

import argparse

from hanoi_asp import __version__
from hanoi_asp.cli.commands import COMMANDS
from hanoi_asp.cli.grammar import EPILOG, UsageParser
from hanoi_asp.model.errors import EXIT_BAD_INPUT as EXIT_BAD_INPUT


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog="hanoi-asp",
        description="Proven-minimal Towers of Hanoi plans with clingo.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hanoi-asp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=UsageParser)
    for command in COMMANDS:
        command.add_parser(commands)
    return parser
