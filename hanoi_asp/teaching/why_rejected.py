"""Why does a student's encoding reject a legal plan?  Which of its rules say no.

The reference plan is fixed (each of its moves is asked for, any other move counts
against it) and every integrity constraint of the student's encoding is relaxed:
``:- body.`` becomes ``__why_broken(i, (X, Y, ...)) :- body.`` over the body's global
variables, rewritten with clingo's AST, so the constraint still reads its own atoms
but no longer kills the answer.  clingo then minimises the constraints broken, and
names each by its line in the student's file and the step and disk where it fails.
With no answer even so (a missing derivation: the rules deriving ``move/3`` do not
allow the plan), the step named is the first the encoding cannot make after the
plan's earlier moves (the page's why-rejected.js names the same step).

Nothing of the student's program is executed: ``#script`` and ``#include`` were refused
by :func:`hanoi_asp.inputs.asp_text.check_encoding` before any grading.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import clingo
from clingo import ast

from hanoi_asp.inputs.asp_text import _head_symbols, is_incremental
from hanoi_asp.inputs.facts import instance_facts, peg_term
from hanoi_asp.model.options import Encoding
from hanoi_asp.model.puzzle import Puzzle

BROKEN = "__why_broken"
WHY_SECONDS = 10.0
AFTER_EVERY_STEP = 1 << 30
SHOWN_TEXT = 72
"""A rule's text is cut to this many characters in a reason."""


@dataclass(frozen=True)
class RuleAt:
    """A rule of the student's file: where it is and what it says."""

    file: str
    line: int
    text: str

    def short(self) -> str:
        text = self.text if len(self.text) <= SHOWN_TEXT else self.text[: SHOWN_TEXT - 3] + "..."
        return f"{self.file}:{self.line}: '{text}'"


@dataclass(frozen=True)
class Rejection:
    """Why the encoding has no answer with the reference plan."""

    reason: str
    rules: tuple[RuleAt, ...]


@dataclass(frozen=True)
class _Constraint:
    rule: RuleAt
    variables: tuple[str, ...]


def why_rejected(
    encoding: Encoding,
    puzzle: Puzzle,
    plan: Sequence[tuple[int, str]],
    seconds: float = WHY_SECONDS,
) -> Rejection | None:
    """The student's rules that reject ``plan`` (legal, reaching the goal); None when
    the encoding is incremental (not analysed) or clingo finds no answer in time."""
    if is_incremental(encoding.text):
        return None
    lines = encoding.text.splitlines()
    constraints: list[_Constraint] = []
    move_rules: list[RuleAt] = []
    ctl = clingo.Control(["--opt-mode=opt", "--warn=none"])
    with ast.ProgramBuilder(ctl) as builder:

        def add(statement: ast.AST) -> None:
            if statement.ast_type == ast.ASTType.Comment:
                return
            if statement.ast_type == ast.ASTType.Rule:
                rule = _rule_at(encoding.name, lines, statement)
                if _is_constraint(statement.head):
                    variables = _global_variables(statement.body)
                    constraints.append(_Constraint(rule, variables))
                    statement = statement.update(
                        head=_broken_head(statement.location, len(constraints) - 1, variables)
                    )
                elif _derives_move(statement.head):
                    move_rules.append(rule)
            builder.add(statement)

        ast.parse_string(encoding.text, add, logger=lambda _c, _m: None)
    horizon = len(plan)
    ctl.add("base", [], _plan_program(puzzle, plan))
    ctl.ground([("base", [])])
    fixed = [
        (clingo.Function("__why_fix", [clingo.Number(t)]), True) for t in range(1, horizon + 1)
    ]
    for symbol, _ in fixed:
        ctl.assign_external(symbol, None)  # free, so that the assumptions decide
    best: list[clingo.Symbol] = []
    core: list[int] = []

    def on_model(model: clingo.Model) -> None:
        best[:] = model.symbols(atoms=True)

    deadline = time.monotonic() + seconds
    answer = _solve(ctl, fixed, deadline, on_model=on_model, on_core=core.extend)
    if best:
        return _explain(best, constraints)
    if answer is None or not answer.unsatisfiable or not move_rules:
        return None
    step = _first_refused_step(ctl, fixed, deadline)
    if step is None:  # out of time: the first step of clingo's core (not minimised)
        steps = sorted(
            atom.symbol.arguments[0].number
            for atom in ctl.symbolic_atoms.by_signature("__why_fix", 1)
            if atom.literal in core
        )
        step = steps[0] if steps else 1
    disk, peg = plan[step - 1]
    first = move_rules[0]
    return Rejection(
        f"{first.short()} cannot make the reference plan's move at step {step}: "
        f"move({disk},{peg_term(peg)},{step}), disk {disk} onto {peg} (no answer has it, "
        "even with every integrity constraint relaxed)",
        tuple(move_rules),
    )


