"""The beam bringing the best plan down (``hanoi_asp/engine/shorten.py``): when its
widths are due, and that a search whose horizons it cancels still ends at breadth-first
search's optimum."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from support.puzzles import EIGHT_DISKS, bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle, SolveOptions, solve
from hanoi_asp.engine import shorten
from hanoi_asp.engine.encodings import shipped_encoding
from hanoi_asp.engine.policy import choose_strategy
from hanoi_asp.engine.shorten import Shortener
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods import beam
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.methods.patterns import (
    DiskRun,
    Partitioned,
    beam_database,
    beam_price,
    cuts,
    database,
    goal_database,
)
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin

FIXTURE_OK = [HealthCheck.function_scoped_fixture]
PUZZLE = EIGHT_DISKS


def _shortener(options: SolveOptions, lower: int = 0) -> Shortener:
    """A shortener for :data:`PUZZLE` with the plan built first in hand."""
    run = SearchState(PUZZLE, options)
    run.strategy = choose_strategy(PUZZLE, options, None)
    steps = first_plan(PUZZLE)
    assert steps is not None
    run.offer(replay(PUZZLE, steps), PlanOrigin("constructive", len(steps)))
    run.lower = lower
    return Shortener(run, goal_database(PUZZLE))


def test_the_rent_rule_gives_the_beam_a_third_of_the_search() -> None:
    shortener = _shortener(SolveOptions())
    shortener.spent, shortener.last = 1.0, 1.0  # the next width: 3 s predicted
    shortener.run.started = time.monotonic() - 11.0  # a third of 11 s: under 4 s
    assert not shortener.due()
    shortener.run.started = time.monotonic() - 13.0  # a third of 13 s: over 4 s
    assert shortener.due()


def test_the_last_call_comes_when_waiting_would_leave_no_time() -> None:
    shortener = _shortener(SolveOptions(timeout=5.0))
    shortener.spent, shortener.last = 1.0, 0.5  # the next width: 1.5 s predicted
    run = shortener.run
    for left, due in ((4.0, False), (2.5, True), (1.6, True), (1.0, False)):
        run.started = time.monotonic() + left - 5.0
        assert shortener.due() is due, left


def test_no_width_is_due_once_the_plan_meets_the_bound_or_for_a_users_encoding() -> None:
    shortener = _shortener(SolveOptions())
    shortener.run.started = time.monotonic() - 100.0
    assert shortener.due()
    assert shortener.run.best is not None
    shortener.run.lower = len(shortener.run.best)
    assert not shortener.due()
    assert not _shortener(SolveOptions(encoding=shipped_encoding("incremental"))).allowed


def test_the_widths_bring_the_plan_down_to_the_optimum_and_stop() -> None:
    """The plan built first has 31 moves; the beams end at the optimum (24, by
    breadth-first search), each plan replayed, and no width past the last runs."""
    shortener = _shortener(SolveOptions())
    run = shortener.run
    assert run.best is not None and len(run.best) == 31 and bfs_optimum(PUZZLE) == 24
    while shortener.active():
        shortener.step()
    assert len(run.best) == 24 and run.origin is not None and run.origin.source == "beam"
    assert shortener.width > shorten.LAST_WIDTH


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(5, 8)))
def test_a_search_cancelled_for_every_width_still_ends_at_the_optimum(
    small_tables: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle
) -> None:
    """Every width due at once (each cancels clingo's horizon, which is asked again):
    the answer is still breadth-first search's optimum, with its proof."""
    monkeypatch.setattr(shorten, "UPFRONT_SECONDS", 0.0)
    monkeypatch.setattr(shorten, "SHARE", 1e9)
    monkeypatch.setattr(shorten, "LAST_WIDTH", 256)
    result = solve(puzzle, SolveOptions(threads=1))
    expected = bfs_optimum(puzzle)
    if expected is None:
        assert result.result == "UNSATISFIABLE"
    else:
        assert result.result == "OPTIMUM FOUND" and result.length == expected


def test_a_horizon_cancelled_for_the_beam_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every width due at once and finding nothing: clingo's horizons are cancelled for
    them, asked again, and the plan is clingo's as before.  How many are cancelled is a
    race: clingo solves in its own thread from the moment the solve starts, and the
    horizon here takes it 6 choices, so a fast machine (or a process already warm, as
    after another test) often finds the plan before the cancel is seen; it was counted
    exactly (one per width) and failed so.  What holds at any speed: at most one cancel
    per width, each cancelled horizon asked again, clingo's plan.  (The bound's tables are cuts
    of 7 disks: one table of all 8 would be the exact distance, and its plan the
    answer before clingo runs.)"""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**7)
    database._CACHE.clear()
    monkeypatch.setattr(shorten, "UPFRONT_SECONDS", 0.0)
    monkeypatch.setattr(shorten, "SHARE", 1e9)
    monkeypatch.setattr(beam, "search", lambda *args, **kwargs: None)
    result = solve(PUZZLE, SolveOptions(threads=1, astar=False))
    assert result.result == "OPTIMUM FOUND" and result.length == 24
    statuses = [(h.horizon, h.status) for h in result.horizons]
    cancelled = [horizon for horizon, status in statuses if status == "UNKNOWN"]
    widths = 1 + round(math.log(shorten.LAST_WIDTH / shorten.FIRST_WIDTH, shorten.GROWTH))
    assert len(cancelled) <= widths  # one for each at most
    assert all((h, "UNSAT") in statuses or (h, "SAT") in statuses for h in cancelled)
    assert result.proof_data.plan is not None and result.proof_data.plan.source == "clingo"


@pytest.fixture
def short_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The bound's tables of 3 disks (several cuts of :data:`PUZZLE`'s 8), the beam's
    cut of 5 (5+3), so that the beam's own cut is a different, longer one."""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**3)
    monkeypatch.setattr(cuts, "BEAM_PATTERNS", 4**5)
    database._CACHE.clear()
    yield
    database._CACHE.clear()


