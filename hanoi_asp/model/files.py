"""Reading a file a user named: only a regular file, never more than a cap.

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
...     _ = f.write("peg(a).")
>>> read_user_file(f.name, what="instance")
'peg(a).'
>>> os.unlink(f.name)

A path can name what is not a file: a FIFO (reading blocks until someone writes, for
ever), a device (``/dev/zero`` never ends), a folder.  The file is opened without
blocking, checked to be a regular file on the open descriptor (so a swap after a check
cannot fool it), and read up to the cap plus one byte, so a file that grows while it is
read is still refused.
"""

from __future__ import annotations

import os
import stat
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from hanoi_asp.model.errors import InputError

MAX_FILE_BYTES = 10 * 1024 * 1024
"""Largest instance or encoding file read (the largest shipped one is under 40 KB)."""


def read_user_file(path: str, *, what: str, cap: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (a byte-order mark dropped); an
    :class:`InputError` naming ``path`` for anything else: missing, a folder, a FIFO or
    device, over ``cap`` bytes, not UTF-8."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InputError(f"cannot read {what}: {error.strerror or error}", path=path) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"is a folder, not an {what} file", path=path)
        if not stat.S_ISREG(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
            raise InputError(f"is {kind}, not a regular file: refused", path=path)
        with os.fdopen(os.dup(fd), "rb") as file:
            data = file.read(cap + 1)
    except OSError as error:
        raise InputError(f"cannot read {what}: {error.strerror or error}", path=path) from None
    finally:
        os.close(fd)
    if len(data) > cap:
        raise InputError(f"file is larger than {cap} bytes", path=path)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is no text
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", path=path) from None


def shipped(inside: str, checkout: str) -> Traversable:
    """Data shipped in the wheel as ``hanoi_asp/<inside>``; in an editable checkout,
    the top-level ``<checkout>`` it is mapped from (see pyproject's force-include)."""
    packaged = resources.files("hanoi_asp").joinpath(inside)
    if packaged.is_file() or packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / checkout