def _first_refused_step(
    ctl: clingo.Control, fixed: list[tuple[clingo.Symbol, bool]], deadline: float
) -> int | None:
    """The first step ``t`` whose plan prefix (steps 1..t fixed) has no answer: the move
    the encoding cannot make after the plan's earlier moves.  The whole plan has none,
    so ``t`` exists; fixing more steps only removes answers, so a binary search over
    the prefixes finds it.  (clingo's unsatisfiable core is not minimal: with
    ``move(D,nowhere,T) :- move(D,P,T), T > 1, P = c.`` it held steps 1 and 2 of the
    3-move tower, and step 1 was named.)  None when time runs out."""
    solve = ctl.configuration.solve
    assert isinstance(solve, clingo.Configuration)
    solve.opt_mode = "ignore"  # any answer will do: is there one?
    solve.models = "1"
    low, high = 1, len(fixed)  # invariant: steps 1..high have no answer
    while low < high:
        middle = (low + high) // 2
        answer = _solve(ctl, fixed[:middle], deadline)
        if answer is None:
            return None
        if answer.unsatisfiable:
            high = middle
        else:
            low = middle + 1
    return high


def _solve(
    ctl: clingo.Control,
    assumptions: list[tuple[clingo.Symbol, bool]],
    deadline: float,
    **callbacks: Any,
) -> clingo.SolveResult | None:
    """One solve under ``assumptions``, stopped at ``deadline`` (then None)."""
    with ctl.solve(assumptions=assumptions, async_=True, **callbacks) as handle:
        while not handle.wait(0.1):
            if time.monotonic() > deadline:
                handle.cancel()
                handle.get()
                return None
        result: clingo.SolveResult = handle.get()
        return result


def _explain(atoms: list[clingo.Symbol], constraints: list[_Constraint]) -> Rejection | None:
    fired: dict[int, list[tuple[clingo.Symbol, ...]]] = {}
    for atom in atoms:
        if atom.name == BROKEN and len(atom.arguments) == 2:
            number, values = atom.arguments
            fired.setdefault(number.number, []).append(tuple(values.arguments))
    if not fired:
        return None
    ranked = sorted(
        fired, key=lambda i: (min(_step(constraints[i].variables, v) for v in fired[i]), i)
    )
    parts: list[str] = []
    for index in ranked:
        constraint = constraints[index]
        bindings = sorted(fired[index], key=lambda v: _step(constraint.variables, v))
        where = _where(constraint.variables, bindings[0])
        more = f" (and {len(bindings) - 1} more)" if len(bindings) > 1 else ""
        parts.append(f"{constraint.rule.short()} fails {where}{more}")
    return Rejection("; ".join(parts), tuple(constraints[i].rule for i in ranked))


def _step(variables: tuple[str, ...], values: tuple[clingo.Symbol, ...]) -> int:
    """The step a binding is at (its ``T``), for ordering; a rule without a step (the
    goal, checked at the end) comes after every step."""
    for name, value in zip(variables, values, strict=False):
        if name == "T" and value.type == clingo.SymbolType.Number:
            return value.number
    return AFTER_EVERY_STEP


