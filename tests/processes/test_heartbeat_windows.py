"""A capped child's beats: after a ``grounding`` beat it gets the grounding window (no
grace: clingo cannot stop a grounding), after a ``horizon`` or ``solving`` beat the
heartbeat.  Which window ended it is read from the message, not from a clock."""

from __future__ import annotations

import time

import pytest

from hanoi_asp.processes import Stopped, beat, run_capped


def _beat_then_hang(what: str) -> None:
    beat(what, 0)
    time.sleep(60)


@pytest.mark.parametrize("what, window", [("grounding", 0.2), ("horizon", 0.3), ("solving", 0.3)])
def test_each_beat_arms_its_own_window(what: str, window: float) -> None:
    with pytest.raises(Stopped) as stopped:
        run_capped(_beat_then_hang, (what,), seconds=50, memory=None, heartbeat=0.3, grounding=0.2)
    assert f"killed after {window:g} s without an answer" in str(stopped.value)
    assert stopped.value.doing == {what: 0}


def _grounded_then_answer() -> str:
    beat("grounding", ["base"])
    beat("solving", ["base"])  # grounding ended: the heartbeat again, its grace with it
    time.sleep(0.5)
    return "answer"


def test_the_grounding_window_ends_with_the_grounding() -> None:
    value = run_capped(
        _grounded_then_answer, (), seconds=50, memory=None, heartbeat=30, grounding=0.1
    )
    assert value == "answer"
