"""Frame-Stewart (``hanoi_asp/methods/frame_stewart.py``): its counts and its moves
against the known numbers."""

from __future__ import annotations

import pytest
from support.reference import (
    frame_stewart_numbers,
)

from hanoi_asp.methods.frame_stewart import frame_stewart_moves


def test_frame_stewart_counts() -> None:
    from support.reference import FOUR_PEG_TOWER

    from hanoi_asp.methods.frame_stewart import frame_stewart_count

    assert [frame_stewart_count(n, 4) for n in range(len(FOUR_PEG_TOWER))] == FOUR_PEG_TOWER
    assert [frame_stewart_count(n, 3) for n in range(8)] == [2**n - 1 for n in range(8)]


@pytest.mark.parametrize(("pegs", "disks"), [(3, 12), (4, 20), (5, 20), (6, 20), (7, 20)])
def test_frame_stewart_moves_follow_the_known_counts(pegs: int, disks: int) -> None:
    names = "abcdefg"[:pegs]
    counts = [
        len(list(frame_stewart_moves(1, n, "a", names[-1], list(names[1:-1]))))
        for n in range(1, disks + 1)
    ]
    assert counts == frame_stewart_numbers(pegs, disks)
