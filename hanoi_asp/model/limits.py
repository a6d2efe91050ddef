"""Size limits checked before anything is ground, so a hostile or careless instance
cannot eat the machine.

>>> Limits().check_size(pegs=3, disks=4, where="x.lp")
>>> Limits(disks=3).check_size(pegs=3, disks=4, where="x.lp")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hanoi_asp.model.errors.LimitError: x.lp: 4 disks ... (...SolveOptions(limits=Limits(disks=4)))

Grounding grows with horizon x disks x pegs ("cells"); the default cap keeps one
solve well under 4 GiB (3 pegs, 10 disks, 1023 moves is 30,690 cells and peaks near
0.3 GiB here).
"""

from __future__ import annotations

from dataclasses import dataclass

from hanoi_asp.model.errors import LimitError


@dataclass(frozen=True)
class Limits:
    disks: int = 64
    pegs: int = 32
    cells: int = 400_000
    states: int = 5_000_000
    """Most states ``--method bfs`` may store (about 0.6 GiB)."""
    moves: int = 200_000
    """Longest plan built before the search or by ``--method recursive`` or
    ``frame-stewart`` (a 3-peg tower of 17 disks has 131,071 moves; replaying 200,000
    takes about a second)."""

    @property
    def states_given(self) -> bool:
        """Whether ``--limit states=N`` set :attr:`states`: A*'s budgets keep it as
        given, else they follow the machine's memory."""
        return self.states != Limits.states

    def check_size(self, *, pegs: int, disks: int, where: str) -> None:
        for name, value in (("disks", disks), ("pegs", pegs)):
            cap = getattr(self, name)
            if value > cap:
                raise LimitError(
                    f"{value} {name} exceed the limit of {cap}",
                    limit=name,
                    needed=value,
                    path=where,
                )

    def check_horizon(self, *, horizon: int, pegs: int, disks: int, where: str) -> None:
        cells = horizon * pegs * disks
        if cells > self.cells:
            raise LimitError(
                f"horizon {horizon} with {disks} disks on {pegs} pegs is {cells} cells, "
                f"over the grounding limit of {self.cells}",
                limit="cells",
                needed=cells,
                path=where,
            )

    def plans_over_moves(self, horizon: int, cells: LimitError, where: str) -> LimitError:
        """The error for a horizon over the cells limit when every plan is also over the
        moves limit: no plan was built before the search, and raising ``moves`` (not
        ``cells``) is what lets one be built without grounding."""
        return LimitError(
            f"every plan has at least {horizon} moves: over the limit of {self.moves} for a "
            f"plan built without clingo, and grounding that horizon is {cells.needed} cells, "
            f"over the limit of {self.cells}",
            limit="moves",
            needed=horizon,
            path=where,
        )

    @classmethod
    def parse(cls, items: list[str]) -> Limits:
        """``["disks=100", "cells=10**6"]`` style settings from the command line."""
        values: dict[str, int] = {}
        for item in items:
            key, _, text = item.partition("=")
            if key not in ("disks", "pegs", "cells", "states", "moves") or not text.isdigit():
                raise ValueError(
                    f"--limit takes disks=N, pegs=N, cells=N, states=N or moves=N, not {item!r}"
                )
            values[key] = int(text)
        return cls(**values)
