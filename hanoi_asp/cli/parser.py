"""The command line's grammar: every command, option, argument type and help text.

Usage errors are one line on stderr and exit 2 (:data:`EXIT_BAD_INPUT`).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from typing import Any, NoReturn

from hanoi_asp import __version__
from hanoi_asp.model.errors import EXIT_BAD_INPUT, InputError
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import BOUND_CHOICES, MAX_THREADS
from hanoi_asp.model.puzzle import GRAPH_PRESETS
from hanoi_asp.model.result import METHODS, MODES

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

RENDER_EPILOG = """exit codes:
  0  a plan was found and drawn
  1  UNSATISFIABLE: no plan to draw
  2  bad input or usage, or an output file that cannot be written
  3  UNKNOWN: stopped by --timeout or Ctrl-C before any plan was found
  4  internal error: the simulator rejected a plan of hanoi-asp's own engine (a bug)
"""

BATCH_EPILOG = """exit codes:
  0  every instance answered (a plan found)
  1  some instance UNSATISFIABLE or UNKNOWN (stopped without a plan)
  2  some instance could not be read or solved (ERROR rows), or bad usage: no
     instance files, an --out that holds results without --resume or --force, an
     --out another batch is writing
  3  interrupted (Ctrl-C); every finished result is kept in --out, and the summary
     and --csv are still written
"""

GRADE_EPILOG = """exit codes:
  0  every instance passes
  1  some instance fails
  2  bad input (unreadable encoding or instance, or not a whole encoding)
  3  interrupted (Ctrl-C)
"""

SERVE_EPILOG = """exit codes:
  0  stopped by Ctrl-C
  2  bad usage, or the address cannot be listened on (e.g. the port is taken)

