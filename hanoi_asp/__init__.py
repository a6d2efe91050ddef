"""hanoi-asp: proven-minimal Towers of Hanoi plans with Answer Set Programming.

>>> from hanoi_asp import Puzzle, solve
>>> puzzle = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": (1, 2, 3)}, goal={"c": (1, 2, 3)})
>>> solve(puzzle).length
7

Data flow, one package each: an instance file (:mod:`hanoi_asp.inputs`) -> a
:class:`Puzzle` (:mod:`hanoi_asp.model`) -> ASP facts -> clingo, one horizon at a time
from a sound lower bound (:mod:`hanoi_asp.engine`) -> a plan the simulator replays ->
a :class:`Result` shown as text, JSON or pictures (:mod:`hanoi_asp.outputs`).  Teaching
(:mod:`hanoi_asp.teaching`), batch runs (:mod:`hanoi_asp.batch`) and the command line
(:mod:`hanoi_asp.cli`) build on those.
"""

__version__ = "0.2.0"

from hanoi_asp.engine.solve import solve
from hanoi_asp.inputs.facts import plan_facts, to_facts
from hanoi_asp.inputs.instance import load_puzzle
from hanoi_asp.inputs.read_facts import read_facts
from hanoi_asp.model.errors import (
    EncodingError,
    EncodingPlanError,
    HanoiError,
    InputError,
    LimitError,
    VerificationError,
)
from hanoi_asp.model.limits import Limits
from hanoi_asp.model.options import Encoding, SolveOptions
from hanoi_asp.model.plan import Move, replay
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import HorizonRun, LowerBound, Result
from hanoi_asp.outputs import notebook  # noqa: F401  (gives Puzzle and Result their SVG)
from hanoi_asp.outputs.pictures import plan_svg, puzzle_svg, write_gif, write_png

__all__ = [
    "Encoding",
    "EncodingError",
    "EncodingPlanError",
    "HanoiError",
    "HorizonRun",
    "InputError",
    "LimitError",
    "Limits",
    "LowerBound",
    "Move",
    "Puzzle",
    "Result",
    "SolveOptions",
    "VerificationError",
    "__version__",
    "load_puzzle",
    "plan_facts",
    "plan_svg",
    "puzzle_svg",
    "read_facts",
    "replay",
    "solve",
    "to_facts",
    "write_gif",
    "write_png",
]
