"""Seeded single-line mistakes in the quickstart encoding, as data for the grading tests.

Each mutant replaces one line of ``encodings/quickstart.lp`` (``old`` -> ``new``, both
whole lines).  ``blame`` lists the lines a right reason may name when the encoding
rejects the reference plan (the mutated line, or the constraint that the missing
derivation makes fail); empty when the mutant gives illegal plans instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

QUICKSTART = Path(__file__).resolve().parents[2] / "encodings" / "quickstart.lp"

GENERATE = "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M."
FRAME = "on(D,P,T+1) :- on(D,P,T), not move(D,_,T+1), not moves(T)."
START = "on(D,P,0) :- init_on(D,P)."
MOVED = "on(D,P,T) :- move(D,P,T)."
BLOCK = "blocked(D-1,P,T+1) :- on(D,P,T), not moves(T)."
PROPAGATE = "blocked(D-1,P,T) :- blocked(D,P,T), disk(D)."
LARGER = ":- move(D,P,T), blocked(D-1,P,T)."
TOP = ":- move(D,_,T), on(D,P,T-1), blocked(D,P,T)."
GRAPH = ":- move(D,Q,T), on(D,P,T-1), not allowed(P,Q)."
GOAL = ":- goal_on(D,P), not on(D,P,M), moves(M)."
UNIQUE = ":- { on(D,P,T) } != 1, disk(D), moves(M), T = 1..M."
EDGES = "allowed(P,Q) :- edge(P,Q)."
COMPLETE = "allowed(P,Q) :- peg(P), peg(Q), P != Q, not restricted."
RESTRICTED = "restricted :- edge(_,_)."


@dataclass(frozen=True)
class Mutant:
    name: str
    part: str
    """generate, define, test, graph or goal."""
    old: str
    new: str
    blame: tuple[str, ...] = ()
    """Lines (as text) a reason may name when the reference plan is rejected."""

    def text(self) -> str:
        source = QUICKSTART.read_text()
        assert source.count(self.old + "\n") == 1, self.old
        return source.replace(self.old + "\n", self.new + "\n")


MUTANTS = (
    # generate
    Mutant(
        "no-moves-to-peg-e",
        "generate",
        GENERATE,
        "{ move(D,P,T) : disk(D), peg(P), P != e } = 1 :- moves(M), T = 1..M.",
        (GENERATE,),
    ),
    Mutant(
        "largest-never-moves",
        "generate",
        GENERATE,
        "{ move(D,P,T) : disk(D), peg(P), D > 1 } = 1 :- moves(M), T = 1..M.",
        (GENERATE,),
    ),
    Mutant(
        "no-move-at-step-1",
        "generate",
        GENERATE,
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 2..M.",
    ),
    Mutant(
        "no-move-at-last-step",
        "generate",
        GENERATE,
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M-1.",
    ),
    Mutant(
        "at-most-two-moves",
        "generate",
        GENERATE,
        "{ move(D,P,T) : disk(D), peg(P) } 2 :- moves(M), T = 1..M.",
    ),
    Mutant(
        "odd-disks-only-to-a",
        "generate",
        GENERATE,
        "{ move(D,P,T) : disk(D), peg(P), D \\ 2 = 0 ; move(D,a,T) : disk(D) } = 1 "
        ":- moves(M), T = 1..M.",
        (GENERATE,),
    ),
    # define
    Mutant(
        "start-without-disk-3",
        "define",
        START,
        "on(D,P,0) :- init_on(D,P), D != 3.",
        (START, UNIQUE, GOAL, TOP, LARGER),
    ),
    Mutant(
        "frame-stops-at-step-12",
        "define",
        FRAME,
        "on(D,P,T+1) :- on(D,P,T), not move(D,_,T+1), not moves(T), T != 12.",
        (FRAME, UNIQUE, GOAL),
    ),
    Mutant(
        "frame-forgets-disk-2",
        "define",
        FRAME,
        "on(D,P,T+1) :- on(D,P,T), not move(D,_,T+1), not moves(T), D != 2.",
        (FRAME, UNIQUE, GOAL),
    ),
    Mutant(
        "first-move-lands-nowhere",
        "define",
        MOVED,
        "on(D,P,T) :- move(D,P,T), T > 1.",
        (MOVED, UNIQUE, GOAL),
    ),
    Mutant(
        "blocking-starts-late",
        "define",
        BLOCK,
        "blocked(D-1,P,T+1) :- on(D,P,T), not moves(T), T > 0.",
    ),
    Mutant(
        "no-propagation-past-disk-3",
        "define",
        PROPAGATE,
        "blocked(D-1,P,T) :- blocked(D,P,T), disk(D), D != 3.",
    ),
    Mutant(
        "blocking-one-too-far",
        "define",
        BLOCK,
        "blocked(D,P,T+1) :- on(D,P,T), not moves(T).",
        (BLOCK, TOP, LARGER),
    ),
    # test
    Mutant(
        "larger-on-smaller-only-at-odd-steps",
        "test",
        LARGER,
        ":- move(D,P,T), blocked(D-1,P,T), T \\ 2 = 1.",
    ),
    Mutant(
        "top-disk-test-skips-disk-1",
        "test",
        TOP,
        ":- move(D,_,T), on(D,P,T-1), blocked(D,P,T), D > 1.",
    ),
    Mutant(
        "top-disk-test-too-strict",
        "test",
        TOP,
        ":- move(D,_,T), on(D,P,T-1), blocked(D+1,P,T).",
        (TOP,),
    ),
    Mutant(
        "no-two-moves-of-one-disk-in-a-row",
        "test",
        UNIQUE,
        ":- move(D,_,T), move(D,_,T+1).",
        (UNIQUE,),
    ),
    Mutant(
        "larger-on-smaller-allowed-for-disk-3",
        "test",
        LARGER,
        ":- move(D,P,T), blocked(D-1,P,T), D != 3.",
    ),
    # the move graph
    Mutant("edges-read-backwards", "graph", EDGES, "allowed(P,Q) :- edge(Q,P).", (GRAPH,)),
    Mutant("graph-ignored-when-restricted", "graph", RESTRICTED, "restricted :- edge(a,b)."),
    Mutant(
        "no-move-off-peg-a-in-a-graph",
        "graph",
        EDGES,
        "allowed(P,Q) :- edge(P,Q), P != a.",
        (GRAPH,),
    ),
    # partial goals
    Mutant(
        "goal-needs-every-disk",
        "goal",
        GOAL,
        ":- disk(D), not goal_on(D,_), not on(D,a,M), moves(M).",
        (GOAL,),
    ),
    Mutant(
        "goal-only-for-disk-1", "goal", GOAL, ":- goal_on(D,P), not on(D,P,M), moves(M), D = 1."
    ),
    Mutant(
        "goal-checked-one-step-early",
        "goal",
        GOAL,
        ":- goal_on(D,P), not on(D,P,M-1), moves(M).",
        (GOAL,),
    ),
)
