"""A :class:`~hanoi_asp.model.puzzle.Puzzle` as STRIPS PDDL, and a PDDL plan back as moves.

    python -m benchmarks.harness.peers.pddl INSTANCE OUTDIR   # domain.pddl, problem.pddl

Objects are the disks ``d1..dn`` (``d1`` the largest, as in hanoi-asp) and the pegs
``p0..p{k-1}`` (by peg index: peg names may be anything, PDDL names may not).  Two domains,
both plain STRIPS with typing (no derived predicates, no conditional effects):

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

A plan comes back as ``(move d3 p0 d1)`` lines; :func:`plan_steps` turns them into the
``(disk, target peg name)`` steps :func:`hanoi_asp.model.plan.replay` checks, following
the stacks so that a move onto a disk is a move onto that disk's peg, and refusing an
action whose ``?from``/``?to`` are not what the disk lies on / the top of its target.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from hanoi_asp import Puzzle, load_puzzle

Domain = Literal["classic", "located"]


def disk_name(disk: int) -> str:
    return f"d{disk}"


def peg_object(index: int) -> str:
    return f"p{index}"


def choose_domain(puzzle: Puzzle) -> Domain:
    """``classic`` when its ``on`` goal is exact (full goal, every move allowed)."""
    return "classic" if puzzle.is_full_goal() and puzzle.edges() is None else "located"


def domain_text(kind: Domain, restricted: bool) -> str:
    """The domain; ``restricted`` adds the ``can-move`` precondition (located only)."""
    if kind == "classic":
        return """(define (domain hanoi)
  (:requirements :strips :typing)
  (:types disk peg - place)
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
  (:types disk peg - place)
  (:predicates (on ?x - disk ?y - place) (clear ?x - place) (smaller ?x - place ?y - disk)
               (at ?x - place ?p - peg){can_move_predicate})
  (:action move
    :parameters (?disk - disk ?from - place ?to - place ?pfrom - peg ?pto - peg)
    :precondition (and (on ?disk ?from) (clear ?disk) (clear ?to) (smaller ?to ?disk)
                       (at ?disk ?pfrom) (at ?to ?pto){can_move})
    :effect (and (on ?disk ?to) (clear ?from) (not (on ?disk ?from)) (not (clear ?to))
                 (at ?disk ?pto) (not (at ?disk ?pfrom)))))
"""


def _stack_facts(stacks: Sequence[Sequence[int]], kind: Domain) -> list[str]:
    """``on``/``clear`` (and ``at`` for located) of per-peg stacks, bottom first."""
    facts = []
    for index, stack in enumerate(stacks):
        below = peg_object(index)
        for disk in stack:
            facts.append(f"(on {disk_name(disk)} {below})")
            if kind == "located":
                facts.append(f"(at {disk_name(disk)} {peg_object(index)})")
            below = disk_name(disk)
        facts.append(f"(clear {below})")
    return facts


def _stacks(puzzle: Puzzle, where: dict[int, int]) -> list[list[int]]:
    """Per peg index, its disks largest (bottom) first."""
    stacks: list[list[int]] = [[] for _ in puzzle.pegs]
    for disk in sorted(where):
        stacks[where[disk]].append(disk)
    return stacks


def problem_text(puzzle: Puzzle, kind: Domain) -> str:
    """The problem: objects, start (stacks and static facts) and goal."""
    pegs = [peg_object(i) for i in range(len(puzzle.pegs))]
    disks = [disk_name(d) for d in range(1, puzzle.disks + 1)]
    start = dict(enumerate(puzzle.initial_state(), start=1))
    init = _stack_facts(_stacks(puzzle, start), kind)
    for larger in range(1, puzzle.disks + 1):  # disk numbers grow as disks get smaller
        for smaller in range(larger + 1, puzzle.disks + 1):
            init.append(f"(smaller {disk_name(larger)} {disk_name(smaller)})")
    for peg in pegs:
        init += [f"(smaller {peg} {disk})" for disk in disks]
    goal: list[str]
    if kind == "located":
        init += [f"(at {peg} {peg})" for peg in pegs]
        edges = puzzle.edges()
        if edges is not None:
            init += [f"(can-move {pegs[a]} {pegs[b]})" for a, b in sorted(edges)]
        goal = [f"(at {disk_name(d)} {pegs[p]})" for d, p in sorted(puzzle.goal_pegs().items())]
    else:
        goal = [
            fact
            for fact in _stack_facts(_stacks(puzzle, puzzle.goal_pegs()), kind)
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


def parse_plan(text: str) -> list[list[str]]:
    """A planner's plan file (``(move d3 p0 d1)`` per line, ``;`` comments) as
    ``[name, arg, ...]`` lists, lower-cased."""
    actions = []
    for raw in text.splitlines():
        line = raw.split(";", 1)[0].strip()
        if line:
            actions.append(line.strip("()").lower().split())
    return actions


def plan_steps(puzzle: Puzzle, actions: Iterable[Sequence[str]]) -> list[tuple[int, str]]:
    """PDDL ``move`` actions -> ``(disk, target peg name)`` steps for ``replay``.

    Raises ValueError for an action that is not a move of a top disk from what it lies
    on onto the top of a stack (the PDDL's own preconditions, checked on our stacks)."""
    stacks = _stacks(puzzle, dict(enumerate(puzzle.initial_state(), start=1)))
    where = dict(enumerate(puzzle.initial_state(), start=1))
    steps: list[tuple[int, str]] = []
    for number, action in enumerate(actions, start=1):
        if len(action) < 4 or action[0] != "move" or not action[1].startswith("d"):
            raise ValueError(f"action {number}: not a move of a disk: {' '.join(action)}")
        disk = int(action[1][1:])
        source, onto = action[2], action[3]
        if not 1 <= disk <= puzzle.disks:
            raise ValueError(f"action {number}: no disk {disk}")
        target = int(onto[1:]) if onto.startswith("p") else where[int(onto[1:])]
        stack = stacks[where[disk]]
        lies_on = disk_name(stack[-2]) if len(stack) > 1 else peg_object(where[disk])
        top = disk_name(stacks[target][-1]) if stacks[target] else peg_object(target)
        if stack[-1] != disk or source != lies_on or onto != top or target == where[disk]:
            raise ValueError(f"action {number}: ({' '.join(action)}) does not fit the stacks")
        stack.pop()
        stacks[target].append(disk)
        where[disk] = target
        steps.append((disk, puzzle.pegs[target]))
    return steps


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    domain, problem = hanoi_pddl(load_puzzle(args[0]))
    out = Path(args[1])
    out.mkdir(parents=True, exist_ok=True)
    (out / "domain.pddl").write_text(domain, encoding="utf-8")
    (out / "problem.pddl").write_text(problem, encoding="utf-8")
    print(f"{out / 'domain.pddl'}\n{out / 'problem.pddl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
