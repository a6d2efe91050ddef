"""The beam bringing the best plan down (``hanoi_asp/engine/shorten.py``): when its
widths are due (counted in work), and that a search in which they run still ends at
breadth-first search's optimum."""

from __future__ import annotations

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
from hanoi_asp.engine.ledger import Ledger
from hanoi_asp.engine.policy import choose_strategy
from hanoi_asp.engine.reports import Desk, Standing
from hanoi_asp.engine.scheduler import take_in
from hanoi_asp.engine.shorten import Shortener
from hanoi_asp.engine.state import SearchState
from hanoi_asp.methods import beam
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.methods.patterns import (
    DiskRun,
    Partitioned,
    beam_database,
    cuts,
    database,
    goal_database,
)
from hanoi_asp.model.plan import replay
from hanoi_asp.model.proof import PlanOrigin

FIXTURE_OK = [HealthCheck.function_scoped_fixture]
PUZZLE = EIGHT_DISKS


def _go_on() -> bool:
    return True


def _beam(
    options: SolveOptions, lower: int = 0, checkpoint: Any = _go_on, ledger: Ledger | None = None
) -> tuple[SearchState, Shortener]:
    """A search of :data:`PUZZLE` with the plan built first in hand, and its shortener
    (what it reports applied to the search's state, as the scheduler does)."""
    run = SearchState(PUZZLE, options)
    run.strategy = choose_strategy(PUZZLE, options, None)
    steps = first_plan(PUZZLE)
    assert steps is not None
    run.offer(replay(PUZZLE, steps), PlanOrigin("constructive", len(steps)))
    run.raise_lower(lower, "a test")
    allowed = options.encoding is None
    desk = Desk(checkpoint, lambda: Standing(run.lower, run.upper), lambda r: take_in(run, r))
    tables, ledger = goal_database(PUZZLE), ledger or Ledger()
    return run, Shortener(PUZZLE, tables, ledger, desk, allowed, run.deadline, options.timeout)


def _shortener(
    options: SolveOptions, checkpoint: Any = _go_on, ledger: Ledger | None = None
) -> Shortener:
    return _beam(options, checkpoint=checkpoint, ledger=ledger)[1]


def test_the_rent_rule_gives_the_beam_a_third_of_the_search() -> None:
    """Due while the beam's work, the next width's included, is at most a third of the
    search's: counted in work, whatever the clock says."""
    ledger = Ledger(beam=1_000_000)
    run, shortener = _beam(SolveOptions(), ledger=ledger)
    shortener.last = 250_000  # the next width: 1,000,000 predicted
    ledger.tables = 5_999_999 - 1_000_000  # the search's work: 5,999,999 of 6,000,000
    assert not shortener.due()
    ledger.tables += 1
    assert shortener.due()
    run.started = time.monotonic() - 10**6  # the clock changes nothing
    ledger.tables -= 1
    assert not shortener.due()


def test_the_last_call_comes_when_waiting_would_leave_no_time() -> None:
    """Under a time limit (and only there) the clock decides one thing: a last width
    when waiting longer would leave no time for it, at the pace the last width took."""
    shortener = _shortener(SolveOptions(timeout=5.0))
    shortener.last, shortener.pace = 500_000, 0.75e-6  # the next width: 1.5 s predicted
    for left, due in ((4.0, False), (2.5, True), (1.6, True), (1.0, False)):
        shortener.deadline = time.monotonic() + left
        assert shortener.due() is due, left
    run, untimed = _beam(SolveOptions())
    untimed.last, untimed.pace = 500_000, 0.75e-6
    run.started = time.monotonic() - 10**6
    assert not untimed.due()


def test_no_width_is_due_once_the_plan_meets_the_bound_or_for_a_users_encoding() -> None:
    run, shortener = _beam(SolveOptions(), ledger=Ledger(tables=10**9))
    assert shortener.due()
    assert run.best is not None
    run.raise_lower(len(run.best), "a test")
    assert not shortener.due()
    assert not _shortener(SolveOptions(encoding=shipped_encoding("incremental"))).allowed


