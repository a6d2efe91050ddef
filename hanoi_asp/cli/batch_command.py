"""``hanoi-asp batch``: many instance files, each in a worker process of its own, on
this machine or a Dask cluster; one JSON line per instance and configuration.

The workers' server starts before anything else (it imports the engine while this
process reads and hashes the files); the batch package is imported when the command
runs, as pebble and rich's progress bar cost start-up that ``solve`` need not pay.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Final

from hanoi_asp.batch.row import RETRY_KINDS
from hanoi_asp.cli.console import console
from hanoi_asp.cli.grammar import add_outputs, key_value, positive_float, positive_int
from hanoi_asp.cli.grammar import size as size_type
from hanoi_asp.cli.solve_options import (
    add_domain_option,
    add_solve_options,
    config_options,
    solve_options,
)
from hanoi_asp.model.errors import InputError, Interrupted
from hanoi_asp.model.options import Encoding, SolveOptions
from hanoi_asp.model.planner import Planner

NAME: Final = "batch"
HELP = "solve many instance files, each in its own worker process"
DESCRIPTION = (
    "Solve every instance in PATHs (files, or folders walked recursively for "
    ".lp/.asp/.json/.toml/.pddl) in parallel worker processes with a hard per-instance "
    "time limit; one JSON line per instance is appended to --out as it finishes."
)
EPILOG = """exit codes:
  0  every instance answered (a plan found)
  1  some instance UNSATISFIABLE or UNKNOWN (stopped without a plan)
  2  some instance could not be read or solved (ERROR rows), or bad usage: no
     instance files, an --out that holds results without --resume or --force, an
     --out another batch is writing
  3  interrupted (Ctrl-C); every finished result is kept in --out, and the summary
     and --csv are still written
"""


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help="instance files, or folders to walk"
    )
    command.add_argument(
        "--workers",
        type=positive_int,
        default=os.cpu_count() or 1,
        help="worker processes (default: the number of cores)",
    )
    command.add_argument(
        "--timeout",
        type=positive_float,
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
    add_outputs(command, "FILE", {"--csv": "also write a CSV table at the end"})
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
        type=key_value,
        metavar="KEY=VALUE",
        help="with --dask slurm:N, a worker job's setting (repeatable): partition, "
        "account, cores (threads per job, default 1), memory (per job, default 2GiB), "
        "walltime, job-extra-directives (another #SBATCH line), job-script-prologue, "
        "log-directory, python, ... (dask-jobqueue's SLURMCluster names; README: Batch)",
    )
    command.add_argument(
        "--memory-limit",
        type=size_type,
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
        choices=tuple(RETRY_KINDS),
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
        'mine="--encoding my.lp --threads 1", or a classical planner, e.g. '
        '"fd=planner:fast-downward:astar(lmcut())" or sk=planner:symk; repeatable '
        '(default: one configuration, "default", of the options below)',
    )
    add_domain_option(command)
    add_solve_options(command, NAME)


def run(args: argparse.Namespace) -> int:
    from hanoi_asp.batch import WORKER
    from hanoi_asp.processes import warm_up

    if args.dask is None:  # the workers' server imports the engine while this reads the files
        warm_up(WORKER)
    from hanoi_asp.batch.instances import scan_instances
    from hanoi_asp.batch.results import read_rows
    from hanoi_asp.batch.run import BatchOptions, configurations, run_batch, write_csv
    from hanoi_asp.batch.summary import summarize
    from hanoi_asp.cli.batch_progress import BatchProgress, summary_table
    from hanoi_asp.inputs.pddl import DomainFile
    from hanoi_asp.processes import default_memory_limit

    files, skipped = scan_instances(args.paths)
    if args.retry and not args.resume:
        raise InputError("--retry runs results of an earlier batch again: give --resume too")
    # on Dask each worker takes its own machine's share
    memory_share = None if args.dask else default_memory_limit(args.workers)
    base = solve_options(args, NAME)
    options = BatchOptions(
        workers=args.workers,
        timeout=args.timeout,
        out=Path(args.out),
        resume=args.resume,
        force=args.force,
        retry=tuple(args.retry),
        memory_limit=args.memory_limit or memory_share,
        dask=args.dask,
        slurm=tuple(args.slurm_option),
        solve=base,
        configs=batch_configs(base, args.encoding, args.config),
        domain=None if args.domain is None else DomainFile.read(args.domain),
    )
    total = len(files) * len(configurations(options))  # one row per instance and configuration
    err = console(stderr=True)
    for note in skipped:
        err.print(note, markup=False)
    with BatchProgress(err, total, args.out, configs=bool(options.configs)) as shown:
        run = run_batch(files, options, shown.on_row, shown.on_resumed, shown.on_running)
    for note in run.notes:
        err.print(f"{args.out}: {note}", markup=False)
    summary = summarize(run.rows, run.clock.worker_s, total)
    if args.csv:
        write_csv(read_rows(options.out), Path(args.csv))
    console().print(summary_table(summary, total))
    where = f" and {args.csv}" if args.csv else ""
    console().print(f"results: {args.out}{where}", markup=False)
    if run.interrupted:
        raise Interrupted(f"interrupted; finished results are in {args.out}")
    return summary.exit_code


def batch_configs(
    base: SolveOptions, encodings: list[str], configs: list[str]
) -> tuple[tuple[str, SolveOptions], ...]:
    """``--encoding FILE`` (named by the file's stem) and ``--config NAME=OPTIONS``
    (solve's options, e.g. ``"--method astar"``, ``"--encoding my.lp --threads 1"``),
    each a configuration run on every instance; the batch's own options are the base."""
    found: list[tuple[str, SolveOptions]] = []
    for path in encodings:
        encoding = Encoding.from_file(path)
        found.append((Path(path).stem, replace(base, encoding=encoding)))
    for item in configs:
        name, given = config_options(item)
        try:
            found.append((name, replace(base, **given)))
        except InputError as error:  # the batch's own options with the configuration's
            raise InputError(f"--config {name}: {error.message}") from None
    for name, options in found:
        if options.planner is not None:
            planner_installed(name, options.planner)
    names = [name for name, _ in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"two configurations are named {twice[0]!r}: name each once")
    return tuple(found)


def planner_installed(name: str, planner: Planner) -> None:
    """A planner configuration's driver, found before anything runs: a planner that is
    not installed is one line naming the extra (or the program), not a row per instance."""
    from hanoi_asp.batch.planners import driver

    try:
        driver(planner)
    except InputError as error:
        raise InputError(f"--config {name}: {error.message}") from None
