"""Add cases to the corpus: ``python tests/corpus/grow.py [--adopt] [KIND ...]``.

The inputs are written here, by hand (the rules' edge cases, read off the Python and
JavaScript readers, simulator, bounds and grader and their tests) and drawn from seeded
generators (the same seed, the same cases).  A case whose name the corpus already has
is left as it is: its expectation is the contract, reviewed when it was added.  A new
case's expectation is Python's answer today, to be read in the diff before it is
committed: where that answer is wrong, the case's ``expect`` is corrected by hand and
``known`` names the side that breaks it (see ``README.md``).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: corpus, support

from corpus import python_side
from corpus.cases import HERE, ROOT
from hanoi_asp.engine.bounds import misplaced_disks, zero_bound
from hanoi_asp.inputs.facts import peg_term, to_facts
from hanoi_asp.methods.bfs import search
from hanoi_asp.model.plan import legal_move
from hanoi_asp.model.puzzle import Puzzle, placement, preset_edges

Case = dict[str, Any]
GOOD = "peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\n"
ONE = "peg(a;b). disk(1). init_on(1,a). "


# -- 1. instance text -> the puzzle or the error --------------------------------------------

FACTS_BY_HAND: list[tuple[str, str]] = [
    ("classic", GOOD),
    ("quickstart-file", (ROOT / "instances" / "quickstart.lp").read_text()),
    ("teaching-arbitrary", (ROOT / "instances" / "teaching" / "05-arbitrary.lp").read_text()),
    ("teaching-partial-goal", (ROOT / "instances" / "teaching" / "06-partial-goal.lp").read_text()),
    ("teaching-no-plan", (ROOT / "instances" / "teaching" / "07-no-plan.lp").read_text()),
    ("linear-variant", (ROOT / "instances" / "variants" / "linear-3pegs-4disks.lp").read_text()),
    (
        "unreachable-variant",
        (ROOT / "instances" / "variants" / "unreachable-one-way.lp").read_text(),
    ),
    ("missing-period-in-interval", "peg(a;b;c).\ndisk(1..3.\n"),
    ("disk-zero", "peg(a;b;c).\ndisk(0).\n"),
    ("disk-negative", "peg(a;b;c).\ndisk(-1).\n"),
    ("disk-constant", "peg(a;b;c).\ndisk(a).\n"),
    ("disk-string", 'peg(a;b;c).\ndisk("1").\n'),
    ("init-disk-zero", ONE + "init_on(0,a)."),
    ("sixty-five-disks", "peg(a).\ndisk(1..65).\ninit_on(1..65,a).\n"),
    ("sixty-four-disks", "peg(a;b).\ndisk(1..64).\ninit_on(1..64,a).\ngoal_on(64,b).\n"),
    ("thirty-three-pegs", "peg(1..33).\ndisk(1).\ninit_on(1,1).\n"),
    ("thirty-two-pegs", "peg(1..32).\ndisk(1).\ninit_on(1,1).\ngoal_on(1,32).\n"),
    ("capital-predicate", "Peg(a;b;c).\ndisk(1).\n"),
    ("duplicate-edge", ONE + "goal_on(1,b). edge(a,b). edge(b,a). edge(a,b)."),
    ("edge-to-itself", ONE + "goal_on(1,b). edge(a,a)."),
    ("edge-unknown-peg", ONE + "goal_on(1,b).\nedge(a,z).\n"),
    ("edge-integer-peg", ONE + "goal_on(1,b). edge(a,1)."),
    ("edges-complete-listed", ONE + "goal_on(1,b). edge(a,b). edge(b,a)."),
    ("edges-by-pool", ONE + "goal_on(1,b). edge((a;b),(a;b))."),
    ("edges-by-tuple-pool", ONE + "goal_on(1,b). edge(a,b;b,a)."),
    ("edge-arity-three", ONE + "goal_on(1,b). edge(a,b,c)."),
    ("moves-twice-different", ONE + "goal_on(1,b). moves(3).\nmoves(4)."),
    ("moves-twice-same", ONE + "goal_on(1,b). moves(3). moves(3)."),
    ("moves-zero", ONE + "goal_on(1,b). moves(0)."),
    ("moves-negative", ONE + "moves(-1)."),
    ("moves-constant", ONE + "moves(a)."),
    ("moves-interval", ONE + "moves(1..3)."),
    ("moves-largest-integer", ONE + "moves(2147483647)."),
    ("moves-past-32-bits", ONE + "moves(4294967299)."),
    ("moves-arithmetic-overflow", ONE + "moves(2147483647*2)."),
    ("moves-arithmetic", ONE + "moves(2*3+1-2)."),
    ("quoted-peg-with-space", 'peg("a b";c). disk(1). init_on(1,"a b"). goal_on(1,c).'),
    (
        "quoted-peg-escapes",
        'peg("say \\"hi\\"";b). disk(1). init_on(1,"say \\"hi\\""). goal_on(1,b).',
    ),
    ("quoted-peg-equals-constant", 'peg("a";b). disk(1). init_on(1,a). goal_on(1,b).'),
    ("integer-pegs", "peg(1;2;3). disk(1..2). init_on(1..2,1). goal_on(1..2,3)."),
    ("negative-integer-peg", "peg(-1;b). disk(1). init_on(1,-1). goal_on(1,b)."),
    ("function-peg", "peg(f(x)). disk(1)."),
    ("tuple-peg", "peg((a,b)). disk(1)."),
    ("one-tuple-peg", "peg((a,)). disk(1)."),
    ("empty-tuple-peg", "peg(()). disk(1). init_on(1,())."),
    ("empty-tuple-in-a-peg-pool", "peg(a). disk(1). init_on(1,a).\npeg(b;())."),
    ("empty-tuple-as-a-target", "peg(a;b). disk(1). init_on(1,a). goal_on(1,())."),
    ("empty-string-peg", 'peg(a;""). disk(1). init_on(1,a).'),
    ("empty-string-as-a-target", 'peg(a;b). disk(1). init_on(1,a). goal_on(1,"").'),
    ("empty-tuple-disk", "peg(a). disk(())."),
    ("function-disk", "peg(a). disk(f(1))."),
    ("interval-bound-by-arithmetic-in-a-pool", "peg(a). disk(1;1..1000*1000)."),
    ("interval-bounds-by-arithmetic-in-a-product", "peg(a). edge(1..1000*1000,1..2*2)."),
    ("negated-constant-peg", "peg(-a). disk(1)."),
    ("peg-named-not", "peg(not). disk(1)."),
    ("trailing-comma-in-arguments", "peg(a,). disk(1)."),
    ("empty-pool-alternative", "peg(a;;b). disk(1)."),
    ("empty-arguments", "peg(). disk(1)."),
    ("bare-predicate", "peg. disk(1)."),
    ("const-directive", "#const n=3.\npeg(a).\n"),
    ("show-directive", "#show p/1. peg(a)."),
    ("program-base", "#program base. peg(a;b). disk(1). init_on(1,a)."),
    ("program-step", "#program step(t). peg(a;b). disk(1). init_on(1,a)."),
    ("script", GOOD + '#script (python)\nopen("x","w")\n#end.\n'),
    ("include", GOOD + '#include "other.lp".\n'),
    ("include-first", '#include "other.lp".\n' + GOOD),
    ("sup-as-term", "peg(a;b). disk(#sup). init_on(1,a)."),
    ("constraint", ":- peg(a)."),
    ("weak-constraint", ":~ peg(a). [1]"),
    ("classical-negation", "-peg(a)."),
    ("classical-negation-of-a-pool", "peg(b). -peg(a;c). disk(1)."),
    ("classical-negation-of-a-constant", "peg(a). disk(1).\n-peg."),
    ("default-negation", "not peg(a)."),
    ("choice", "peg(a). {peg(b)}."),
    ("choice-first-looks-like-json", "{peg(a)}."),
    ("aggregate", "1 { peg(a) } 2."),
    ("conditional-literal", "peg(a) : disk(1)."),
    ("empty-body-is-a-fact", "peg(a;b) :- . disk(1). init_on(1,a). goal_on(1,b)."),
    ("rule-with-syntax-error-in-body", "peg(a).\ndisk(1) :- peg(a.\n"),
    ("false-directive", ONE + "#false."),
    ("number-fact", ONE + "1."),
    ("string-fact", ONE + '"a".'),
    ("variable-fact", ONE + "X."),
    ("term-after-fact", "peg(a) b."),
    ("choice-after-facts", GOOD + "{ disk(4) }.\n"),
    ("disjunction-bar", "peg(a) | peg(b)."),
    ("disjunction-semicolon", "peg(a); peg(b)."),
    ("conjunction-head", "peg(a), peg(b)."),
    ("theory-atom", ONE + "&diff{a}."),
    ("rule-with-body", GOOD + "p(X) :- disk(X).\n"),
    ("rule-with-ground-body", "peg(a) :- disk(1)."),
    ("variable", GOOD + "disk(X).\n"),
    ("anonymous-variable", "peg(_)."),
    ("unknown-predicate", GOOD + "foo(1).\n"),
    ("unknown-predicate-arity", GOOD + "init_on(1).\n"),
    ("pool-makes-wrong-arity", ONE + "init_on(1,a;a)."),
    ("external-function", ONE + "peg(@f(1))."),
    ("external-statement", ONE + "@f(1)."),
    ("no-pegs", "disk(1..3).\ninit_on(1..3,a).\n"),
    ("no-disks", "peg(a;b).\n"),
    ("empty-text", ""),
    ("only-a-comment", "% nothing here\n"),
    ("only-pegs", "peg(a)."),
    ("disk-gap", "peg(a;b).\ndisk(1;3).\ninit_on((1;3),a).\n"),
    ("disk-gap-late", "peg(a).\ndisk(1).\ndisk(2).\ndisk(4).\ninit_on(1..4,a).\n"),
    ("missing-init", "peg(a;b).\ndisk(1..3).\ninit_on(1..2,a).\n"),
    ("missing-init-line", "peg(a).\n\n\ndisk(1..2).\ninit_on(1,a).\n"),
    ("init-twice", GOOD + "init_on(2,b).\n"),
    ("init-twice-same-peg", GOOD + "init_on(2,a).\n"),
    ("goal-twice", GOOD + "goal_on(1,b).\n"),
    ("init-out-of-range", GOOD + "init_on(7,a).\n"),
    ("goal-out-of-range", GOOD + "goal_on(9,a).\n"),
    ("init-unknown-peg", GOOD + "init_on(1,z).\n"),
    ("goal-unknown-peg", GOOD + "goal_on(2,z).\n"),
    ("goal-tuple-peg", ONE + "goal_on(1,(a,b))."),
    ("partial-goal", "peg(a;b). disk(1..2). init_on(1..2,a). goal_on(2,b)."),
    ("no-goal", "peg(a;b). disk(1..2). init_on(1..2,a)."),
    ("disk-listed-twice", ONE + "goal_on(1,b). disk(1)."),
    ("arithmetic", "peg(a;b). disk(2-1). init_on(1*1,a). goal_on(3-2,b)."),
    ("arithmetic-interval", "peg(a;b). disk(1..1+2). init_on(1..3,a). goal_on(2*1..3,b)."),
    ("interval-of-constants", 'peg(a). disk("x"..3).'),
    ("power", "peg(a). disk(1**2)."),
    ("bitwise-and", "peg(a). disk(1&2)."),
    ("bitwise-not", "peg(a). disk(~1)."),
    ("absolute-value", "peg(a). disk(|1|)."),
    ("arithmetic-back-in-range", "peg(a). disk(2147483647+1-1). init_on(1,a)."),
    ("arithmetic-product-overflow", ONE + "moves(65536*65536)."),
    ("double-negation", "peg(a). disk(-(-1)). init_on(1,a)."),
    ("interval-bound-overflow", ONE + "moves(1..2147483647*2)."),
    ("interval-bound-by-arithmetic-past-the-cap", "peg(a). disk(1..200*101)."),
    ("interval-bound-by-arithmetic-a-million", "peg(a). disk(1..1000*1000)."),
    ("pool-past-the-cap", "peg(a). disk(X;1..100000)."),
    ("product-past-the-cap", "peg(1..150). disk(1). edge(1..150,1..150)."),
    ("facts-at-the-cap", "peg(a). disk(1..19999)."),
    ("facts-past-the-cap-together", "peg(a).\ndisk(1..10000).\ndisk(10001..20000).\n"),
    ("empty-pool-first", "peg(;a). disk(1)."),
    ("empty-pool-last", "peg(a;). disk(1)."),
    ("inf-is-a-constant", "peg(inf;b). disk(1). init_on(1,inf). goal_on(1,b)."),
    ("string-peg-is-the-constant", 'peg(a;b). disk(1). init_on(1,a). goal_on(1, "b").'),
    ("interval-empty", "peg(a). disk(3..1). disk(1). init_on(1,a)."),
    ("interval-too-large", "peg(a).\ndisk(1..100000000).\n"),
    ("interval-at-the-cap", "peg(a).\ndisk(1..20001).\n"),
    ("pool-in-interval", "peg(a). disk(1..2;3). init_on(1..3,a)."),
    ("division", "peg(a;b). disk(3/1). init_on(1,a)."),
    ("modulo", "peg(a;b). disk(5\\3). init_on(1,a)."),
    ("bar-in-arguments", "peg(a;b). disk(1|2)."),
    ("missing-final-period", "peg(a;b). disk(1). init_on(1,a)"),
    ("missing-final-period-newline", "peg(a;b).\ndisk(1).\ninit_on(1,a)\n"),
    ("missing-period-before-comment", "peg(a).\ndisk(1).\ninit_on(1,a).\ngoal_on(1,a)\n% end\n"),
    ("missing-period-mid-line", "peg(a;b). disk(1). init_on(1,a). goal_on(1,b) goal_on(1,a)."),
    ("missing-period-at-line-end", "peg(a)\ndisk(1)."),
    ("syntax-error-after-bad-predicate", "peg(a;b). disk(1). foo(1).\npeg(a;b."),
    ("syntax-error-after-variable", "peg(a). disk(1). init_on(1,a). disk(X).\npeg(b"),
    ("double-comma-on-line-3", "peg(a).\ndisk(1,\n2,,3)."),
    ("unclosed-block-comment", "peg(a). disk(1). init_on(1,a). %* unclosed"),
    ("unclosed-block-comment-lines", "peg(a).\n%* x\n\n"),
    ("unclosed-string", 'peg("a). disk(1).'),
    ("block-comment", "peg(a;b). %* disk(9). *% disk(1). init_on(1,a). goal_on(1,b)."),
    ("block-comment-over-lines", "peg(a;b).\n%* one\ntwo *% disk(1).\ninit_on(1,z).\n"),
    ("comment-with-percent-in-string", 'peg("%";b). disk(1). init_on(1,"%"). goal_on(1,b).'),
    ("byte-order-mark", "\ufeffpeg(a). disk(1). init_on(1,a)."),
    ("non-ascii-in-string", 'peg("é";b). disk(1). init_on(1,"é"). goal_on(1,b).'),
    ("non-ascii-outside", "peg(a;b). disk(1). init_on(1,a). goal_on(1,b). é"),
    ("non-ascii-in-comment", "peg(a;b). % é\ndisk(1). init_on(1,a)."),
    ("nul-byte", "peg(a). disk(1)\x00."),
    ("crlf-lines", "peg(a).\r\ndisk(1).\r\ninit_on(1,a).\r\ninit_on(1,b).\r\n"),
    ("cr-lines", "peg(a).\rdisk(1).\rinit_on(1,b).\r"),
    ("statement-over-lines", "peg(a;\nb).\ndisk(1\n..\n2).\ninit_on(1..2,\nc).\n"),
    ("aspcomp-format", "peg(1..3). disk(1..3). on0(1,1). ongoal(1,3)."),
    ("json-text", '{"pegs": ["a", "b"], "disks": 1, "init": {"a": [1]}, "goal": {"b": [1]}}'),
]


def random_instance_texts(seed: int, count: int) -> Iterator[tuple[str, str]]:
    """Valid puzzles written in the ways clingo reads alike: pools, intervals,
    arithmetic, quoted and integer peg names, comments, statements over lines."""
    rng = random.Random(seed)
    names = [
        ["a", "b", "c", "d", "e"],
        ["1", "2", "3", "4", "5"],
        ["left", "Mid dle", "r'", "x_1", "end"],
    ]
    for index in range(count):
        pegs = rng.choice(names)[: rng.randint(2, 5)]
        disks = rng.randint(1, 7)
        start = {d: rng.choice(pegs) for d in range(1, disks + 1)}
        goal = {d: rng.choice(pegs) for d in range(1, disks + 1) if rng.random() < 0.7}
        edges = None
        if rng.random() < 0.3:
            edges = preset_edges(rng.choice(["linear", "cyclic"]), tuple(pegs))
        lines = [_pool("peg", [peg_term(p) for p in pegs], rng)]
        lines.append(
            rng.choice(
                [
                    f"disk(1..{disks}).",
                    f"disk(1..{disks - 1}+1).",
                    " ".join(f"disk({d})." for d in range(1, disks + 1)),
                ]
            )
        )
        for name, where in (("init_on", start), ("goal_on", goal)):
            facts = [f"{name}({d},{peg_term(p)})." for d, p in where.items()]
            rng.shuffle(facts)
            lines.append(rng.choice([" ", "\n", " % note\n", " %* a *% "]).join(facts))
        if edges is not None:
            lines.append(" ".join(f"edge({peg_term(a)},{peg_term(b)})." for a, b in edges))
        if rng.random() < 0.3:
            lines.append(f"moves({rng.randint(0, 40)}).")
        rng.shuffle(lines)
        yield f"random-valid-{seed}-{index:02d}", "\n".join(lines) + rng.choice(["", "\n"])


def _pool(name: str, terms: list[str], rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"{name}({';'.join(terms)})."
    return " ".join(f"{name}({t})." for t in terms)


BREAKS: list[tuple[str, Callable[[list[str]], list[str]]]] = [
    ("unknown-peg", lambda lines: [*lines, "init_on(1,zz)."]),
    ("out-of-range", lambda lines: [*lines, "goal_on(99,a)."]),
    ("unknown-predicate", lambda lines: [*lines, "disks(1..3)."]),
    ("variable", lambda lines: [*lines, "goal_on(D,a)."]),
    ("missing-period", lambda lines: [lines[0].rstrip("."), *lines[1:]]),
    ("rule", lambda lines: [*lines, "goal_on(1,a) :- peg(a)."]),
    ("directive", lambda lines: [*lines, "#show goal_on/2."]),
    ("moves-twice", lambda lines: [*lines, "moves(1).", "moves(2)."]),
]


def random_broken_texts(seed: int) -> Iterator[tuple[str, str]]:
    """Each way of breaking an instance, applied to a random valid one, the break's line
    placed among the others."""
    rng = random.Random(seed)
    for index, (what, spoil) in enumerate(BREAKS):
        pegs = ["a", "b", "c"]
        disks = rng.randint(1, 4)
        lines = ["peg(a;b;c).", f"disk(1..{disks})."]
        lines += [f"init_on({d},{rng.choice(pegs)})." for d in range(1, disks + 1)]
        lines += [f"goal_on({d},{rng.choice(pegs)})." for d in range(1, disks + 1)]
        spoilt = spoil(lines)
        head, tail = spoilt[:2], spoilt[2:]
        rng.shuffle(tail)
        yield f"random-broken-{index:02d}-{what}", "\n".join(head + tail) + "\n"


EOF = (
    "clingo places an unexpected end of the text on the line after the last (one the "
    "editor may not have); the page names the line where the unfinished statement or "
    "comment begins"
)
OTHER_FORMATS = (
    "the server's /api/parse tells the other formats apart (the competition's "
    "on0/ongoal, a JSON or TOML spec) and says so; the page reads .lp facts only"
)
FACTS_CONTRACTS: dict[str, tuple[dict[str, Any] | None, dict[str, str]]] = {
    # (the contract where it is not Python's answer, the side known to break it: why)
    "sixty-five-disks": (
        None,
        {"page": "the page words its own size limits (a page has no --limit to raise them)"},
    ),
    "thirty-three-pegs": (
        None,
        {"page": "the page words its own size limits (a page has no --limit to raise them)"},
    ),
    "missing-final-period": (None, {"page": EOF}),
    "missing-final-period-newline": (None, {"page": EOF}),
    "missing-period-before-comment": (None, {"page": EOF}),
    "unclosed-block-comment": (None, {"page": EOF}),
    "unclosed-block-comment-lines": (None, {"page": EOF}),
    "syntax-error-after-variable": (None, {"page": EOF}),
    "aspcomp-format": (None, {"page": OTHER_FORMATS}),
    "json-text": (None, {"page": OTHER_FORMATS}),
    "choice-first-looks-like-json": (None, {"page": OTHER_FORMATS}),
    "rule-with-syntax-error-in-body": (
        None,
        {
            "page": "the page does not parse a rule's body: it refuses the rule (found a rule "
            "with a body) where clingo first finds the syntax error in the body"
        },
    ),
}


def facts_cases() -> Iterator[Case]:
    for name, text in [*FACTS_BY_HAND, *random_instance_texts(48, 14), *random_broken_texts(49)]:
        yield {"name": name, "text": text}


def facts_expect(case: Case, folder: Path) -> dict[str, Any]:
    """Python's answer, or the contract written above; clingo's syntax errors marked."""
    contract = FACTS_CONTRACTS.get(case["name"], (None, {}))[0]
    expect = python_side.facts(case) if contract is None else dict(contract)
    error = expect.get("error")
    if error and error["message"].startswith(("syntax error", "lexer error")):
        error["parser"] = True
    return expect


# -- 2. a plan -> the replay's verdict ------------------------------------------------------

PUZZLES = {
    "classic-3": "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).",
    "four-pegs": "peg(a;b;c;d). disk(1..4). init_on(1..2,a). init_on(3,d). init_on(4,b).\n"
    "goal_on(1,d). goal_on(2,c). goal_on(3,c). goal_on(4,a).",
    "partial-goal": "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(2,c).",
    "linear": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c).\n"
    "edge(a,b). edge(b,a). edge(b,c). edge(c,b).",
    "cyclic": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c).\n"
    "edge(a,b). edge(b,c). edge(c,a).",
    "integer-pegs": "peg(1;2;3). disk(1..2). init_on(1..2,1). goal_on(1..2,3).",
    "quoted-pegs": 'peg("left";"mid dle";right). disk(1..2). init_on(1..2,"left").\n'
    "goal_on(1..2,right).",
    "goal-at-start": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,a).",
    "no-goal": "peg(a;b;c). disk(1..2). init_on(1..2,a).",
    "one-disk": "peg(a;b). disk(1). init_on(1,a). goal_on(1,b).",
    "spread": "peg(a;b;c). disk(1..4). init_on(1,b). init_on(2,a). init_on(3,c). init_on(4,b).\n"
    "goal_on(1,a). goal_on(2,c). goal_on(3,c). goal_on(4,a).",
}

PLANS_BY_HAND: list[tuple[str, str, list[tuple[int, str]]]] = [
    ("empty-plan-classic", "classic-3", []),
    ("empty-plan-goal-at-start", "goal-at-start", []),
    ("empty-plan-no-goal", "no-goal", []),
    ("not-on-top", "classic-3", [(1, "c")]),
    ("not-on-top-later", "classic-3", [(3, "c"), (2, "b"), (2, "c")]),
    ("onto-smaller", "classic-3", [(3, "c"), (2, "c")]),
    ("onto-smaller-later", "classic-3", [(3, "b"), (2, "c"), (3, "c"), (1, "b")]),
    ("same-peg", "classic-3", [(3, "a")]),
    ("same-peg-later", "classic-3", [(3, "b"), (3, "b")]),
    ("unknown-peg", "classic-3", [(3, "z")]),
    ("unknown-peg-later", "classic-3", [(3, "b"), (2, "q")]),
    ("peg-name-case", "classic-3", [(3, "C")]),
    ("disk-zero", "classic-3", [(0, "b")]),
    ("disk-past-the-last", "classic-3", [(4, "b")]),
    ("disk-negative", "classic-3", [(-1, "b")]),
    ("graph-against-the-edge", "linear", [(2, "c")]),
    ("graph-legal-then-against", "linear", [(2, "b"), (2, "c"), (1, "b")]),
    ("cyclic-backwards", "cyclic", [(2, "c")]),
    ("cyclic-forwards", "cyclic", [(2, "b"), (2, "c"), (1, "b"), (2, "a"), (1, "c"), (2, "b")]),
    ("cyclic-plan-short-of-goal", "cyclic", [(2, "b"), (2, "c")]),
    ("complete-plan-on-linear", "linear", [(2, "b"), (1, "c"), (2, "c")]),
    ("complete-plan-on-cyclic", "cyclic", [(2, "b"), (1, "c"), (2, "c")]),
    ("cyclic-back-later", "cyclic", [(2, "b"), (2, "a")]),
    ("graph-and-top-both-broken", "linear", [(1, "c")]),
    ("goal-left-again", "one-disk", [(1, "b"), (1, "a")]),
    ("goal-back-and-forth", "one-disk", [(1, "b"), (1, "a"), (1, "b")]),
    ("partial-goal-met", "partial-goal", [(3, "c"), (2, "b"), (3, "b"), (2, "c")]),
    ("partial-goal-missed", "partial-goal", [(3, "c")]),
    ("no-goal-any-plan", "no-goal", [(2, "b"), (1, "c")]),
    ("integer-peg-names", "integer-pegs", [(2, "2"), (1, "3"), (2, "3")]),
    ("integer-peg-unknown", "integer-pegs", [(2, "4")]),
    ("quoted-peg-names", "quoted-pegs", [(2, "mid dle"), (1, "right"), (2, "right")]),
    ("quoted-peg-unquoted", "quoted-pegs", [(2, "mid")]),
    ("goal-at-start-one-move", "goal-at-start", [(2, "b")]),
    ("spread-illegal-first", "spread", [(1, "a")]),
]

ATOMS_BY_HAND: list[tuple[str, str, list[str], int]] = [
    (
        "atoms-plan",
        "classic-3",
        [
            "move(3,c,1)",
            "move(2,b,2)",
            "move(3,b,3)",
            "move(1,c,4)",
            "move(3,a,5)",
            "move(2,c,6)",
            "move(3,c,7)",
        ],
        7,
    ),
    ("atoms-in-any-order", "one-disk", ["on(1,b,1)", "move(1,b,1)", "moves(1)"], 1),
    ("atoms-past-the-horizon-ignored", "one-disk", ["move(1,b,1)", "move(1,a,2)"], 1),
    ("atoms-step-zero-ignored", "one-disk", ["move(1,a,0)", "move(1,b,1)"], 1),
    ("atoms-other-arity-ignored", "one-disk", ["move(1,b)", "move(1,b,1)"], 1),
    ("atoms-missing-step", "classic-3", ["move(3,c,1)", "move(3,b,3)"], 3),
    ("atoms-no-move-at-all", "one-disk", ["on(1,b,1)"], 1),
    ("atoms-two-at-one-step", "classic-3", ["move(3,c,1)", "move(2,b,1)"], 1),
    ("atoms-move-to-function", "classic-3", ["move(3,f(c),1)"], 1),
    ("atoms-move-to-negated-peg", "classic-3", ["move(3,-c,1)"], 1),
    ("atoms-disk-not-a-number", "classic-3", ["move(x,c,1)"], 1),
    ("atoms-step-not-a-number", "classic-3", ["move(3,c,one)"], 1),
    (
        "atoms-string-peg",
        "quoted-pegs",
        ['move(2,"mid dle",1)', "move(1,right,2)", "move(2,right,3)"],
        3,
    ),
    ("atoms-string-peg-unknown", "classic-3", ['move(3,"x y",1)'], 1),
    ("atoms-integer-peg", "integer-pegs", ["move(2,2,1)", "move(1,3,2)", "move(2,3,3)"], 3),
    ("atoms-illegal-plan", "classic-3", ["move(2,c,1)"], 1),
    ("atoms-horizon-zero", "goal-at-start", [], 0),
]


def optimal(puzzle: Puzzle) -> list[tuple[int, str]]:
    found = search(puzzle, max_moves=None).steps
    assert found is not None
    return found


def random_plans(seed: int) -> Iterator[tuple[str, str, list[tuple[int, str]]]]:
    """For each puzzle: its optimal plan; a random legal walk; the optimal plan with one
    step made illegal by each rule in turn; the optimal plan and one legal move more."""
    rng = random.Random(seed)
    for key, text in PUZZLES.items():
        puzzle = python_side.puzzle_of(text)
        plan = optimal(puzzle) if puzzle.is_goal(puzzle.initial_state()) is False else []
        yield f"optimal-{key}", key, plan
        walk: list[tuple[int, str]] = []
        state = list(puzzle.initial_state())
        for _ in range(rng.randint(1, 9)):
            legal = [
                (disk, t)
                for disk in range(1, puzzle.disks + 1)
                for t in range(len(puzzle.pegs))
                if legal_move(tuple(state), disk, t, puzzle.edges()) is None
            ]
            if not legal:
                break
            disk, target = rng.choice(legal)
            walk.append((disk, puzzle.pegs[target]))
            state[disk - 1] = target
        yield f"random-walk-{key}", key, walk
        if plan:
            at = rng.randrange(len(plan))
            spoilt = list(plan)
            disk, _ = spoilt[at]
            spoilt[at] = (disk, rng.choice(puzzle.pegs))
            yield f"spoilt-step-{key}", key, spoilt


def plans_cases() -> Iterator[Case]:
    for name, key, steps in [*PLANS_BY_HAND, *random_plans(48)]:
        yield {"name": name, "instance": PUZZLES[key], "steps": [list(s) for s in steps]}
    for name, key, atoms, horizon in ATOMS_BY_HAND:
        yield {"name": name, "instance": PUZZLES[key], "atoms": atoms, "horizon": horizon}


def plans_expect(case: Case, folder: Path) -> dict[str, Any]:
    return python_side.plans(case)


# -- 3. a puzzle -> the lower bounds the page computes --------------------------------------

BOUNDS_BY_HAND: list[tuple[str, str]] = [
    ("classic-3", PUZZLES["classic-3"]),
    ("classic-8", "peg(a;b;c). disk(1..8). init_on(1..8,a). goal_on(1..8,c)."),
    ("classic-12-at-the-limit", "peg(a;b;c). disk(1..12). init_on(1..12,a). goal_on(1..12,c)."),
    ("classic-13-past-the-limit", "peg(a;b;c). disk(1..13). init_on(1..13,a). goal_on(1..13,c)."),
    ("four-pegs-9-at-the-limit", "peg(a;b;c;d). disk(1..9). init_on(1..9,a). goal_on(1..9,d)."),
    (
        "four-pegs-10-past-the-limit",
        "peg(a;b;c;d). disk(1..10). init_on(1..10,a). goal_on(1..10,d).",
    ),
    ("five-pegs-9-past-the-limit", "peg(a;b;c;d;e). disk(1..9). init_on(1..9,a). goal_on(1..5,e)."),
    (
        "four-pegs-5-arbitrary",
        "peg(a;b;c;d). disk(1..5). init_on(1..4,c). init_on(5,d).\n"
        "goal_on(1,a). goal_on(2,c). goal_on(3,d). goal_on(4,b). goal_on(5,d).",
    ),
    ("goal-at-start", PUZZLES["goal-at-start"]),
    ("no-goal", PUZZLES["no-goal"]),
    ("partial-goal", PUZZLES["partial-goal"]),
    ("two-pegs-unreachable", (ROOT / "instances" / "unsolvable-2pegs.lp").read_text()),
    (
        "one-way-unreachable",
        (ROOT / "instances" / "variants" / "unreachable-one-way.lp").read_text(),
    ),
    ("one-peg", "peg(a). disk(1..3). init_on(1..3,a). goal_on(1..3,a)."),
    (
        "linear-3",
        "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c). "
        "edge(a,b). edge(b,a). edge(b,c). edge(c,b).",
    ),
    (
        "cyclic-3",
        "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c). "
        "edge(a,b). edge(b,c). edge(c,a).",
    ),
    ("moves-below-optimum", "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c). moves(2)."),
]


def random_bound_puzzles(seed: int, count: int) -> Iterator[tuple[str, str]]:
    rng = random.Random(seed)
    for index in range(count):
        pegs = tuple("abcde"[: rng.randint(3, 5)])
        disks = rng.randint(1, 6 if len(pegs) > 3 else 8)
        start = {d: rng.choice(pegs) for d in range(1, disks + 1)}
        goal = {d: rng.choice(pegs) for d in range(1, disks + 1) if rng.random() < 0.8}
        edges = None
        if rng.random() < 0.3:
            edges = preset_edges(rng.choice(["linear", "cyclic"]), pegs)
        puzzle = Puzzle(
            pegs=pegs, disks=disks, init=placement(start), goal=placement(goal), moves_allowed=edges
        )
        yield f"random-{seed}-{index:02d}-{len(pegs)}p{disks}d", to_facts(puzzle)


def bounds_cases() -> Iterator[Case]:
    for name, text in [*BOUNDS_BY_HAND, *random_bound_puzzles(48, 26)]:
        yield {"name": name, "instance": text}


def bounds_expect(case: Case, folder: Path) -> dict[str, Any]:
    """The page's choice (breadth-first search up to its 600,000 positions, else the
    misplaced disks), with Python's values."""
    puzzle = python_side.puzzle_of(case["instance"])
    positions = len(puzzle.pegs) ** puzzle.disks
    optimum = python_side.bfs_optimum(puzzle) if positions <= 600_000 else None
    exact = positions <= 600_000 and optimum is not None
    bfs_words = (
        f"breadth-first search in the page: the exact distance, over all {positions:,} positions"
    )
    auto = (
        {"value": optimum, "name": "page-bfs", "argument": bfs_words}
        if exact
        else _python_bound(puzzle, "misplaced-disks")
    )
    return {
        "bfs": {"optimum": optimum} if positions <= 600_000 else None,
        "auto": auto,
        "misplaced": _python_bound(puzzle, "misplaced-disks"),
        "none": _python_bound(puzzle, "none"),
    }


