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

The names below are imported when first used, so ``import hanoi_asp`` (and the
command line's start, where Ctrl-C must already be answered properly) stays quick; the
namespace holds them and nothing else.
"""

__version__ = "0.2.0"

import typing as _typing

if _typing.TYPE_CHECKING:
    from hanoi_asp.engine import solve
    from hanoi_asp.inputs.facts import plan_facts, to_facts
    from hanoi_asp.inputs.instance import load_puzzle
    from hanoi_asp.inputs.read_facts import read_facts
    from hanoi_asp.model.errors import (
        EncodingError,
        EncodingPlanError,
        HanoiError,
        InputError,
        InternalError,
        LimitError,
        VerificationError,
    )
    from hanoi_asp.model.limits import Limits
    from hanoi_asp.model.options import Encoding, SolveOptions
    from hanoi_asp.model.plan import Move, replay
    from hanoi_asp.model.proof import Proof
    from hanoi_asp.model.puzzle import Puzzle
    from hanoi_asp.model.result import HorizonRun, LowerBound, Progress, Result
    from hanoi_asp.outputs.pictures import plan_svg, puzzle_svg, write_gif, write_png

_EXPORTS = {
    "solve": "hanoi_asp.engine",
    "plan_facts": "hanoi_asp.inputs.facts",
    "to_facts": "hanoi_asp.inputs.facts",
    "load_puzzle": "hanoi_asp.inputs.instance",
    "read_facts": "hanoi_asp.inputs.read_facts",
    "EncodingError": "hanoi_asp.model.errors",
    "EncodingPlanError": "hanoi_asp.model.errors",
    "HanoiError": "hanoi_asp.model.errors",
    "InputError": "hanoi_asp.model.errors",
    "InternalError": "hanoi_asp.model.errors",
    "LimitError": "hanoi_asp.model.errors",
    "VerificationError": "hanoi_asp.model.errors",
    "Limits": "hanoi_asp.model.limits",
    "Encoding": "hanoi_asp.model.options",
    "SolveOptions": "hanoi_asp.model.options",
    "Move": "hanoi_asp.model.plan",
    "replay": "hanoi_asp.model.plan",
    "Proof": "hanoi_asp.model.proof",
    "Puzzle": "hanoi_asp.model.puzzle",
    "HorizonRun": "hanoi_asp.model.result",
    "LowerBound": "hanoi_asp.model.result",
    "Progress": "hanoi_asp.model.result",
    "Result": "hanoi_asp.model.result",
    "plan_svg": "hanoi_asp.outputs.pictures",
    "puzzle_svg": "hanoi_asp.outputs.pictures",
    "write_gif": "hanoi_asp.outputs.pictures",
    "write_png": "hanoi_asp.outputs.pictures",
}


def __getattr__(name: str) -> object:
    from importlib import import_module

    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hanoi_asp' has no attribute {name!r}")
    import_module("hanoi_asp.outputs.notebook")  # Puzzle and Result's SVG
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The API (:data:`__all__`), not the helpers this module uses to load it."""
    return sorted(__all__)


__all__ = [
    "Encoding",
    "EncodingError",
    "EncodingPlanError",
    "HanoiError",
    "HorizonRun",
    "InputError",
    "InternalError",
    "LimitError",
    "Limits",
    "LowerBound",
    "Move",
    "Progress",
    "Proof",
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
