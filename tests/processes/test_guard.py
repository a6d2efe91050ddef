"""An armed forkserver's workers: a worker forked while its pool closes says nothing of
the pool's semaphore being gone; every other error is still printed."""

from __future__ import annotations

import sys
from multiprocessing import synchronize
from typing import Any

import pytest

from hanoi_asp.processes import WarmPool, outcome
from hanoi_asp.processes.guard import quiet_when_the_pool_is_gone


def a_gone_semaphore() -> BaseException:
    """What a worker meets when its pool unlinked the semaphore it unpickles."""
    blocker: Any = synchronize.Semaphore.__new__(synchronize.Semaphore)
    try:  # (handle, kind, maxvalue, name): what SemLock.__getstate__ pickles
        blocker.__setstate__((0, 1, 1, "/hanoi-asp-test-no-such-semaphore"))
    except FileNotFoundError as error:
        return error
    raise AssertionError("a semaphore of that name exists")


def test_a_gone_pools_semaphore_is_not_news(capsys: pytest.CaptureFixture[str]) -> None:
    error = a_gone_semaphore()
    quiet_when_the_pool_is_gone(type(error), error, error.__traceback__)
    assert capsys.readouterr().err == ""


def test_every_other_error_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        open("/hanoi-asp-test-no-such-file")  # noqa: SIM115  (a FileNotFoundError elsewhere)
    except FileNotFoundError as error:
        quiet_when_the_pool_is_gone(type(error), error, error.__traceback__)
    assert "Traceback" in capsys.readouterr().err


def the_hook() -> str:
    return getattr(sys.excepthook, "__name__", "")


def test_a_pools_workers_have_it() -> None:
    with WarmPool(1, "hanoi_asp.processes", tasks=10) as pool:
        assert outcome(pool.submit(the_hook, timeout=60)) == "quiet_when_the_pool_is_gone"