def _searched_on(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, Partitioned]]:
    """Each beam search's width and tables, as the searches run."""
    searched: list[tuple[int, Partitioned]] = []
    search = beam.search

    def counted(puzzle: Puzzle, tables: Partitioned, width: int, **kwargs: Any) -> Any:
        searched.append((width, tables))
        return search(puzzle, tables, width, **kwargs)

    monkeypatch.setattr(beam, "search", counted)
    return searched


def test_the_widths_up_front_buy_the_beams_cut_once_they_have_paid_its_price(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rent rule up front: the beam's cut once the widths cost its price, the widths
    afresh on it; not before.  The first width runs on the bound's tables."""
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 1e9)  # not paid up front
    shortener = _shortener(SolveOptions())
    bound_tables = shortener.tables
    shortener.upfront()
    assert shortener.tables is bound_tables and not shortener.own_cut
    assert shortener.cut_size == 0 and len(bound_tables or ()) > 1
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 1e-9)  # paid by one width
    searched = _searched_on(monkeypatch)
    shortener = _shortener(SolveOptions())
    shortener.upfront()
    own = beam_database(PUZZLE)
    assert shortener.own_cut and shortener.tables is own and shortener.cut_size == 5
    assert [len(cut) for cut in own] == [2] and own[0][0].run == DiskRun(0, 5)
    assert searched[0][1] is bound_tables and all(t is own for _, t in searched[1:])
    assert len(searched) > 1


def test_a_later_width_buys_the_beams_cut_once_the_widths_have_paid_its_price(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the widths up front, the rent rule holds as well: the width run once the
    widths have cost the cut's price runs on it, and not one before."""
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 0.5)
    searched = _searched_on(monkeypatch)
    shortener = _shortener(SolveOptions())
    bound_tables = shortener.tables
    shortener.step()
    shortener.spent = 0.4
    shortener.step()
    assert not shortener.own_cut
    shortener.spent = 0.5
    shortener.step()
    own = beam_database(PUZZLE)
    assert shortener.own_cut and [t for _, t in searched] == [bound_tables] * 2 + [own]