def test_the_widths_bring_the_plan_down_to_the_optimum_and_stop() -> None:
    """The plan built first has 31 moves; the beams end at the optimum (24, by
    breadth-first search), each plan replayed, and no width past the last runs; their
    work is the ledger's."""
    ledger = Ledger()
    run, shortener = _beam(SolveOptions(), ledger=ledger)
    assert run.best is not None and len(run.best) == 31 and bfs_optimum(PUZZLE) == 24
    while shortener.active(Standing(run.lower, run.upper)):
        shortener.step()
    assert len(run.best) == 24 and run.origin is not None and run.origin.source == "beam"
    assert shortener.width > shorten.LAST_WIDTH and ledger.beam > 0


@pytest.fixture
def every_width_due(monkeypatch: pytest.MonkeyPatch) -> None:
    """No width up front, and every later one due at each checkpoint."""
    monkeypatch.setattr(shorten, "UPFRONT_WORK", 0)
    monkeypatch.setattr(shorten, "SHARE", 0)


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(4, 5), disks=(5, 8)))
def test_a_search_with_every_width_due_still_ends_at_the_optimum(
    small_tables: None, every_width_due: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle
) -> None:
    """Every width due at each checkpoint (inside clingo's search too, which goes on
    where it was): the answer is still breadth-first search's optimum."""
    monkeypatch.setattr(shorten, "LAST_WIDTH", 256)
    result = solve(puzzle, SolveOptions(threads=1))
    expected = bfs_optimum(puzzle)
    if expected is None:
        assert result.result == "UNSATISFIABLE"
    else:
        assert result.result == "OPTIMUM FOUND" and result.length == expected


def test_widths_run_inside_a_horizon_leave_clingos_search_as_it_was(
    every_width_due: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Widths finding nothing, run inside clingo's horizons: clingo's search is the same
    as without them, horizon by horizon, and its plan the answer.  (The bound's tables
    are cuts of 7 disks: one table of all 8 would be the exact distance, and its plan
    the answer before clingo runs.)"""
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**7)
    database._CACHE.clear()
    ran: list[int] = []

    def nothing(puzzle: Puzzle, tables: Partitioned, width: int, **kwargs: Any) -> Any:
        ran.append(width)
        return beam.BeamOutcome(None, 1000)

    options = SolveOptions(threads=1, astar=False)
    monkeypatch.setattr(beam, "search", nothing)
    monkeypatch.setattr(shorten, "SHARE", 10**9)  # never due
    alone = solve(PUZZLE, options)
    database._CACHE.clear()
    monkeypatch.setattr(shorten, "SHARE", 0)  # due at every checkpoint
    ran.clear()
    beamed = solve(PUZZLE, options)
    assert ran and beamed.result == "OPTIMUM FOUND" and beamed.length == 24
    assert [h.status for h in beamed.horizons][-1] == "SAT"
    assert "UNKNOWN" not in [h.status for h in beamed.horizons]
    assert beamed.proof_data.plan is not None and beamed.proof_data.plan.source == "clingo"
    statistics = [(h.horizon, h.status, h.choices, h.conflicts) for h in beamed.horizons]
    assert statistics == [(h.horizon, h.status, h.choices, h.conflicts) for h in alone.horizons]


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
    """The rent rule up front: the beam's cut once the widths' work reaches its price,
    the widths afresh on it; not before.  The first width runs on the bound's tables."""
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 10**12)  # not paid up front
    shortener = _shortener(SolveOptions())
    bound_tables = shortener.tables
    shortener.upfront()
    assert shortener.tables is bound_tables and not shortener.own_cut
    assert shortener.cut_size == 0 and len(bound_tables or ()) > 1
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 1)  # paid by one width
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
    widths' work reaches the cut's price runs on it, and not one before."""
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 500_000)
    searched = _searched_on(monkeypatch)
    ledger = Ledger()
    shortener = _shortener(SolveOptions(), ledger=ledger)
    bound_tables = shortener.tables
    shortener.step()
    ledger.beam = 499_999
    shortener.step()
    assert not shortener.own_cut
    ledger.beam = 500_000
    shortener.step()
    own = beam_database(PUZZLE)
    assert shortener.own_cut and [t for _, t in searched] == [bound_tables] * 2 + [own]
    assert ledger.beam >= 500_000 + 500_000  # the cut's price is the beam's work


def test_a_beams_cut_in_the_cache_is_priced_as_if_built(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The beam's cut built already (in this process or the on-disk cache) costs what
    building it would: the first width still runs on the bound's tables, as in a cold
    solve."""
    beam_database(PUZZLE)
    searched = _searched_on(monkeypatch)
    shortener = _shortener(SolveOptions())
    bound_tables = shortener.tables
    shortener.upfront()
    assert searched and searched[0][1] is bound_tables


