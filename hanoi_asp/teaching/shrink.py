"""Shrinking: the smallest puzzle on which a student's encoding fails, and why it fails there.

The first failure ``grade`` meets is shrunk as ``hypothesis`` shrinks: fewest disks
first, then fewest pegs, the shortest horizon, then the simplest start and goal (no
move graph, one tower at the start, fewer goal facts).  Each smaller candidate is
re-checked against the reference (breadth-first search) and kept only if the encoding
still fails there in the same way.  The result is an instance file with ``moves/1``,
so ``python -m clingo counterexample.lp student.lp`` shows the failure by hand, and
the reason: the illegal move and the board before and after, or (when the encoding
finds no plan where one exists) the reference plan and the student's rules that reject
it (:mod:`hanoi_asp.teaching.why_rejected`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from hanoi_asp.engine import TEACHING_THREADS, horizon_solver
from hanoi_asp.model.errors import EncodingError, GoalNotReached, IllegalMove, VerificationError
from hanoi_asp.model.options import Encoding, SolveOptions
from hanoi_asp.model.plan import replay
from hanoi_asp.model.puzzle import Puzzle, preset_edges
from hanoi_asp.outputs.board import draw_board
from hanoi_asp.teaching.counterexample import Counterexample
from hanoi_asp.teaching.grade import EXTRA_HORIZONS, grade_trial
from hanoi_asp.teaching.grade_report import GradeReport, Kind
from hanoi_asp.teaching.random_puzzles import MAX_OPTIMUM, mentions_edges, reference
from hanoi_asp.teaching.why_rejected import why_rejected

SHRINK_SECONDS = 20.0
"""Shrinking stops here and keeps the smallest failure found so far."""
CANDIDATE_SECONDS = 2.0
"""Per horizon of a smaller candidate: one the encoding does not answer by then is
skipped (the failure being shrunk showed at once)."""
SHOWN_MOVES = 8
"""Moves of the reference plan named in the reason (all are in ``plan``)."""
SHRINKABLE: tuple[Kind, ...] = (
    "illegal-plan",
    "goal-not-reached",
    "too-strict",
    "longer-than-optimal",
    "horizons-differ",
)


@dataclass(frozen=True)
class Case:
    """A puzzle and a horizon on which the encoding fails with ``kind``."""

    puzzle: Puzzle
    horizon: int
    kind: Kind

    def size(self) -> tuple[int, ...]:
        """What shrinking lowers, most important first."""
        puzzle = self.puzzle
        return (
            puzzle.disks,
            len(puzzle.pegs),
            self.horizon,
            puzzle.moves_allowed is not None,
            sum(1 for disks in puzzle.init.values() if disks),
            sum(len(disks) for disks in puzzle.goal.values()),
        )


def failure(encoding: Encoding, puzzle: Puzzle, horizons: list[int], seconds: float) -> Case | None:
    """The first way the encoding fails on ``puzzle`` at ``horizons`` (below, at and
    above the optimum as given), re-checked against breadth-first search."""
    optimum, _ = reference(puzzle)
    if optimum is not None and optimum not in horizons and optimum <= max(horizons, default=0):
        horizons = [*horizons, optimum]
    grade, _ = grade_trial(encoding, "candidate", puzzle, optimum, horizons, seconds)
    for finding in grade.findings:
        if finding.kind in SHRINKABLE and finding.horizon is not None:
            return Case(puzzle, finding.horizon, finding.kind)
    return None


def shrink(encoding: Encoding, case: Case, seconds: float, budget: float = SHRINK_SECONDS) -> Case:
    """Greedy shrinking: take the first smaller candidate that fails the same way,
    until none does or the ``budget`` (seconds) is spent.  Move graphs are tried when
    the encoding reads ``edge/2``."""
    graphs = mentions_edges(encoding.text)
    deadline = time.monotonic() + budget
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for puzzle, horizons in _candidates(case, graphs):
            if time.monotonic() >= deadline:
                break
            left = min(seconds, CANDIDATE_SECONDS, deadline - time.monotonic())
            found = failure(encoding, puzzle, horizons, left)
            if found is not None and found.kind == case.kind and found.size() < case.size():
                case, improved = found, True
                break
    return case


def _candidates(case: Case, graphs: bool) -> Iterator[tuple[Puzzle, list[int]]]:
    """Smaller puzzles, in shrinking order, each with the horizons worth asking; with
    ``graphs`` a puzzle with fewer disks is also tried on the linear and cyclic move
    graphs (they make plans longer: a failure on long plans may need fewer disks)."""
    puzzle, horizon = case.puzzle, case.horizon
    for smaller in _fewer_disks(puzzle):
        yield smaller, _horizons(smaller, case)
    for smaller in _fewer_pegs(puzzle):
        yield smaller, _horizons(smaller, case)
    if case.kind != "too-strict":  # a too-strict failure is at the optimum
        for shorter in range(horizon):
            yield puzzle, [shorter]
    for simpler in _simpler(puzzle):
        yield simpler, _horizons(simpler, case)
    # last, as they are the costly ones: fewer disks on a move graph (longer plans)
    for smaller in _fewer_disks(puzzle) if graphs else ():
        for longer in _on_graphs(smaller):
            yield longer, _horizons(longer, case)


def _on_graphs(puzzle: Puzzle) -> Iterator[Puzzle]:
    """``puzzle`` on the linear and the cyclic move graph, if its optimum stays short
    enough to check fast (as the random puzzles' do)."""
    if puzzle.moves_allowed is not None:
        return
    for preset in ("linear", "cyclic"):
        longer = puzzle.model_copy(update={"moves_allowed": preset_edges(preset, puzzle.pegs)})
        optimum, _ = reference(longer)
        if optimum is not None and optimum <= MAX_OPTIMUM:
            yield longer


def _horizons(puzzle: Puzzle, case: Case) -> list[int]:
    """The horizons where ``case``'s kind of failure can show on ``puzzle``: the
    optimum for a too-strict encoding; for a plan that does not replay, the optimum,
    one above it and the old horizon; one below it for a plan that should not exist.
    (Proving one move less impossible is the costly question: ask it only then.)"""
    optimum, _ = reference(puzzle)
    horizon = case.horizon
    if optimum is None:
        return list(range(min(horizon, 6) + 1))
    if case.kind == "too-strict":
        return [optimum]
    asked = {optimum, optimum + 1, min(horizon, optimum + EXTRA_HORIZONS)}
    if optimum > 0 and (case.kind == "horizons-differ" or horizon < optimum):
        asked.add(optimum - 1)
    return sorted(asked)


def _fewer_disks(puzzle: Puzzle) -> Iterator[Puzzle]:
    """Each disk left out in turn (the smaller ones renumbered): the smallest first."""
    if puzzle.disks <= 1:
        return

    def without(placement: dict[str, tuple[int, ...]], gone: int) -> dict[str, tuple[int, ...]]:
        return {
            peg: tuple(d - (d > gone) for d in disks if d != gone)
            for peg, disks in placement.items()
        }

    for gone in range(puzzle.disks, 0, -1):
        yield puzzle.model_copy(
            update={
                "disks": puzzle.disks - 1,
                "init": without(dict(puzzle.init), gone),
                "goal": without(dict(puzzle.goal), gone),
            }
        )


def _fewer_pegs(puzzle: Puzzle) -> Iterator[Puzzle]:
    """Each peg left out in turn, its disks moved onto another peg (its goal facts
    dropped); the move graph keeps the moves between the pegs left."""
    if len(puzzle.pegs) <= 2:
        return
    for gone in reversed(puzzle.pegs):
        pegs = tuple(p for p in puzzle.pegs if p != gone)
        edges = None
        if puzzle.moves_allowed is not None:
            kept = tuple(e for e in puzzle.moves_allowed if gone not in e)
            if not kept:
                continue
            edges = kept
        goal = {p: d for p, d in puzzle.goal.items() if p != gone}
        for onto in pegs:
            init = {p: d for p, d in puzzle.init.items() if p != gone}
            init[onto] = tuple(sorted((*init.get(onto, ()), *puzzle.init.get(gone, ()))))
            yield Puzzle(pegs=pegs, disks=puzzle.disks, init=init, goal=goal, moves_allowed=edges)
            if not puzzle.init.get(gone):
                break  # an empty peg: where its disks go does not matter


def _simpler(puzzle: Puzzle) -> Iterator[Puzzle]:
    """No move graph; every disk in one tower at the start; one goal fact fewer."""
    if puzzle.moves_allowed is not None:
        yield puzzle.model_copy(update={"moves_allowed": None})
    every = tuple(range(1, puzzle.disks + 1))
    for peg in puzzle.pegs:
        yield puzzle.model_copy(update={"init": {peg: every}})
    for peg, disks in puzzle.goal.items():
        for disk in disks:
            goal = dict(puzzle.goal)
            goal[peg] = tuple(d for d in disks if d != disk)
            yield puzzle.model_copy(update={"goal": {p: d for p, d in goal.items() if d}})


def describe(encoding: Encoding, case: Case, seconds: float) -> Counterexample:
    """The counterexample with its reason: the student's plan replayed, or the reference
    plan and the student's rules that reject it."""
    puzzle, horizon = case.puzzle, case.horizon
    if case.kind in ("illegal-plan", "goal-not-reached", "horizons-differ"):
        steps, error = _student_plan(encoding, puzzle, horizon, seconds)
        if error is not None:
            return Counterexample(puzzle, horizon, case.kind, (), f"at {horizon} moves: {error}")
        if steps is not None:
            plan = tuple(_as_moves(puzzle, steps))
            reason, board = _illegal(puzzle, steps)
            return Counterexample(puzzle, horizon, case.kind, plan, reason, (), board)
    optimum, steps_ = reference(puzzle)
    if steps_ is None or optimum is None:
        return Counterexample(puzzle, horizon, case.kind, (), f"fails at {horizon} moves")
    kind: Kind = case.kind
    if kind == "too-strict" and _has_longer(encoding, puzzle, optimum, seconds):
        kind = "longer-than-optimal"
    plan = tuple(replay_dicts(puzzle, list(steps_)))
    rejection = why_rejected(encoding, puzzle, steps_)
    shown = ", ".join(f"disk {d} to {p}" for d, p in steps_[:SHOWN_MOVES])
    more = f" and {len(steps_) - SHOWN_MOVES} more moves" if len(steps_) > SHOWN_MOVES else ""
    head = (
        f"the encoding has no plan of {optimum} moves, but this one (the reference's, "
        f"legal, reaching the goal) is: {shown}{more}"
    )
    if rejection is None:
        return Counterexample(puzzle, optimum, kind, plan, head)
    return Counterexample(
        puzzle,
        optimum,
        kind,
        plan,
        f"{head}. It is rejected by: {rejection.reason}",
        rejection.rules,
    )


def _as_moves(puzzle: Puzzle, steps: list[tuple[int, str]]) -> list[dict[str, object]]:
    """The student's steps as ``solve --json``'s moves, legal or not (``from`` is where
    the disk lay; a disk the puzzle does not have lies nowhere: null)."""
    where = {disk: puzzle.pegs[peg] for disk, peg in enumerate(puzzle.initial_state(), 1)}
    out: list[dict[str, object]] = []
    for step, (disk, target) in enumerate(steps, start=1):
        out.append({"step": step, "disk": disk, "from": where.get(disk), "to": target})
        where[disk] = target
    return out


def replay_dicts(puzzle: Puzzle, steps: list[tuple[int, str]]) -> list[dict[str, object]]:
    return [move.as_dict() for move in replay(puzzle, steps)]


def _student_plan(
    encoding: Encoding, puzzle: Puzzle, horizon: int, seconds: float
) -> tuple[list[tuple[int, str]] | None, str | None]:
    """The student's plan at ``horizon`` (None if none), or why its answer is malformed."""
    options = SolveOptions(encoding=encoding, threads=TEACHING_THREADS, source="counterexample")
    try:
        solver = horizon_solver(puzzle, options)
        _, steps = solver.run(horizon, time.monotonic() + seconds)
    except (EncodingError, VerificationError) as error:
        return None, str(error)
    return steps, None


def _has_longer(encoding: Encoding, puzzle: Puzzle, optimum: int, seconds: float) -> bool:
    """Does the encoding find a (legal) plan a few moves above the optimum?"""
    horizons = list(range(optimum + 1, optimum + EXTRA_HORIZONS + 1))
    per_horizon = min(seconds, CANDIDATE_SECONDS)
    grade, _ = grade_trial(encoding, "longer", puzzle, optimum, horizons, per_horizon)
    return any(a == "SAT" for a in grade.answers.values()) and grade.passed


BROKEN_RULES = {
    "not on top": "only the top disk of a peg may move",
    "smaller disk": "a larger disk may never lie on a smaller one",
    "move graph": "moves must follow the move graph (edge/2)",
    "already on": "a move must take the disk to another peg",
}


def _illegal(puzzle: Puzzle, steps: list[tuple[int, str]]) -> tuple[str, str | None]:
    """The first step the simulator refuses: the move, the rule of the puzzle it breaks,
    the board before and after; or the goal fact not reached, the board at the end."""
    try:
        replay(puzzle, steps)
    except IllegalMove as error:
        rule = next((r for key, r in BROKEN_RULES.items() if key in str(error)), str(error))
        after = list(error.state)
        if 1 <= error.disk <= len(after):
            after[error.disk - 1] = puzzle.peg_index(error.target)
        board = (
            f"before step {error.step}:\n{draw_board(puzzle, error.state)}\n"
            f"after step {error.step} (disk {error.disk} -> {error.target}):\n"
            f"{draw_board(puzzle, tuple(after))}"
        )
        return f"{error}; the rule broken: {rule}", board
    except GoalNotReached as error:
        return f"{error}; the rule broken: the goal must hold after the last step", (
            f"after the last step:\n{draw_board(puzzle, error.state)}"
        )
    except VerificationError as error:
        return str(error), None
    return "the plan replays (the failure is elsewhere)", None


def first_counterexample(
    encoding: Encoding, puzzle: Puzzle, horizons: list[int], seconds: float
) -> Counterexample | None:
    """The failure on ``puzzle`` (a failing instance or random puzzle) shrunk and told."""
    case = failure(encoding, puzzle, horizons, seconds)
    if case is None:
        return None
    return describe(encoding, shrink(encoding, case, seconds), seconds)


def with_counterexample(encoding: Encoding, report: GradeReport, seconds: float) -> GradeReport:
    """``report`` with its first failure shrunk and told (unchanged if all passed)."""
    if report.first_failure is None:
        return report
    example = first_counterexample(encoding, *report.first_failure, seconds)
    return replace(report, counterexample=example)