def _python_bound(puzzle: Puzzle, name: str) -> dict[str, Any]:
    bound = misplaced_disks(puzzle) if name == "misplaced-disks" else zero_bound(puzzle)
    return {"value": bound.value, "name": bound.name, "argument": bound.argument}


# -- 4. an encoding -> the grade and the counterexample -------------------------------------

QUICKSTART = "encodings/quickstart.lp"
INSTANCES = {
    "one-disk": "peg(a;b;c). disk(1). init_on(1,a). goal_on(1,c).",
    "two-disks": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c).",
    "three-disks": "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).",
    "four-pegs-partial": "peg(a;b;c;d). disk(1..3). init_on(1..2,b). init_on(3,d).\n"
    "goal_on(1,a). goal_on(3,b).",
    "linear": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c).\n"
    "edge(a,b). edge(b,a). edge(b,c). edge(c,b).",
    "cyclic": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c).\n"
    "edge(a,b). edge(b,c). edge(c,a).",
    "unreachable": "peg(a;b). disk(1..2). init_on(1..2,a). goal_on(1..2,b). moves(4).",
    "moves-below-optimum": "peg(a;b;c). disk(1..2). init_on(1..2,a). goal_on(1..2,c). moves(2).",
    "goal-at-start": "peg(a;b;c). disk(1..2). init_on(1,a). init_on(2,b). goal_on(1,a).",
}
EXERCISES = sorted(p.name for p in (ROOT / "encodings" / "exercises").glob("*.lp"))
TOO_STRICT = ("extra-rule", "no-frame-axiom", "no-start-state")
MUTANTS = {  # a few of tests/support/grade_mutants.py's, one line of the quickstart each
    "largest-never-moves": (
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M.",
        "{ move(D,P,T) : disk(D), peg(P), D > 1 } = 1 :- moves(M), T = 1..M.",
    ),
    "edges-read-backwards": ("allowed(P,Q) :- edge(P,Q).", "allowed(P,Q) :- edge(Q,P)."),
    "goal-checked-one-step-early": (
        ":- goal_on(D,P), not on(D,P,M), moves(M).",
        ":- goal_on(D,P), not on(D,P,M-1), moves(M).",
    ),
    "no-move-at-last-step": (
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M.",
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M-1.",
    ),
    "extra-derived-move": (
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M.",
        "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M.\n"
        "move(D,nowhere,T) :- move(D,P,T), T > 1, P = c.",
    ),
}
GRADES_BY_HAND: list[tuple[str, dict[str, Any], str, bool]] = [
    # the shipped whole encodings pass
    ("quickstart-two-disks", {"file": QUICKSTART}, "two-disks", False),
    ("quickstart-four-pegs-partial", {"file": QUICKSTART}, "four-pegs-partial", False),
    ("quickstart-linear", {"file": QUICKSTART}, "linear", False),
    ("quickstart-unreachable", {"file": QUICKSTART}, "unreachable", False),
    ("quickstart-moves-below-optimum", {"file": QUICKSTART}, "moves-below-optimum", False),
    ("quickstart-goal-at-start", {"file": QUICKSTART}, "goal-at-start", False),
    ("incremental-three-disks", {"file": "encodings/incremental.lp"}, "three-disks", False),
    ("incremental-linear", {"file": "encodings/incremental.lp"}, "linear", False),
    ("incremental-unreachable", {"file": "encodings/incremental.lp"}, "unreachable", False),
    (
        "incremental-moves-below-optimum",
        {"file": "encodings/incremental.lp"},
        "moves-below-optimum",
        False,
    ),
    # refused before any grading
    ("refused-script", {"text": "#script (lua) x = 1 #end.\nmove(1,a,1).\n"}, "one-disk", False),
    ("refused-include", {"text": 'move(1,a,1).\n#include "other.lp".\n'}, "one-disk", False),
    ("refused-no-move", {"file": "encodings/distance3.lp"}, "one-disk", False),
    ("refused-no-move-rule", {"text": "on(D,P,0) :- init_on(D,P).\n"}, "one-disk", False),
    ("refused-syntax-error", {"text": "move(1,c,1) :- moves(1), disk(1\n"}, "one-disk", False),
    ("refused-non-ascii", {"text": "% a plan\nmove(1,c,1) :- moves(1). é\n"}, "one-disk", False),
    # clingo's own words
    ("unsafe-empty-body", {"text": "move(D,P,T) :- .\n"}, "one-disk", False),
    ("unsafe-variable", {"text": "move(D,P,T) :- disk(D).\n"}, "one-disk", False),
    ("fixed-move", {"text": "move(1,c,1) :- moves(1).\n"}, "one-disk", False),
    ("fixed-move-two-disks", {"text": "move(1,c,1) :- moves(1).\n"}, "two-disks", False),
    ("move-to-an-unknown-peg", {"text": "move(1,z,1) :- moves(1).\n"}, "one-disk", False),
    ("move-to-a-peg-shrinking-removes", {"text": 'move(1,"c",1) :- moves(1).\n'}, "one-disk", True),
    ("move-to-a-function", {"text": "move(1,f(c),1) :- moves(1).\n"}, "one-disk", True),
    (
        "two-moves-at-a-step",
        {"text": "move(1,b,1) :- moves(1).\nmove(1,c,1) :- moves(1).\n"},
        "one-disk",
        False,
    ),
    (
        "undefined-atom-warning",
        {"text": "move(1,c,1) :- moves(1), not nowhere(1).\n"},
        "one-disk",
        False,
    ),
    # what makes a whole encoding (move/3 in a head) and what is refused (grade.check_whole)
    ("refused-end", {"text": "move(1,c,1) :- moves(1).\n#end.\n"}, "one-disk", False),
    (
        "refused-script-on-line-3",
        {"text": "% a plan\nmove(1,c,1) :- moves(1).\n#script (python)\n"},
        "one-disk",
        False,
    ),
    (
        "script-in-a-string-is-data",
        {"text": 'note("#script").\nmove(1,c,1) :- moves(1).\n'},
        "one-disk",
        False,
    ),
    (
        "include-in-a-comment-is-no-include",
        {"text": '%* #include "x.lp". *%\nmove(1,c,1) :- moves(1).\n'},
        "one-disk",
        False,
    ),
    ("refused-move-only-in-a-body", {"text": "on(1,c,1) :- move(1,c,1).\n"}, "one-disk", False),
    (
        "refused-move-only-in-a-comment",
        {"text": "% move(D,P,T) :- moves(T).\non(1,a,0).\n"},
        "one-disk",
        False,
    ),
    ("refused-move-of-arity-two", {"text": "move(1,c) :- moves(1).\n"}, "one-disk", False),
    (
        "move-in-a-disjunction",
        {"text": "move(1,c,1) ; move(1,b,1) :- moves(1).\n"},
        "one-disk",
        False,
    ),
    (
        "move-in-a-choice",
        {"text": "{ move(1,P,1) : peg(P) } = 1 :- moves(1).\n"},
        "one-disk",
        False,
    ),
    ("move-with-a-pool", {"text": "move(1,(b;c),1) :- moves(1).\n"}, "one-disk", False),
]


