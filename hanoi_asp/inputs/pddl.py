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
* the goal is a conjunction of facts, read as pegs where the pegs imply it
  (:mod:`hanoi_asp.inputs.pddl_goal`).

The domain file is ``--domain FILE``, or found beside the problem file
(:mod:`hanoi_asp.inputs.pddl_files`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hanoi_asp.inputs.pddl_domain import HanoiShape, hanoi_shape
from hanoi_asp.inputs.pddl_files import (
    DOMAIN_NAMES,
    NO_DOMAIN,
    DomainFile,
    domain_beside,
    domain_for,
    pddl_kind,
)
from hanoi_asp.inputs.pddl_goal import check_self_holds, facts, goal_atoms, goal_pegs, shown
from hanoi_asp.inputs.pddl_names import peg_name
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.puzzle import Puzzle, placement

__all__ = [  # the domain's finding lives in pddl_files; these names stay importable here
    "DOMAIN_NAMES",
    "INSTALL_HINT",
    "NO_DOMAIN",
    "DomainFile",
    "domain_beside",
    "domain_for",
    "pddl_kind",
    "read_pddl",
]

INSTALL_HINT = "reading PDDL needs the pddl extra: pip install 'hanoi-asp[pddl]'"


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


def _puzzle(problem: Any, shape: HanoiShape, path: str) -> Puzzle:
    objects = [str(c.symbol).lower() for c in problem.language.constants()]
    init = facts(problem.init.as_atoms())
    by_name: dict[str, list[tuple[str, ...]]] = {}
    for name, args in init:
        by_name.setdefault(name, []).append(args)
    below: dict[str, str] = {}
    above: dict[str, str] = {}
    for upper, lower in by_name.get(shape.on, []):
        if upper in below:
            raise InputError(
                f"{shown(shape.on, (upper, lower))}: {upper} already lies on {below[upper]}",
                path=path,
            )
        if lower in above:
            raise InputError(
                f"{shown(shape.on, (upper, lower))}: {above[lower]} already lies on {lower}",
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
                f"{shown(shape.clear, (thing,))} is missing at the start: {thing} lies on "
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
    wanted = goal_atoms(problem.goal, path)
    goal = goal_pegs(wanted, by_name, shape, number, pegs, path)
    check_self_holds(by_name.get(shape.smaller, []), wanted, shape, path)
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
                    f"{shown(shape.smaller, fact)} is missing: disk {disk} could never be "
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
                f"{shown(shape.on, (disk, lower))} at the start: a larger disk on a smaller one",
                path=path,
            )
    for thing in [*pegs, *number]:
        top = thing not in above
        if top and thing not in clear:
            raise InputError(
                f"{shown(shape.clear, (thing,))} is missing at the start: nothing lies on {thing}",
                path=path,
            )
        if not top and thing in clear:
            raise InputError(
                f"{shown(shape.clear, (thing,))} at the start, but {above[thing]} lies on it",
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
        raise InputError(f"{shown(shape.at, fact)} {state} at the start", path=path)