def test_a_beams_cut_built_already_is_taken_before_the_first_width(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The beam's cut costs nothing once built (or cached on disk): the first width
    runs on it."""
    own = beam_database(PUZZLE)
    assert beam_price(PUZZLE) == 0.0
    searched = _searched_on(monkeypatch)
    shortener = _shortener(SolveOptions())
    shortener.upfront()
    assert searched and all(tables is own for _, tables in searched)


def test_under_a_short_limit_the_beams_cut_comes_after_one_width_if_the_beam_would_pay(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A third of the time left is the beam's: under a short limit, if that covers the
    price, the rent would be paid before the limit anyway, and the beam's cut comes
    after the first width (on the bound's tables)."""
    for timeout, price, last, bought in (
        (5.0, 1.0, 0.1, True),
        (5.0, 1.0, None, False),
        (5.0, 2.0, 0.1, False),
        (60.0, 1.0, 0.1, False),
        (None, 1.0, 0.1, False),
        (None, 0.0, None, True),  # built or cached: at once
    ):
        monkeypatch.setattr(shorten, "beam_price", lambda puzzle, price=price: price)
        shortener = _shortener(SolveOptions(timeout=timeout))
        shortener.spent, shortener.last = 0.1 if last else 0.0, last
        assert shortener._own_cut_due() is bought, (timeout, price, last)
        shortener.own_cut = True
        assert not shortener._own_cut_due()
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**8)  # the bound's: the exact distance
    database._CACHE.clear()
    shortener = _shortener(SolveOptions())
    assert shortener.cut_size == 8
    assert not shortener._own_cut_due() and shortener.own_cut


def test_new_tables_start_at_the_widest_width_and_keep_its_time(short_runs: None) -> None:
    """A narrower width on stronger tables rarely beats the widest one's plan on the old
    ones: the widths go on from it, predicted to take as long, and it is not judged
    converged; tables handed over whose largest-first cut is no longer change nothing."""
    shortener = _shortener(SolveOptions())
    shortener.width, shortener.last = 4096 * shorten.GROWTH, 0.3  # 4096 ran last, in 0.3 s
    shortener._take(beam_database(PUZZLE))
    assert shortener.width == 4096 and shortener.outgrown == 4096
    assert shortener.predicted() == pytest.approx(0.3) and shortener.cut_size == 5
    every_cut = goal_database(PUZZLE, every_cut=True)  # runs of 3: the longest first run
    shortener.retable(every_cut)
    assert shortener.tables is beam_database(PUZZLE) and shortener.spent == 0.0


