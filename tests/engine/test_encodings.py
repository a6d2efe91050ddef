"""The shipped encodings (``hanoi_asp/engine/encodings.py``, ``encodings/``): the clingo
command in the header and the tutorial works."""

from __future__ import annotations

from support.files import ROOT

from hanoi_asp.engine.encodings import read_encoding


def test_tutorial_and_encoding_give_a_clingo_command_that_works() -> None:
    header = read_encoding("quickstart")
    assert "python -m clingo instances/quickstart.lp encodings/quickstart.lp" in header
    assert "python -m clingo" in (ROOT / "docs" / "tutorial.md").read_text()
    import clingo

    messages: list[str] = []
    ctl = clingo.Control(logger=lambda _c, m: messages.append(m))
    ctl.load(str(ROOT / "instances" / "quickstart.lp"))  # our own shipped, trusted files
    ctl.add("base", [], header)
    ctl.ground([("base", [])])
    assert ctl.solve().satisfiable
    assert not [m for m in messages if "edge" in m]  # #defined edge/2 silences the info
