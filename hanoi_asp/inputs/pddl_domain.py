"""Is a PDDL domain the Towers of Hanoi?  Its one action must have the shape of a Hanoi
move; the predicates are then known by the part they play, whatever they are named.

The textbook STRIPS domain (Geffner's formalisation, and the IPC and course copies of
it) has one action ``move ?disk ?from ?to``::

    pre:  on(disk, from), clear(disk), clear(to), smaller(to, disk)
    add:  on(disk, to), clear(from)
    del:  on(disk, from), clear(to)

A *stack* predicate ``on`` (deleted for the old support, added for the new), a *top*
predicate ``clear``, and a static *size* predicate relating the target and the disk,
in either order: ``(smaller ?to ?disk)`` (the target may hold the disk) or ``(smaller
?disk ?to)`` (the disk is smaller than the target).  The ``located`` variant
``export --pddl`` writes for partial goals and move graphs adds a *peg* predicate
``at`` (two more parameters, the pegs of the disk and of the target; ``at(disk, pfrom)``
replaced by ``at(disk, pto)``) and, for a move graph, a static ``can-move(pfrom, pto)``.
Two preconditions that hold whenever the textbook's move applies are accepted too, as
course copies of the domain write them: ``(not (= ?x ?y))`` for two of disk, source and
target, and the size fact relating the disk and its *source* as the target's relates it
(``(smaller ?from ?disk)`` beside ``(smaller ?to ?disk)``).  The disk lies on its source,
which is therefore not clear, so the source is neither the target nor the disk; the
target is the disk only in a move of a disk onto itself, which a size fact ``(smaller d
d)`` would allow and which the problem's reader refuses unless no plan can take it
(:func:`hanoi_asp.inputs.pddl_goal.check_self_holds`); and every stack is ordered by the
size facts at the start (the reader checks it) and after every move, so a disk is
always smaller than what it lies on.  Leaving them out changes no plan.  Nothing else
may appear: another precondition, a negative or disjunctive one, a conditional effect
or a second action would make it some other puzzle, and the domain is refused with one
line saying which part does not fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hanoi_asp.model.errors import InputError


@dataclass(frozen=True)
class HanoiShape:
    """The parts a Hanoi domain's predicates play, by their (lower-case) names."""

    action: str
    on: str
    clear: str
    smaller: str
    holder_first: bool
    """``smaller(x, y)`` means y may lie on x (the textbook's ``(smaller ?to ?disk)``);
    False: x may lie on y (``(smaller ?disk ?to)``)."""
    at: str | None = None
    can_move: str | None = None


Atom = tuple[str, tuple[str, ...]]
"""A predicate's name and its arguments (parameter names), as the shape reads them."""
DISTINCT = "not ="
"""The name of a ``(not (= ?x ?y))`` precondition as an :data:`Atom` (no predicate of a
PDDL file can have it: a name has no spaces)."""


def hanoi_shape(problem: Any, where: str) -> HanoiShape:
    """The shape of the domain of a parsed tarski problem, or an :class:`InputError` on
    ``where`` saying why it is not a Hanoi domain."""
    actions = list(problem.actions.values())
    if len(actions) != 1:
        names = ", ".join(a.name for a in actions) or "none"
        raise InputError(
            f"not a Hanoi domain: it has {len(actions)} actions ({names}); "
            "a Hanoi domain has one, the move of a disk",
            path=where,
        )
    action = actions[0]
    params = [p.symbol.lstrip("?").lower() for p in action.parameters]
    pre = _conjunction(action.precondition, action.name, where)
    adds, dels = _effects(action, where)
    return _roles(action.name, params, pre, adds, dels, where)


def _refuse(action: str, why: str, where: str) -> InputError:
    return InputError(f"not a Hanoi domain: action {action}: {why}", path=where)


def _atom(formula: Any, action: str, where: str) -> Atom:
    from tarski.syntax import Atom as TarskiAtom
    from tarski.syntax import Variable

    if not isinstance(formula, TarskiAtom):
        raise _refuse(action, f"{formula} is not a plain fact", where)
    name = formula.predicate.name
    args = []
    for term in formula.subterms:
        if not isinstance(term, Variable):
            raise _refuse(action, f"{formula} names an object, not a parameter", where)
        args.append(term.symbol.lstrip("?").lower())
    return (name if isinstance(name, str) else str(name.value)).lower(), tuple(args)


def _conjunction(formula: Any, action: str, where: str) -> list[Atom]:
    from tarski.syntax import Atom as TarskiAtom
    from tarski.syntax import BuiltinPredicateSymbol, CompoundFormula, Connective, Tautology

    if isinstance(formula, Tautology):
        return []
    if isinstance(formula, CompoundFormula) and formula.connective == Connective.And:
        return [a for part in formula.subformulas for a in _conjunction(part, action, where)]
    if isinstance(formula, CompoundFormula) and formula.connective == Connective.Not:
        (inner,) = formula.subformulas
        if isinstance(inner, TarskiAtom) and inner.predicate.name == BuiltinPredicateSymbol.EQ:
            return [(DISTINCT, _atom(inner, action, where)[1])]
    return [_atom(formula, action, where)]


