"""JSON shapes (``hanoi_asp/model/json_shape.py``): an object made from its shape, and
every shape's keys, in order, as the JSON has always had them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated, Any, get_type_hints

import pytest
from typing_extensions import TypedDict

from hanoi_asp.model.json_shape import From, dump
from hanoi_asp.model.plan import MoveJSON
from hanoi_asp.model.proof import (
    HalfSearchJSON,
    HorizonsJSON,
    LowerBoundJSON,
    MethodRunJSON,
    PlannerRunJSON,
    PlanOriginJSON,
    ProofBoundJSON,
    ProofJSON,
    StateSpaceJSON,
)
from hanoi_asp.model.result import ErrorJSON, FirstPlanJSON, HorizonJSON, ResultJSON
from hanoi_asp.teaching.check import CheckJSON, IllegalStepJSON
from hanoi_asp.teaching.json_shapes import (
    CounterexampleJSON,
    ExplanationJSON,
    FindingJSON,
    GradeJSON,
    InstanceGradeJSON,
    RuleAtJSON,
    RuleJSON,
    ScoreJSON,
    SectionJSON,
    WhyNotShorterJSON,
)


class PairJSON(TypedDict):
    left: int
    right: int


class SampleJSON(TypedDict):
    name: str
    size: Annotated[int, From("length")]
    deep: Annotated[str, From("inner.label")]
    doubled: Annotated[int, From("length", lambda n: 2 * n)]
    pair: PairJSON | None
    pairs: list[PairJSON]
    tags: list[str]


def test_an_object_is_made_from_its_shape() -> None:
    source = SimpleNamespace(
        name="x",
        length=3,
        inner=SimpleNamespace(label="deep"),
        pair=(1, 2),  # a tuple: its items in the shape's order
        pairs=[SimpleNamespace(left=5, right=6), SimpleNamespace(left=7, right=8)],
        tags=("a", "b"),
    )
    assert dump(SampleJSON, source) == {
        "name": "x",
        "size": 3,
        "deep": "deep",
        "doubled": 6,
        "pair": {"left": 1, "right": 2},
        "pairs": [{"left": 5, "right": 6}, {"left": 7, "right": 8}],
        "tags": ["a", "b"],
    }
    bare = SimpleNamespace(**{**vars(source), "pair": None, "pairs": None, "tags": None})
    made = dump(SampleJSON, bare, name="given")
    assert (made["name"], made["pair"], made["pairs"], made["tags"]) == ("given", None, [], [])


def test_a_missing_attribute_is_an_error_not_a_guess() -> None:
    with pytest.raises(AttributeError):
        dump(PairJSON, SimpleNamespace(left=1))


GOLDEN: dict[Any, list[str]] = {
    ResultJSON: [
        "version", "instance", "result", "length", "lower_bound", "plan", "time_s", "bound",
        "proof", "proof_data", "mode", "max_moves", "moves", "stopped", "horizons", "method",
        "proven_minimal", "unreachable", "graph", "threads", "programs", "upper_bound", "gap",
        "first_plan", "timings", "warnings",
    ],
    ErrorJSON: [
        "version", "instance", "result", "length", "lower_bound", "upper_bound", "plan",
        "stopped", "error", "exit_code",
    ],
    MoveJSON: ["step", "disk", "from", "to"],
    HorizonJSON: [
        "horizon", "status", "time_s", "choices", "conflicts", "atoms", "rules", "phase"
    ],
    FirstPlanJSON: ["length", "method", "time_s"],
    LowerBoundJSON: ["value", "name", "argument"],
    ProofJSON: [
        "kind", "lower_bound", "bound", "refuted", "half_search", "plan", "method", "stopped",
        "time_limit", "memory_limit", "max_moves", "exact_moves", "state_space", "planner",
        "work_limit",
    ],
    PlannerRunJSON: ["planner", "name", "optimal", "exit_code", "time_s"],
    ProofBoundJSON: ["name", "value"],
    HorizonsJSON: ["first", "last", "phase"],
    HalfSearchJSON: ["first", "tables", "reached"],
    PlanOriginJSON: ["source", "length", "width", "half"],
    MethodRunJSON: ["method", "lower", "states", "pegs", "stopped"],
    StateSpaceJSON: ["pegs", "disks"],
    ExplanationJSON: [
        "instance", "facts", "encoding", "extras", "sections", "horizons", "why_not_shorter",
        "result",
    ],
    SectionJSON: ["name", "intro", "rules"],
    RuleJSON: ["text", "comment", "line", "program"],
    WhyNotShorterJSON: ["horizon", "status", "reason", "core"],
    GradeJSON: ["encoding", "passed", "score", "instances", "warnings", "counterexample"],
    ScoreJSON: ["passed", "total"],
    InstanceGradeJSON: ["instance", "passed", "optimum", "answers", "findings"],
    FindingJSON: ["kind", "message", "horizon", "board"],
    CounterexampleJSON: [
        "instance", "pegs", "disks", "horizon", "kind", "plan", "reason", "rules"
    ],
    RuleAtJSON: ["file", "line", "text"],
    CheckJSON: [
        "version", "instance", "plan_file", "verdict", "words", "length", "legal",
        "goal_reached", "illegal", "goal_missed", "optimum", "gap", "lower_bound", "shorter",
        "proof", "max_moves", "time_s", "exit_code",
    ],
    IllegalStepJSON: ["step", "line", "disk", "from", "to", "rule", "rule_text", "reason", "board"],
}  # fmt: skip
"""Every key of every JSON object, in order, as printed before the shapes were declared
(scripts read them: a key is added at the end, never renamed, moved or removed)."""


@pytest.mark.parametrize("shape", list(GOLDEN), ids=lambda shape: shape.__name__)
def test_the_keys_are_the_ones_scripts_read(shape: Any) -> None:
    assert list(get_type_hints(shape)) == GOLDEN[shape]
