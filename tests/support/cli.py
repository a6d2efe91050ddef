"""The type of the ``run_cli`` fixture (``tests/conftest.py``)."""

from __future__ import annotations

from typing import Protocol


class RunCli(Protocol):
    """Runs the command line in-process on ``argv``: (exit code, stdout, stderr)."""

    def __call__(self, *argv: str) -> tuple[int, str, str]: ...
