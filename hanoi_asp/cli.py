"""The command line: parse arguments, call the core, print text or JSON, map errors to exit codes.

Exit codes (also in ``--help`` and README):
0 a plan was found, 1 UNSATISFIABLE, 2 bad input or usage, 3 UNKNOWN (timeout or
interrupt), 4 internal error (a plan the simulator rejected: a bug or a broken encoding).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from hanoi_asp.encodings import read_user_encoding
from hanoi_asp.errors import HanoiError, InputError
from hanoi_asp.instance import load_puzzle
from hanoi_asp.limits import Limits
from hanoi_asp.plan import states
from hanoi_asp.render import draw_board
from hanoi_asp.report import error_json, result_json
from hanoi_asp.search import METHODS, Mode, Result, SolveOptions, solve
from hanoi_asp.solver import is_incremental
from hanoi_asp.spec import GRAPH_PRESETS, Puzzle

EXIT_FOUND, EXIT_UNSAT, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_CODES = {
    "OPTIMUM FOUND": EXIT_FOUND,
    "SATISFIABLE": EXIT_FOUND,
    "UNSATISFIABLE": EXIT_UNSAT,
    "UNKNOWN": EXIT_UNKNOWN,
}

BATCH_EPILOG = """exit codes:
  0  every instance answered (a plan found)
  1  some instance UNSATISFIABLE or UNKNOWN (timeout)
  2  some instance could not be read or solved (ERROR rows), or bad usage
  3  interrupted (Ctrl-C); every finished result is kept in --out
