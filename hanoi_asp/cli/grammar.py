"""The command line's building blocks: the parser that reports a usage error in one line
(exit 2, :data:`EXIT_BAD_INPUT`), a command's sub-parser, and the argument types.

Each command module (``*_command.py``) declares its own options with these; the solve
options come from their one declaration (:mod:`hanoi_asp.cli.solve_options`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn, TypeAlias, TypeVar

from hanoi_asp.model import flags
from hanoi_asp.model.errors import UsageError

T = TypeVar("T")

INSTANCE_HELP = (
    "instance file: .lp facts (peg/1, disk/1, init_on/2, goal_on/2, moves/1, edge/2), "
    ".asp (the ASP Competition's HanoiTower format), or a .json/.toml spec"
)

EPILOG = """exit codes:
  0  a plan was found: OPTIMUM FOUND (proven minimal), or SATISFIABLE (a plan of
     exactly --moves moves, or the best plan of a search stopped by --timeout or
     Ctrl-C, with its gap to the proven lower bound)
  1  UNSATISFIABLE (proven): no plan within the bound, none of exactly --moves
     moves, or no plan at all
  2  bad input or usage (one line on stderr naming the file and line), including a
     --encoding that does not parse or whose plan the simulator rejects
  3  UNKNOWN: stopped by --timeout or Ctrl-C before any plan was found
  4  internal error: hanoi-asp's own engine made a plan the simulator rejected (a bug)
"""

Commands: TypeAlias = "argparse._SubParsersAction[UsageParser]"
"""The sub-parsers of ``hanoi-asp``, one per command."""


class UsageParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Usage errors go to the error funnel: one line, exit 2, and with ``--json`` a
        JSON object too (a script that asked for JSON gets JSON)."""
        raise UsageError(message, prog=self.prog)


def add_command(
    commands: Commands, name: str, help_: str, description: str, epilog: str = EPILOG
) -> argparse.ArgumentParser:
    """A command's parser, its help and exit codes printed as written."""
    command: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help_,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return command


def add_outputs(command: argparse.ArgumentParser, metavar: str, outputs: dict[str, str]) -> None:
    """The files a command may write besides what it prints, an option each (``--csv
    FILE``: the option, then its help): a table, so that they read alike."""
    for flag, help_ in outputs.items():
        command.add_argument(flag, metavar=metavar, help=help_)


def checked(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as an argparse type: its ValueError's message is the usage error's."""

    def typed(text: str) -> T:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    typed.__name__ = parse.__name__
    return typed


natural = checked(flags.natural)
positive_int = checked(flags.positive_int)
positive_float = checked(flags.positive_float)


def key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"not KEY=VALUE: {text!r}")
    return key.strip(), value


def size(text: str) -> int:
    from hanoi_asp.batch.run import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
