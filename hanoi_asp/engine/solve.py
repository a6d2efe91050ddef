"""The one entry point of the engine: a puzzle and options in, a verified result out.

>>> from hanoi_asp.model.puzzle import Puzzle
>>> p = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> solve(p).length
7
"""

from __future__ import annotations

from hanoi_asp.engine.reference import solve_with_method
from hanoi_asp.engine.search import OnProgress, search
from hanoi_asp.model.options import SolveOptions
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
    Raises :class:`~hanoi_asp.model.errors.HanoiError` subclasses for bad input.
    """
    options = options or SolveOptions()
    if options.method == "asp":
        return search(puzzle, options, on_progress)
    return solve_with_method(puzzle, options)
