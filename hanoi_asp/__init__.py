"""hanoi-asp: proven-minimal Towers of Hanoi plans with Answer Set Programming.

>>> from hanoi_asp import Puzzle, solve
>>> puzzle = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> solve(puzzle).length
7

Data flow: spec/instance file -> :class:`Puzzle` -> ASP facts -> clingo, one horizon
at a time from a sound lower bound -> a plan the simulator replays -> :class:`Result`.
"""

from hanoi_asp.errors import EncodingError, HanoiError, InputError, VerificationError
from hanoi_asp.facts import read_facts, to_facts
from hanoi_asp.instance import load_puzzle
from hanoi_asp.plan import Move, replay
from hanoi_asp.search import Result, SolveOptions, solve
from hanoi_asp.spec import Puzzle

__all__ = [
    "EncodingError",
    "HanoiError",
    "InputError",
    "Move",
    "Puzzle",
    "Result",
    "SolveOptions",
    "VerificationError",
    "load_puzzle",
    "read_facts",
    "replay",
    "solve",
    "to_facts",
]