The API (POST JSON to /api/solve, /api/explain, /api/grade, /api/hint) answers with
the CLI's --json objects; README's "Web playground" section documents it.
"""

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
    parser.add_argument("--version", action="version", version=f"hanoi-asp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _solve(commands)
    _batch(commands)
    _report(commands)
    _explain(commands)
    _render(commands)
    _grade(commands)
    _generate(commands)
    _serve(commands)
    _site(commands)
    return parser


def _command(
    commands: argparse._SubParsersAction,  # type: ignore[type-arg]
    name: str,
    help_: str,
    description: str,
    epilog: str = EPILOG,
) -> argparse.ArgumentParser:
    command: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help_,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return command


def _solve(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "solve",
        "find a minimal plan (or decide a plan of exactly --moves moves)",
        "Solve an instance: .lp facts (peg/1, disk/1, init_on/2, goal_on/2, moves/1, "
        "edge/2; disk 1 is the largest), an .asp file of the ASP Competition, or a "
        ".json/.toml spec.",
    )
    command.add_argument("file", help=INSTANCE_HELP)
    horizon = command.add_mutually_exclusive_group()
    horizon.add_argument(
        "--moves",
        type=_natural,
        metavar="M",
        help="decide whether a plan of exactly M moves exists",
    )
    horizon.add_argument("--max-moves", type=_natural, metavar="N", help=MAX_MOVES_HELP)
    _add_common(command, max_moves=False)
    _add_asp_options(command)
    command.add_argument("--no-first-plan", action="store_true", help=FIRST_PLAN_HELP)
    command.add_argument("--no-patterns", action="store_true", help=PATTERNS_HELP)
    command.add_argument("--no-astar", action="store_true", help=ASTAR_HELP)
    command.add_argument("--no-cache", action="store_true", help=CACHE_HELP)
    command.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
    output = command.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument(
        "--facts",
        action="store_true",
        help="print the plan as ASP facts move(D,P,T). (nothing if there is no plan)",
    )
    command.add_argument("--boards", action="store_true", help="draw the pegs after every move")


def _batch(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "batch",
        "solve many instance files, each in its own worker process",
        "Solve every instance in PATHs (files, or folders walked recursively for "
        ".lp/.asp/.json/.toml) in parallel worker processes with a hard per-instance "
        "time limit; one JSON line per instance is appended to --out as it finishes.",
        BATCH_EPILOG,
    )
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help="instance files, or folders to walk"
    )
    command.add_argument(
        "--workers",
        type=_positive_int,
        default=os.cpu_count() or 1,
        help="worker processes (default: the number of cores)",
    )
    command.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="S",
        help="per-instance limit: the best plan found by then (SATISFIABLE), else "
        "UNKNOWN; a worker still running a few seconds later is killed",
    )
    command.add_argument(
        "--out",
        default="results.jsonl",
        help="JSON lines results file (default: results.jsonl), locked while the batch "
        "runs; one that holds results needs --resume or --force",
    )
    command.add_argument("--csv", metavar="FILE", help="also write a CSV table at the end")
    command.add_argument(
        "--resume",
        action="store_true",
        help="keep --out and skip instances already in it with unchanged content (a torn "
        "last line of a killed batch is cut off first)",
    )
    command.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler's address (tcp://host:8786), local "
        "/ local:N for N worker processes on this machine (needs pip install "
        "'hanoi-asp[dask]'), or slurm:N for N worker jobs submitted to Slurm (needs "
        "'hanoi-asp[slurm]'); each instance still runs in its own process on a worker",
    )
    command.add_argument(
        "--slurm-option",
        action="append",
        default=[],
        type=_key_value,
        metavar="KEY=VALUE",
        help="with --dask slurm:N, a worker job's setting (repeatable): partition, "
        "account, cores (threads per job, default 1), memory (per job, default 2GiB), "
        "walltime, job-extra-directives (another #SBATCH line), job-script-prologue, "
        "log-directory, python, ... (dask-jobqueue's SLURMCluster names; README: Batch)",
    )
    command.add_argument(
        "--memory-limit",
        type=_size,
        metavar="SIZE",
        help="address space an instance may add to what its worker holds, e.g. 4GiB or "
        "512MiB (default: 80%% of the machine's memory shared among the workers); an "
        'instance over it is UNKNOWN with stopped "memory" and the batch goes on',
    )
    command.add_argument(
        "--force",
        action="store_true",
        help="replace an --out file that already holds results (without it, that is refused)",
    )
    command.add_argument(
        "--retry",
        action="append",
        default=[],
        choices=("unknown", "error", "satisfiable", "timeout"),
        help="with --resume: run again the instances whose row was UNKNOWN, ERROR, "
        "SATISFIABLE (a plan not proven minimal: give a longer --timeout) or stopped by "
        "the time limit; repeatable",
    )
    command.add_argument(
        "--encoding",
        action="append",
        default=[],
        metavar="FILE",
        help="run every instance with this encoding too, as a configuration named by the "
        "file's stem (each row's \"config\"); repeatable",
    )
    command.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="NAME=OPTIONS",
        help='a named configuration of solve\'s options, e.g. astar="--method astar" or '
        'mine="--encoding my.lp --threads 1"; repeatable (default: one configuration, '
        '"default", of the options below)',
    )
    command.add_argument("--mode", choices=MODES, default=None, help=MODE_HELP)
    command.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
    command.add_argument("--max-moves", type=_natural, metavar="N", help=MAX_MOVES_HELP)
    command.add_argument("--no-first-plan", action="store_true", help=FIRST_PLAN_HELP)
    command.add_argument("--no-patterns", action="store_true", help=PATTERNS_HELP)
    command.add_argument("--no-astar", action="store_true", help=ASTAR_HELP)
    command.add_argument("--no-cache", action="store_true", help=CACHE_HELP)
    command.add_argument(
        "--threads",
        type=_thread_count,
        metavar="N",
        help="clingo's search threads per worker (default: the cores shared among the "
        "workers, at least 1)",
    )
    _add_limit(command)


def _report(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "report",
        "summarize batch results: a table per configuration and family, plots",
        "Summarize the JSON lines of one or more batch results files: per configuration "
        "(a row's \"config\", else the file's name) and family (the instance's folder): "
        "instances, solved, proven, timeouts, errors, median and total time, PAR-2. Exit 1 "
        "when two configurations prove optima of different lengths on an instance (each "
        "printed on a DISAGREE line), 2 on a file or line that is not results.",
    )
    command.add_argument(
        "results", nargs="+", metavar="RESULTS.jsonl", help="results files of hanoi-asp batch"
    )
    command.add_argument(
        "--by",
        choices=("config", "family"),
        default="config",
        help="group by configuration, then family (default), or by family, then configuration",
    )
    command.add_argument("--csv", metavar="FILE", help="also write the summary as CSV")
    command.add_argument(
        "--html",
        metavar="FILE",
        help="also write one self-contained HTML page: the table, a cactus plot and, for "
        "two configurations, a scatter plot (plots need pip install 'hanoi-asp[report]')",
    )
    command.add_argument(
        "--plots",
        metavar="DIR",
        help="also write the plots as SVG and PNG files in DIR (cactus, scatter)",
    )
    command.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="S",
        help="the batches' time limit for PAR-2 (default: per configuration, the longest "
        "time of its timed-out rows)",
    )


def _explain(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "explain",
        "teaching mode: facts, encoding, solver work per horizon, why not shorter",
        "Show the instance as facts, the encoding section by section "
        "(Generate / Define / Test / Display) with each rule's comment, every horizon's "
        "ground program size and solver work, why one move fewer is impossible, and "
        "the plan with boards.",
    )
    command.add_argument("file", help=INSTANCE_HELP)
    _add_common(command)
    _add_asp_options(command)
    command.add_argument("--no-cache", action="store_true", help=CACHE_HELP)
    command.add_argument("--json", action="store_true", help="print one JSON object")


def _render(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "render",
        "draw a minimal plan: SVG strip, GIF animation, PNG sheet, HTML player",
        "Solve FILE and draw the goal and every state of the plan (the moved disk "
        "highlighted). Give at least one of --svg, --gif, --png, --html.",
        RENDER_EPILOG,
    )
    command.add_argument("file", help=INSTANCE_HELP)
    _add_common(command)
    command.add_argument("--method", choices=METHODS, default="asp", help=METHOD_HELP)
    command.add_argument("--svg", metavar="OUT", help="write an SVG strip of frames")
    command.add_argument("--gif", metavar="OUT", help="write a GIF animation")
    command.add_argument(
        "--png",
        metavar="OUT",
        help="write a PNG sheet of frames (a long plan: its first states, a gap mark, the last)",
    )
    command.add_argument(
        "--html",
        metavar="OUT",
        help="write one self-contained HTML page (no network) that plays the plan: "
        "play, pause, step back and forward, speed",
    )
    command.add_argument(
        "--frame-ms", type=_positive_int, default=500, help="GIF time per frame (default 500)"
    )
    command.add_argument(
        "--scale",
        type=float,
        default=None,
        metavar="F",
        help="enlarge (or shrink) the SVG, GIF and PNG pictures, 0.5-8 (default 1, and for "
        "the GIF whatever makes it at least 640 px wide; 2 or 3 for a projector)",
    )


def _grade(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "grade",
        "check a student's encoding against the reference on a set of instances",
        "Run ENCODING on each instance (default: the shipped teaching set) at every "
        "horizon up to the optimum and compare with the reference: illegal plans (the "
        "first illegal move drawn), goals not reached, plans longer than optimal, "
        "UNSATISFIABLE where a plan exists, horizons answered differently; clingo's "
        "warnings about the encoding are shown too.",
        GRADE_EPILOG,
    )
    command.add_argument(
        "instances", nargs="*", metavar="INSTANCE", help="instance files (default: teaching set)"
    )
    command.add_argument(
        "--encoding", required=True, metavar="FILE", help="the encoding to grade (a whole one)"
    )
    command.add_argument(
        "--timeout",
        type=_positive_float,
        default=10.0,
        metavar="S",
        help="per horizon (default 10)",
    )
    command.add_argument("--json", action="store_true", help="print one JSON object")
    _grade_random(command)
    _add_memory_limit(command)


def _grade_random(command: argparse.ArgumentParser) -> None:
    """grade's random puzzles, counterexample and autograder formats (issue 32)."""
    command.add_argument(
        "--random",
        type=_natural,
        default=0,
        metavar="N",
        help="after the instances, N random puzzles from small to large (default 0); the "
        "first failure is shrunk to a smallest counterexample",
    )
    command.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    command.add_argument(
        "--max-disks", type=_positive_int, default=7, metavar="D", help="(default 7)"
    )
    command.add_argument(
        "--max-pegs", type=_positive_int, default=5, metavar="K", help="(default 5)"
    )
    command.add_argument(
        "--graphs",
        action="store_true",
        help="random puzzles include restricted move graphs (the default when the "
        "encoding mentions edge/2)",
    )
    command.add_argument(
        "--format",
        choices=("text", "junit", "gradescope"),
        default="text",
        help="junit: JUnit XML; gradescope: Gradescope's results.json (default: text)",
    )


