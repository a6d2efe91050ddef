"""What a search's effort has bought so far, in units of work
(:mod:`hanoi_asp.methods.work`): the tables, the beam's widths, clingo's search.

>>> ledger = Ledger(tables=1000, beam=200, ticks=2, budget=1500)
>>> ledger.clingo, ledger.rent, ledger.total, ledger.spent()
(360, 560, 1560, True)

The scheduler (:mod:`hanoi_asp.engine.scheduler`) reads it for every decision: a table is
bought once the rent paid on weaker ones reaches its price, the beam's turn comes while
it has had at most a third, the race starts once the search has done a moment's work;
and A* racing on the other core is met at the same amount of work
(:mod:`hanoi_asp.engine.astar_race`); and the user's work budget (``--work``), the
machine-independent twin of ``--timeout``, is spent once the total reaches it.  Nothing
here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass

PROPAGATE = 180
"""The work of one call of the pattern propagator inside clingo's search (clingo's own
propagation, the look-ahead's estimates, the grounding of the horizons between): its
CPU time is 1.0-1.4 times that of 150 states estimated by the batched A* on the random
4- and 5-peg puzzles (``python -m benchmarks.work_units``,
``docs/decisions/work-units.md``).  The calls are
counted by the propagator (a solve call's set-up as
:data:`~hanoi_asp.engine.pruning.propagator.INIT_TICKS` of them); with one thread, the
same search makes the same calls in the same order on every run."""


@dataclass
class Ledger:
    """The work done so far by each worker of one search."""

    tables: int = 0
    """Every pattern table bought (the bound's included), priced as if built."""
    beam: int = 0
    """Every beam search's states estimated."""
    ticks: int = 0
    """The pattern propagator's calls inside clingo's search."""
    budget: int | None = None
    """The user's work budget (``--work``): the search stops at the first checkpoint
    where :attr:`total` has reached it (None: never)."""

    @property
    def clingo(self) -> int:
        return self.ticks * PROPAGATE

    @property
    def rent(self) -> int:
        """What the searches have paid on the tables they have (the rent rule's side)."""
        return self.clingo + self.beam

    @property
    def total(self) -> int:
        return self.tables + self.rent

    def spent(self) -> bool:
        """Whether the work budget is spent: read at checkpoints only, which fall at the
        same points of the work on every run, so the search stops at the same point."""
        return self.budget is not None and self.total >= self.budget

    def in_clingo(self, ticks: int, horizon: int) -> bool:
        """A checkpoint inside clingo's search where nothing else is scheduled (the half
        search): the propagator's calls counted; whether clingo goes on (not once the
        budget is spent)."""
        self.ticks = ticks
        return not self.spent()
