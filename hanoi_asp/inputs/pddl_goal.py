"""The goal of a PDDL Hanoi problem as pegs.

Its ``on`` chains that reach a peg place their disks on that peg; the goal is accepted
when these pegs imply every goal fact, so a goal that names only some disks' places (a
partial goal) is read exactly.  A fact the pegs cannot say (``(on d3 d5)`` where d5's peg
is not fixed, or a disk directly on a peg with larger disks free to lie there too) is
refused with one line naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hanoi_asp.inputs.pddl_domain import HanoiShape
from hanoi_asp.model.errors import InputError

Fact = tuple[str, tuple[str, ...]]
"""A ground fact: its predicate and its arguments (lower case)."""


def facts(atoms: Iterable[Any]) -> list[Fact]:
    """tarski's atoms as :data:`Fact`."""
    return [
        (atom.predicate.name.lower(), tuple(str(t.symbol).lower() for t in atom.subterms))
        for atom in atoms
    ]


def goal_atoms(goal: Any, path: str) -> list[Fact]:
    """The facts of a goal that is a conjunction of facts (anything else: one line)."""
    from tarski.syntax import Atom, CompoundFormula, Connective, Tautology

    if isinstance(goal, Tautology):
        return []
    if isinstance(goal, CompoundFormula) and goal.connective == Connective.And:
        return [fact for part in goal.subformulas for fact in goal_atoms(part, path)]
    if isinstance(goal, Atom):
        return facts([goal])
    raise InputError(
        f"goal part {goal} is not a fact: a Hanoi goal says where disks lie", path=path
    )


def shown(name: str, args: Iterable[str]) -> str:
    """A fact as PDDL writes it, for messages."""
    return "(" + " ".join([name, *args]) + ")"


def check_self_holds(
    sizes: list[tuple[str, ...]],
    goal: list[Fact],
    shape: HanoiShape,
    path: str,
) -> None:
    """A fact ``(smaller d d)`` (the IPC 2008 Hanoi problems have them) lets disk d be
    put on itself, where it can never move again and nothing can be put on it: the
    plans of a goal with an ``on`` fact naming d never do that (the fact could no
    longer hold), so the fact changes nothing there.  Where the goal leaves d free, it
    would take d out of the game, which is not the Hanoi puzzle: refused."""
    placed = {thing for name, args in goal if name == shape.on for thing in args}
    for args in sizes:
        if len(args) == 2 and args[0] == args[1] and args[0] not in placed:
            raise InputError(
                f"{shown(shape.smaller, args)} lets {args[0]} be put on itself, out of the "
                "game, and the goal does not place it: not the Hanoi puzzle",
                path=path,
            )


def goal_pegs(
    atoms: list[Fact],
    init: Mapping[str, list[tuple[str, ...]]],
    shape: HanoiShape,
    number: Mapping[str, int],
    pegs: list[str],
    path: str,
) -> dict[int, str]:
    """Disk number -> goal peg object, or a refusal naming the goal fact the pegs
    cannot say."""
    static = {name for name in (shape.smaller, shape.can_move) if name}
    below: dict[str, str] = {}
    peg_of: dict[str, str] = {}
    for name, args in atoms:
        fact = shown(name, args)
        if name in static:
            if args not in init.get(name, []):
                raise InputError(f"goal fact {fact} can never hold (it is static)", path=path)
        elif name == shape.on:
            upper, lower = args
            if upper not in number or (lower not in number and lower not in pegs):
                raise InputError(
                    f"goal fact {fact}: {upper} is no disk or {lower} no place", path=path
                )
            if below.get(upper, lower) != lower:
                raise InputError(
                    f"goal fact {fact}: {upper} cannot also lie on {below[upper]}", path=path
                )
            below[upper] = lower
        elif name == shape.at:
            disk, peg = args
            if disk in pegs and disk == peg:
                continue
            if disk not in number or peg not in pegs:
                raise InputError(f"goal fact {fact}: {disk} is no disk or {peg} no peg", path=path)
            if peg_of.get(disk, peg) != peg:
                raise InputError(
                    f"goal fact {fact}: {disk} cannot also be on {peg_of[disk]}", path=path
                )
            peg_of[disk] = peg
        elif name != shape.clear:
            raise InputError(f"goal fact {fact} is not about where disks lie", path=path)
    for disk in below:
        support, seen = below[disk], {disk}
        while support in below and support not in seen:
            seen.add(support)
            support = below[support]
        if support in pegs:
            if peg_of.get(disk, support) != support:
                raise InputError(
                    f"goal fact {shown(shape.on, (disk, below[disk]))}: {disk} cannot be on "
                    f"{support} and {peg_of[disk]}",
                    path=path,
                )
            peg_of[disk] = support
        elif support in number and support in peg_of:
            peg_of[disk] = peg_of[support]
    goal = {number[d]: p for d, p in peg_of.items()}
    for name, args in atoms:
        if name in static or name == shape.at:
            continue
        why = _not_implied(name, args, goal, number, pegs, shape)
        if why:
            raise InputError(
                f"goal fact {shown(name, args)} cannot be stated as pegs: {why}", path=path
            )
    return goal


def _not_implied(
    name: str,
    args: tuple[str, ...],
    goal: Mapping[int, str],
    number: Mapping[str, int],
    pegs: list[str],
    shape: HanoiShape,
) -> str | None:
    """Why the goal pegs do not imply this ``on`` or ``clear`` goal fact (None: they
    do).  On a peg, disks lie in order of size, so ``(on x y)`` holds in every state
    with these pegs exactly when x and y's peg is fixed and every disk of a size
    between them is fixed elsewhere; ``(clear x)`` when every smaller disk (every disk,
    for a peg) is fixed elsewhere."""
    if name == shape.on:
        upper, lower = args
        size = number[upper]
        if lower in number and number[lower] >= size:
            return f"{lower} is not larger than {upper}"
        peg = lower if lower in pegs else goal.get(number[lower])
        if peg is None or goal.get(size) != peg:
            return f"it does not say which peg {upper} ends on"
        between = range(number[lower] + 1 if lower in number else 1, size)
    else:
        (thing,) = args
        peg = thing if thing in pegs else goal.get(number[thing])
        if peg is None:
            return f"it does not say which peg {thing} ends on"
        between = range(number[thing] + 1 if thing in number else 1, len(number) + 1)
    loose = [d for d in between if goal.get(d, peg) == peg]
    if loose:
        names = {n: d for d, n in number.items()}
        return f"{names[loose[0]]} may end on {peg} there too"
    return None
