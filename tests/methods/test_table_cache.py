"""The on-disk cache of pattern tables: a table read back equals a fresh build; a torn,
truncated or corrupted file is detected and rebuilt, never trusted; two writers at once
leave a whole file; ``--no-cache`` writes nothing; the folder keeps to its cap.

Every test uses its own folder (``tmp_path``); the suite's conftest points the cache
at a temporary folder too, so no test writes to the user's ~/.cache.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from support.cli import RunCli

from hanoi_asp.methods import patterns, table_cache
from hanoi_asp.methods.patterns import UNSEEN, database

PEGS, ENDS = 4, [[3], [0, 1], [2], [1], [0], [3], [2], [1]]
"""8 disks on 4 pegs (65,536 patterns: the smallest table kept), disk 2 may end on two
pegs."""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("HANOI_ASP_NO_CACHE", raising=False)
    return tmp_path


def _tables(folder: Path) -> list[Path]:
    return sorted(folder.glob("*" + table_cache.SUFFIX))


def _fresh() -> list[int]:
    return [int(v) for v in patterns.distances_among(PEGS, ENDS, None)]


def test_a_table_read_back_equals_a_fresh_build(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _fresh()
    built, nothing_saved = patterns.cached_distances(PEGS, ENDS, None)
    assert len(_tables(folder)) == 1 and nothing_saved == 0
    monkeypatch.setattr(database, "distances_among", _never_built)
    read, saved = patterns.cached_distances(PEGS, ENDS, None)
    assert isinstance(read, memoryview) and read.readonly  # the mapped file, not a copy
    assert list(read) == list(built) == expected
    stored = table_cache.load(_key())
    assert stored is not None and saved == stored.seconds > 0  # the build's time, kept


def test_two_byte_tables_read_back_aligned(folder: Path) -> None:
    """Distances past 255 (a move graph that leaves patterns unreachable: UNSEEN) take
    two bytes; read back, they are a view of the file cast to ``'H'``, on an aligned
    offset, equal to the fresh build, and numpy reads them without a copy."""
    from hanoi_asp.methods.state_arrays import _as_array

    one_way = frozenset({(0, 1), (1, 2), (2, 3)})  # no disk returns to peg 0
    built, _ = patterns.cached_distances(PEGS, ENDS, one_way)
    read, _ = patterns.cached_distances(PEGS, ENDS, one_way)
    assert list(read) == list(built)
    assert isinstance(read, memoryview) and read.format == "H" and max(read) == UNSEEN
    assert (table_cache.HEADER.size + len(_key(one_way))) % 8  # the key alone misaligns
    array = _as_array(read)
    assert array.dtype == np.uint16 and list(array) == list(built)


def _never_built(*_: object) -> None:
    raise AssertionError("built again although the cache holds the table")


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "empty", "longer"])
def test_a_damaged_file_is_detected_and_rebuilt(folder: Path, damage: str) -> None:
    patterns.cached_distances(PEGS, ENDS, None)
    (path,) = _tables(folder)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0x01  # one distance off by one: a wrong, plausible table
    elif damage == "truncate":
        data = data[: len(data) - 100]
    elif damage == "header":
        data[9] ^= 0xFF  # the format number
    elif damage == "empty":
        data = bytearray()
    else:
        data += b"\x00"
    path.write_bytes(bytes(data))
    assert table_cache.load(_key()) is None  # not trusted
    again = patterns.cached_distances(PEGS, ENDS, None)
    assert list(again[0]) == _fresh()
    assert table_cache.load(_key()) is not None  # rebuilt and stored whole


def _key(edges: frozenset[tuple[int, int]] | None = None) -> str:
    """The key :func:`patterns.cached_distances` uses for the test's table."""
    return database.table_key(PEGS, ENDS, edges)


WRITER = """
import sys
from hanoi_asp.methods import table_cache
payload = bytes([int(sys.argv[1])]) * 4_000_000
for _ in range(15):
    table_cache.store("contended", payload, 1)
"""


def test_concurrent_writers_leave_a_whole_file(folder: Path) -> None:
    """Two processes write the same key 15 times each (4 MB files) at once: the file
    left is one writer's, whole, and no temporary file remains."""
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(byte)]) for byte in (7, 9)]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    found = table_cache.load("contended")
    assert found is not None
    payload, width, _ = found
    assert width == 1 and len(payload) == 4_000_000 and len(set(payload)) == 1
    assert payload[0] in (7, 9)
    assert not list(folder.glob("*" + table_cache.PARTIAL))


