"""Instance facts (``hanoi_asp/inputs/facts.py``, ``read_facts.py``): a round trip, pools
and intervals as clingo reads them, a byte order mark, a capitalised predicate."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from support.cli import RunCli
from support.files import QUICKSTART

from hanoi_asp import (
    Puzzle,
    load_puzzle,
    read_facts,
    to_facts,
)

peg_names = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True).filter(lambda s: s != "not"),
    st.integers(0, 99).map(str),
    st.text(alphabet='AZ _-"\\é', min_size=1, max_size=6),
)


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    names = tuple(draw(st.lists(peg_names, min_size=1, max_size=5, unique=True)))
    disks = draw(st.integers(1, 6))
    start = [draw(st.sampled_from(names)) for _ in range(disks)]
    init: dict[str, tuple[int, ...]] = {}
    for disk, peg in enumerate(start, start=1):
        init[peg] = (*init.get(peg, ()), disk)
    goal: dict[str, tuple[int, ...]] = {}
    for disk in range(1, disks + 1):
        if draw(st.booleans()):
            peg = draw(st.sampled_from(names))
            goal[peg] = (*goal.get(peg, ()), disk)
    moves = draw(st.none() | st.integers(0, 50))
    pairs = [(a, b) for a in names for b in names if a != b]
    graph = (
        draw(st.none() | st.lists(st.sampled_from(pairs), unique=True).map(tuple))
        if pairs
        else None
    )
    return Puzzle(
        pegs=names, disks=disks, init=init, goal=goal, max_moves=moves, moves_allowed=graph or None
    )


@given(puzzles())
def test_facts_round_trip(puzzle: Puzzle) -> None:
    back = read_facts(to_facts(puzzle), "<round trip>")
    assert back.pegs == puzzle.pegs
    assert back.disks == puzzle.disks
    assert back.initial_state() == puzzle.initial_state()
    assert back.goal_pegs() == puzzle.goal_pegs()
    assert back.max_moves == puzzle.max_moves
    assert back.edges() == puzzle.edges()


def test_pools_and_intervals_like_clingo() -> None:
    puzzle = read_facts(
        "peg(a;b;c). disk(1..4). init_on(1..4,a). goal_on((1;2),c). goal_on(2+1,b).", "x"
    )
    assert puzzle.pegs == ("a", "b", "c")
    assert puzzle.initial_state() == (0, 0, 0, 0)
    assert puzzle.goal_pegs() == {1: 2, 2: 2, 3: 1}


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    bom = tmp_path / "bom.lp"
    bom.write_bytes(b"\xef\xbb\xbf" + Path(QUICKSTART).read_bytes())
    assert load_puzzle(str(bom)) == load_puzzle(QUICKSTART)


def test_a_capitalised_predicate_gets_a_hint(run_cli: RunCli, tmp_path: Path) -> None:
    bad = tmp_path / "cap.lp"
    bad.write_text("Peg(a;b;c).\ndisk(1).\n")
    code, _, err = run_cli("solve", str(bad))
    assert code == 2
    assert f"{bad}:1:" in err and "Peg is a variable" in err and "write peg(...)" in err
