"""PDDL problems of a Hanoi domain -> :class:`~hanoi_asp.model.puzzle.Puzzle`.

The files are parsed by tarski (``pip install 'hanoi-asp[pddl]'``), never by hand, and
never run.  The domain must have the shape of a Hanoi move
(:mod:`hanoi_asp.inputs.pddl_domain`); the problem is then read by what its facts say,
whatever its objects are named and in whatever order its facts come:

* the *disks* are the objects that lie on something at the start; the *pegs* are the
  objects under the stacks and the clear objects that lie on nothing (empty pegs), in
  the order the problem (or the domain's constants) declares them;
* the disks' sizes come from the static size facts: every two disks must be ordered
  one way (a strict total order: disk 1, the largest, may hold every other), and every
  peg must take every disk, else the problem is not the Hanoi puzzle;
* the start is the ``on`` chains down to the pegs; its ``clear`` facts must be exactly
  the tops (and, in the located variant, its ``at`` facts the disks' pegs);
* the goal is a conjunction of facts.  Its ``on`` chains that reach a peg place their
  disks on that peg; the goal is accepted when these pegs imply every goal fact, so a
  goal that names only some disks' places (a partial goal) is read exactly.  A fact the
  pegs cannot say (``(on d3 d5)`` where d5's peg is not fixed, or a disk directly on a
  peg with larger disks free to lie there too) is refused with one line naming it.

The domain file is ``--domain FILE``, or found beside the problem file
(:func:`domain_for`): only a file's domain is looked for, never a text's (the web's
editor, a Dask worker's copy), so a text never makes this read a file of the machine it
runs on; a batch's client reads the domain and ships it with the problem to workers that
share no file system (:class:`DomainFile`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_asp.inputs.pddl_domain import HanoiShape, hanoi_shape
from hanoi_asp.inputs.pddl_names import peg_name
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.files import read_user_file
from hanoi_asp.model.puzzle import Puzzle, placement

INSTALL_HINT = "reading PDDL needs the pddl extra: pip install 'hanoi-asp[pddl]'"
DOMAIN_NAMES = (
    "{stem}-domain.pddl",
    "domain-{stem}.pddl",
    "{stem}_domain.pddl",
    "domain_{stem}.pddl",
    "domain.pddl",
)
"""Where a problem's domain is looked for beside it, in this order (the usual layouts
of planning benchmark folders: one ``domain.pddl`` per folder, or one per problem)."""

NO_DOMAIN = "no PDDL domain: give --domain FILE, or put domain.pddl beside the problem"
_DEFINE = re.compile(r"\(\s*define\s*\(\s*(problem|domain)\b", re.IGNORECASE)


def pddl_kind(text: str) -> str | None:
    """``problem`` or ``domain`` if the text (comments aside) defines one, else None.

    >>> pddl_kind("; a comment\\n(define (problem p1) (:domain hanoi))")
    'problem'
    >>> pddl_kind("peg(a).") is None
    True
    """
    body = "\n".join(line.split(";", 1)[0] for line in text.splitlines())
    found = _DEFINE.match(body.lstrip())
    return found.group(1).lower() if found else None


def domain_beside(path: str) -> Path | None:
    """The domain file beside the problem ``path``: the first of :data:`DOMAIN_NAMES`
    that exists, else None."""
    problem = Path(path)
    for pattern in DOMAIN_NAMES:
        candidate = problem.with_name(pattern.format(stem=problem.stem))
        if candidate != problem and candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class DomainFile:
    """A PDDL domain, read: its file's name (for messages) and its text."""

    path: str
    text: str

    @classmethod
    def read(cls, path: str | Path) -> DomainFile:
        """The domain file ``path``; one line if it cannot be read or is no domain."""
        text = read_user_file(str(path), what="domain")
        if pddl_kind(text) != "domain":
            raise InputError(
                "not a PDDL domain: no (define (domain ...)) at its start", path=str(path)
            )
        return cls(str(path), text)


def domain_for(path: str, text: str, given: DomainFile | None = None) -> DomainFile | None:
    """The domain of the file ``path`` (its ``text``) if it is a PDDL problem: ``given``
    (``--domain``), else the one beside it, read (none: one line); None for any other
    instance."""
    if pddl_kind(text) != "problem":
        return None
    if given is not None:
        return given
    beside = domain_beside(path)
    if beside is None:
        raise InputError(NO_DOMAIN, path=path)
    return DomainFile.read(beside)


def read_pddl(text: str, path: str, domain: str | DomainFile | None = None) -> Puzzle:
    """The puzzle of the PDDL problem ``text`` (named ``path`` in messages); ``domain``:
    the domain's file, or one read already (none: one line)."""
    kind = pddl_kind(text)
    if kind == "domain":
        raise InputError("is a PDDL domain, not a problem: give the problem file", path=path)
    if kind is None:
        raise InputError("not a PDDL problem: no (define (problem ...)) at its start", path=path)
    if domain is None:
        raise InputError(NO_DOMAIN, path=path)
    if not isinstance(domain, DomainFile):
        domain = DomainFile.read(domain)
    problem = _parse(domain.text, domain.path, text, path)
    shape = hanoi_shape(problem, domain.path)
    return _puzzle(problem, shape, path)