def _where(variables: tuple[str, ...], values: tuple[clingo.Symbol, ...]) -> str:
    """``at step 41 for disk 3`` when the rule calls them T and D, else the bindings."""
    bound = dict(zip(variables, (str(v) for v in values), strict=False))
    if "T" in bound or "D" in bound:
        parts = []
        if "T" in bound:
            parts.append(f"at step {bound.pop('T')}")
        if "D" in bound:
            parts.append(f"for disk {bound.pop('D')}")
        rest = ", ".join(f"{k}={v}" for k, v in bound.items())
        return " ".join(parts) + (f" ({rest})" if rest else "")
    if bound:
        return "with " + ", ".join(f"{k}={v}" for k, v in bound.items())
    return "(it has no variables: it fails outright)"


def _plan_program(puzzle: Puzzle, plan: Sequence[tuple[int, str]]) -> str:
    """The instance, the horizon, the plan asked for, and what to minimise."""
    horizon = len(plan)
    wanted = " ".join(
        f"__why_plan({disk},{peg_term(peg)},{step})."
        for step, (disk, peg) in enumerate(plan, start=1)
    )
    return f"""{instance_facts(puzzle)}
moves({horizon}).
{wanted}
#external __why_fix(T) : T = 1..{horizon}.
:- __why_fix(T), __why_plan(D,P,T), not move(D,P,T).
:- __why_fix(T), move(D,P,T), not __why_plan(D,P,T).
#minimize {{ 1@20,I,V : {BROKEN}(I,V) }}.
"""


def _is_constraint(head: ast.AST) -> bool:
    return (
        head.ast_type == ast.ASTType.Literal
        and head.atom.ast_type == ast.ASTType.BooleanConstant
        and not head.atom.value
    )


def _derives_move(head: ast.AST) -> bool:
    return ("move", 3) in _head_symbols(head)


def _global_variables(body: Sequence[ast.AST]) -> tuple[str, ...]:
    """Variables of the top-level body literals and aggregate guards (not the local
    ones inside aggregates or conditions), in order of first occurrence."""
    names: list[str] = []

    class Collect(ast.Transformer):
        def visit_Variable(self, node: ast.AST) -> ast.AST:
            if node.name != "_" and node.name not in names:
                names.append(node.name)
            return node

    collect = Collect()
    for literal in body:
        if literal.ast_type != ast.ASTType.Literal:
            continue
        atom = literal.atom
        if atom.ast_type in (ast.ASTType.SymbolicAtom, ast.ASTType.Comparison):
            collect(atom)
        elif atom.ast_type in (ast.ASTType.BodyAggregate, ast.ASTType.Aggregate):
            for guard in (atom.left_guard, atom.right_guard):
                if guard is not None:
                    collect(guard.term)
    return tuple(names)


def _broken_head(location: ast.Location, index: int, variables: Sequence[str]) -> ast.AST:
    values = [ast.Variable(location, name) for name in variables]
    term = ast.Function(
        location,
        BROKEN,
        [ast.SymbolicTerm(location, clingo.Number(index)), ast.Function(location, "", values, 0)],
        0,
    )
    return ast.Literal(location, ast.Sign.NoSign, ast.SymbolicAtom(term))


def _rule_at(name: str, lines: list[str], statement: ast.AST) -> RuleAt:
    """The rule as the student wrote it (comments cut, one line)."""
    begin, end = statement.location.begin, statement.location.end
    chunk = lines[begin.line - 1 : end.line]
    if chunk:
        chunk[-1] = chunk[-1][: end.column - 1] if len(chunk) > 1 else chunk[-1]
        chunk[0] = chunk[0][begin.column - 1 :] if len(chunk) > 1 else chunk[0]
    if len(chunk) == 1:
        chunk = [lines[begin.line - 1][begin.column - 1 : end.column - 1]]
    text = " ".join(part.split("%", 1)[0].strip() for part in chunk).strip()
    return RuleAt(name, begin.line, text or str(statement))
