"""How an instance is solved, on the command line: the solve options of ``solve``,
``explain``, ``render`` and ``batch``, the ``--config`` grammar, and the
:class:`~hanoi_asp.model.options.SolveOptions` made from them."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import time
from typing import Any, NoReturn

from hanoi_asp.cli.grammar import natural, positive_float, positive_int, size
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import BOUND_CHOICES, MAX_THREADS, Encoding, SolveOptions
from hanoi_asp.model.puzzle import GRAPH_PRESETS, Puzzle
from hanoi_asp.model.result import METHODS, MODES

LIMIT_HELP = (
    "raise or lower a size limit checked before grounding: disks=N (default 64), pegs=N "
    "(32), cells=N (horizon x disks x pegs, 400000), states=N (stored by --method bfs, "
    "5000000), moves=N (longest plan built without clingo, 200000); repeatable"
)
METHOD_HELP = (
    "asp (default): clingo, proven minimal; recursive: the classic 3-peg recursion "
    "(whole tower); frame-stewart: whole tower on 3+ pegs (minimal for 3 and 4 pegs); "
    "bfs: breadth-first search over states (any instance, minimal); astar: A* with "
    "pattern-database estimates (any instance, minimal)"
)
MODE_HELP = (
    "incremental: multi-shot solving, one control for all horizons (default); oneshot: "
    "re-ground the quickstart encoding per horizon (the benchmark's baseline)"
)
THREADS_HELP = (
    f"clingo's search threads, 1-{MAX_THREADS} (default: 2 for the incremental engine, 1 for "
    "--mode oneshot and for explain, whose statistics should be the same every run)"
)
MAX_MOVES_HELP = (
    "no plan longer than N (default: the instance's moves/1, else no bound: the search "
    "ends with a proven-minimal plan or a proof that none exists)"
)
PATTERNS_HELP = (
    "4+ pegs: do not check pattern-database estimates inside clingo's search (the lower "
    "bound still uses them); to measure what the check brings"
)
ASTAR_HELP = (
    "4+ pegs: do not race A* on the pattern tables against clingo on a spare core; "
    "clingo's refutations alone prove the bound (slower on some hard puzzles)"
)
CACHE_HELP = (
    "build pattern tables in memory only: neither read nor write the on-disk cache "
    "($HANOI_ASP_CACHE_DIR, else $XDG_CACHE_HOME/hanoi-asp or ~/.cache/hanoi-asp)"
)
FIRST_PLAN_HELP = (
    "do not build a plan before the search: clingo finds every plan (no upper bound "
    "until it does; for measuring the ASP engine alone)"
)


def add_common(command: argparse.ArgumentParser, *, max_moves: bool = True) -> None:
    """Options every command that solves one instance shares."""
    command.add_argument(
        "--format",
        choices=("lp", "aspcomp", "json", "toml"),
        default=None,
        help="input format (default: from the file name)",
    )
    if max_moves:
        command.add_argument("--max-moves", type=natural, metavar="N", help=MAX_MOVES_HELP)
    command.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="stop after S seconds with the best plan found so far (SATISFIABLE, exit 0), "
        "or UNKNOWN (exit 3) if there is none",
    )
    command.add_argument(
        "--graph",
        choices=GRAPH_PRESETS,
        help="replace the instance's move graph: complete (any peg to any other), linear "
        "(adjacent pegs, both ways) or cyclic (each peg to the next, one way)",
    )
    add_limit(command)


def add_limit(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--limit", action="append", default=[], metavar="KEY=N", type=limit_item, help=LIMIT_HELP
    )


def add_asp_options(command: argparse.ArgumentParser) -> None:
    """How the ASP planner runs: ``solve`` and ``explain``."""
    command.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help=MODE_HELP + "; with --encoding, from its layout (#program step(t) or not)",
    )
    command.add_argument(
        "--encoding", metavar="FILE", help="your own encoding using the same predicates"
    )
    command.add_argument(
        "--bound",
        choices=BOUND_CHOICES,
        default="auto",
        help="where the upward search starts: the best sound lower bound (default), "
        "the misplaced-disk count, or 0 (clingo refutes every shorter horizon)",
    )
    command.add_argument("--threads", type=thread_count, metavar="N", help=THREADS_HELP)
    add_memory_limit(command)


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


def limit_item(text: str) -> str:
    try:
        Limits.parse([text])
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def thread_count(text: str) -> int:
    value = positive_int(text)
    if value > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"clingo runs at most {MAX_THREADS} threads")
    return value


CONFIG_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,40}")


def config_options(item: str) -> tuple[str, dict[str, Any]]:
    """``NAME=OPTIONS`` of ``batch --config``: the name and the options changed, as
    :class:`~hanoi_asp.model.options.SolveOptions` fields (``encoding`` a path)."""
    name, sep, text = item.partition("=")
    if not sep or not CONFIG_NAME.fullmatch(name):
        raise InputError(
            f"--config takes NAME=OPTIONS with a NAME of letters, digits, . _ + -: {item!r}"
        )

    class Refusing(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise InputError(f"--config {name}: {message}")

    parser = Refusing(prog=f"--config {name}", add_help=False)
    parser.add_argument("--method", choices=METHODS)
    parser.add_argument("--mode", choices=MODES)
    parser.add_argument("--max-moves", type=natural, dest="max_moves")
    parser.add_argument("--threads", type=thread_count)
    parser.add_argument("--bound", choices=BOUND_CHOICES)
    parser.add_argument("--encoding")
    parser.add_argument("--no-first-plan", action="store_false", dest="first_plan", default=None)
    parser.add_argument("--no-patterns", action="store_false", dest="patterns", default=None)
    parser.add_argument("--no-astar", action="store_false", dest="astar", default=None)
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise InputError(f"--config {name}: {error}") from None
    given = parser.parse_args(words)
    return name, {key: value for key, value in vars(given).items() if value is not None}


def puzzle_and_options(args: argparse.Namespace) -> tuple[Puzzle, SolveOptions]:
    """The instance and how to solve it, from the options a command has."""
    from hanoi_asp.inputs.instance import load_puzzle

    puzzle = load_puzzle(args.file, args.format)
    if args.graph is not None:
        puzzle = Puzzle.model_validate({**puzzle.model_dump(), "moves_allowed": args.graph})
    path = getattr(args, "encoding", None)
    options = SolveOptions(
        method=getattr(args, "method", "asp"),
        mode=getattr(args, "mode", None),
        max_moves=args.max_moves,
        exact_moves=getattr(args, "moves", None),
        timeout=args.timeout,
        encoding=Encoding.from_file(path) if path else None,
        bound=getattr(args, "bound", "auto"),
        threads=getattr(args, "threads", None),
        limits=Limits.parse(args.limit),
        source=args.file,
        first_plan=not getattr(args, "no_first_plan", False),
        patterns=not getattr(args, "no_patterns", False),
        astar=not getattr(args, "no_astar", False),
        table_cache=not getattr(args, "no_cache", False),
        started=command_started(),
    )
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
    from hanoi_asp.engine import default_memory_limit

    return int(args.memory_limit or default_memory_limit())