def _parse(domain_text: str, domain_path: str, text: str, path: str) -> Any:
    """tarski's problem of the two texts; whatever tarski cannot read is one line."""
    try:
        from tarski.io import FstripsReader
    except ImportError:
        raise InputError(INSTALL_HINT, path=path) from None
    reader = FstripsReader(
        raise_on_error=True, strict_with_requirements=False, case_insensitive=True
    )
    import logging

    for what, source, where in (("domain", domain_text, domain_path), ("problem", text, path)):
        logging.disable(logging.WARNING)  # tarski warns on the root logger: one line is ours
        try:
            if what == "domain":
                reader.parse_domain_string(source)
            else:
                reader.parse_instance_string(source)
        except RecursionError:
            raise InputError(f"PDDL {what} nested too deeply", path=where) from None
        except Exception as error:  # tarski's many error types: all mean "cannot read it"
            message = " ".join(str(error).split()) or type(error).__name__
            raise InputError(f"cannot read the PDDL {what}: {message}", path=where) from None
        finally:
            logging.disable(logging.NOTSET)
    return reader.problem


def _facts(atoms: Iterable[Any]) -> list[tuple[str, tuple[str, ...]]]:
    return [
        (atom.predicate.name.lower(), tuple(str(t.symbol).lower() for t in atom.subterms))
        for atom in atoms
    ]


def _goal_atoms(goal: Any, path: str) -> list[tuple[str, tuple[str, ...]]]:
    from tarski.syntax import Atom, CompoundFormula, Connective, Tautology

    if isinstance(goal, Tautology):
        return []
    if isinstance(goal, CompoundFormula) and goal.connective == Connective.And:
        return [fact for part in goal.subformulas for fact in _goal_atoms(part, path)]
    if isinstance(goal, Atom):
        return _facts([goal])
    raise InputError(
        f"goal part {goal} is not a fact: a Hanoi goal says where disks lie", path=path
    )


def _shown(name: str, args: Iterable[str]) -> str:
    return "(" + " ".join([name, *args]) + ")"


def _puzzle(problem: Any, shape: HanoiShape, path: str) -> Puzzle:
    objects = [str(c.symbol).lower() for c in problem.language.constants()]
    init = _facts(problem.init.as_atoms())
    by_name: dict[str, list[tuple[str, ...]]] = {}
    for name, args in init:
        by_name.setdefault(name, []).append(args)
    below: dict[str, str] = {}
    above: dict[str, str] = {}
    for upper, lower in by_name.get(shape.on, []):
        if upper in below:
            raise InputError(
                f"{_shown(shape.on, (upper, lower))}: {upper} already lies on {below[upper]}",
                path=path,
            )
        if lower in above:
            raise InputError(
                f"{_shown(shape.on, (upper, lower))}: {above[lower]} already lies on {lower}",
                path=path,
            )
        below[upper] = lower
        above[lower] = upper
    clear = {args[0] for args in by_name.get(shape.clear, [])}
    disks = [o for o in objects if o in below]
    pegs = [o for o in objects if o not in below and (o in above or o in clear)]
    for thing in objects:
        if thing not in disks and thing not in pegs:
            raise InputError(
                f"{_shown(shape.clear, (thing,))} is missing at the start: {thing} lies on "
                "nothing and nothing lies on it, so it is neither a disk nor a usable peg",
                path=path,
            )
    if not disks:
        raise InputError("no disk: nothing lies on anything at the start", path=path)
    if not pegs:
        raise InputError("no peg: every object lies on another", path=path)
    number = _sizes(disks, pegs, by_name.get(shape.smaller, []), shape, path)
    start = _stacks(below, above, clear, pegs, number, shape, path)
    _check_at(by_name, shape, start, pegs, path)
    goal_atoms = _goal_atoms(problem.goal, path)
    goal = _goal(goal_atoms, by_name, shape, number, pegs, path)
    _check_self_holds(by_name.get(shape.smaller, []), goal_atoms, shape, path)
    names = {peg: peg_name(peg) for peg in pegs}
    data: dict[str, Any] = {
        "pegs": tuple(names[p] for p in pegs),
        "disks": len(disks),
        "init": placement({number[d]: names[p] for d, p in start.items()}),
        "goal": placement({d: names[p] for d, p in goal.items()}),
    }
    if shape.can_move is not None:
        data["moves_allowed"] = tuple(
            (names[a], names[b])
            for a, b in sorted(by_name.get(shape.can_move, []))
            if a in names and b in names and a != b
        )
        if not data["moves_allowed"]:
            raise InputError(f"no ({shape.can_move} ...) fact: no move is allowed", path=path)
    return Puzzle(**data)


