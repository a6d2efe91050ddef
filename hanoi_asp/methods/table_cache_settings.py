"""Where the pattern-table cache is, whether it is on, and its size cap: read from the
environment, strictly.

Where: ``$HANOI_ASP_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/hanoi-asp``, else
``~/.cache/hanoi-asp``.  Off: ``$HANOI_ASP_NO_CACHE`` set (to anything but ``0`` or
empty), ``hanoi-asp solve/batch/explain --no-cache``, or
``SolveOptions(table_cache=False)``.  A setting that makes no sense
(``HANOI_ASP_CACHE_MAX_MIB=nan``) is one warning line on stderr, once per process, and
its default: the cache never fails a solve over it.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

DEFAULT_MAX_MIB = 1024
"""The folder's size cap by default: the tables of a few dozen hard puzzles."""

_ENABLED: ContextVar[bool] = ContextVar("table_cache_enabled", default=True)
_FOLDER: ContextVar[str | None] = ContextVar("table_cache_folder", default=None)
_LOG = logging.getLogger(__name__)
_WARNED: set[tuple[str, str]] = set()
"""The bad settings already warned about in this process (each once)."""


def folder() -> Path | None:
    """The cache folder in force, None when the cache is off."""
    if not _ENABLED.get() or _switched_off():
        return None
    chosen = _FOLDER.get() or os.environ.get("HANOI_ASP_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and not os.path.isabs(base):
        # the XDG specification: a relative path in its variables is invalid, ignored
        _warn("XDG_CACHE_HOME", base, "is not an absolute path: ignored, as XDG says")
        base = ""
    return Path(base or os.path.join(os.path.expanduser("~"), ".cache")) / "hanoi-asp"


_SAID_OFF = frozenset({"1", "true", "yes", "on"})


def _switched_off() -> bool:
    """``$HANOI_ASP_NO_CACHE``: unset, empty or ``0`` leaves the cache on; anything
    else turns it off (as documented), with a warning when the value is not a plain
    yes (``false`` or ``off`` would read as set)."""
    raw = os.environ.get("HANOI_ASP_NO_CACHE", "")
    if raw in ("", "0"):
        return False
    if raw.strip().lower() not in _SAID_OFF:
        _warn("HANOI_ASP_NO_CACHE", raw, "is set, so the cache is off (0 or empty keeps it on)")
    return True


def _warn(name: str, value: str, problem: str) -> None:
    """One line on stderr (through :mod:`logging`: with no handler configured, Python
    prints the message alone), once per process for each setting and value."""
    if (name, value) in _WARNED:
        return
    _WARNED.add((name, value))
    _LOG.warning("hanoi-asp: warning: %s=%s %s", name, ascii(value), problem)


@contextlib.contextmanager
def disabled(off: bool = True) -> Iterator[None]:
    """Within the block (and this context), no table is read from or written to disk."""
    token = _ENABLED.set(not off)
    try:
        yield
    finally:
        _ENABLED.reset(token)


@contextlib.contextmanager
def using(path: str | os.PathLike[str]) -> Iterator[None]:
    """Within the block, the cache folder is ``path`` (tests, benchmarks)."""
    token = _FOLDER.set(os.fspath(path))
    try:
        yield
    finally:
        _FOLDER.reset(token)


def max_bytes() -> int:
    """The size cap in bytes: ``$HANOI_ASP_CACHE_MAX_MIB``, a number of MiB from 0 to
    2^43 (2^63 bytes; a fraction is fine); anything else (``nan``, ``inf``, ``1e400``,
    ``-3``, ``abc``, empty) is warned about and the default."""
    raw = os.environ.get("HANOI_ASP_CACHE_MAX_MIB")
    if raw is None:
        return DEFAULT_MAX_MIB << 20
    try:
        size = float(raw) * (1 << 20)
    except ValueError:
        size = math.nan
    if 0 <= size <= 1 << 63:  # False for nan
        return int(size)
    _warn(
        "HANOI_ASP_CACHE_MAX_MIB",
        raw,
        f"is not a size in MiB (a number from 0 to 2^43): the default, {DEFAULT_MAX_MIB}, is used",
    )
    return DEFAULT_MAX_MIB << 20