def grades_inputs() -> Iterator[tuple[str, dict[str, Any], str, bool]]:
    yield from GRADES_BY_HAND
    for exercise in EXERCISES:
        stem = exercise.removesuffix(".lp")
        given = {"file": f"encodings/exercises/{exercise}"}
        yield (
            f"exercise-{stem}-two-disks",
            given,
            "two-disks",
            stem in ("no-goal-test", "no-top-disk-test"),
        )
        if stem not in TOO_STRICT:  # (too strict: 20 horizons more each, for little news)
            yield f"exercise-{stem}-four-pegs-partial", given, "four-pegs-partial", False
    for name, (old, new) in MUTANTS.items():
        mutant: dict[str, Any] = {"file": QUICKSTART, "replace": [[old, new]]}
        yield f"mutant-{name}-two-disks", mutant, "two-disks", True
    # a move the encoding cannot make late in the plan: both sides name the first one
    # after the plan's earlier moves, whatever clingo's core holds
    choice, _ = MUTANTS["extra-derived-move"]
    late = choice + "\nmove(D,nowhere,T) :- move(D,P,T), T > 3, P = c."
    yield (
        "mutant-extra-derived-move-after-step-three-three-disks",
        {"file": QUICKSTART, "replace": [[choice, late]]},
        "three-disks",
        True,
    )
    # the plan's first move blocks every later one: fewest moves missing would blame
    # step 1 (one move) where the plan fails at step 2, after a first move it can make
    blocks = choice + "\nmove(D,nowhere,T) :- move(2,b,1), move(D,P,T), T > 1."
    yield (
        "mutant-first-move-blocks-the-rest-two-disks",
        {"file": QUICKSTART, "replace": [[choice, blocks]]},
        "two-disks",
        True,
    )
    yield (
        "mutant-edges-read-backwards-cyclic",
        {"file": QUICKSTART, "replace": [list(MUTANTS["edges-read-backwards"])]},
        "cyclic",
        True,
    )


