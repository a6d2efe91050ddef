"""Beam search on the pattern tables: as wide as every layer it is breadth-first search
(the optimum); narrower, a legal plan no shorter than the optimum, or none."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.puzzles import EIGHT_DISKS, bfs_optimum
from support.strategies import puzzles

from hanoi_asp import Puzzle
from hanoi_asp.methods import beam, state_arrays
from hanoi_asp.methods.constructive import first_plan
from hanoi_asp.methods.patterns import goal_database
from hanoi_asp.model.plan import replay

FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(1, 6), graphs=True))
def test_a_beam_wider_than_every_layer_finds_the_optimum(
    small_tables: None, puzzle: Puzzle
) -> None:
    """No layer holds more states than the puzzle has, so nothing is cut: the beam is
    breadth-first search, and its first goal is at the optimum's depth."""
    expected = bfs_optimum(puzzle)
    found = beam.search(puzzle, goal_database(puzzle), width=len(puzzle.pegs) ** puzzle.disks).steps
    if expected is None:
        assert found is None
    else:
        assert found is not None and len(replay(puzzle, found)) == expected


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(2, 7), graphs=True), st.integers(1, 8), st.integers(1, 60))
def test_a_narrow_beam_gives_a_legal_plan_shorter_than_asked_or_none(
    small_tables: None, puzzle: Puzzle, width: int, shorter_than: int
) -> None:
    """Narrow, it proves nothing: its plan replays, is no shorter than the optimum and
    shorter than ``shorter_than``."""
    expected = bfs_optimum(puzzle)
    found = beam.search(puzzle, goal_database(puzzle), width, shorter_than=shorter_than).steps
    if found is None:
        return
    assert expected is not None
    assert expected <= len(replay(puzzle, found)) < shorter_than


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_OK)
@given(puzzles(pegs=(3, 5), disks=(3, 7), graphs=True), st.integers(1, 64))
def test_a_beam_whose_states_are_hashed_gives_a_legal_plan_or_none(
    small_tables: None, monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, width: int
) -> None:
    """Past :data:`beam.SEEN_BITS` states the kept ones are marked by hash, and a
    collision leaves a fresh state out: in 16 bits they collide often, and the beam
    still ends (it cannot cycle) with a legal plan, no shorter than the optimum."""
    monkeypatch.setattr(beam, "SEEN_BITS", 16)
    found = beam.search(puzzle, goal_database(puzzle), width, shorter_than=200).steps
    if found is not None:
        expected = bfs_optimum(puzzle)
        assert expected is not None and expected <= len(replay(puzzle, found))


@given(
    st.lists(st.integers(0, 2**20 - 1), min_size=1, max_size=300, unique=True),
    st.lists(st.integers(0, 2**20 - 1), max_size=300),
)
def test_a_kept_state_is_never_taken_for_a_fresh_one(kept: list[int], others: list[int]) -> None:
    """Exact in as many bits as states; hashed in fewer, where a state never kept may be
    taken for a kept one, but never the other way round (the beam cannot cycle)."""
    for seen in (
        state_arrays.StateBits(2**20, most=2**20),
        state_arrays.StateBits(4**20, most=2**12),
    ):
        seen.add(np.array(kept, dtype=np.int64))
        assert not seen.fresh(np.array(kept, dtype=np.int64)).any()
        fresh = seen.fresh(np.array(others, dtype=np.int64))
        assert all(not f for f, s in zip(fresh, others, strict=True) if s in kept)
        if seen.exact:
            assert all(f == (s not in kept) for f, s in zip(fresh, others, strict=True))


@given(st.lists(st.tuples(st.integers(0, 2**20 - 1), st.integers(0, 999)), min_size=1))
def test_each_successor_is_kept_once_with_its_first_parent(pairs: list[tuple[int, int]]) -> None:
    """Packed into one integer, or (past int64) by sorting the pairs: the same states,
    each with its parent of the smallest index (A* orders a batch by ``g``: a state
    reached from two of it keeps the shorter way)."""
    states = np.array([s for s, _ in pairs], dtype=np.int64)
    parents = np.array([p for _, p in pairs], dtype=np.int64)
    first = {s: min(p for t, p in pairs if t == s) for s, _ in pairs}
    for space in (2**20, 2**62):
        unique, parent = state_arrays.once_each(states, parents, space)
        assert unique.tolist() == sorted(first)
        assert parent.tolist() == [first[s] for s in unique.tolist()]


def test_a_wide_beam_comes_near_the_optimum_where_the_first_plan_is_far() -> None:
    """The reason it exists: benchmarks/hard's random4-n12-full-2 (optimum 49, proven by
    the engine and by A*), where the first plan has 61 moves; a width of 4096 comes
    within 10% of the optimum (python -m benchmarks.anytime)."""
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=12,
        init={"a": (1, 10), "b": (6, 7, 8, 11), "c": (5, 9), "d": (2, 3, 4, 12)},
        goal={"a": (2, 6, 8, 9, 11), "b": (3, 4, 5, 7), "c": (1, 10, 12)},
    )
    assert len(first_plan(puzzle) or []) == 61
    wide = beam.search(puzzle, goal_database(puzzle), 4096).steps
    assert wide is not None and 49 <= len(replay(puzzle, wide)) <= 53


def test_a_beam_past_its_deadline_gives_nothing() -> None:
    puzzle = Puzzle(
        pegs=("a", "b", "c", "d"),
        disks=8,
        init={"a": tuple(range(1, 9))},
        goal={"d": tuple(range(1, 9))},
    )
    assert (
        beam.search(puzzle, goal_database(puzzle), 64, deadline=time.monotonic() - 1).steps is None
    )


def test_a_stopped_beam_gives_nothing_and_tells_its_work() -> None:
    """Asked after every layer, with the work so far (the engine meets A* there and gives
    a beam up once the search is over)."""
    puzzle = EIGHT_DISKS
    tables = goal_database(puzzle)
    asked: list[int] = []

    def go_on(work: int) -> bool:
        asked.append(work)
        return True

    found = beam.search(puzzle, tables, 64, checkpoint=go_on)
    assert found.steps is not None and len(asked) > 1
    assert asked == sorted(asked) and asked[-1] <= found.work
    stopped = beam.search(puzzle, tables, 64, checkpoint=lambda work: False)
    assert stopped.steps is None and 0 < stopped.work <= asked[0]