def test_no_cache_reads_and_writes_nothing(folder: Path, run_cli: RunCli, tmp_path: Path) -> None:
    """``--no-cache`` on a puzzle whose tables are large enough to keep: the folder
    stays empty; the same solve without it fills it; the API's switch and the
    environment's do the same."""
    instance = tmp_path / "nine.lp"
    instance.write_text(
        "peg(a;b;c;d). disk(1..9). init_on((1;5;9),a). init_on((2;6),b). "
        "init_on((3;7),c). init_on((4;8),d). goal_on(1..9,d).\n"
    )
    database._CACHE.clear()
    code, out, _ = run_cli("solve", str(instance), "--json", "--no-cache")
    assert code == 0 and json.loads(out)["result"] == "OPTIMUM FOUND"
    assert not _tables(folder)
    with table_cache.disabled():
        patterns.cached_distances(PEGS, ENDS, None)
    assert not _tables(folder)
    database._CACHE.clear()  # the tables the first solve built in memory
    code, out, _ = run_cli("solve", str(instance), "--json")
    assert code == 0 and _tables(folder)


def test_the_environment_turns_the_cache_off(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HANOI_ASP_NO_CACHE", "1")
    assert table_cache.folder() is None
    patterns.cached_distances(PEGS, ENDS, None)
    assert not _tables(folder)


def test_the_least_recently_used_tables_go_first(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cap of 3.5 MB and three 1 MB tables, the first read after the second was
    written: the second (oldest use) is deleted when the fourth comes."""
    import os

    monkeypatch.setenv("HANOI_ASP_CACHE_MAX_MIB", str(3.5 / 1.048576))
    megabyte = b"\x01" * 1_000_000
    for number, key in enumerate(("first", "second", "third")):
        table_cache.store(key, megabyte, 1)
        path = table_cache._path(folder, key)
        os.utime(path, (1000 + number, 1000 + number))
    assert table_cache.load("first") is not None  # touched: now the newest
    table_cache.store("fourth", megabyte, 1)
    kept = {key for key in ("first", "second", "third", "fourth") if table_cache.load(key)}
    assert kept == {"first", "third", "fourth"}


def test_an_unwritable_folder_is_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder that cannot be made (a file is in its way) fails nothing."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", str(blocker / "cache"))
    assert list(patterns.cached_distances(PEGS, ENDS, None)[0]) == _fresh()


def test_solve_batch_and_explain_take_no_cache() -> None:
    from hanoi_asp.cli.parser import build_parser

    for command in ("solve", "batch", "explain"):
        assert build_parser().parse_args([command, "x.lp", "--no-cache"]).no_cache
        assert not build_parser().parse_args([command, "x.lp"]).no_cache


OUT_OF_ADDRESS_SPACE = """
import resource, sys
from hanoi_asp.methods import table_cache
pages = int(open("/proc/self/statm").read().split()[0])
limit = pages * resource.getpagesize() + (1 << 20)  # 1 MiB left: no room for 8 MB
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
try:
    table_cache.load("large")
except MemoryError:
    sys.exit(3)
sys.exit(0)
"""


def test_a_table_that_does_not_fit_the_memory_cap_is_memory_error_and_kept(
    folder: Path,
) -> None:
    """Under a memory cap (a batch's or the web app's), mapping a table may find no
    address space: that is the caller's ``MemoryError``, as a copy would have been, and
    the file, whole, stays for the next reader."""
    table_cache.store("large", b"\\x05" * 8_000_000, 1)
    (path,) = _tables(folder)
    child = subprocess.run([sys.executable, "-c", OUT_OF_ADDRESS_SPACE], timeout=60)
    assert child.returncode == 3
    assert path.is_file() and table_cache.load("large") is not None


def test_another_formats_file_is_not_counted_as_held(folder: Path) -> None:
    """A file of format 1 (named by a hash of the key alone) is not this format's:
    ``holds``, which prices a table as free, does not count it, and ``load`` reads
    nothing from it (an upgrade never takes stale tables for built ones)."""
    import hashlib

    old_name = hashlib.blake2b(b"key", digest_size=16).hexdigest() + table_cache.SUFFIX
    (folder / old_name).write_bytes(b"HANOIPDB" + bytes(64))
    assert not table_cache.holds("key") and table_cache.load("key") is None
    table_cache.store("key", b"\x01\x02", 1)
    assert table_cache.holds("key") and table_cache.load("key") is not None
