"""How teaching results look on a terminal (rich): ``explain`` and ``grade``.

The data lives in :mod:`hanoi_asp.explain` and :mod:`hanoi_asp.grade`; this module
only draws it, so ``--json`` and the terminal show the same facts.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hanoi_asp.explain import Explanation
from hanoi_asp.grade import GradeReport
from hanoi_asp.plan import states
from hanoi_asp.render import draw_board


def print_explanation(console: Console, explanation: Explanation, instance: str) -> None:
    result = explanation.result
    console.rule(f"[bold]{instance}")
    console.print(Panel(Text(explanation.facts), title="1. the instance as facts", expand=False))
    extras = f" (+ {', '.join(explanation.extras)})" if explanation.extras else ""
    console.print(f"\n[bold]2. the encoding[/bold]: {explanation.encoding_name}{extras}")
    for section in explanation.sections:
        table = Table(title=section.name, title_justify="left", show_lines=False, expand=True)
        table.add_column("line", justify="right", style="dim", no_wrap=True)
        table.add_column("part", style="dim", no_wrap=True)
        table.add_column("rule", style="cyan")
        table.add_column("comment")
        for rule in section.rules:
            table.add_row(str(rule.line), rule.program, Text(rule.text), Text(rule.comment))
        console.print(table)
    console.print("\n[bold]3. the search[/bold], horizon by horizon")
    if not result.horizons:
        console.print("   no horizon was solved: the bound settled the question", markup=False)
    else:
        console.print(
            f"   starts at the lower bound {result.lower_bound.value} "
            f"({result.lower_bound.name}): {result.lower_bound.argument}",
            markup=False,
        )
        _print_runs(console, explanation)
    console.print(f"\n[bold]4. the answer[/bold]: {result.result}", highlight=False)
    console.print(f"   {result.proof}", markup=False)
    if explanation.why is not None:
        why = explanation.why
        console.print(
            f"\n[bold]5. why not {why.horizon} moves?[/bold] {why.status}: {why.reason}",
            highlight=False,
        )
        for fact in why.core:
            console.print(f"   {fact}", markup=False)
    if result.plan:
        console.print("\n[bold]6. the plan[/bold]")
        pictures = states(result.puzzle, result.plan)
        console.print(draw_board(result.puzzle, pictures[0]), markup=False)
        for move in result.plan:
            console.print(str(move), markup=False, style="bold")
            console.print(draw_board(result.puzzle, pictures[move.step]), markup=False)


def _print_runs(console: Console, explanation: Explanation) -> None:
    result = explanation.result
    runs = Table(expand=False)
    for column in ("horizon", "answer", "atoms", "rules", "choices", "conflicts", "time (s)"):
        runs.add_column(column, justify="right")
    for run in result.horizons:
        style = "green" if run.status == "SAT" else ("red" if run.status == "UNSAT" else "yellow")
        runs.add_row(
            str(run.horizon) + (" (mirror half)" if run.phase == "mirror-half" else ""),
            f"[{style}]{run.status}[/{style}]",
            str(run.atoms),
            str(run.rules),
            str(run.choices),
            str(run.conflicts),
            f"{run.seconds:.3f}",
        )
    console.print(runs)
    if result.mode == "incremental":
        console.print(
            "   (incremental: atoms and rules count the whole program ground so far)",
            style="dim",
        )


def print_grade(console: Console, report: GradeReport) -> None:
    table = Table(title=f"grading {report.encoding}", expand=False)
    table.add_column("instance")
    table.add_column("optimum", justify="right")
    table.add_column("verdict")
    table.add_column("finding")
    for item in report.grades:
        verdict = "[green]pass[/green]" if item.passed else "[red]FAIL[/red]"
        first = item.findings[0].message if item.findings else ""
        optimum = "none" if item.optimum is None else str(item.optimum)
        table.add_row(Path(item.instance).name, optimum, verdict, Text(first))
        for finding in item.findings[1:]:
            table.add_row("", "", "", Text(finding.message))
    console.print(table)
    for item in report.grades:
        for finding in item.findings:
            if finding.board:
                console.print(f"\n{item.instance}: {finding.kind}", style="bold red")
                console.print(finding.board, markup=False)
    passed, total = report.score
    style = "bold green" if report.passed else "bold red"
    console.print(f"\nscore: {passed}/{total} instances pass", style=style)
