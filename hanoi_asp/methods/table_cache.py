"""Pattern tables kept on disk, per user, so a second solve, a batch or a web hint
reads a table instead of building it again.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder, using(folder):
...     store("example", b"\\x00\\x01\\x02", 1, seconds=0.5)
...     found = load("example")
>>> bytes(found.payload), found.width, found.seconds
(b'\\x00\\x01\\x02', 1, 0.5)

Where it is, whether it is on and its size cap: :mod:`.table_cache_settings`.
Clearing it is deleting the folder.

A table is a file named by a hash of its *key* (what it is a table of: pegs, the goal
pattern of its disks, the move graph, the format).  It is never trusted: its header
holds the key itself, the payload's length, the seconds its build took, and a CRC-32
of the key, the seconds and the payload; a file that fails any check (torn by a crash,
truncated, corrupted, another format) reads as missing, so the table is built again
and the file replaced.  Writers write a temporary file in the same folder and rename
it into place (atomic on POSIX), so concurrent writers each leave a whole file and
readers see a whole file or none.  A reader copies the file into memory with one read
(not a memory map: a map of a file that another process truncates kills the reader with
SIGBUS, and Python cannot catch that); only a regular file is read, so a FIFO or a link
to a device in the folder never blocks a solve.  The folder is kept under
``$HANOI_ASP_CACHE_MAX_MIB`` (default :data:`.DEFAULT_MAX_MIB`), the least recently
used tables (by mtime; a read touches it) deleted first; only the cache's own files
(its names, its header) are ever deleted or counted.  Nothing here may fail a solve:
an unwritable folder, a full disk or a vanished file is the same as no cache.  (Out of
memory under a cap is the caller's ``MemoryError``, as it is for a table built in
memory.)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import struct
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from hanoi_asp.methods.table_cache_settings import (
    DEFAULT_MAX_MIB,
    disabled,
    folder,
    max_bytes,
    using,
)

__all__ = [  # the settings live in table_cache_settings; these names stay importable here
    "DEFAULT_MAX_MIB",
    "Stored",
    "disabled",
    "folder",
    "holds",
    "load",
    "max_bytes",
    "store",
    "trim",
    "using",
]

FORMAT = 2
"""Bumped whenever the way tables are built or laid out changes: old files then read
as missing.  2: the build's seconds in the header, the payload aligned."""

MAGIC = b"HANOIPDB"
HEADER = struct.Struct("<8sIIIQdI")
"""magic, format, bytes per entry, key length, payload length, seconds the build took,
CRC-32 of key, seconds and payload; then the key, zeros up to :data:`ALIGN`, the
payload."""
ALIGN = 8
"""The payload starts at a multiple of this (two-byte entries read aligned)."""

SUFFIX = ".pdb"
PARTIAL = ".part"
"""A table being written; one left by a process that died is deleted after
:data:`STALE_SECONDS`."""
STALE_SECONDS = 3600.0

TABLE_NAME = re.compile(r"[0-9a-f]{32}\.pdb")
"""The names the cache gives its tables (see :func:`_path`); no other file is counted
or deleted."""
PARTIAL_NAME = re.compile(r"\.(?:table-[a-z0-9_]+|[a-z0-9_]{8})\.part")
"""The names of its temporary files (``.table-`` and :func:`tempfile.mkstemp`'s eight
characters; before format 2's second release, without the ``table-``)."""


def _path(base: Path, key: str) -> Path:
    """The file for ``key`` in this :data:`FORMAT`: another format's file for the same
    key has another name, so :func:`holds` never counts it (it ages out of the cap)."""
    name = hashlib.blake2b(f"{FORMAT} {key}".encode(), digest_size=16).hexdigest()
    return base / (name + SUFFIX)


def holds(key: str) -> bool:
    """Whether a file for ``key`` is there (not checked: :func:`load` checks it)."""
    base = folder()
    return base is not None and _is_regular(_path(base, key))


def _is_regular(path: Path) -> bool:
    """A regular file itself, not a link, FIFO, device or folder (never opened)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:  # missing, a name too long, a folder in the way: not held
        return False


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[int | None]:
    """A descriptor of ``path`` if it is a regular file, else None.  A FIFO, a device or
    a link (to anything) is never opened, and the open cannot block: checked before
    (``lstat``), opened without following links and without waiting, checked again on
    the descriptor (the name may have been swapped in between)."""
    if not _is_regular(path):
        yield None
        return
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        yield None
        return
    try:
        yield descriptor if stat.S_ISREG(os.fstat(descriptor).st_mode) else None
    finally:
        os.close(descriptor)


class Stored(NamedTuple):
    """A table read back: its payload (a read-only view of the copy read), its bytes per
    entry, and the seconds its build took when it was stored."""

    payload: memoryview
    width: int
    seconds: float


class _Damaged(Exception):
    """A file of the cache's that fails a check: deleted, built again."""