def _sizes(
    disks: list[str],
    pegs: list[str],
    facts: list[tuple[str, ...]],
    shape: HanoiShape,
    path: str,
) -> dict[str, int]:
    """Disk object -> disk number (1 the largest), from the static size facts; refused
    unless they order every two disks one way and let every peg take every disk."""
    holds = {(a, b) if shape.holder_first else (b, a) for a, b in facts}  # (holder, held)
    for disk in disks:
        for peg in pegs:
            if (peg, disk) not in holds:
                fact = (peg, disk) if shape.holder_first else (disk, peg)
                raise InputError(
                    f"{_shown(shape.smaller, fact)} is missing: disk {disk} could never be "
                    f"put on peg {peg}, which is not the Hanoi puzzle",
                    path=path,
                )
    larger_than = {d: {e for e in disks if (d, e) in holds and e != d} for d in disks}
    for a in disks:
        for b in disks:
            if a < b and ((a, b) in holds) == ((b, a) in holds):
                both = "both ways" if (a, b) in holds else "neither way"
                raise InputError(
                    f"disks {a} and {b} are ordered {both} by {shape.smaller}: every two "
                    "disks must be ordered one way",
                    path=path,
                )
    ranked = sorted(disks, key=lambda d: -len(larger_than[d]))
    for index, disk in enumerate(ranked):
        if larger_than[disk] != set(ranked[index + 1 :]):
            raise InputError(
                f"the {shape.smaller} facts are not an order of sizes (around disk {disk})",
                path=path,
            )
    return {disk: index for index, disk in enumerate(ranked, start=1)}


def _check_self_holds(
    facts: list[tuple[str, ...]],
    goal: list[tuple[str, tuple[str, ...]]],
    shape: HanoiShape,
    path: str,
) -> None:
    """A fact ``(smaller d d)`` (the IPC 2008 Hanoi problems have them) lets disk d be
    put on itself, where it can never move again and nothing can be put on it: the
    plans of a goal with an ``on`` fact naming d never do that (the fact could no
    longer hold), so the fact changes nothing there.  Where the goal leaves d free, it
    would take d out of the game, which is not the Hanoi puzzle: refused."""
    placed = {thing for name, args in goal if name == shape.on for thing in args}
    for args in facts:
        if len(args) == 2 and args[0] == args[1] and args[0] not in placed:
            raise InputError(
                f"{_shown(shape.smaller, args)} lets {args[0]} be put on itself, out of the "
                "game, and the goal does not place it: not the Hanoi puzzle",
                path=path,
            )


def _stacks(
    below: Mapping[str, str],
    above: Mapping[str, str],
    clear: set[str],
    pegs: list[str],
    number: Mapping[str, int],
    shape: HanoiShape,
    path: str,
) -> dict[str, str]:
    """Disk object -> the peg its start stack stands on; the stacks must go down in
    size and their tops (and only those) be clear."""
    peg_of: dict[str, str] = {}
    for disk in number:
        support, seen = below[disk], {disk}
        while support in below:
            if support in seen:
                raise InputError(
                    f"the {shape.on} facts at the start form a cycle at {disk}", path=path
                )
            seen.add(support)
            support = below[support]
        peg_of[disk] = support
        lower = below[disk]
        if lower in number and number[lower] > number[disk]:
            raise InputError(
                f"{_shown(shape.on, (disk, lower))} at the start: a larger disk on a smaller one",
                path=path,
            )
    for thing in [*pegs, *number]:
        top = thing not in above
        if top and thing not in clear:
            raise InputError(
                f"{_shown(shape.clear, (thing,))} is missing at the start: nothing lies on {thing}",
                path=path,
            )
        if not top and thing in clear:
            raise InputError(
                f"{_shown(shape.clear, (thing,))} at the start, but {above[thing]} lies on it",
                path=path,
            )
    return peg_of


def _check_at(
    facts: Mapping[str, list[tuple[str, ...]]],
    shape: HanoiShape,
    start: Mapping[str, str],
    pegs: list[str],
    path: str,
) -> None:
    """The located variant: each disk's ``at`` fact names its stack's peg, each peg is
    ``at`` itself, and nothing else is ``at`` anywhere."""
    if shape.at is None:
        return
    given = set(facts.get(shape.at, []))
    wanted = {(d, p) for d, p in start.items()} | {(p, p) for p in pegs}
    for fact in sorted(given ^ wanted):
        state = "is missing" if fact in wanted else "does not hold"
        raise InputError(f"{_shown(shape.at, fact)} {state} at the start", path=path)


def _goal(
    atoms: list[tuple[str, tuple[str, ...]]],
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
        fact = _shown(name, args)
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
                    f"goal fact {_shown(shape.on, (disk, below[disk]))}: {disk} cannot be on "
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
                f"goal fact {_shown(name, args)} cannot be stated as pegs: {why}", path=path
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
