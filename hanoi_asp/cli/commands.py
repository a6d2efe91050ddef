"""The commands, in the order ``hanoi-asp --help`` lists them: one module each, declaring
the command (``NAME``, ``HELP``, ``DESCRIPTION``, ``EPILOG``), its own arguments
(``add_arguments``) beside its handler (``run``); :class:`Command` makes the sub-parser
from that declaration, the same way for every command.

A handler returns the exit code; every error is raised and reaches the one error funnel
(:func:`hanoi_asp.__main__.error_funnel`).  Handlers import what they run when they run
(the engine, rich, the batch's pebble), so ``--help`` and a usage error stay quick.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from hanoi_asp.cli import (
    batch_command,
    check_command,
    explain_command,
    export_command,
    generate_command,
    grade_command,
    render_command,
    report_command,
    serve_command,
    site_command,
    solve_command,
)
from hanoi_asp.cli.grammar import EPILOG, Commands, add_command


@dataclass(frozen=True)
class Command:
    """A command as its module declares it: ``NAME``; ``HELP``, its line in
    ``hanoi-asp --help``; ``DESCRIPTION``; ``EPILOG``, its exit codes (where it has none
    of its own, those of the commands that solve); ``add_arguments(parser)``; and
    ``run(args) -> int``."""

    module: ModuleType

    @property
    def NAME(self) -> str:
        """The module's ``NAME``, read from the command as from its module."""
        return str(self.module.NAME)

    def add_parser(self, commands: Commands) -> None:
        """The command's sub-parser, its help and exit codes printed as written."""
        module = self.module
        epilog = getattr(module, "EPILOG", EPILOG)
        module.add_arguments(
            add_command(commands, self.NAME, module.HELP, module.DESCRIPTION, epilog)
        )


COMMANDS: tuple[Command, ...] = tuple(
    Command(module)
    for module in (
        solve_command,
        check_command,
        batch_command,
        report_command,
        explain_command,
        render_command,
        grade_command,
        generate_command,
        export_command,
        serve_command,
        site_command,
    )
)

HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    command.NAME: command.module.run for command in COMMANDS
}
"""The handler of each command, by name (:mod:`hanoi_asp.__main__` calls it)."""