def load(key: str) -> Stored | None:
    """What is stored under ``key``, or None: no cache, no file (or not a regular one),
    or a file that fails a check (then it is deleted, if it is the cache's own)."""
    base = folder()
    if base is None:
        return None
    path = _path(base, key)
    try:
        with _opened(path) as descriptor:
            if descriptor is None:
                return None
            found = _read(descriptor, key.encode())
            with contextlib.suppress(OSError):
                os.utime(descriptor)  # recently used: evicted last
            return found
    except _Damaged:
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    except OSError:  # vanished, unreadable: as if missing
        return None


def _read(descriptor: int, key: bytes) -> Stored | None:
    """The table in the open file, checked; None (kept) if it is not the cache's file;
    :class:`_Damaged` if it is and fails a check."""
    head = os.pread(descriptor, HEADER.size, 0)
    if not MAGIC.startswith(head[: len(MAGIC)]):
        return None  # not a file of the cache's: never deleted
    if len(head) != HEADER.size:
        raise _Damaged("torn header")
    magic, version, width, key_length, length, seconds, crc = HEADER.unpack(head)
    if magic != MAGIC or version != FORMAT or width not in (1, 2):
        raise _Damaged("another format")
    start = _payload_start(key_length)
    if os.fstat(descriptor).st_size != start + length:
        raise _Damaged("wrong length")  # a longer file is wrong too
    stored_key = os.pread(descriptor, key_length, HEADER.size)
    if stored_key != key:
        raise _Damaged("wrong key")
    payload = bytearray(length)  # under a memory cap: MemoryError, the caller's
    view = memoryview(payload)
    done = 0
    while done < length:  # one read (a regular file's reads are whole), unless truncated
        got = os.preadv(descriptor, [view[done:]], start + done)
        if got == 0:
            raise _Damaged("truncated while read")
        done += got
    if zlib.crc32(payload, _crc_of_header(stored_key, seconds)) != crc:
        raise _Damaged("checksum")
    return Stored(view.toreadonly(), width, seconds)


def _payload_start(key_length: int) -> int:
    return -(-(HEADER.size + key_length) // ALIGN) * ALIGN


def _crc_of_header(key: bytes, seconds: float) -> int:
    return zlib.crc32(struct.pack("<d", seconds), zlib.crc32(key))


def store(key: str, payload: bytes, width: int, seconds: float = 0.0) -> None:
    """Keep ``payload`` (``width`` bytes per entry, built in ``seconds``) under ``key``:
    written whole to a temporary file, renamed into place, then the folder trimmed to
    its cap."""
    base = folder()
    if base is None:
        return
    encoded = key.encode()
    crc = zlib.crc32(payload, _crc_of_header(encoded, seconds))
    head = HEADER.pack(MAGIC, FORMAT, width, len(encoded), len(payload), seconds, crc)
    padding = bytes(_payload_start(len(encoded)) - HEADER.size - len(encoded))
    try:
        base.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=base, prefix=".table-", suffix=PARTIAL)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(head)
                out.write(encoded)
                out.write(padding)
                out.write(payload)
            os.replace(temporary, _path(base, key))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        trim(base, keep=_path(base, key))
    except OSError:
        return


def trim(base: Path, keep: Path | None = None) -> None:
    """Delete the least recently used tables (oldest mtime first) until the folder's
    tables fit :func:`max_bytes`; ``keep`` (the one just written) stays.  Temporary
    files older than :data:`STALE_SECONDS` go too.  Only the cache's own files count and
    go (:func:`_own`): a user's file in the folder is never deleted."""
    cap = max_bytes()
    stale = time.time() - STALE_SECONDS
    tables: list[tuple[float, int, Path]] = []
    with contextlib.suppress(OSError), os.scandir(base) as entries:
        for entry in entries:
            path = Path(entry.path)
            if PARTIAL_NAME.fullmatch(entry.name):
                info = _own(path)
                if info is not None and info.st_mtime < stale:
                    with contextlib.suppress(OSError):
                        path.unlink()
            elif TABLE_NAME.fullmatch(entry.name):
                info = _own(path)
                if info is not None:
                    tables.append((info.st_mtime, info.st_size, path))
    total = sum(size for _, size, _ in tables)
    for _, size, path in sorted(tables):
        if total <= cap:
            break
        if path == keep:
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            total -= size


def _own(path: Path) -> os.stat_result | None:
    """The file's status if it is the cache's own: a regular file that starts with
    :data:`MAGIC` (or is shorter and starts as it does: torn before its header was
    written, holding nothing of anyone's); None for anything else."""
    with contextlib.suppress(OSError), _opened(path) as descriptor:
        if descriptor is not None and MAGIC.startswith(os.pread(descriptor, len(MAGIC), 0)):
            return os.fstat(descriptor)
    return None
