"""The commands, in the order ``hanoi-asp --help`` lists them: one module each,
``hanoi_asp.cli.NAME_command``, declaring the command (``NAME``, ``HELP``,
``DESCRIPTION``, ``EPILOG``), its own arguments (``add_arguments``) beside its handler
(``run``); :class:`Command` makes the sub-parser from that declaration, the same way for
every command.

A handler returns the exit code; every error is raised and reaches the one error funnel
(:func:`hanoi_asp.__main__.error_funnel`).  Handlers import what they run when they run
(the engine, rich, the batch's pebble), and a command's module is imported when the
command is used, so a run loads its own command only and ``--help`` stays quick.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from hanoi_asp.cli.grammar import EPILOG, Commands, add_command


@dataclass(frozen=True)
class Command:
    """A command as its module declares it: ``NAME``; ``HELP``, its line in
    ``hanoi-asp --help``; ``DESCRIPTION``; ``EPILOG``, its exit codes (where it has none
    of its own, those of the commands that solve); ``add_arguments(parser)``; and
    ``run(args) -> int``."""

    NAME: str

    @property
    def module(self) -> ModuleType:
        """``hanoi_asp.cli.NAME_command``, imported the first time it is asked for."""
        return import_module(f"hanoi_asp.cli.{self.NAME}_command")

    def add_parser(self, commands: Commands) -> None:
        """The command's sub-parser, its help and exit codes printed as written."""
        module = self.module
        epilog = getattr(module, "EPILOG", EPILOG)
        module.add_arguments(
            add_command(commands, self.NAME, module.HELP, module.DESCRIPTION, epilog)
        )


COMMANDS: tuple[Command, ...] = tuple(
    Command(name)
    for name in (
        "solve",
        "check",
        "batch",
        "report",
        "explain",
        "render",
        "grade",
        "generate",
        "export",
        "serve",
        "site",
    )
)


def run(args: argparse.Namespace) -> int:
    """Run the command ``args`` were parsed for (:mod:`hanoi_asp.__main__` calls it)."""
    code: int = Command(args.command).module.run(args)
    return code
