"""The solve options on the command line, made from their one declaration (the fields
of :class:`~hanoi_asp.model.options.SolveOptions` and their
:class:`~hanoi_asp.model.flags.Flag`): each command's, the ``batch --config`` grammar,
and the options made from what was given; beside them the instance's own options
(``--format``, ``--domain``, ``--graph``) and the memory cap of a user's encoding's process.

>>> config_options("fast=--method astar --no-cache")[1]
{'method': 'astar', 'table_cache': False}
>>> config_options("sk=planner:symk")[1]
{'planner': Planner(kind='symk', search='sym_bd()', optimal=True)}
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import time
from typing import TYPE_CHECKING, Any, NoReturn

from hanoi_asp.cli.grammar import INSTANCE_HELP, checked, size
from hanoi_asp.model.choices import GRAPH_PRESETS
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.flags import Flag, Place
from hanoi_asp.model.options import SolveOptions, solve_flags

if TYPE_CHECKING:
    from hanoi_asp.model.puzzle import Puzzle

FORMATS = ("lp", "aspcomp", "json", "toml", "pddl")
"""``--format``: :data:`hanoi_asp.inputs.instance.Format` (not imported here: it would
load clingo before the parser)."""
DEFAULTS = SolveOptions()


def add_solve_arguments(
    command: argparse.ArgumentParser, place: Place, *, capped: bool = False
) -> None:
    """The one instance ``FILE`` of ``solve``, ``explain`` and ``render``, how it is read,
    and the solve options ``place`` takes; ``capped``: ``--memory-limit`` too, for the
    process that runs a user's encoding."""
    command.add_argument("file", help=INSTANCE_HELP)
    add_instance_options(command)
    add_solve_options(command, place)
    if capped:
        add_memory_limit(command)


def add_instance_options(command: argparse.ArgumentParser) -> None:
    """How the one instance of ``solve``, ``explain`` and ``render`` is read."""
    command.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="input format (default: from the file name)",
    )
    add_domain_option(command)
    command.add_argument(
        "--graph",
        choices=GRAPH_PRESETS,
        help="replace the instance's move graph: complete (any peg to any other), linear "
        "(adjacent pegs, both ways) or cyclic (each peg to the next, one way)",
    )


def add_domain_option(command: argparse.ArgumentParser) -> None:
    """``--domain``: the domain of PDDL problems (``solve``, ``explain``, ``render``,
    ``batch``, ``export``)."""
    command.add_argument(
        "--domain",
        metavar="FILE",
        help="the domain of a PDDL problem (default: domain.pddl or STEM-domain.pddl beside it)",
    )


def add_solve_options(
    command: argparse.ArgumentParser, place: Place, *, given_only: bool = False
) -> None:
    """Every solve option that ``place`` takes, in their declaration's order; not given,
    each is its field's default (``given_only``: absent from the arguments)."""
    groups: dict[str, argparse._MutuallyExclusiveGroup] = {}
    for name, flag in solve_flags(place):
        target: argparse._ActionsContainer = command
        if flag.exclusive is not None:
            if flag.exclusive not in groups:
                groups[flag.exclusive] = command.add_mutually_exclusive_group()
            target = groups[flag.exclusive]
        if given_only:
            default: Any = argparse.SUPPRESS
        else:
            default = False if flag.switch else [] if flag.many else getattr(DEFAULTS, name)
        target.add_argument(flag.flag, help=flag.help_for(place), **_argument(flag, default))


def _argument(flag: Flag, default: Any) -> dict[str, Any]:
    """argparse's description of ``flag``, and its value when not given."""
    if flag.switch:
        return {"action": "store_true", "default": default}
    found: dict[str, Any] = {"default": default, "metavar": flag.metavar}
    if flag.many:
        found["action"] = "append"
    if flag.parse is not None:
        found["type"] = checked(flag.parse)
    if flag.choices is not None:
        found["choices"] = flag.choices
    return found


def solve_options(args: argparse.Namespace, place: Place, **fixed: Any) -> SolveOptions:
    """The options of command ``place`` from its arguments; ``fixed`` as they are."""
    given = {name: getattr(args, flag.dest) for name, flag in solve_flags(place)}
    return SolveOptions.given(given, **fixed)


def add_memory_limit(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--memory-limit",
        type=size,
        metavar="SIZE",
        help="the address space of the process that runs the user's encoding, e.g. 2GiB "
        "(default: 80%% of the machine's memory); over it a solve is UNKNOWN with stopped "
        '"memory" (exit 3) and grading stops with that finding; --timeout ends either '
        "within a second even while clingo grounds",
    )


CONFIG_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,40}")
PLANNER_PREFIX = "planner:"
"""``NAME=planner:SPEC``: the configuration is the planner ``SPEC`` (``--planner SPEC``)."""
WITH_PLANNER = frozenset({"planner", "max_moves"})
"""What a planner's configuration may set: the planner and the bound on its plan (the
other options are of hanoi-asp's search, which it does not run)."""


def config_options(item: str) -> tuple[str, dict[str, Any]]:
    """``NAME=OPTIONS`` of ``batch --config``: the name and the options given, as
    :class:`~hanoi_asp.model.options.SolveOptions` fields (an encoding read);
    ``NAME=planner:SPEC`` is ``NAME=--planner SPEC``."""
    name, sep, text = item.partition("=")
    if not sep or not CONFIG_NAME.fullmatch(name):
        raise InputError(
            f"--config takes NAME=OPTIONS with a NAME of letters, digits, . _ + -: {item!r}"
        )

    class Refusing(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise InputError(f"--config {name}: {message}")

    parser = Refusing(prog=f"--config {name}", add_help=False)
    add_solve_options(parser, "config", given_only=True)
    try:
        spec = text.strip().removeprefix(PLANNER_PREFIX)
        words = ["--planner", spec] if spec != text.strip() else shlex.split(text)
    except ValueError as error:
        raise InputError(f"--config {name}: {error}") from None
    given = vars(parser.parse_args(words))
    flags = dict(solve_flags("config"))
    found = {
        field: flags[field].field_value(given[flag.dest])
        for field, flag in flags.items()
        if flag.dest in given
    }
    if "planner" in found and set(found) - WITH_PLANNER:
        others = " ".join(flags[field].flag for field in sorted(set(found) - WITH_PLANNER))
        raise InputError(
            f"--config {name}: a planner runs its own search: {others} is for hanoi-asp's "
            "(--max-moves alone applies to a planner)"
        )
    return name, found


def puzzle_and_options(args: argparse.Namespace, place: Place) -> tuple[Puzzle, SolveOptions]:
    """The instance and how to solve it, from the options the command ``place`` has."""
    from hanoi_asp.inputs.instance import load_puzzle
    from hanoi_asp.model.puzzle import Puzzle

    puzzle = load_puzzle(args.file, args.format, args.domain)
    if args.graph is not None:
        puzzle = Puzzle.model_validate({**puzzle.model_dump(), "moves_allowed": args.graph})
    options = solve_options(args, place, source=args.file, started=command_started())
    return puzzle, options


def command_started() -> float:
    """The ``time.monotonic()`` reading when this process started, so that ``--timeout``
    counts Python's start-up and the reading of the files too (Linux: the start time in
    ``/proc/self/stat``, on the boot-time clock); where it cannot be read, now."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0.0 <= age < 60.0 else now


def memory_limit(args: argparse.Namespace) -> int:
    """``--memory-limit``, else 80% of the machine's memory (one solve at a time)."""
    from hanoi_asp.processes import default_memory_limit

    return int(args.memory_limit or default_memory_limit())
