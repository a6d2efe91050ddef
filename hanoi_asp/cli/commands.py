"""The commands, in the order ``hanoi-asp --help`` lists them: one module each, holding
the command's options (``add_parser``) beside its handler (``run``).

A handler returns the exit code; every error is raised and reaches the one error funnel
(:func:`hanoi_asp.__main__.error_funnel`).  Handlers import what they run when they run
(the engine, rich, the batch's pebble), so ``--help`` and a usage error stay quick.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
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

COMMANDS: tuple[ModuleType, ...] = (
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
"""Each has ``NAME``, ``add_parser(commands)`` and ``run(args) -> int``."""

HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    command.NAME: command.run for command in COMMANDS
}
"""The handler of each command, by name (:mod:`hanoi_asp.__main__` calls it)."""
