"""The one entry point of the engine: a puzzle and options in, a verified result out.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> solve(p).length
7
"""

from __future__ import annotations

import time
from pathlib import Path

from hanoi_asp.engine.answer import assemble, deadline
from hanoi_asp.engine.bounds import misplaced_disks
from hanoi_asp.engine.search import search
from hanoi_asp.engine.state import OnProgress
from hanoi_asp.methods import table_cache
from hanoi_asp.model.errors import EncodingError, InternalError, VerificationError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.proof import Proof
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import Result


def solve(
    puzzle: Puzzle, options: SolveOptions | None = None, on_progress: OnProgress | None = None
) -> Result:
    """Solve ``puzzle`` as ``options`` say (default: a proven-minimal plan with clingo).

    The result's plan, if any, has been replayed and accepted by the simulator;
    ``result.proof`` says why it is minimal, or what is known when it is not: with
    ``options.timeout`` (or Ctrl-C) the best plan found so far comes back as
    ``SATISFIABLE`` with ``lower_bound`` and ``upper_bound``.  ``on_progress`` is
    called with a :class:`~hanoi_asp.model.result.Progress` whenever a bound moves.
    Raises :class:`~hanoi_asp.model.errors.HanoiError` subclasses for bad input, and
    ``TypeError`` for an argument of the wrong type.
    """
    if not isinstance(puzzle, Puzzle):
        hint = ": load_puzzle(path) reads a file" if isinstance(puzzle, str | Path) else ""
        raise TypeError(f"solve takes a Puzzle, not {type(puzzle).__name__}{hint}")
    if options is not None and not isinstance(options, SolveOptions):
        raise TypeError(
            f"solve's options take SolveOptions, not {type(options).__name__}: "
            'e.g. SolveOptions(timeout=10, method="astar")'
        )
    if on_progress is not None and not callable(on_progress):
        raise TypeError(f"on_progress takes a function, not {type(on_progress).__name__}")
    options = options or SolveOptions()
    try:
        with table_cache.disabled(not options.table_cache):
            if options.method == "asp":
                return search(puzzle, options, on_progress)
            from hanoi_asp.engine.reference import solve_with_method

            return solve_with_method(puzzle, options)
    except VerificationError as error:  # the engine's own plan: a user's is EncodingPlanError
        raise InternalError(
            f"the simulator rejected hanoi-asp's own plan: {error.message}", path=options.source
        ) from error


HARD_GRACE_S = 0.6
"""How long past ``--timeout`` a capped solve may run before its process is killed:
the engine stops itself at the deadline, a few tenths of a second late
(``python -m benchmarks.timeouts`` measures it); a kill is for an encoding whose grounding
never ends."""


def solve_capped(puzzle: Puzzle, options: SolveOptions, memory: int | None) -> Result:
    """:func:`solve` for a user's encoding, in a child process (see
    :func:`hanoi_asp.processes.run_capped`) killed :data:`HARD_GRACE_S` after the timeout and
    capped at ``memory`` bytes.  Killed or over the cap, the answer is ``UNKNOWN`` with
    ``stopped`` ``timeout`` or ``memory``."""
    from hanoi_asp.processes import Stopped, run_capped

    started = time.monotonic()
    stop_at = deadline(options, started)
    seconds = None if stop_at is None else max(stop_at - started, 0.0) + HARD_GRACE_S
    try:
        return run_capped(solve, (puzzle, options), seconds=seconds, memory=memory)
    except Stopped as stop:
        if stop.why == "crash":
            name = None if options.encoding is None else options.encoding.name
            raise EncodingError(str(stop), path=name) from None
        bound = misplaced_disks(puzzle)
        proof = Proof(
            kind="killed",
            lower=bound.value,
            bound=bound,
            stopped=stop.why,
            time_limit=seconds if stop.why == "timeout" else None,
            memory_limit=memory if stop.why == "memory" else None,
            max_moves=options.move_limit(puzzle),
        )
        limit = options.move_limit(puzzle)
        return assemble(
            puzzle,
            options,
            started,
            "UNKNOWN",
            proof,
            bound=bound,
            lower=bound.value,
            max_moves=limit,
            stopped=stop.why,
        )