"""

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
    _add_common(solve_cmd)
    _add_asp_options(solve_cmd)
    solve_cmd.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
    solve_cmd.add_argument("--json", action="store_true", help="print one JSON object")
    solve_cmd.add_argument("--boards", action="store_true", help="draw the pegs after every move")
    batch_cmd = commands.add_parser(
        "batch",
        help="solve many instance files, each in its own worker process",
        description="Solve every instance in PATHs (files, or folders walked recursively "
        "for .lp/.asp/.json/.toml) in parallel worker processes with a hard per-instance "
        "time limit; one JSON line per instance is appended to --out as it finishes.",
        epilog=BATCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    batch_cmd.add_argument("paths", nargs="+", metavar="PATH")
    batch_cmd.add_argument(
        "--workers",
        type=_positive_int,
        default=os.cpu_count() or 1,
        help="worker processes (default: the number of cores)",
    )
    batch_cmd.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="S",
        help="per-instance limit; a worker over it is killed (UNKNOWN)",
    )
    batch_cmd.add_argument(
        "--out", default="results.jsonl", help="JSON lines results file (default: results.jsonl)"
    )
    batch_cmd.add_argument("--csv", metavar="FILE", help="also write a CSV table at the end")
    batch_cmd.add_argument(
        "--resume",
        action="store_true",
        help="skip instances already in --out with unchanged content",
    )
    batch_cmd.add_argument("--mode", choices=("incremental", "oneshot"), default="incremental")
    batch_cmd.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
    batch_cmd.add_argument("--max-moves", type=_natural, metavar="N")
    batch_cmd.add_argument(
        "--threads",
        type=_thread_count,
        metavar="N",
        help="clingo's search threads per worker (default: the cores shared among the "
        "workers, at least 1)",
    )
    batch_cmd.add_argument(
        "--limit", action="append", default=[], metavar="KEY=N", type=_limit_item, help=LIMIT_HELP
    )

    explain_cmd = commands.add_parser(
        "explain",
        help="teaching mode: facts, encoding, solver work per horizon, why not shorter",
        description="Show the instance as facts, the encoding section by section "
        "(Generate / Define / Test / Display) with each rule's comment, every horizon's "
        "ground program size and solver work, why one move fewer is impossible, and "
        "the plan with boards.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    explain_cmd.add_argument("file", help="instance file")
    _add_common(explain_cmd)
    _add_asp_options(explain_cmd)
    explain_cmd.add_argument("--json", action="store_true", help="print one JSON object")

    render_cmd = commands.add_parser(
        "render",
        help="draw a minimal plan: SVG strip, GIF animation, PNG sheet",
        description="Solve FILE and draw every state of the plan (the moved disk "
        "highlighted). Give at least one of --svg, --gif, --png.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    render_cmd.add_argument("file", help="instance file")
    _add_common(render_cmd)
    render_cmd.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
    render_cmd.add_argument("--svg", metavar="OUT", help="write an SVG strip of frames")
    render_cmd.add_argument("--gif", metavar="OUT", help="write a GIF animation")
    render_cmd.add_argument("--png", metavar="OUT", help="write a PNG sheet of frames")
    render_cmd.add_argument(
        "--frame-ms", type=_positive_int, default=500, help="GIF time per frame (default 500)"
    )

    grade_cmd = commands.add_parser(
        "grade",
        help="check a student's encoding against the reference on a set of instances",
        description="Run ENCODING on each instance (default: the shipped teaching set) "
        "at every horizon up to the optimum and compare with the reference: illegal "
        "plans (the first illegal move drawn), goals not reached, plans longer than "
        "optimal, UNSATISFIABLE where a plan exists, horizons answered differently.",
        epilog="exit codes:\n  0  every instance passes\n  1  some instance fails\n"
        "  2  bad input (unreadable encoding or instance)\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    grade_cmd.add_argument("instances", nargs="*", metavar="INSTANCE")
    grade_cmd.add_argument("--encoding", required=True, metavar="FILE")
    grade_cmd.add_argument(
        "--timeout",
        type=_positive_float,
        default=10.0,
        metavar="S",
        help="per horizon (default 10)",
    )
    grade_cmd.add_argument("--json", action="store_true", help="print one JSON object")

    generate_cmd = commands.add_parser(
        "generate", help="write random instance files (arbitrary start and goal)"
    )
    generate_cmd.add_argument("outdir")
    generate_cmd.add_argument("--pegs", type=_positive_int, required=True)
    generate_cmd.add_argument("--disks", type=_positive_int, required=True)
    generate_cmd.add_argument("--count", type=_positive_int, required=True)
    generate_cmd.add_argument("--seed", type=int, default=0)
    generate_cmd.add_argument("--partial", action="store_true", help="goals name only some disks")
    return parser


def _add_common(command: argparse.ArgumentParser) -> None:
    """Options every command that solves one instance shares."""
    command.add_argument(
        "--format",
        choices=("lp", "aspcomp", "json", "toml"),
        default=None,
        help="input format (default: from the file name)",
    )
    command.add_argument(
        "--max-moves",
        type=_natural,
        metavar="N",
        help="search bound (default: the instance's moves/1, else 1000)",
    )
    command.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="S",
        help="give up after S seconds (result UNKNOWN, exit 3)",
    )
    command.add_argument(
        "--graph",
        choices=GRAPH_PRESETS,
        help="replace the instance's move graph: complete (any peg to any other), linear "
        "(adjacent pegs, both ways) or cyclic (each peg to the next, one way)",
    )
    command.add_argument(
        "--limit", action="append", default=[], metavar="KEY=N", type=_limit_item, help=LIMIT_HELP
    )


def _add_asp_options(command: argparse.ArgumentParser) -> None:
    """How the ASP planner runs: ``solve`` and ``explain``."""
    command.add_argument(
        "--mode",
        choices=("incremental", "oneshot"),
        default=None,
        help="multi-shot solving (default) or re-ground per horizon (the quickstart encoding)",
    )
    command.add_argument(
        "--encoding", metavar="FILE", help="your own encoding using the same predicates"
    )
    command.add_argument(
        "--bound",
        choices=("auto", "misplaced", "none"),
        default="auto",
        help="where the upward search starts: the best sound lower bound (default), "
        "the misplaced-disk count, or 0 (clingo refutes every shorter horizon)",
    )
    command.add_argument("--threads", type=_thread_count, metavar="N", help=THREADS_HELP)


LIMIT_HELP = (
    "raise or lower a size limit checked before grounding: disks=N (default 64), pegs=N "
    "(32), cells=N (horizon x disks x pegs, 400000), states=N (stored by --method bfs, "
    "5000000); repeatable"
)
METHOD_HELP = (
    "asp (default): clingo, proven minimal; recursive: the classic 3-peg recursion "
    "(whole tower); frame-stewart: whole tower on 3+ pegs (minimal for 3 and 4 pegs); "
    "bfs: breadth-first search over states (any instance, minimal)"
)


def _limit_item(text: str) -> str:
    try:
        Limits.parse([text])
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


THREADS_HELP = (
    "clingo's search threads, 1-64 (default: 2 for the incremental engine, 1 for "
    "--mode oneshot and for explain, whose statistics should be the same every run)"
)


def _thread_count(text: str) -> int:
    value = _positive_int(text)
    if value > 64:
        raise argparse.ArgumentTypeError("clingo runs at most 64 threads")
    return value


def _positive_int(text: str) -> int:
    value = _natural(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


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
    if args.command == "batch":
        return _batch(args)
    if args.command == "generate":
        return _generate(args)
    if args.command == "grade":
        return _grade(args)
    console = Console(highlight=False, soft_wrap=True)
    if args.command == "explain":
        return _explain(args, console)
    if args.command == "render":
        return _render(args, console)
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
    return solve(*_puzzle_and_options(args))


def _puzzle_and_options(args: argparse.Namespace) -> tuple[Puzzle, SolveOptions]:
    """The instance and how to solve it, from the options a command has."""
    puzzle = load_puzzle(args.file, args.format)
    if args.graph is not None:
        puzzle = Puzzle.model_validate({**puzzle.model_dump(), "moves_allowed": args.graph})
    path = getattr(args, "encoding", None)
    encoding = read_user_encoding(path) if path else None
    mode: Mode = getattr(args, "mode", None) or (
        "oneshot" if encoding is not None and not is_incremental(encoding) else "incremental"
    )
    options = SolveOptions(
        method=getattr(args, "method", "asp"),
        mode=mode,
        max_moves=args.max_moves,
        exact_moves=getattr(args, "moves", None),
        timeout=args.timeout,
        encoding=encoding,
        encoding_path=path or "encoding",
        bound=getattr(args, "bound", "auto"),
        threads=getattr(args, "threads", None),
        limits=Limits.parse(args.limit),
        source=args.file,
    )
    return puzzle, options


def _explain(args: argparse.Namespace, console: Console) -> int:
    from hanoi_asp.explain import explain
    from hanoi_asp.views import print_explanation

    try:
        explanation = explain(*_puzzle_and_options(args))
    except HanoiError as error:
        _report_error(args, error)
        return error.exit_code
    except KeyboardInterrupt:
        _report_error(args, InputError("interrupted"))
        return EXIT_UNKNOWN
    if args.json:
        print(json.dumps(explanation.as_dict(args.file)))
    else:
        print_explanation(console, explanation, args.file)
    return EXIT_CODES[explanation.result.result]


def _render(args: argparse.Namespace, console: Console) -> int:
    from hanoi_asp.pictures import plan_svg, write_gif, write_png

    if not (args.svg or args.gif or args.png):
        sys.stderr.write("hanoi-asp render: error: give at least one of --svg, --gif, --png\n")
        return EXIT_BAD_INPUT
    try:
        result = _run_solve(args)
    except HanoiError as error:
        _report_error(args, error)
        return error.exit_code
    if result.plan is None:
        console.print(f"{args.file}: {result.result}: no plan to draw ({result.proof})")
        return EXIT_CODES[result.result]
    try:
        if args.svg:
            Path(args.svg).write_text(plan_svg(result.puzzle, result.plan), encoding="utf-8")
            console.print(f"wrote {args.svg} ({len(result.plan) + 1} frames)")
        if args.gif:
            frames = write_gif(result.puzzle, result.plan, Path(args.gif), args.frame_ms)
            console.print(f"wrote {args.gif} ({frames} frames)")
        if args.png:
            frames = write_png(result.puzzle, result.plan, Path(args.png))
            console.print(f"wrote {args.png} ({frames} frames)")
    except OSError as error:
        sys.stderr.write(f"hanoi-asp: error: {error.filename}: {error.strerror or error}\n")
        return EXIT_BAD_INPUT
    return EXIT_CODES[result.result]


def _grade(args: argparse.Namespace) -> int:
    from hanoi_asp.grade import grade, teaching_set
    from hanoi_asp.views import print_grade

    instances = args.instances or teaching_set()
    try:
        encoding = read_user_encoding(args.encoding)
        for instance in instances:
            load_puzzle(instance)  # every instance readable before any grading starts
        report = grade(encoding, args.encoding, instances, args.timeout)
    except HanoiError as error:
        sys.stderr.write(f"hanoi-asp: error: {error}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("hanoi-asp: interrupted\n")
        return EXIT_UNKNOWN
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print_grade(Console(highlight=False), report)
    return 0 if report.passed else 1


def _report_error(args: argparse.Namespace, error: HanoiError) -> None:
    label = "internal error" if error.exit_code == EXIT_INTERNAL else "error"
    sys.stderr.write(f"hanoi-asp: {label}: {error}\n")
    if getattr(args, "json", False) and args.command == "solve":
        print(json.dumps(error_json(args.file, str(error), error.exit_code)))


def print_result(console: Console, result: Result, instance: str, *, boards: bool) -> None:
    puzzle = result.puzzle
    graph = puzzle.graph_name()
    variant = "" if graph == "complete" else f", {graph} move graph"
    console.print(
        f"instance: {instance} ({len(puzzle.pegs)} pegs, {puzzle.disks} disks{variant})",
        markup=False,
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
    if result.method == "asp":
        threads = f"{result.threads} thread{'s' if result.threads != 1 else ''}"
        how = f"{result.mode}, {threads}, {solved} horizon(s) solved"
    else:
        how = f"method {result.method}"
    console.print(f"time:     {result.time_s:.3f} s ({how})", markup=False, style="dim")


def _batch(args: argparse.Namespace) -> int:
    from hanoi_asp.batch import (
        BatchOptions,
        find_instances,
        read_results,
        run_batch,
        summarize,
        write_csv,
    )

    err = Console(stderr=True, highlight=False)
    try:
        files = find_instances(args.paths)
    except HanoiError as error:
        sys.stderr.write(f"hanoi-asp: error: {error}\n")
        return EXIT_BAD_INPUT
    options = BatchOptions(
        workers=args.workers,
        timeout=args.timeout,
        out=Path(args.out),
        resume=args.resume,
        solve=SolveOptions(
            method=args.method,
            mode=args.mode,
            max_moves=args.max_moves,
            threads=args.threads or max(1, (os.cpu_count() or 1) // args.workers),
            limits=Limits.parse(args.limit),
        ),
    )
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task("solving", total=len(files))
        done = 0

        def on_row(row: dict[str, object]) -> None:
            nonlocal done
            done += 1
            progress.advance(task)
            if not err.is_terminal:
                length = "" if row.get("length") is None else f" {row['length']}"
                print(
                    f"[{done}/{len(files)}] {row['instance']}: {row['result']}{length} "
                    f"({row.get('time_s', '?')} s)",
                    flush=True,
                )

        try:
            rows = run_batch(files, options, on_row)
        except KeyboardInterrupt:
            sys.stderr.write(f"hanoi-asp: interrupted; finished results are in {args.out}\n")
            return EXIT_UNKNOWN
    summary = summarize(rows)
    if args.csv:
        write_csv(read_results(options.out), Path(args.csv))
    _print_summary(Console(highlight=False), summary, len(files))
    return int(summary["exit_code"])


def _print_summary(console: Console, summary: dict[str, Any], total: int) -> None:
    table = Table(title=f"{total} instance(s)")
    table.add_column("result")
    table.add_column("count", justify="right")
    for name, count in summary["counts"].items():
        table.add_row(name, str(count))
    if summary["resumed"]:
        table.add_row("resumed (skipped)", str(summary["resumed"]))
    table.add_row("total solve time", f"{summary['total_s']:.2f} s")
    for instance, seconds in summary["slowest"]:
        table.add_row(f"slowest: {instance}", f"{seconds:.2f} s")
    console.print(table)


def _generate(args: argparse.Namespace) -> int:
    from hanoi_asp.generate import write_instances

    try:
        written = write_instances(
            Path(args.outdir),
            pegs=args.pegs,
            disks=args.disks,
            count=args.count,
            seed=args.seed,
            partial=args.partial,
        )
    except OSError as error:
        sys.stderr.write(f"hanoi-asp: error: {args.outdir}: {error.strerror or error}\n")
        return EXIT_BAD_INPUT
    print(f"wrote {len(written)} instance(s) to {args.outdir}")
    return 0
