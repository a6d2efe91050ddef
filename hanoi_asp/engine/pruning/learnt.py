"""Bounds the look-ahead learns: a state's distance to the goal backed up from its
successors' estimates, as IDA* backs up a failed subtree.

A state that is not the goal is at least one move further from it than its nearest
successor, so ``1 +`` the least estimate over its moves is a lower bound on its
distance whenever the estimates are (the tables', or bounds learnt before: induction on
the order they were learnt).  The bounds do not depend on the horizon, so they are kept
from one horizon to the next, each refutation leaving the states it reached with
stronger bounds (:class:`LearntBounds`)."""

from __future__ import annotations

from hanoi_asp.engine.pruning.estimates import Estimated, Moves, TableEstimates
from hanoi_asp.engine.pruning.thread import ThreadState

LEARNED_STATES = 2_000_000
"""At most this many states keep a learnt bound (about 200 MiB)."""

TABLE_MOVES_KEPT = 300_000
"""At most this many states keep their moves' table estimates (about 1 KiB each): each
horizon's refutation visits again most states of the last one, as IDA* does."""


class LearntBounds:
    """Learnt bounds (:attr:`learned`) and the moves' table estimates kept per state,
    for the tables of ``tables``."""

    def __init__(self, tables: TableEstimates, learned: dict[int, int]) -> None:
        self.tables = tables
        self.learned = learned
        """Whole state (:attr:`ThreadState.state`) -> a lower bound on its distance to
        the goal; it holds for every horizon (see :meth:`backup`)."""
        self.table_moves: dict[int, Moves] = {}
        """Whole state -> its moves with the tables' estimates
        (:meth:`TableEstimates.by_tables`)."""

    def moves(self, thread: ThreadState, step: int) -> Estimated:
        """The legal moves from the known state after ``step``, estimated once while the
        state stays known (:attr:`ThreadState.moves`; undo forgets them)."""
        known = thread.moves[step]
        if known is None:
            known = thread.moves[step] = self.estimates(thread, step)
        return known

    def estimates(self, thread: ThreadState, step: int) -> Estimated:
        """Every legal move from the whole state after ``step``; the estimate is the
        larger of the tables' (:meth:`TableEstimates.by_tables`) and :attr:`learned`."""
        key = thread.state[step]
        moves = self.table_moves.get(key)
        if moves is None:
            moves = self.tables.by_tables(thread.peg[step], key)
            if len(self.table_moves) < TABLE_MOVES_KEPT:
                self.table_moves[key] = moves
        get = self.learned.get
        estimates = [
            estimate if (bound := get(successor, 0)) <= estimate else bound
            for estimate, successor in zip(moves[0], moves[3], strict=True)
        ]
        return moves, estimates

    def deepen(self, thread: ThreadState, step: int, left: int, horizon: int) -> None:
        """Back up, from its own successors, the bound of every successor of the state
        after ``step`` that its estimate still lets reach the goal in the ``left`` moves
        after it: the successor's estimate is raised to that bound, which is learnt.

        The bound is :meth:`backup`'s, taken one step ahead: a successor that is not
        the goal is one move further from it than its nearest successor, so ``1 +`` the
        least estimate over its moves bounds its distance (the estimates are lower
        bounds: the tables', or learnt ones).  These are exactly the successors clingo
        would try next, each then refuted on its own look-ahead in a decision, a
        conflict and a backjump; here the same estimates are computed (and kept for
        when it goes there) without them, the state's clause drops the moves at once,
        and its own backup sees the raised values."""
        (_, disks_moved, targets, successors), estimates = self.moves(thread, step)
        pegs, learned, kept = thread.peg[step], self.learned, self.table_moves
        get = learned.get
        for move, estimate in enumerate(estimates):
            child = successors[move]
            if estimate > left or self.tables.at_goal(child):
                continue
            moves = kept.get(child)
            if moves is None:
                after = pegs.copy()
                after[disks_moved[move]] = targets[move]
                moves = self.tables.by_tables(after, child)
                if len(kept) < TABLE_MOVES_KEPT:
                    kept[child] = moves
            nearest = min(
                (
                    e if (b := get(s, 0)) <= e else b
                    for e, s in zip(moves[0], moves[3], strict=True)
                ),
                default=horizon,
            )
            if nearest + 1 > estimate:
                estimates[move] = nearest + 1
                if nearest + 1 > get(child, 0) and len(learned) < LEARNED_STATES:
                    learned[child] = nearest + 1

    def out_of_reach(self, thread: ThreadState, step: int, horizon: int) -> bool:
        """Whether the whole state after ``step`` is farther from the goal than the moves
        left before ``horizon``, by its learnt bound or its backup (:meth:`backup`,
        learnt on the way)."""
        left = horizon - step
        if self.learned.get(thread.state[step], 0) > left:
            return True
        return self.backup(thread, step, horizon) > left

    def backup(self, thread: ThreadState, step: int, horizon: int) -> int:
        """``1 +`` the least estimate over the legal moves from the state after ``step``
        (:meth:`moves`), learnt as a bound on that state's distance; returned,
        or what was known if larger.

        A state that is not the goal is at least one move further from it than its
        nearest successor, so this is a lower bound on its distance whenever the
        estimates are (induction on the order the bounds were learnt: the tables' are).
        It does not depend on the horizon, so it is kept from one horizon to the next:
        each refutation leaves the states it reached with stronger bounds.  A state
        with no legal move and not the goal never reaches it: any bound holds (here
        ``1 + horizon``, more than any moves left)."""
        key, learned = thread.state[step], self.learned
        known = learned.get(key, 0)
        if self.tables.at_goal(key):
            return known  # nothing to learn
        estimates = self.moves(thread, step)[1]
        value = 1 + (min(estimates) if estimates else horizon)
        if value > known and len(learned) < LEARNED_STATES:
            learned[key] = value
        return max(value, known)

    def refute_upwards(self, thread: ThreadState, step: int, horizon: int) -> list[int]:
        """The state after ``step`` is out of reach: back its bound up the states
        before it, as IDA* backs up a failed subtree; the earlier steps whose states
        are out of reach too, latest first.  The state before, whole and known, has
        its move here re-estimated with the bound just learnt (its other moves keep
        their estimates, which stay lower bounds) and is backed up afresh; while the
        backup exceeds the moves left, that state is a nogood too, and the one before
        it is next.  Without this a state learnt from its refuted successors only when
        clingo reached it again."""
        refuted: list[int] = []
        learned = self.learned
        for earlier in range(step - 1, 0, -1):
            reached = thread.state[earlier + 1]
            known = thread.moves[earlier]
            if known is not None:
                (*_, successors), estimates = known
                move = successors.index(reached)
                estimates[move] = max(estimates[move], learned.get(reached, 0))
            if not self.out_of_reach(thread, earlier, horizon):
                break
            refuted.append(earlier)
        return refuted