def test_handed_over_tables_give_the_beam_their_longest_largest_first_cut(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The strong tables handed over (here the exact distance, one run of 8 disks) hold
    a longer largest-first cut than the beam's: the widths run on it alone."""
    shortener = _shortener(SolveOptions())
    shortener._take(beam_database(PUZZLE))
    searched = _searched_on(monkeypatch)
    strong = goal_database(PUZZLE, strong=True)
    shortener.retable(strong)
    assert shortener.cut_size == 8 and shortener.tables == (strong[0],)
    assert searched and all(tables == (strong[0],) for _, tables in searched)


def test_on_new_tables_the_first_width_past_the_widest_that_brings_nothing_ends_them(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plan in hand counts as the last improvement on new tables: with the optimum
    in hand, the widest width again and one wider run, not every width up to the last
    (a second's delay on a puzzle clingo proves in one)."""
    shortener = _shortener(SolveOptions())
    run = shortener.run
    optimum = beam.search(PUZZLE, goal_database(PUZZLE, strong=True), 4**8)
    assert optimum is not None and len(optimum) == 24
    run.offer(replay(PUZZLE, optimum), PlanOrigin("beam", 24, width=4**8))
    searched = _searched_on(monkeypatch)
    shortener.width, shortener.last = 1024 * shorten.GROWTH, 0.01  # 1024 ran last
    shortener.retable(goal_database(PUZZLE, strong=True))
    assert [width for width, _ in searched] == [1024, 1024 * shorten.GROWTH]


def test_a_bound_from_astar_stopped_at_the_limit_does_not_end_the_beam() -> None:
    """A*'s answer is taken in by the beam as it comes: a bound alone (A* stopped at
    the time limit) lets it go on to the plan at the limit; a bound its plan meets ends
    it (the search is over).  A* is started if due at every layer too."""
    from hanoi_asp.engine.strategies.upward import _search_over

    run = _shortener(SolveOptions(timeout=5.0)).run

    class Rival:
        def __init__(self, lower: int) -> None:
            self.lower, self.asked_to_start = lower, 0

        def start_if_due(self) -> None:
            self.asked_to_start += 1

        def take(self) -> bool:
            run.lower = max(run.lower, self.lower)
            return True

    rival = Rival(20)
    assert not _search_over(run, rival) and run.lower == 20  # type: ignore[arg-type]
    assert _search_over(run, Rival(31))  # type: ignore[arg-type]  # the plan in hand: 31
    assert rival.asked_to_start == 1  # A* started if due: the beam holds no clingo thread


def test_no_width_runs_once_the_search_is_over() -> None:
    """The interrupt says the search is over (A*'s plan met its bound): no width runs."""
    shortener = _shortener(SolveOptions())
    shortener.interrupt = lambda: True
    shortener.upfront()
    assert not shortener.step() and shortener.width == shorten.FIRST_WIDTH
    assert shortener.spent == 0.0


def test_a_width_due_when_clingo_was_cancelled_is_never_taken_for_the_time_limit() -> None:
    """The last call's window may close between clingo's cancel and the width: the
    cancel still counts as the beam's (the horizon is asked again), never as the time
    limit's; and a cancel that was nobody's is not taken for one."""
    from hanoi_asp.engine.strategies.upward import _Widen

    class Rival:
        def finished(self) -> bool:
            return False

        def take(self) -> bool:
            return False

    class Beam:
        def __init__(self) -> None:
            self.open, self.steps = True, 0

        def due(self) -> bool:
            return self.open

        def active(self) -> bool:
            return True

        def step(self) -> bool:
            self.steps += 1
            return True

    beam = Beam()
    widen = _Widen(None, None, Rival(), beam)  # type: ignore[arg-type]
    assert widen.interrupt()  # clingo's poll: the width is due, the horizon cancelled
    beam.open = False  # the window closes before the cancel is seen
    assert widen.cancelled() and beam.steps == 1
    assert not widen.cancelled() and beam.steps == 1


def test_nothing_is_bought_or_beamed_once_astars_answer_proves_the_plan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A*'s answer, taken in after a refuted horizon, proves the plan in hand: the
    search is over, so no beam width runs and no table is bought (A* no longer racing,
    the purchase would have been free to build the strong tables).  An answer that
    leaves a gap lets the rest go on."""
    from hanoi_asp.engine.strategies import upward
    from hanoi_asp.model.plan import Move

    bought: list[bool] = []
    monkeypatch.setattr(upward, "check_every_cut", lambda *a, **k: bought.append(True))
    puzzle = Puzzle(pegs=("a", "b", "c"), disks=1, init={"a": (1,)}, goal={"c": (1,)})
    run = SearchState(puzzle, SolveOptions())
    run.strategy = choose_strategy(puzzle, SolveOptions(), None)

    class Rival:
        def __init__(self, lower: int) -> None:
            self.lower = lower

        def take(self) -> bool:
            run.offer((Move(1, 1, "a", "c"),), PlanOrigin("astar", 1))
            run.lower = self.lower
            return True

        def start_if_due(self) -> None:
            raise AssertionError("A* started after its own proof")

        def racing(self) -> bool:
            return False

    class Beam:
        spent = 0.0

        def step_if_due(self) -> None:
            raise AssertionError("a width ran after the proof")

        def retable(self, tables: object) -> None:
            return None

    upward._Widen(run, None, Rival(1), Beam())(0)  # type: ignore[arg-type]
    assert run.meets() and not bought
    gap = Rival(0)
    gap.start_if_due = lambda: None  # type: ignore[method-assign]
    beam = Beam()
    beam.step_if_due = lambda: None  # type: ignore[method-assign]
    upward._Widen(run, None, gap, beam)(0)  # type: ignore[arg-type]
    assert bought == [True]
