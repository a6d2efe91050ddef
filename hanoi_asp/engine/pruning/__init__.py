"""Pattern pruning inside clingo's search (4+ pegs): the state after every step must
reach the goal in the steps left, by the pattern databases' count.

For a plan of exactly ``n`` moves, the state after step ``t`` reaches the goal in
``n - t`` moves.  By projection and additivity (:mod:`hanoi_asp.methods.patterns`),
for every partition of the disks into runs, the runs' table values add up to at most
``n - t``.  The check holds for *every* plan of ``n`` moves, minimal or not, so it never
changes an answer; it lets clingo drop a partial plan as soon as a state on it is too
far from the goal.  What the propagator does makes clingo's refutation of a horizon an
IDA* iteration with a transposition table, each step proven by a nogood:

* **The look-ahead** (:meth:`~hanoi_asp.engine.pruning.propagator.PatternPruning._look_ahead`).
  Once the whole state after step ``t`` is known, a move at step ``t + 1`` after which
  the successor's estimate exceeds ``n - t - 1`` cannot be in a plan: the clause "this
  state implies one of the moves that fit" makes clingo drop those moves before trying
  them.
* **Learnt bounds** (:mod:`~hanoi_asp.engine.pruning.learnt`): the look-ahead backs each
  state's bound up from its successors' (:meth:`~.learnt.LearntBounds.backup`); a state
  whose bound exceeds the moves left is itself a nogood, and so, backed up again, may be
  the states before it on the plan (:meth:`~.learnt.LearntBounds.refute_upwards`).  The
  bounds do not depend on the horizon and are kept from one horizon to the next.
* **The move order** (:meth:`~hanoi_asp.engine.pruning.propagator.PatternPruning.decide`):
  clingo decides the steps in order, the move with the least estimate first.

What each part brought, measured: ``docs/decisions/pruning.md``.

The nogoods hold for one horizon only: they are *tagged*, so clingo drops them when
the solve call ends.  Only thread :data:`PRUNING_THREAD` checks; see there why.  Every
partition of the tables is checked.

The modules, one idea each:

* :mod:`~hanoi_asp.engine.pruning.atoms`: the encoding's atoms, read step by step.
* :mod:`~hanoi_asp.engine.pruning.thread`: what the pruning thread knows, step by step.
* :mod:`~hanoi_asp.engine.pruning.estimates`: the tables' estimate of every move from a
  whole state, and the goal test.
* :mod:`~hanoi_asp.engine.pruning.learnt`: bounds learnt by backing estimates up.
* :mod:`~hanoi_asp.engine.pruning.propagator`: the clingo propagator and its look-ahead.
"""

from hanoi_asp.engine.pruning.atoms import PRUNING_THREAD
from hanoi_asp.engine.pruning.propagator import Checkpoint, PatternPruning

__all__ = ["PRUNING_THREAD", "Checkpoint", "PatternPruning"]
