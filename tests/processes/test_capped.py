"""A capped run of a function in a child (``hanoi_asp/processes/capped.py``): its value or
error comes back as if it ran here; a time limit, a heartbeat and a memory cap end it
as :class:`Stopped`; Ctrl-C is passed on to it."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from hanoi_asp.model.errors import InputError
from hanoi_asp.processes import Stopped, beat, capped, run_capped


def answer(value: int) -> int:
    return value * 2


def refuse(path: str) -> None:
    raise InputError("no such puzzle", path=path, line=3)


def sleep_for_ever() -> None:
    while True:
        time.sleep(1)


def beat_then_hang(beats: int) -> None:
    for horizon in range(beats):
        beat("instance", "a.lp")
        beat("horizon", horizon)
    sleep_for_ever()


def eat_memory() -> int:
    hoard = []
    while True:
        hoard.append(bytearray(2**20))


def fail() -> None:
    raise ZeroDivisionError("a bug")


def die() -> None:
    os._exit(7)


def best_on_ctrl_c(ready: Path) -> str:
    try:
        ready.touch()
        sleep_for_ever()
    except KeyboardInterrupt:
        return "the best plan so far"
    return "never"


def test_the_value_and_the_error_come_back() -> None:
    assert run_capped(answer, (21,), seconds=60, memory=None) == 42
    with pytest.raises(InputError) as raised:
        run_capped(refuse, ("p.lp",), seconds=60, memory=None)
    assert (raised.value.message, raised.value.path, raised.value.line) == (
        "no such puzzle",
        "p.lp",
        3,
    )


def test_a_child_past_its_time_limit_is_killed() -> None:
    with pytest.raises(Stopped) as raised:
        run_capped(sleep_for_ever, (), seconds=0.5, memory=None)
    assert raised.value.why == "timeout"
    assert str(raised.value) == "killed at the hard time limit of 0.5 s"


def test_a_silent_child_is_killed_after_its_heartbeat_and_says_where() -> None:
    with pytest.raises(Stopped) as raised:
        run_capped(beat_then_hang, (3,), seconds=None, memory=None, heartbeat=0.5)
    assert raised.value.why == "timeout"
    assert raised.value.doing == {"instance": "a.lp", "horizon": 2}
    assert "0.5 s without an answer" in str(raised.value)


def test_a_child_over_its_memory_cap_is_stopped_for_memory() -> None:
    with pytest.raises(Stopped) as raised:
        run_capped(eat_memory, (), seconds=120, memory=256 * 2**20)
    assert raised.value.why == "memory"


def test_a_bug_or_a_death_in_the_child_is_a_crash_in_one_line() -> None:
    with pytest.raises(Stopped) as raised:
        run_capped(fail, (), seconds=60, memory=None)
    assert raised.value.why == "crash"
    assert str(raised.value) == "the solving process failed (ZeroDivisionError: a bug)"
    with pytest.raises(Stopped) as raised:
        run_capped(die, (), seconds=60, memory=None)
    assert (raised.value.why, raised.value.code) == ("crash", None)
    assert str(raised.value) == "the solving process died (exit code 7)"


def test_ctrl_c_is_passed_on_and_the_childs_answer_returned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child leads a process group of its own (a terminal's Ctrl-C reaches the
    parent alone): the parent's KeyboardInterrupt is sent on, and what the child
    answers to it comes back.  The grace for that answer is made long: on a loaded
    machine the child once needed more than the 2 s, and the parent's KeyboardInterrupt
    then ended the whole test run, not this test."""
    monkeypatch.setattr(capped, "INTERRUPT_GRACE_S", 120.0)
    ready, main = tmp_path / "ready", threading.get_ident()

    def ctrl_c_once_ready() -> None:
        deadline = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=ctrl_c_once_ready, daemon=True).start()
    answer = run_capped(best_on_ctrl_c, (ready,), seconds=120, memory=None)
    assert answer == "the best plan so far"


def test_a_childs_error_that_no_one_can_pickle_is_said() -> None:
    def unpicklable() -> object:
        return threading.Lock()

    with pytest.raises(Stopped) as raised:
        run_capped(unpicklable, (), seconds=60, memory=None)
    assert raised.value.why == "crash" and "TypeError" in str(raised.value)