def _generate(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "generate",
        "write random instance files (arbitrary start and goal)",
        "Write COUNT random .lp instances to OUTDIR: every disk on a random peg at the "
        "start and in the goal.  The same seed writes the same files.",
        "exit codes:\n  0  files written\n  2  bad usage, or OUTDIR cannot be written\n",
    )
    command.add_argument("outdir", help="folder to write to (made if missing)")
    command.add_argument("--pegs", type=_positive_int, required=True, help="pegs per instance")
    command.add_argument("--disks", type=_positive_int, required=True, help="disks per instance")
    command.add_argument("--count", type=_positive_int, required=True, help="how many instances")
    command.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    command.add_argument(
        "--partial", action="store_true", help="goals name only some disks (each with p=1/2)"
    )


def _add_common(command: argparse.ArgumentParser, *, max_moves: bool = True) -> None:
    """Options every command that solves one instance shares."""
    command.add_argument(
        "--format",
        choices=("lp", "aspcomp", "json", "toml"),
        default=None,
        help="input format (default: from the file name)",
    )
    if max_moves:
        command.add_argument("--max-moves", type=_natural, metavar="N", help=MAX_MOVES_HELP)
    command.add_argument(
        "--timeout",
        type=_positive_float,
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
    _add_limit(command)


def _add_limit(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--limit", action="append", default=[], metavar="KEY=N", type=_limit_item, help=LIMIT_HELP
    )


def _add_asp_options(command: argparse.ArgumentParser) -> None:
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
    command.add_argument("--threads", type=_thread_count, metavar="N", help=THREADS_HELP)
    _add_memory_limit(command)


def _add_memory_limit(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--memory-limit",
        type=_size,
        metavar="SIZE",
        help="the address space of the process that runs the user's encoding, e.g. 2GiB "
        "(default: 80%% of the machine's memory); over it a solve is UNKNOWN with stopped "
        '"memory" (exit 3) and grading stops with that finding; --timeout ends either '
        "within a second even while clingo grounds",
    )


def _limit_item(text: str) -> str:
    try:
        Limits.parse([text])
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _thread_count(text: str) -> int:
    value = _positive_int(text)
    if value > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"clingo runs at most {MAX_THREADS} threads")
    return value