def test_under_a_short_limit_the_beams_cut_comes_after_one_width(
    short_runs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``--timeout`` of at most SHORT_LIMIT (the option's value, not the clock): the
    beam's cut after the first width, whatever its price; else by the rent rule."""
    monkeypatch.setattr(shorten, "beam_price", lambda puzzle: 10**12)
    for timeout, last, bought in (
        (5.0, 1000, True),
        (5.0, None, False),
        (10.0, 1000, True),
        (60.0, 1000, False),
        (None, 1000, False),
    ):
        shortener = _shortener(SolveOptions(timeout=timeout))
        shortener.last = last
        assert shortener._own_cut_due() is bought, (timeout, last)
        shortener.own_cut = True
        assert not shortener._own_cut_due()
    monkeypatch.setattr(cuts, "TABLE_PATTERNS", 4**8)  # the bound's: the exact distance
    database._CACHE.clear()
    shortener = _shortener(SolveOptions())
    assert shortener.cut_size == 8
    assert not shortener._own_cut_due() and shortener.own_cut


def test_new_tables_start_at_the_widest_width_and_keep_its_work(short_runs: None) -> None:
    """A narrower width on stronger tables rarely beats the widest one's plan on the old
    ones: the widths go on from it, predicted to take as much work, and it is not judged
    converged; tables handed over whose largest-first cut is no longer change nothing."""
    ledger = Ledger()
    shortener = _shortener(SolveOptions(), ledger=ledger)
    shortener.width, shortener.last = 4096 * shorten.GROWTH, 300_000  # 4096 ran last
    shortener._take(beam_database(PUZZLE))
    assert shortener.width == 4096 and shortener.outgrown == 4096
    assert shortener.predicted() == 300_000 and shortener.cut_size == 5
    every_cut = goal_database(PUZZLE, every_cut=True)  # runs of 3: the longest first run
    shortener.retable(every_cut)
    assert shortener.tables is beam_database(PUZZLE) and ledger.beam == 0


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
    run, shortener = _beam(SolveOptions())
    optimum = beam.search(PUZZLE, goal_database(PUZZLE, strong=True), 4**8).steps
    assert optimum is not None and len(optimum) == 24
    run.offer(replay(PUZZLE, optimum), PlanOrigin("beam", 24, width=4**8))
    searched = _searched_on(monkeypatch)
    shortener.width, shortener.last = 1024 * shorten.GROWTH, 10_000  # 1024 ran last
    shortener.retable(goal_database(PUZZLE, strong=True))
    assert [width for width, _ in searched] == [1024, 1024 * shorten.GROWTH]


def test_no_width_runs_once_the_search_is_over() -> None:
    """The checkpoint says the search is over (A*'s plan met its bound): no width runs."""
    shortener = _shortener(SolveOptions(), checkpoint=lambda: False)
    shortener.upfront()
    assert not shortener.step() and shortener.width == shorten.FIRST_WIDTH
    assert shortener.ledger.beam == 0