def _effects(action: Any, where: str) -> tuple[list[Atom], list[Atom]]:
    from tarski.fstrips import AddEffect, DelEffect
    from tarski.syntax import Tautology

    adds: list[Atom] = []
    dels: list[Atom] = []
    for effect in action.effects:
        if not isinstance(effect, AddEffect | DelEffect):
            raise _refuse(action.name, f"effect {effect} is not an add or a delete", where)
        if not isinstance(effect.condition, Tautology):
            raise _refuse(action.name, f"effect {effect} is conditional", where)
        atom = _atom(effect.atom, action.name, where)
        (adds if isinstance(effect, AddEffect) else dels).append(atom)
    return adds, dels


def _roles(
    action: str,
    params: Sequence[str],
    pre: list[Atom],
    adds: list[Atom],
    dels: list[Atom],
    where: str,
) -> HanoiShape:
    """Find ``on`` (its deleted and added facts share the disk), then the rest by the
    parts they play around it; every fact must be used, or the move is not a Hanoi
    move."""
    if len(params) not in (3, 5):
        raise _refuse(action, f"{len(params)} parameters; a Hanoi move has 3 (or 5)", where)
    stacks = [
        (name, args[0], args[1], dest[1])
        for name, args in dels
        if len(args) == 2
        for dest_name, dest in adds
        if dest_name == name and len(dest) == 2 and dest[0] == args[0] and (name, args) in pre
    ]
    on_candidates = [s for s in stacks if len({s[1], s[2], s[3]}) == 3]
    if not on_candidates:
        raise _refuse(
            action, "no fact says what the moved disk lies on (like on ?disk ?from)", where
        )
    on, disk, source, target = on_candidates[0]
    wanted_pre: set[Atom] = {(on, (disk, source))}
    wanted_add: set[Atom] = {(on, (disk, target))}
    wanted_del: set[Atom] = {(on, (disk, source))}
    clears = [name for name, args in pre if args == (disk,)]
    clear = next(
        (
            c
            for c in clears
            if (c, (target,)) in pre and (c, (source,)) in adds and (c, (target,)) in dels
        ),
        None,
    )
    if clear is None:
        raise _refuse(
            action, "no fact says the disk and its target are clear (like clear ?x)", where
        )
    wanted_pre |= {(clear, (disk,)), (clear, (target,))}
    wanted_add.add((clear, (source,)))
    wanted_del.add((clear, (target,)))
    fluents = {name for name, _ in adds + dels} | {DISTINCT}  # neither is a size fact
    sizes = [
        (name, args)
        for name, args in pre
        if name not in fluents and set(args) == {disk, target} and len(args) == 2
    ]
    if not sizes:
        raise _refuse(action, "no static fact orders the disk and its target by size", where)
    if len(sizes) > 1:
        shown = ", ".join("(" + " ".join([n, *(f"?{a}" for a in args)]) + ")" for n, args in sizes)
        raise _refuse(
            action, f"{shown} all relate the disk and its target; a Hanoi move has one", where
        )
    smaller, order = sizes[0]
    wanted_pre.add((smaller, order))
    moved = (disk, source, target)
    redundant: set[Atom] = {  # true where the move applies (the module's docstring says why)
        (smaller, tuple(source if arg == target else arg for arg in order)),
        *((DISTINCT, (a, b)) for a in moved for b in moved if a != b),
    }
    at = can_move = None
    if len(params) == 5:
        pegs = [
            (name, args[1], dest[1])
            for name, args in dels
            if len(args) == 2 and args[0] == disk and name != on
            for dest_name, dest in adds
            if dest_name == name and len(dest) == 2 and dest[0] == disk
        ]
        found = [(n, pf, pt) for n, pf, pt in pegs if (n, (target, pt)) in pre]
        if not found:
            raise _refuse(action, "5 parameters but no fact names the pegs of a move", where)
        at, peg_from, peg_to = found[0]
        wanted_pre |= {(at, (disk, peg_from)), (at, (target, peg_to))}
        wanted_add.add((at, (disk, peg_to)))
        wanted_del.add((at, (disk, peg_from)))
        graph = [n for n, args in pre if args == (peg_from, peg_to) and n not in fluents]
        if graph:
            can_move = graph[0]
            wanted_pre.add((can_move, (peg_from, peg_to)))
    for part, facts, wanted in (
        ("precondition", pre, wanted_pre),
        ("add effect", adds, wanted_add),
        ("delete effect", dels, wanted_del),
    ):
        extra = [f for f in facts if f not in wanted and f not in redundant]
        if extra:
            name, args = extra[0]
            shown = " ".join([name, *(f"?{a}" for a in args)])
            if name == DISTINCT:
                shown = "not (= " + " ".join(f"?{a}" for a in args) + ")"
            raise _refuse(action, f"{part} ({shown}) is not part of a Hanoi move", where)
        missing = wanted - set(facts)
        if missing:  # cannot happen: every wanted fact was found in its part
            raise _refuse(action, f"{part} lacks {sorted(missing)[0]}", where)
    return HanoiShape(
        action=action.lower(),
        on=on,
        clear=clear,
        smaller=smaller,
        holder_first=order == (target, disk),
        at=at,
        can_move=can_move,
    )