def _serve(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "serve",
        "the playground in a browser: edit, solve, explain, grade, play",
        "Start the local web playground: instance and encoding editors, Solve minimal, "
        "Exactly M moves, Explain and Grade with the plan animated, and a Play tab with "
        "optimal hints.  Every solve runs in its own process with a hard time limit.",
        SERVE_EPILOG,
    )
    command.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; another "
        "address lets other machines in)",
    )
    command.add_argument(
        "--port", type=_natural, default=8000, help="port (default 8000; 0: any free one)"
    )
    command.add_argument("--open", action="store_true", help="open the page in a browser")


def _site(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    command = _command(
        commands,
        "site",
        "export the playground as a static folder: clingo runs in the browser",
        "Write OUTDIR: the playground's page with clingo compiled to WebAssembly, the "
        "shipped encodings, the exercises and the instances, with reference answers "
        "(optimum, proof, a plan, the verdict at every horizon) computed now.  Serve it "
        "from any static host (python -m http.server -d OUTDIR, GitHub Pages, a course "
        "page); nothing is fetched from anywhere else.",
        "exit codes:\n  0  the folder was written\n  2  bad usage, an unreadable "
        "instance or exercise, or an OUTDIR that is not empty (without --force)\n",
    )
    command.add_argument("outdir", help="the folder to write (made if missing)")
    command.add_argument(
        "--instances",
        nargs="+",
        default=[],
        metavar="FILE",
        help="instance files or folders (default: the teaching set and the quickstart "
        "puzzle); they are also the set the page grades on",
    )
    command.add_argument(
        "--exercises", metavar="DIR", help="a folder of .lp exercises (default: the shipped ones)"
    )
    command.add_argument(
        "--title", default="hanoi-asp playground", help="the page's title (default: %(default)s)"
    )
    command.add_argument(
        "--force", action="store_true", help="replace what a non-empty OUTDIR holds"
    )


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
    parser.add_argument("--max-moves", type=_natural, dest="max_moves")
    parser.add_argument("--threads", type=_thread_count)
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


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"not KEY=VALUE: {text!r}")
    return key.strip(), value


def _size(text: str) -> int:
    from hanoi_asp.batch.run import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value