NOT_PARSED = (
    "the page refuses #script, #include and an encoding without move/3 before grading, as "
    "grade does, but has no ASP parser of its own to check the syntax (nor the characters "
    "outside ASCII) first: clingo's error shows at the instance, as an error finding"
)


GRADES_CONTRACTS: dict[str, tuple[Any, dict[str, str]]] = {
    # (the contract where it is not Python's answer, or an edit of Python's answer that
    # makes it; the side known to break it: why)
    "refused-syntax-error": (None, {"page": NOT_PARSED}),
    "refused-non-ascii": (None, {"page": NOT_PARSED}),
    "mutant-largest-never-moves-two-disks": (
        None,
        {
            "page": "why-rejected.js minimises the reference plan's missing moves (weak "
            "constraints), so where the encoding has no answer at all, even with every "
            "integrity constraint relaxed (its choice rule makes no move of disk 1), it names "
            "no rule; why_rejected.py fixes the plan by assumptions and names the rule from "
            "the unsatisfiable core"
        },
    ),
}


def grades_cases() -> Iterator[Case]:
    for name, encoding, instance, counterexample in grades_inputs():
        case: Case = {"name": name, "encoding": encoding, "instance": INSTANCES[instance]}
        if counterexample:
            case["counterexample"] = True
        yield case


