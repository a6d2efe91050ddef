"""The fast reading of plain instance text (``hanoi_asp/inputs/plain_facts.py``) gives
exactly what clingo's parser gives, line for line and in order, or steps aside."""

from __future__ import annotations

from pathlib import Path

import clingo
from hypothesis import given, settings
from hypothesis import strategies as st
from support.files import INSTANCES

from hanoi_asp.inputs.plain_facts import plain_facts
from hanoi_asp.inputs.read_facts import INSTANCE_PREDICATES, parse_facts, parse_with_clingo
from hanoi_asp.inputs.terms import MAX_FACTS
from hanoi_asp.model.errors import InputError

ARITIES = {"peg": 1, "disk": 1, "init_on": 2, "goal_on": 2, "edge": 2, "time": 1}
SHARED = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "aspcomp-hanoi-tower"

arguments = st.one_of(
    st.integers(0, 40).map(str),
    st.tuples(st.integers(0, 12), st.integers(0, 12)).map(lambda t: f"{t[0]}..{t[1]}"),
    st.tuples(st.integers(0, 12), st.integers(0, 12)).map(lambda t: f"{t[0]} .. {t[1]}"),
    st.from_regex(r"[a-z][A-Za-z0-9_]{0,4}", fullmatch=True),
    st.sampled_from(
        [
            "not", "A", "_x", "_", "a'", '"a"', '"%"', "a;b", "1;2", "1..3;a", "a ; 2..1",
            "-1", "+1", "007",
            "2147483647", "2147483648", "4294967299", "999999999", "1..0", "f(1)", "#inf",
            "a b", "",
        ]
    ),
)  # fmt: skip
separators = st.sampled_from(
    [" ", "", "\n", "  ", "\t", "\r\n", "\r", " % note\n", "%* a *%", "\n%\n"]
)


@st.composite
def statements(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(sorted(ARITIES)))
    args = [draw(arguments) for _ in range(ARITIES[name])]
    ending = draw(st.sampled_from([".", ".", ".", " .", "", ":- a.", ". %* x"]))
    return f"{name}({', '.join(args)}){ending}"


texts = st.lists(st.tuples(statements(), separators), max_size=8).map(
    lambda parts: "".join(s + sep for s, sep in parts)
)


def with_clingo(
    text: str, arities: dict[str, int] = ARITIES
) -> list[tuple[int, str, tuple[clingo.Symbol, ...]]] | None:
    try:
        facts = parse_with_clingo(text, "x.lp", arities)
    except InputError:
        return None
    return [(fact.line, fact.name, fact.args) for fact in facts]


@settings(max_examples=400, deadline=None)
@given(texts)
def test_plain_text_reads_as_clingo_reads_it(text: str) -> None:
    fast = plain_facts(text)
    if fast is not None:
        assert fast == with_clingo(text), text


def test_the_usual_instances_take_the_fast_reading() -> None:
    """Not vacuous: the shipped instance files and the competition's are plain."""
    usual = [*INSTANCES.glob("classic/*.lp"), INSTANCES / "quickstart.lp"]
    usual += sorted(SHARED.glob("*.asp"))[:3]
    assert len(usual) >= 8
    for path in usual:
        text = path.read_text()
        fast = plain_facts(text)
        assert fast is not None, path
        assert fast == with_clingo(text, {name: len(args) for _, name, args in fast}), path


def test_what_is_not_plain_steps_aside() -> None:
    for text in [
        "init_on(1;2,a).",
        "peg(a;B).",
        'peg("a").',
        "disk(4294967299).",
        "%* block *% disk(1).",
        "#script (python) #end.",
        "disk(1) :- peg(a).",
        "disk(1)",
        "disk(1).\0",
        "disk(1).\rdisk(2).",
        "disk(X).",
        "peg(not).",
        f"disk(1..{MAX_FACTS + 1}).",
        f"disk(1..{MAX_FACTS}). peg(a).",
    ]:
        assert plain_facts(text) is None, text


def test_an_unknown_predicate_is_named_on_its_line_either_way() -> None:
    for text in ["peg(a).\ndisks(1..3).", "peg(a;b).\ndisks(1..3)."]:
        try:
            parse_facts(text, "x.lp", INSTANCE_PREDICATES)
        except InputError as error:
            assert error.line == 2 and "disks/1" in str(error)
        else:
            raise AssertionError("accepted an unknown predicate")
