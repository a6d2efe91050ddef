"""A :class:`~hanoi_asp.model.puzzle.Puzzle` as STRIPS PDDL (domain and problem), and a
plan in the planners' format: what ``export --pddl`` writes and the planners read.

The disks are ``d1``..``dn`` (``d1`` the largest, as in hanoi-asp), the pegs keep their
names where PDDL allows (:mod:`hanoi_asp.inputs.pddl_names`), in their order.  Two
domains, both plain STRIPS with typing (no derived predicates, no conditional effects),
both read back by :mod:`hanoi_asp.inputs.pddl`:

* ``classic``, the textbook Hanoi domain: ``(on ?x ?y)`` (disk x lies directly on y, a
  disk or a peg), ``(clear ?x)``, the static ``(smaller ?x ?y)`` (y may lie on x: x is a
  peg or a larger disk) and ``move ?disk ?from ?to``.  Used when every disk has a goal peg
  and every move is allowed: the goal is then the ``on`` facts of the goal stacks, which
  fix every disk's peg.
* ``located``, for a partial goal or a restricted move graph, which speak of a disk's
  *peg*, not of what it lies on: the same domain plus ``(at ?x ?p)`` (x is on peg p; a
  peg is ``at`` itself, a static fact) and, for a restricted graph, the static
  ``(can-move ?from ?to)`` between pegs.  ``move ?disk ?from ?to ?pfrom ?pto`` also
  requires ``(at ?disk ?pfrom)`` and ``(at ?to ?pto)`` (and ``(can-move ?pfrom ?pto)``),
  and replaces ``(at ?disk ?pfrom)`` by ``(at ?disk ?pto)``.  This keeps ``at`` exact in
  every reachable state: by induction, each disk has exactly one ``at`` fact, its stack's
  peg; a move puts the disk on the top of ``?to``'s stack, whose peg ``(at ?to ?pto)``
  names, so the disk's new peg is ``?pto``.  And ``?pfrom`` differs from ``?pto``: the
  moving disk and ``?to`` are both clear, and a peg's stack has one top (or ``?to`` is
  the peg itself, which is not clear while the disk lies on its stack), so the delete
  and the add never cancel.  The goal names only the goal's disks: ``(at d p)``.  The
  extra parameters multiply the ground actions by about k(k-1), which is why the classic
  domain is used whenever it suffices.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=2, init={"a": (1, 2)}, goal={"c": (1, 2)})
>>> from hanoi_asp.model.plan import replay
>>> print(plan_text(p, replay(p, [(2, "b"), (1, "c"), (2, "c")])))
(move d2 d1 b)
(move d1 a c)
(move d2 b d1)
; cost = 3 (unit cost)
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from hanoi_asp.inputs.pddl_names import Names
from hanoi_asp.model.plan import Move
from hanoi_asp.model.puzzle import Puzzle, stacks
from hanoi_asp.model.result import Result

Domain = Literal["classic", "located"]


def choose_domain(puzzle: Puzzle) -> Domain:
    """``classic`` when its ``on`` goal is exact (full goal, every move allowed)."""
    return "classic" if puzzle.is_full_goal() and puzzle.edges() is None else "located"


def domain_text(kind: Domain, restricted: bool = False) -> str:
    """The domain; ``restricted`` adds the ``can-move`` precondition (located only)."""
    if kind == "classic":
        return """(define (domain hanoi)
  (:requirements :strips :typing)
  (:types place - object disk peg - place)
  (:predicates (on ?x - disk ?y - place) (clear ?x - place) (smaller ?x - place ?y - disk))
  (:action move
    :parameters (?disk - disk ?from - place ?to - place)
    :precondition (and (on ?disk ?from) (clear ?disk) (clear ?to) (smaller ?to ?disk))
    :effect (and (on ?disk ?to) (clear ?from) (not (on ?disk ?from)) (not (clear ?to)))))
"""
    can_move = " (can-move ?pfrom ?pto)" if restricted else ""
    can_move_predicate = " (can-move ?from ?to - peg)" if restricted else ""
    return f"""(define (domain hanoi-located)
  (:requirements :strips :typing)
  (:types place - object disk peg - place)
  (:predicates (on ?x - disk ?y - place) (clear ?x - place) (smaller ?x - place ?y - disk)
               (at ?x - place ?p - peg){can_move_predicate})
  (:action move
    :parameters (?disk - disk ?from - place ?to - place ?pfrom - peg ?pto - peg)
    :precondition (and (on ?disk ?from) (clear ?disk) (clear ?to) (smaller ?to ?disk)
                       (at ?disk ?pfrom) (at ?to ?pto){can_move})
    :effect (and (on ?disk ?to) (clear ?from) (not (on ?disk ?from)) (not (clear ?to))
                 (at ?disk ?pto) (not (at ?disk ?pfrom)))))
