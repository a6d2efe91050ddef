"""Whole towers: the planner's minimal lengths against the known counts."""

from __future__ import annotations

import pytest
from reference import FOUR_PEG_TOWER

from hanoi_asp import Puzzle, SolveOptions, solve


def tower(pegs: int, disks: int) -> Puzzle:
    names = tuple("abcdefgh"[:pegs])
    everything = tuple(range(1, disks + 1))
    return Puzzle(
        pegs=names, disks=disks, init={names[0]: everything}, goal={names[-1]: everything}
    )


@pytest.mark.parametrize("disks", range(1, 7))
def test_three_pegs_take_two_to_the_n_minus_one(disks: int) -> None:
    result = solve(tower(3, disks))
    assert result.result == "OPTIMUM FOUND"
    assert result.length == 2**disks - 1


@pytest.mark.parametrize("disks", range(1, 9))
def test_four_pegs_match_frame_stewart(disks: int) -> None:
    result = solve(tower(4, disks))
    assert result.result == "OPTIMUM FOUND"
    assert result.length == FOUR_PEG_TOWER[disks]


@pytest.mark.parametrize("disks", range(1, 5))
def test_oneshot_and_incremental_agree(disks: int) -> None:
    for pegs in (3, 4):
        puzzle = tower(pegs, disks)
        oneshot = solve(puzzle, SolveOptions(mode="oneshot"))
        incremental = solve(puzzle, SolveOptions(mode="incremental"))
        assert oneshot.length == incremental.length
        assert oneshot.result == incremental.result == "OPTIMUM FOUND"


def test_proof_names_the_refuted_horizons_or_the_bound() -> None:
    result = solve(tower(3, 3), SolveOptions(first_plan=False))
    assert result.bound.value <= 7
    proof = result.proof_data
    refuted = [run.horizon for run in result.horizons if run.status == "UNSAT"]
    assert refuted == list(range(result.bound.value, 7))
    if refuted:
        assert proof.kind == "refuted-horizons"
        assert proof.refuted is not None and (proof.refuted.first, proof.refuted.last) == (
            refuted[0],
            refuted[-1],
        )
    else:
        assert proof.kind == "meets-bound" and proof.refuted is None
    assert proof.lower == 7 and proof.plan is not None and proof.plan.source == "clingo"
    assert result.horizons[-1].status == "SAT"
    settled = solve(tower(3, 3))  # the plan built first meets the bound: no clingo call
    assert settled.horizons == () and settled.length == 7
    proof = settled.proof_data
    assert proof.kind == "meets-bound" and proof.plan is not None and proof.bound is not None
    assert proof.plan.source == "constructive" and proof.bound.name == "three-peg-distance"


@pytest.mark.parametrize("disks", range(1, 6))
def test_three_pegs_from_zero_with_clingo_refuting_everything(disks: int) -> None:
    result = solve(tower(3, disks), SolveOptions(bound="none"))
    assert result.length == 2**disks - 1
    assert sum(run.status == "UNSAT" for run in result.horizons) == 2**disks - 1
