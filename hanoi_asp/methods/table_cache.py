"""Pattern tables kept on disk, per user, so a second solve, a batch or a web hint
reads a table instead of building it again.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder, using(folder):
...     store("example", b"\\x00\\x01\\x02", 1, seconds=0.5)
...     found = load("example")
>>> bytes(found.payload), found.width, found.seconds
(b'\\x00\\x01\\x02', 1, 0.5)

Where: ``$HANOI_ASP_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/hanoi-asp``, else
``~/.cache/hanoi-asp``.  Off: ``$HANOI_ASP_NO_CACHE`` set (to anything but ``0`` or
empty), ``hanoi-asp solve/batch/explain --no-cache``, or
``SolveOptions(table_cache=False)``.  Clearing it is deleting the folder.

A table is a file named by a hash of its *key* (what it is a table of: pegs, the goal
pattern of its disks, the move graph, the format).  It is never trusted: its header
holds the key itself, the payload's length, the seconds its build took, and a CRC-32
of the key, the seconds and the payload; a file that fails any check (torn by a crash,
truncated, corrupted, another format) reads as missing, so the table is built again
and the file replaced.  Writers write a temporary file in the same folder and rename
it into place (atomic on POSIX), so concurrent writers each leave a whole file and
readers see a whole file or none.  A file is never rewritten in place, only replaced
or deleted, so a reader maps it into memory (:mod:`mmap`) rather than copying it: the
pages are the operating system's file cache, shared by every process reading the
table (a batch's workers), and a 16 MiB table reads in the time its checksum takes.
The folder is kept under ``$HANOI_ASP_CACHE_MAX_MIB`` (default
:data:`DEFAULT_MAX_MIB`), the least recently used tables (by mtime; a read touches
it) deleted first.  Nothing here may fail a solve: an unwritable folder, a full disk
or a vanished file is the same as no cache.  (Out of memory under a cap is the caller's
``MemoryError``, as it is for a table built in memory.)
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import mmap
import os
import struct
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import NamedTuple

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

DEFAULT_MAX_MIB = 1024
"""The folder's size cap by default: the tables of a few dozen hard puzzles."""

SUFFIX = ".pdb"
PARTIAL = ".part"
"""A table being written; one left by a process that died is deleted after
:data:`STALE_SECONDS`."""
STALE_SECONDS = 3600.0

_ENABLED: ContextVar[bool] = ContextVar("table_cache_enabled", default=True)
_FOLDER: ContextVar[str | None] = ContextVar("table_cache_folder", default=None)


def folder() -> Path | None:
    """The cache folder in force, None when the cache is off."""
    if not _ENABLED.get() or os.environ.get("HANOI_ASP_NO_CACHE", "") not in ("", "0"):
        return None
    chosen = _FOLDER.get() or os.environ.get("HANOI_ASP_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hanoi-asp"


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
    """The size cap in bytes (``$HANOI_ASP_CACHE_MAX_MIB``; a bad value: the default)."""
    try:
        mib = float(os.environ.get("HANOI_ASP_CACHE_MAX_MIB", DEFAULT_MAX_MIB))
    except ValueError:
        mib = DEFAULT_MAX_MIB
    return int(max(mib, 0) * 1024 * 1024)


def _path(base: Path, key: str) -> Path:
    """The file for ``key`` in this :data:`FORMAT`: another format's file for the same
    key has another name, so :func:`holds` never counts it (it ages out of the cap)."""
    name = hashlib.blake2b(f"{FORMAT} {key}".encode(), digest_size=16).hexdigest()
    return base / (name + SUFFIX)


def holds(key: str) -> bool:
    """Whether a file for ``key`` is there (not checked: :func:`load` checks it)."""
    base = folder()
    return base is not None and _path(base, key).is_file()


class Stored(NamedTuple):
    """A table read back: its payload (a read-only view of the mapped file), its bytes
    per entry, and the seconds its build took when it was stored."""

    payload: memoryview
    width: int
    seconds: float


def load(key: str) -> Stored | None:
    """What is stored under ``key``, or None: no cache, no file, or a file that fails a
    check (then it is deleted)."""
    base = folder()
    if base is None:
        return None
    path = _path(base, key)
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEADER.size)
            if len(head) != HEADER.size:
                raise ValueError("torn header")
            magic, version, width, key_length, length, seconds, crc = HEADER.unpack(head)
            if magic != MAGIC or version != FORMAT or width not in (1, 2):
                raise ValueError("another format")
            stored_key = handle.read(key_length)
            start = _payload_start(key_length)
            if stored_key != key.encode() or os.fstat(handle.fileno()).st_size != start + length:
                raise ValueError("wrong key or length")  # a longer file is wrong too
            mapped = _mapped(handle.fileno())
            if mapped is None:
                return None  # the file may be whole: kept
        payload = memoryview(mapped)[start:]
        if zlib.crc32(payload, _crc_of_header(stored_key, seconds)) != crc:
            payload.release()
            mapped.close()
            raise ValueError("checksum")
    except FileNotFoundError:
        return None
    except (OSError, ValueError, struct.error):
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: evicted last
    return Stored(payload, width, seconds)


def _mapped(descriptor: int) -> mmap.mmap | None:
    """The whole file, mapped read-only; None if it cannot be mapped.  Out of address
    space (a batch's or the web app's memory cap) is :class:`MemoryError`, as a copy
    would have been: the caller's memory limit, not a damaged file."""
    try:
        return mmap.mmap(descriptor, 0, access=mmap.ACCESS_READ)
    except OSError as error:
        if error.errno == errno.ENOMEM:
            raise MemoryError("no address space left to map a pattern table") from error
        return None


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
        handle, temporary = tempfile.mkstemp(dir=base, prefix=".", suffix=PARTIAL)
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
    tables fit :func:`max_bytes`; ``keep`` (the one just written) stays."""
    cap = max_bytes()
    now = time.time()
    for path in base.glob("*" + PARTIAL):
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < now - STALE_SECONDS:
                path.unlink()
    files: list[tuple[float, int, Path]] = []
    for path in base.glob("*" + SUFFIX):
        with contextlib.suppress(OSError):
            info = path.stat()
            files.append((info.st_mtime, info.st_size, path))
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= cap:
            break
        if path == keep:
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            total -= size
