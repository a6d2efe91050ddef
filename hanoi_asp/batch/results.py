"""The results file of a batch: one JSON object per line, each written whole, and a lock.

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "r.jsonl"
>>> with ResultsFile.open(path, resume=False, force=False) as sink:
...     sink.append({"instance": "a.lp", "result": "OPTIMUM FOUND"})
>>> with path.open("a") as torn:  # a batch killed mid-row
...     _ = torn.write('{"instance": "b.lp", "res')
>>> with ResultsFile.open(path, resume=True, force=False) as sink:
...     print(sink.notes[0], [row["instance"] for row in sink.rows()])
cut a torn last line (25 bytes) left by a batch killed while writing it ['a.lp']

Why each rule: a row is one ``os.write`` of one line on a file opened for appending,
so a batch killed at any moment leaves whole rows and at most one torn last line,
which ``--resume`` cuts off (saying so) before it appends; an exclusive ``flock``
held while a batch runs makes a second batch on the same file refuse instead of
interleaving its rows; and a file with results in it is replaced only with
``--force``.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hanoi_asp.batch.row import BatchRow, NotARow, as_row, row_key
from hanoi_asp.model.errors import InputError


class ResultsFile:
    """An open, locked results file; make one with :meth:`open`."""

    def __init__(self, path: Path, fd: int, notes: list[str], fresh: bool = False) -> None:
        self.path = path
        self.fd = fd
        self.notes = notes
        """What opening it did to the file, in words (e.g. a torn line cut off)."""
        self.fresh = fresh
        """A new batch's file, not emptied yet (:meth:`begin`)."""

    @classmethod
    @contextmanager
    def open(cls, path: Path, *, resume: bool, force: bool) -> Iterator[ResultsFile]:
        """Lock ``path`` for this batch: kept and repaired with ``resume``, emptied with
        ``force`` (once the batch has started: :meth:`begin`), and refused if it already
        holds results and neither is given."""
        if not resume and not force and path.exists() and path.stat().st_size > 0:
            raise InputError(
                "already holds results: --resume continues it, --force replaces it",
                path=str(path),
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise InputError(
                    "another batch is writing this results file (wait for it, or choose "
                    "another --out)",
                    path=str(path),
                ) from None
            notes: list[str] = []
            if resume:
                torn = _torn_tail(path)
                if torn:
                    os.ftruncate(fd, path.stat().st_size - torn)
                    notes.append(
                        f"cut a torn last line ({torn} bytes) left by a batch killed "
                        "while writing it"
                    )
            sink = cls(path, fd, notes, fresh=not resume)
            if resume:
                sink.repair()
            yield sink
        finally:
            os.close(fd)  # also releases the lock

    def rows(self) -> list[BatchRow]:
        """Every row in the file, in order (none in a new batch's)."""
        return [] if self.fresh else read_rows(self.path)

    def begin(self) -> None:
        """Empty a new batch's file: called once the batch's workers have started, so
        a batch that cannot start them (no ``sbatch``, no scheduler) leaves the file as
        it was."""
        if self.fresh:
            os.ftruncate(self.fd, 0)
            self.fresh = False

    def append(self, row: BatchRow) -> None:
        """Write ``row`` as one line, whole, in one system call where the kernel allows."""
        self.begin()
        data = (json.dumps(row) + "\n").encode("utf-8")
        while data:
            written = os.write(self.fd, data)
            data = data[written:]

    def drop(self, keys: set[tuple[str, str]]) -> None:
        """Rewrite the file without the rows of these (instance, configuration) keys
        (to run them again)."""
        kept = [row for row in self.rows() if row_key(row) not in keys]
        self._rewrite(kept)

    def repair(self) -> None:
        """Drop the lines that are no rows (a corrupt line in the middle, not only a
        torn last one), each said in :attr:`notes` with its line number."""
        rows, bad = read_lines(self.path)
        if bad:
            for number, why in bad:
                self.notes.append(f"line {number}: {why}: dropped (its instance runs again)")
            self._rewrite(rows)

    def _rewrite(self, rows: list[BatchRow]) -> None:
        os.ftruncate(self.fd, 0)
        for row in rows:
            self.append(row)


def read_rows(path: Path) -> list[BatchRow]:
    """The rows of a results file (none if it does not exist); a torn last line, or
    any line that is not a row, is skipped (:func:`read_lines` says which)."""
    return read_lines(path)[0]


def read_lines(path: Path) -> tuple[list[BatchRow], list[tuple[int, str]]]:
    """The rows of a results file, and the line number and fault of every line that is
    no row."""
    if not path.exists():
        return [], []
    rows: list[BatchRow] = []
    bad: list[tuple[int, str]] = []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            rows.append(row_from_line(line))
        except BadLine as error:
            bad.append((number, error.why))
    return rows, bad


MAX_DEPTH = 64
"""Most levels of nesting a row may have: hanoi-asp's own rows have 4.  A deeper line
(a damaged file, or one made to hurt) is no row: read as one, it would end in a
RecursionError wherever it is written again or shown."""


class BadLine(ValueError):
    """A line of a results file that is no row: ``why`` in a few words (``--resume``'s
    note), the message in full (``report``'s error)."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


def row_from_line(line: str) -> BatchRow:
    """The row one line of a results file holds, or :class:`BadLine`: the one reader
    of rows for ``--resume`` and ``report``."""
    deep = f"nested more than {MAX_DEPTH} levels deep"
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadLine("not JSON", f"not a JSON line: {error.msg}") from None
    except RecursionError:  # json's own limit, far past MAX_DEPTH
        raise BadLine(deep, f"not a result row ({deep})") from None
    if line.count("[") + line.count("{") > MAX_DEPTH and not _within(value, MAX_DEPTH):
        raise BadLine(deep, f"not a result row ({deep})")
    try:
        return as_row(value)
    except NotARow as error:
        raise BadLine("not a result row", f"not a result row ({error})") from None


def _within(value: object, depth: int) -> bool:
    """Whether ``value`` nests at most ``depth`` levels of lists and objects (without
    recursion, which is what is in question)."""
    todo: list[tuple[object, int]] = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if level > depth:
            return False
        inside = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        todo.extend((child, level + 1) for child in inside if isinstance(child, dict | list))
    return True


def _torn_tail(path: Path) -> int:
    """Bytes after the last newline: a row the writer did not finish."""
    size = path.stat().st_size
    if size == 0:
        return 0
    with path.open("rb") as handle:
        data = handle.read()
    return size - (data.rfind(b"\n") + 1)