def grades_expect(case: Case, folder: Path) -> dict[str, Any]:
    """Python's answer, or the contract (or the edit of Python's answer) written above."""
    contract = GRADES_CONTRACTS.get(case["name"], (None, {}))[0]
    expect = python_side.grades(case, folder)
    if contract is not None:
        expect = contract(expect) if callable(contract) else contract
    return dict(expect)


# -- the files --------------------------------------------------------------------------------

ABOUT = {
    "facts": "Instance text -> the puzzle /api/parse gives (as the page draws it), or its "
    "refusal: the message (without the instance.lp:LINE: place) and the line.",
    "plans": "A plan (steps, or a model's move/3 atoms at a horizon) -> the replay: legal or "
    "not, the goal reached or not, the first illegal step, the rule it breaks, the "
    "simulator's words and board, the moves; or the malformed answer's message.",
    "bounds": "A puzzle -> the lower bounds the page starts its upward search from, per "
    "bound choice (value, name, argument), and breadth-first search's optimum where the "
    "page enumerates the positions (bfs: null past its limit).",
    "grades": "An encoding (a file of the checkout, with replace pairs, or its text) on one "
    "instance -> grade's verdict on it (the grade, clingo's warnings) or the refusal; and, "
    "where asked, the counterexample (its instance read as a puzzle).",
}
MAKERS: dict[str, Callable[[], Iterator[Case]]] = {
    "facts": facts_cases,
    "plans": plans_cases,
    "bounds": bounds_cases,
    "grades": grades_cases,
}
EXPECT: dict[str, Callable[[Case, Path], dict[str, Any]]] = {
    "facts": facts_expect,
    "plans": plans_expect,
    "bounds": bounds_expect,
    "grades": grades_expect,
}
KNOWN = {"facts": FACTS_CONTRACTS, "grades": GRADES_CONTRACTS}


def grow(kind: str, adopt: bool = False) -> int:
    """Add the new cases of ``kind`` with Python's answers (and the contracts above) as
    their expectations; with ``adopt``, the cases already there get theirs anew too
    (their inputs kept).  How many expectations were written."""
    path = HERE / f"{kind}.json"
    cases: list[Case] = json.loads(path.read_text())["cases"] if path.exists() else []
    names = {case["name"] for case in cases}
    fresh = [case for case in MAKERS[kind]() if case["name"] not in names]
    written = 0
    with tempfile.TemporaryDirectory() as folder:
        for case in [*(cases if adopt else []), *fresh]:
            case.pop("known", None)
            case["expect"] = EXPECT[kind](case, Path(folder))
            known = KNOWN.get(kind, {}).get(case["name"], (None, {}))[1]
            if known:
                case["known"] = known
            written += 1
    document = {"kind": kind, "about": ABOUT[kind], "cases": [*cases, *fresh]}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return written


if __name__ == "__main__":
    adopting = "--adopt" in sys.argv
    for kind in [a for a in sys.argv[1:] if a != "--adopt"] or list(MAKERS):
        print(kind, "expectations written:", grow(kind, adopting))
