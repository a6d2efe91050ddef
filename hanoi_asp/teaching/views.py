"""How teaching results look on a terminal (rich): ``explain`` and ``grade``.

The data lives in :mod:`hanoi_asp.teaching.explain` and :mod:`hanoi_asp.teaching.grade`;
this module only draws it, as renderables the command line prints, so ``--json`` and
the terminal show the same facts.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from hanoi_asp.outputs.text import plan_lines
from hanoi_asp.teaching.autograder import counterexample_text
from hanoi_asp.teaching.explain import Explanation
from hanoi_asp.teaching.grade_report import GradeReport
from hanoi_asp.teaching.teaching_set import teaching_folder

GROUND_SCOPE = {
    "incremental": "incremental: all steps ground so far",
    "oneshot": "one-shot: this horizon's program, ground afresh",
}
"""What a horizon's atoms and rules count, by the engine's mode."""
HORIZON_COLUMNS = (
    ("horizon", "the plan length asked for"),
    ("answer", "SAT: a plan exists; UNSAT: proven none; UNKNOWN: out of time"),
    ("atoms", "ground atoms clingo searched ({scope})"),
    ("rules", "ground rules clingo searched (likewise)"),
    ("choices", "decisions the solver made in this call"),
    ("conflicts", "dead ends it met and learnt from in this call"),
    ("time (s)", "grounding and solving this horizon"),
)


def explanation_view(explanation: Explanation, instance: str) -> RenderableType:
    result = explanation.result
    parts: list[RenderableType] = [
        Rule(Text(instance, style="bold")),
        Panel(Text(explanation.facts), title="1. the instance as facts", expand=False),
    ]
    extras = f" (+ {', '.join(explanation.extras)})" if explanation.extras else ""
    parts.append(
        Text.assemble("\n", ("2. the encoding", "bold"), f": {explanation.encoding_name}{extras}")
    )
    for section in explanation.sections:
        table = Table(title=section.name, title_justify="left", show_lines=False, expand=True)
        table.add_column("line", justify="right", style="dim", no_wrap=True)
        table.add_column("part", style="dim", no_wrap=True)
        table.add_column("rule", style="cyan")
        table.add_column("comment")
        for rule in section.rules:
            table.add_row(str(rule.line), rule.program, Text(rule.text), Text(rule.comment))
        parts.append(table)
    parts.append(Text.assemble("\n", ("3. the search", "bold"), ", horizon by horizon"))
    if not result.horizons:
        parts.append(Text("   no horizon was solved: the bound settled the question"))
    else:
        bound = result.bound
        if bound.value == 0:
            parts.append(Text("   starts at horizon 0: no lower bound used"))
        else:
            parts.append(
                Text(f"   starts at the lower bound {bound.value} ({bound.name}): {bound.argument}")
            )
        parts.append(_runs_table(explanation))
    parts.append(Text.assemble("\n", ("4. the answer", "bold"), f": {result.result}"))
    parts.append(Text(f"   {result.proof}"))
    if explanation.why is not None:
        why = explanation.why
        parts.append(
            Text.assemble(
                "\n", (f"5. why not {why.horizon} moves?", "bold"), f" {why.status}: {why.reason}"
            )
        )
        parts += [Text(f"   {fact}") for fact in why.core]
    if result.plan:
        parts.append(Text("\n6. the plan", style="bold"))
        parts += plan_lines(result.puzzle, result.plan, boards=True, move_style="bold")
    return Group(*parts)


def _runs_table(explanation: Explanation) -> RenderableType:
    runs = Table(expand=False)
    for column, _ in HORIZON_COLUMNS:
        runs.add_column(column, justify="right")
    for run in explanation.result.horizons:
        style = "green" if run.status == "SAT" else ("red" if run.status == "UNSAT" else "yellow")
        runs.add_row(
            str(run.horizon) + (" (mirror half)" if run.phase == "mirror-half" else ""),
            Text(run.status, style=style),
            str(run.atoms),
            str(run.rules),
            str(run.choices),
            str(run.conflicts),
            f"{run.seconds:.3f}",
        )
    scope = GROUND_SCOPE.get(explanation.result.mode or "", "this horizon")
    legend = Text(
        "\n".join(
            f"   {name}: {meaning.format(scope=scope)}" for name, meaning in HORIZON_COLUMNS[2:]
        )
    )
    legend.stylize("dim")
    return Group(runs, legend)


def shown_path(instance: str) -> str:
    """An instance of the shipped teaching set as ``teaching/NAME``; others as given."""
    folder = str(teaching_folder())
    if instance.startswith(folder):
        return "teaching/" + instance[len(folder) :].lstrip("/\\")
    return instance


def grade_view(report: GradeReport) -> RenderableType:
    table = Table(title=f"grading {report.encoding}", expand=False)
    table.add_column("instance")
    table.add_column("optimum", justify="right")
    table.add_column("verdict")
    table.add_column("finding")
    passing_random = [g for g in report.grades if g.passed and g.instance.startswith("random/")]
    for item in report.grades:
        if item in passing_random:
            continue  # one row for them all, below
        verdict = Text("pass", style="green") if item.passed else Text("FAIL", style="red")
        first = item.findings[0].message if item.findings else ""
        optimum = "none" if item.optimum is None else str(item.optimum)
        table.add_row(item.instance, optimum, verdict, Text(first))
        for finding in item.findings[1:]:
            table.add_row("", "", "", Text(finding.message))
    if passing_random:
        span = f"{passing_random[0].instance} .. {passing_random[-1].instance}"
        table.add_row(
            f"{len(passing_random)} random puzzles", "", Text("pass", style="green"), span
        )
    parts: list[RenderableType] = [table]
    if report.warnings:
        parts.append(Text("\nclingo's warnings about the encoding:", style="bold yellow"))
        parts += [Text(f"  {warning}") for warning in report.warnings]
    for item in report.grades:
        for finding in item.findings:
            if finding.board:
                parts.append(Text(f"\n{item.instance}: {finding.kind}", style="bold red"))
                parts.append(Text(finding.board))
    if report.counterexample is not None:
        parts.append(Text("\n" + counterexample_text(report), style="red"))
    if report.random_skipped:
        parts.append(
            Text(f"\n{report.random_skipped} random puzzles not run after the first failure")
        )
    passed, total = report.score
    style = "bold green" if report.passed else "bold red"
    parts.append(Text(f"\nscore: {passed}/{total} instances pass", style=style))
    return Group(*parts)
