"""The API's models (``hanoi_asp/web/schemas.py``): the request takes the solve options
declared for the web, each reaching its field; the answers are the CLI's JSON."""

from __future__ import annotations

from typing import Any

import pytest
from support.files import ROOT

from hanoi_asp.model.options import Encoding, SolveOptions, solve_flags
from hanoi_asp.web.schemas import ENCODING_NAME, LIMITS, WEB_OPTIONS, JobBody

THREE = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"
NOT_SOLVE_OPTIONS = {"instance", "format", "random", "seed"}
"""The body's own fields: the instance, its format, grade's random puzzles."""


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