"""


def _stack_facts(names: Names, towers: Sequence[Sequence[int]], kind: Domain) -> list[str]:
    """``on``/``clear`` (and ``at`` for located) of per-peg stacks, bottom first."""
    facts = []
    for index, stack in enumerate(towers):
        below = names.pegs[index]
        for disk in stack:
            facts.append(f"(on {names.disk(disk)} {below})")
            if kind == "located":
                facts.append(f"(at {names.disk(disk)} {names.pegs[index]})")
            below = names.disk(disk)
        facts.append(f"(clear {below})")
    return facts


def problem_text(puzzle: Puzzle, kind: Domain) -> str:
    """The problem: objects, start (stacks and static facts) and goal."""
    names = Names(puzzle)
    pegs = names.pegs
    disks = [names.disk(d) for d in range(1, puzzle.disks + 1)]
    init = _stack_facts(names, stacks(puzzle, puzzle.initial_state()), kind)
    for larger in range(1, puzzle.disks + 1):  # disk numbers grow as disks get smaller
        for smaller in range(larger + 1, puzzle.disks + 1):
            init.append(f"(smaller {names.disk(larger)} {names.disk(smaller)})")
    for peg in pegs:
        init += [f"(smaller {peg} {disk})" for disk in disks]
    goal: list[str]
    goal_state = tuple(puzzle.goal_pegs().get(d, -1) for d in range(1, puzzle.disks + 1))
    if kind == "located":
        init += [f"(at {peg} {peg})" for peg in pegs]
        edges = puzzle.edges()
        if edges is not None:
            init += [f"(can-move {pegs[a]} {pegs[b]})" for a, b in sorted(edges)]
        goal = [f"(at {disks[d - 1]} {pegs[p]})" for d, p in sorted(puzzle.goal_pegs().items())]
    else:
        goal = [
            fact
            for fact in _stack_facts(names, stacks(puzzle, goal_state), kind)
            if fact.startswith("(on ")
        ]
    body = "\n    ".join(init)
    goals = "\n           ".join(goal)
    return f"""(define (problem hanoi-{puzzle.disks}-{len(pegs)})
  (:domain {"hanoi" if kind == "classic" else "hanoi-located"})
  (:objects {" ".join(disks)} - disk {" ".join(pegs)} - peg)
  (:init
    {body})
  (:goal (and {goals})))
"""


def hanoi_pddl(puzzle: Puzzle, kind: Domain | None = None) -> tuple[str, str]:
    """(domain text, problem text) for ``puzzle``; ``kind`` defaults to
    :func:`choose_domain`."""
    kind = kind or choose_domain(puzzle)
    if kind == "classic" and (not puzzle.is_full_goal() or puzzle.edges() is not None):
        raise ValueError("the classic domain needs a full goal and every move allowed")
    return domain_text(kind, puzzle.edges() is not None), problem_text(puzzle, kind)


def plan_text(puzzle: Puzzle, plan: Sequence[Move], kind: Domain | None = None) -> str:
    """A replayed plan as the planners write it (IPC's plan format): one ground action a
    line, for the domain :func:`hanoi_pddl` writes, then its cost as a comment."""
    kind = kind or choose_domain(puzzle)
    names = Names(puzzle)
    towers = stacks(puzzle, puzzle.initial_state())
    lines = []
    for move in plan:
        source, target = puzzle.peg_index(move.source), puzzle.peg_index(move.target)
        towers[source].pop()
        lies_on = names.disk(towers[source][-1]) if towers[source] else names.pegs[source]
        onto = names.disk(towers[target][-1]) if towers[target] else names.pegs[target]
        towers[target].append(move.disk)
        pegs = f" {names.pegs[source]} {names.pegs[target]}" if kind == "located" else ""
        lines.append(f"(move {names.disk(move.disk)} {lies_on} {onto}{pegs})")
    lines.append(f"; cost = {len(plan)} (unit cost)")
    return "\n".join(lines) + "\n"


def write_pddl(puzzle: Puzzle, folder: Path, stem: str, solved: Result | None = None) -> list[Path]:
    """``STEM.pddl`` and its domain ``STEM-domain.pddl`` in ``folder`` (made if missing),
    and with ``solved`` its replayed plan as ``STEM.plan``, headed by a comment saying
    whether it is proven minimal; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    domain, problem = hanoi_pddl(puzzle)
    written = [folder / f"{stem}-domain.pddl", folder / f"{stem}.pddl"]
    written[0].write_text(domain, encoding="utf-8")
    written[1].write_text(problem, encoding="utf-8")
    if solved is not None and solved.plan is not None:
        head = f"; {solved.result} by hanoi-asp ({solved.method}): {solved.proof}\n"
        written.append(folder / f"{stem}.plan")
        written[2].write_text(head + plan_text(puzzle, solved.plan), encoding="utf-8")
    return written
