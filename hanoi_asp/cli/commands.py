"""One short handler per command: arguments in, the core called, output printed.

Handlers return the exit code; every error is raised and reaches the one error funnel
(:func:`hanoi_asp.__main__.error_funnel`).  This is the only layer that prints.

``batch`` and the teaching commands import their packages when they run: together they
cost about 0.1 s of start-up (pebble, rich's progress bar) that ``solve`` need not pay.
rich itself is imported only for output meant for people: ``solve --json`` skips it
(25 ms of a 0.3 s run on a 3-peg tower, whose solve takes 0.04 s).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from hanoi_asp.batch import WORKER
from hanoi_asp.engine import (
    HARD_GRACE_S,
    Stopped,
    default_memory_limit,
    run_capped,
    solve,
    solve_capped,
    start_forkserver,
)
from hanoi_asp.inputs.facts import plan_facts
from hanoi_asp.inputs.generate import write_instances
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.model.errors import EXIT_FOUND, InputError, Interrupted, ResourceLimit
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import Encoding, SolveOptions
from hanoi_asp.model.puzzle import Puzzle

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from hanoi_asp.batch.summary import BatchSummary
    from hanoi_asp.outputs.progress import ProgressLine
    from hanoi_asp.teaching.grade import GradeReport
    from hanoi_asp.teaching.random_puzzles import Trial


def console(*, stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def progress_line(show: bool) -> AbstractContextManager[ProgressLine | None]:
    """The live line on stderr for a person at a terminal; nothing for ``--json``."""
    if not show:
        return nullcontext(None)
    from rich.console import Console

    from hanoi_asp.outputs.progress import live_progress

    return live_progress(Console(stderr=True))


def puzzle_and_options(args: argparse.Namespace) -> tuple[Puzzle, SolveOptions]:
    """The instance and how to solve it, from the options a command has."""
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
    return int(args.memory_limit or default_memory_limit())


def solve_command(args: argparse.Namespace) -> int:
    began = time.monotonic()
    puzzle, options = puzzle_and_options(args)
    reading = time.monotonic() - began
    if options.encoding is not None:  # a user's encoding: in a capped child process
        result = solve_capped(puzzle, options, memory_limit(args))
    else:
        # the live line is for a person at a terminal, never for --json or --facts
        with progress_line(show=not (args.json or args.facts)) as line:
            result = solve(puzzle, options, line)
    result = replace(result, timings=(("reading", reading), *result.timings))
    for warning in result.warnings:
        console(stderr=True).print(f"{args.file}: warning: {warning}", markup=False)
    if args.json:
        print(json.dumps(result.to_dict(args.file)))
    elif args.facts:
        if result.plan is not None:
            print(plan_facts(result.plan) if result.plan else "% the start meets the goal")
    else:
        from hanoi_asp.outputs.text import result_view

        console().print(result_view(result, args.file, boards=args.boards))
    return result.exit_code


def explain_command(args: argparse.Namespace) -> int:
    from hanoi_asp.teaching.explain import explain
    from hanoi_asp.teaching.views import explanation_view

    puzzle, options = puzzle_and_options(args)
    if options.encoding is None:
        explanation = explain(puzzle, options)
    else:  # a user's encoding: in a capped child process
        left = options.time_left(time.monotonic())
        seconds = None if left is None else left + HARD_GRACE_S
        try:
            explanation = run_capped(
                explain, (puzzle, options), seconds=seconds, memory=memory_limit(args)
            )
        except Stopped as stop:
            raise ResourceLimit(f"stopped: {stop}", path=options.encoding.name) from None
    if args.json:
        print(json.dumps(explanation.as_dict(args.file)))
    else:
        console().print(explanation_view(explanation, args.file))
    return explanation.result.exit_code


def render_command(args: argparse.Namespace) -> int:
    from hanoi_asp.outputs.html import plan_html
    from hanoi_asp.outputs.pictures import check_scale, plan_svg, write_gif, write_png

    if not (args.svg or args.gif or args.png or args.html):
        raise InputError("give at least one of --svg, --gif, --png, --html")
    scale = 1.0 if args.scale is None else check_scale(args.scale)
    result = solve(*puzzle_and_options(args))
    out = console()
    if result.plan is None:
        out.print(f"{args.file}: {result.result}: no plan to draw ({result.proof})", markup=False)
        return result.exit_code
    puzzle, plan = result.puzzle, result.plan

    def wrote(path: str, shown: int) -> None:
        states = len(plan) + 1
        cut = "" if shown == states else f" of {states}: {states - shown} steps not shown"
        out.print(f"wrote {path} ({shown} frames{cut})", markup=False)

    if args.svg:
        Path(args.svg).write_text(plan_svg(puzzle, plan, scale=scale), encoding="utf-8")
        wrote(args.svg, len(plan) + 1)
    if args.gif:
        wrote(args.gif, write_gif(puzzle, plan, Path(args.gif), args.frame_ms, scale=args.scale))
    if args.png:
        wrote(args.png, write_png(puzzle, plan, Path(args.png), scale=scale))
    if args.html:
        note = f"{len(plan)} moves, {result.result.lower()}"
        page = plan_html(puzzle, plan, Path(args.file).name, note)
        Path(args.html).write_text(page, encoding="utf-8")
        out.print(f"wrote {args.html} (a player for {len(plan)} moves)", markup=False)
    return result.exit_code


def grade_command(args: argparse.Namespace) -> int:
    from hanoi_asp.batch.run import find_instances
    from hanoi_asp.teaching.autograder import gradescope_results, junit_xml
    from hanoi_asp.teaching.grade import teaching_set
    from hanoi_asp.teaching.random_puzzles import mentions_edges, random_trials
    from hanoi_asp.teaching.views import grade_view, shown_path

    if args.json and args.format != "text":
        raise InputError(f"give --json or --format {args.format}, not both")
    encoding = Encoding.from_file(args.encoding)
    instances = [str(p) for p in find_instances(args.instances)] if args.instances else []
    instances = instances or teaching_set()
    trials = random_trials(
        args.random,
        args.seed,
        max_disks=args.max_disks,
        max_pegs=args.max_pegs,
        graphs=args.graphs or mentions_edges(encoding.text),
    )
    names = [shown_path(instance) for instance in instances]
    for instance in instances:
        load_puzzle(instance)  # bad input is exit 2 here, before the child starts
    try:  # the student's encoding runs in a capped child, each horizon watched
        report = run_capped(
            graded,
            (encoding, instances, args.timeout, trials, names),
            seconds=None,
            memory=memory_limit(args),
            heartbeat=args.timeout + HARD_GRACE_S,
        )
    except Stopped as stop:
        report = stopped_grade(
            encoding, stop, args.timeout, dict(zip(instances, names, strict=True))
        )
    if args.json:
        print(json.dumps(report.as_dict()))
    elif args.format == "junit":
        print(junit_xml(report))
    elif args.format == "gradescope":
        print(json.dumps(gradescope_results(report), indent=2))
    else:
        console().print(grade_view(report))
    return 0 if report.passed else 1


def graded(
    encoding: Encoding,
    instances: list[str],
    seconds: float,
    trials: list[Trial],
    names: list[str],
) -> GradeReport:
    """``grade`` and its counterexample, as the capped child runs them."""
    from hanoi_asp.teaching.grade import grade
    from hanoi_asp.teaching.shrink import with_counterexample

    report = grade(encoding, instances, seconds, trials, names=names)
    return with_counterexample(encoding, report, seconds)


def stopped_grade(
    encoding: Encoding, stop: Stopped, seconds: float, shown: dict[str, str]
) -> GradeReport:
    """The report of a grading whose child was ended: the horizon it was on ran past
    the time limit (or the memory cap), and grading stops there, said as a finding."""
    from hanoi_asp.teaching.grade import Finding, GradeReport, InstanceGrade

    horizon = stop.doing.get("horizon")
    where = "" if horizon is None else f" at {horizon} moves"
    limit = "the memory limit" if stop.why == "memory" else f"{seconds:g} s"
    message = (
        f"grading stopped{where}: grounding and solving the encoding ran past {limit} "
        f"and was ended ({stop}); clingo cannot interrupt grounding: does a rule derive "
        "atoms without end (e.g. p(X+1) :- p(X))?"
    )
    instance = str(stop.doing.get("instance", "?"))
    instance = shown.get(instance, instance)
    finding = Finding("error", message, horizon if isinstance(horizon, int) else None)
    return GradeReport(encoding.name, [InstanceGrade(instance, None, {}, (finding,))])


def batch_command(args: argparse.Namespace) -> int:
    if args.dask is None:  # the workers' server imports the engine while this reads the files
        start_forkserver(WORKER)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from hanoi_asp.batch.results import read_rows
    from hanoi_asp.batch.row import BatchRow
    from hanoi_asp.batch.run import (
        BatchOptions,
        configurations,
        run_batch,
        scan_instances,
        write_csv,
    )
    from hanoi_asp.batch.summary import summarize
    from hanoi_asp.batch.worker import default_memory_limit

    files, skipped = scan_instances(args.paths)
    if args.retry and not args.resume:
        raise InputError("--retry runs results of an earlier batch again: give --resume too")
    # on Dask each worker takes its own machine's share
    memory_share = None if args.dask else default_memory_limit(args.workers)
    base = SolveOptions(
        method=args.method,
        mode=args.mode,
        max_moves=args.max_moves,
        threads=args.threads,
        limits=Limits.parse(args.limit),
        first_plan=not args.no_first_plan,
        patterns=not args.no_patterns,
        astar=not args.no_astar,
        table_cache=not args.no_cache,
    )
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
    )
    total = len(files) * len(configurations(options))  # one row per instance and configuration
    err = console(stderr=True)
    for note in skipped:
        err.print(note, markup=False)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    )
    done = 0
    solved_here, started = 0, time.monotonic()  # the rate counts this run's rows only

    def on_resumed(count: int) -> None:
        nonlocal done
        done = count
        progress.advance(task, count)
        if count:
            err.print(f"resumed: {count} instance(s) already in {args.out}", markup=False)

    def on_row(row: BatchRow) -> None:
        nonlocal done, solved_here
        done += 1
        solved_here += 1
        rate = solved_here / max(time.monotonic() - started, 1e-9)
        progress.update(task, advance=1, rate=f"{rate:.1f}/s")
        if err.is_terminal and row["result"] == "ERROR":
            progress.console.print(f"{row['instance']}: ERROR: {row.get('error')}", markup=False)
        if not err.is_terminal:
            length = "" if row.get("length") is None else f" {row['length']}"
            config = f" [{row['config']}]" if options.configs else ""
            error = f": {row['error']}" if row["result"] == "ERROR" and row.get("error") else ""
            print(
                f"[{done}/{total}] {row['instance']}{config}: {row['result']}{length}{error} "
                f"({row.get('time_s', '?')} s)",
                flush=True,
            )

    def on_running(names: list[str]) -> None:
        shown = ", ".join(Path(name).name for name in names[:3])
        more = f" +{len(names) - 3}" if len(names) > 3 else ""
        progress.update(task, description=f"solving {shown}{more}" if names else "solving")

    with progress:
        task = progress.add_task("solving", total=total, rate="")
        run = run_batch(files, options, on_row, on_resumed, on_running)
    for note in run.notes:
        err.print(f"{args.out}: {note}", markup=False)
    summary = summarize(run.rows, run.clock.worker_s)
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
    from hanoi_asp.cli.parser import config_options

    found: list[tuple[str, SolveOptions]] = []
    for path in encodings:
        encoding = Encoding.from_file(path)
        found.append((Path(path).stem, replace(base, encoding=encoding)))
    for item in configs:
        name, options = config_options(item)
        path = options.pop("encoding", None)
        own = Encoding.from_file(path) if path else base.encoding
        found.append((name, replace(base, encoding=own, **options)))
    names = [name for name, _ in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"two configurations are named {twice[0]!r}: name each once")
    return tuple(found)


def report_command(args: argparse.Namespace) -> int:
    from hanoi_asp.batch.plots import INSTALL_HINT, Drawings, have_matplotlib
    from hanoi_asp.batch.report import build_report
    from hanoi_asp.batch.report_output import html_page, summary_table, write_csv, write_plots
    from hanoi_asp.model.errors import EXIT_UNSAT

    report = build_report(args.results, by=args.by, timeout=args.timeout)
    out = console()
    if not out.is_terminal:
        out.width = max(out.width, 160)  # a file or pipe gets every column whole
    out.print(summary_table(report))
    written = []
    drawings = Drawings(report)  # drawn when first saved, once for the page and the files
    if args.csv:
        write_csv(report, Path(args.csv))
        written.append(args.csv)
    if args.html:
        Path(args.html).write_text(html_page(report, drawings), encoding="utf-8")
        written.append(args.html)
    if args.plots:
        if not have_matplotlib():
            raise InputError(f"--plots: {INSTALL_HINT}")
        written.extend(str(path) for path in write_plots(drawings, Path(args.plots)))
    if args.html and not have_matplotlib():
        console(stderr=True).print(f"{args.html}: table only; {INSTALL_HINT}", markup=False)
    if written:
        out.print(f"wrote {', '.join(written)}", markup=False)
    for item in report.disagreements:
        print(item.line(), flush=True)
    return EXIT_UNSAT if report.disagreements else EXIT_FOUND


RETRY_RESULTS = {"unknown": "UNKNOWN", "error": "ERROR"}
"""``--retry`` names and the results they run again."""


def summary_table(summary: BatchSummary, total: int) -> Table:
    from rich.table import Table

    table = Table(title=f"{total} instance(s)")
    table.add_column("result")
    table.add_column("count", justify="right")
    for name, count in summary.counts.items():
        table.add_row(name, str(count))
    table.add_row(
        "optimal / feasible, not proven / unsolved",
        f"{summary.optimal} / {summary.feasible} / {summary.unsolved}",
    )
    if summary.resumed:
        table.add_row("resumed (skipped)", str(summary.resumed))
    table.add_row("total solve time", f"{summary.total_s:.2f} s")
    for instance, seconds in summary.slowest:
        table.add_row(f"slowest: {instance}", f"{seconds:.2f} s")
    if summary.overhead_ms is not None:
        # the workers' time not spent solving, per instance solved in this run
        table.add_row("overhead per instance", f"{summary.overhead_ms:.1f} ms")
    return table


def generate_command(args: argparse.Namespace) -> int:
    written = write_instances(
        Path(args.outdir),
        pegs=args.pegs,
        disks=args.disks,
        count=args.count,
        seed=args.seed,
        partial=args.partial,
    )
    print(f"wrote {len(written)} instance(s) to {args.outdir}")
    return EXIT_FOUND


def site_command(args: argparse.Namespace) -> int:
    from hanoi_asp.web.site import export_site

    began = time.monotonic()
    document = export_site(
        Path(args.outdir),
        instances=args.instances,
        exercises=args.exercises,
        title=args.title,
        force=args.force,
    )
    for item in document.instances:
        if item.answers.result in ("SATISFIABLE", "UNKNOWN"):  # the export's time ran out
            note = f"{item.name}: optimum not proven: {item.answers.proof}"
            console(stderr=True).print(note, markup=False)
    print(
        f"wrote {args.outdir}: {len(document.instances)} instance(s), "
        f"{len(document.exercises)} exercise(s) in {time.monotonic() - began:.1f} s; "
        f"serve it with: python -m http.server -d {args.outdir}"
    )
    return EXIT_FOUND


def serve_command(args: argparse.Namespace) -> int:
    from hanoi_asp.web.serve import serve

    serve(args.host, args.port, open_browser=args.open, say=print)
    return EXIT_FOUND


HANDLERS = {
    "solve": solve_command,
    "explain": explain_command,
    "render": render_command,
    "grade": grade_command,
    "batch": batch_command,
    "report": report_command,
    "generate": generate_command,
    "serve": serve_command,
    "site": site_command,
}
