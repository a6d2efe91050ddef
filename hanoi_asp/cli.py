"""The command line: parse arguments, call the core, print text or JSON, map errors to exit codes.

Exit codes (also in ``--help`` and README):
0 a plan was found, 1 UNSATISFIABLE, 2 bad input or usage, 3 UNKNOWN (timeout or
interrupt), 4 internal error (a plan the simulator rejected: a bug or a broken encoding).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from rich.console import Console

from hanoi_asp.encodings import read_user_encoding
from hanoi_asp.errors import HanoiError, InputError
from hanoi_asp.instance import load_puzzle
from hanoi_asp.plan import states
from hanoi_asp.render import draw_board
from hanoi_asp.search import Result, SolveOptions, solve
from hanoi_asp.solver import is_incremental

EXIT_FOUND, EXIT_UNSAT, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_CODES = {
    "OPTIMUM FOUND": EXIT_FOUND,
    "SATISFIABLE": EXIT_FOUND,
    "UNSATISFIABLE": EXIT_UNSAT,
    "UNKNOWN": EXIT_UNKNOWN,
}
JSON_VERSION = 1

EPILOG = """exit codes:
  0  a plan was found (OPTIMUM FOUND, or SATISFIABLE with --moves)
  1  UNSATISFIABLE: no plan within the bound, or none of exactly --moves moves
  2  bad input or usage (one line on stderr naming the file and line)
  3  UNKNOWN: stopped by --timeout or Ctrl-C
  4  internal error: the simulator rejected a plan (a bug, or a broken --encoding)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Usage errors in one line, exit 2."""
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hanoi-asp",
        description="Proven-minimal Towers of Hanoi plans with clingo.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    solve_cmd = commands.add_parser(
        "solve",
        help="find a minimal plan (or decide a plan of exactly --moves moves)",
        description="Solve an instance: .lp facts (peg/1, disk/1, init_on/2, goal_on/2, "
        "moves/1; disk 1 is the largest) or a .json/.toml spec.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve_cmd.add_argument("file", help="instance file (.lp, .json or .toml)")
    solve_cmd.add_argument(
        "--moves",
        type=_natural,
        metavar="M",
        help="decide whether a plan of exactly M moves exists",
    )
    solve_cmd.add_argument(
        "--max-moves",
        type=_natural,
        metavar="N",
        help="search bound (default: the instance's moves/1, else 1000)",
    )
    solve_cmd.add_argument(
        "--mode",
        choices=("incremental", "oneshot"),
        default=None,
        help="multi-shot solving (default) or re-ground per horizon",
    )
    solve_cmd.add_argument(
        "--encoding", metavar="FILE", help="your own encoding using the same predicates"
    )
    solve_cmd.add_argument(
        "--bound",
        choices=("auto", "misplaced", "none"),
        default="auto",
        help="where the upward search starts: the best sound lower bound (default), "
        "the misplaced-disk count, or 0 (clingo refutes every shorter horizon)",
    )
    solve_cmd.add_argument(
        "--format",
        choices=("lp", "aspcomp", "json", "toml"),
        default=None,
        help="input format (default: from the file name)",
    )
    solve_cmd.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="S",
        help="give up after S seconds (result UNKNOWN, exit 3)",
    )
    solve_cmd.add_argument("--json", action="store_true", help="print one JSON object")
    solve_cmd.add_argument("--boards", action="store_true", help="draw the pegs after every move")
    return parser


def _natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(highlight=False, soft_wrap=True)
    try:
        result = _run_solve(args)
    except HanoiError as error:
        _report_error(args, error)
        return error.exit_code
    except KeyboardInterrupt:
        _report_error(args, InputError("interrupted before solving started"))
        return EXIT_UNKNOWN
    if args.json:
        print(json.dumps(result_json(result, args.file)))
    else:
        print_result(console, result, args.file, boards=args.boards)
    return EXIT_CODES[result.result]


def _run_solve(args: argparse.Namespace) -> Result:
    puzzle = load_puzzle(args.file, args.format)
    encoding = read_user_encoding(args.encoding) if args.encoding else None
    mode = args.mode
    if mode is None:
        mode = (
            "oneshot" if encoding is not None and not is_incremental(encoding) else ("incremental")
        )
    options = SolveOptions(
        mode=mode,
        max_moves=args.max_moves,
        exact_moves=args.moves,
        timeout=args.timeout,
        encoding=encoding,
        encoding_path=args.encoding or "encoding",
        bound=args.bound,
    )
    return solve(puzzle, options)


def _report_error(args: argparse.Namespace, error: HanoiError) -> None:
    label = "internal error" if error.exit_code == EXIT_INTERNAL else "error"
    sys.stderr.write(f"hanoi-asp: {label}: {error}\n")
    if getattr(args, "json", False):
        print(
            json.dumps(
                {
                    "version": JSON_VERSION,
                    "instance": args.file,
                    "result": "ERROR",
                    "error": str(error),
                    "exit_code": error.exit_code,
                }
            )
        )


def result_json(result: Result, instance: str) -> dict[str, Any]:
    """The ``--json`` object: version 1 keys first, then extras."""
    return {
        "version": JSON_VERSION,
        "instance": instance,
        "result": result.result,
        "length": result.length,
        "lower_bound": result.lower_bound.value,
        "plan": [move.as_dict() for move in result.plan or ()],
        "time_s": round(result.time_s, 4),
        "bound": result.lower_bound.as_dict(),
        "proof": result.proof,
        "mode": result.mode,
        "max_moves": result.max_moves,
        "moves": result.exact_moves,
        "stopped": result.stopped,
        "horizons": [run.as_dict() for run in result.horizons],
    }


def print_result(console: Console, result: Result, instance: str, *, boards: bool) -> None:
    puzzle = result.puzzle
    console.print(
        f"instance: {instance} ({len(puzzle.pegs)} pegs, {puzzle.disks} disks)", markup=False
    )
    style = {
        "OPTIMUM FOUND": "bold green",
        "SATISFIABLE": "green",
        "UNSATISFIABLE": "bold red",
        "UNKNOWN": "bold yellow",
    }[result.result]
    length = "" if result.length is None else f", {result.length} moves"
    console.print(f"result:   {result.result}{length}", style=style, markup=False)
    console.print(f"proof:    {result.proof}", markup=False)
    if result.plan is not None:
        pictures = states(puzzle, result.plan) if boards else []
        if boards:
            console.print(draw_board(puzzle, pictures[0]), markup=False)
        for move in result.plan:
            console.print(str(move), markup=False)
            if boards:
                console.print(draw_board(puzzle, pictures[move.step]), markup=False)
    solved = len(result.horizons)
    console.print(
        f"time:     {result.time_s:.3f} s ({result.mode}, {solved} horizon(s) solved)",
        markup=False,
        style="dim",
    )
