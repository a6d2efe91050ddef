"""The API's models (``hanoi_asp/web/schemas.py``): the request takes the solve options
declared for the web, each reaching its field; the answers are the CLI's JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from pydantic import TypeAdapter
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT

from hanoi_asp.model.options import Encoding, SolveOptions, solve_flags
from hanoi_asp.model.result import ErrorJSON
from hanoi_asp.web.schemas import ENCODING_NAME, LIMITS, WEB_OPTIONS, JobBody

THREE = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"
ENCODING = str(ROOT / "encodings" / "quickstart.lp")
EXERCISE = str(ROOT / "encodings" / "exercises" / "no-frame-axiom.lp")
NOT_SOLVE_OPTIONS = {"instance", "format", "random", "seed", "plan"}
"""The body's own fields: the instance, its format, grade's random puzzles, check's plan."""


def test_the_body_has_every_option_the_web_takes_and_no_other() -> None:
    web = {flag.key for _, flag in solve_flags("web")}
    assert web == set(WEB_OPTIONS) == {"encoding", "moves", "timeout", "bound"}
    assert set(JobBody.model_fields) == web | NOT_SOLVE_OPTIONS
    for key, (name, flag) in WEB_OPTIONS.items():
        described = JobBody.model_fields[key].description or ""
        assert described.startswith(f"As solve {flag.flag}: {flag.help}"), key
        if key != "timeout":  # the API's own default: 30 s, where solve has none
            assert JobBody.model_fields[key].default == getattr(SolveOptions(), name)


@pytest.mark.parametrize(
    ("given", "field", "value"),
    [
        ({"moves": 9}, "exact_moves", 9),
        ({"timeout": 2.5}, "timeout", 2.5),
        ({"bound": "none"}, "bound", "none"),
        ({"encoding": "% mine"}, "encoding", Encoding("% mine", ENCODING_NAME)),
    ],
)
def test_each_option_given_reaches_its_field(given: dict[str, Any], field: str, value: Any) -> None:
    options = JobBody.model_validate({"instance": THREE, **given}).options()
    assert getattr(options, field) == value
    plain = JobBody(instance=THREE).options()
    assert getattr(plain, field) != value
    assert plain.limits == options.limits == LIMITS and plain.source == "instance.lp"
    assert not plain.astar  # the server's jobs share its cores: no racing A* each


def test_an_encoding_is_text_never_a_path() -> None:
    path = str(ROOT / "encodings" / "quickstart.lp")
    options = JobBody(instance=THREE, encoding=path).options()
    assert options.encoding == Encoding(path, "encoding.lp")


# -- the answers: exactly what --json prints -------------------------------------------

HARD = str(INSTANCES / "hard" / "4pegs-20disks-arbitrary.lp")
CLI_OBJECTS = [
    (["solve", QUICKSTART], "meets-bound"),
    (["solve", QUICKSTART, "--bound", "misplaced"], "refuted-horizons"),
    (["solve", QUICKSTART, "--moves", "14", "--mode", "oneshot"], "exact-moves"),
    (["solve", QUICKSTART, "--max-moves", "10"], "over-limit"),
    (["solve", str(INSTANCES / "unsolvable-2pegs.lp")], "unreachable"),
    (["solve", str(INSTANCES / "variants" / "unreachable-one-way.lp"), "--method", "bfs"], None),
    (["solve", str(INSTANCES / "arbitrary.toml"), "--method", "astar"], "method"),
    (["solve", str(INSTANCES / "classic" / "4pegs-6disks.lp"), "--method", "frame-stewart"], None),
    (["solve", "FIVE", "--no-first-plan"], "half-search"),
    (["solve", str(INSTANCES / "partial-goal.toml"), "--encoding", ENCODING], None),
    (["solve", HARD, "--timeout", "1.5"], "stopped"),
    (["explain", QUICKSTART, "--bound", "none"], None),
    (["grade", "--encoding", EXERCISE, "--random", "5", "--seed", "1"], None),
]
"""Commands whose ``--json`` objects are checked against the OpenAPI page, with the
``proof_data`` kind each shows."""
ANSWERS = {"solve": "ResultJSON", "explain": "ExplanationJSON", "grade": "GradeJSON"}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    from hanoi_asp.web.app import create_app

    document: dict[str, Any] = create_app().openapi()
    return document


def undocumented(
    value: Any, node: dict[str, Any], schemas: dict[str, Any], where: str
) -> list[str]:
    """Keys of ``value`` the schema does not name, and keys it names that are missing
    (every key of the CLI's objects is always printed)."""
    if "$ref" in node:
        node = schemas[node["$ref"].rsplit("/", 1)[1]]
    if value is None:
        return []
    if "anyOf" in node:
        kinds = [kind for kind in node["anyOf"] if kind.get("type") != "null"]
        return undocumented(value, kinds[0], schemas, where) if len(kinds) == 1 else []
    if isinstance(value, dict) and "properties" in node:
        names = node["properties"]
        found = [f"{where}.{key}: not documented" for key in value if key not in names]
        found += [f"{where}.{key}: missing" for key in names if key not in value]
        for key in set(names) & set(value):
            found += undocumented(value[key], names[key], schemas, f"{where}.{key}")
        return found
    if isinstance(value, list) and "items" in node:
        return [e for item in value for e in undocumented(item, node["items"], schemas, where)]
    return []


@pytest.mark.parametrize(("argv", "kind"), CLI_OBJECTS, ids=lambda a: " ".join(a or [])[:60])
def test_the_openapi_page_documents_exactly_what_json_prints(
    run_cli: RunCli,
    openapi: dict[str, Any],
    tmp_path: Path,
    argv: list[str],
    kind: str | None,
) -> None:
    """Each object the command line prints validates against the schema the API's page
    shows for its endpoint, every key documented and every documented key printed."""
    import jsonschema

    five = tmp_path / "five.lp"
    five.write_text("peg(a;b;c;d;e). disk(1..9). init_on(1..9,a). goal_on(1..9,e).\n")
    argv = [str(five) if word == "FIVE" else word for word in argv]
    code, out, err = run_cli(*argv, "--json")
    assert code in (0, 1), err
    printed = json.loads(out)
    name = ANSWERS[argv[0]]
    schemas = openapi["components"]["schemas"]
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": openapi["components"]}
    )
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(printed)]
    assert problems == []
    assert undocumented(printed, schemas[name], schemas, name) == []
    result = printed.get("result") if argv[0] == "explain" else printed
    if kind is not None:
        assert result["proof_data"]["kind"] == kind
    if argv[0] == "grade":
        assert printed["counterexample"] is not None  # the shrunk puzzle is documented too


def test_an_error_object_is_its_shape(run_cli: RunCli) -> None:
    """The object of an instance that could not be solved (the web answers a refusal
    instead; batch writes it as a row) has the keys of its shape."""
    code, out, _ = run_cli("solve", "no-such-file.lp", "--json")
    assert code == 2
    assert list(json.loads(out)) == list(get_type_hints(ErrorJSON))
    TypeAdapter(ErrorJSON).validate_python(json.loads(out))
