"""The on-disk cache of pattern tables: a table read back equals a fresh build; a torn,
truncated or corrupted file is detected and rebuilt, never trusted; two writers at once
leave a whole file; ``--no-cache`` writes nothing; the folder keeps to its cap.  And what
a hostile user tries: settings that make no sense, a FIFO or a link where a table
should be, a table truncated while a solve holds it, files of their own in the folder.

Every test uses its own folder (``tmp_path``); the suite's conftest points the cache
at a temporary folder too, so no test writes to the user's ~/.cache.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from support.cli import RunCli

from hanoi_asp.methods import patterns, table_cache, table_cache_settings
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
    assert isinstance(read, memoryview) and read.readonly  # a view no one can write to
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


# --- hostile settings and files (issue 45) -------------------------------------------


@pytest.fixture
def unwarned(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process has warned about no setting yet (each is warned about once)."""
    monkeypatch.setattr(table_cache_settings, "_WARNED", set())


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == table_cache_settings.__name__]


@pytest.mark.usefixtures("unwarned")
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "1e308", "-3", "abc", "", "0x10"])
def test_a_bad_size_cap_is_one_warning_and_the_default(
    folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, value: str
) -> None:
    """``nan``, ``inf`` or ``1e400`` ended every solve that built a table in a traceback
    (exit 1, the code of a proven UNSAT); now: the default cap, and one line saying so,
    however often the cap is read."""
    monkeypatch.setenv("HANOI_ASP_CACHE_MAX_MIB", value)
    assert table_cache.max_bytes() == table_cache.DEFAULT_MAX_MIB * 2**20
    table_cache.store("one", b"\x01" * 1000, 1)
    table_cache.store("two", b"\x02" * 1000, 1)
    assert table_cache.load("one") is not None and table_cache.load("two") is not None
    (said,) = _warnings(caplog)
    assert said.startswith("hanoi-asp: warning: HANOI_ASP_CACHE_MAX_MIB=")
    assert repr(value) in said and "1024" in said and "\n" not in said


@pytest.mark.parametrize(("value", "cap"), [("0", 0), ("2.5", 5 * 2**19), (" 7 ", 7 * 2**20)])
def test_a_good_size_cap_is_taken_silently(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, value: str, cap: int
) -> None:
    monkeypatch.setenv("HANOI_ASP_CACHE_MAX_MIB", value)
    assert table_cache.max_bytes() == cap and not _warnings(caplog)


@pytest.mark.usefixtures("unwarned")
@pytest.mark.parametrize(
    ("value", "off", "warned"),
    [
        ("", False, False),
        ("0", False, False),
        ("1", True, False),
        ("yes", True, False),
        ("false", True, True),
        ("off", True, True),
        ("2", True, True),
    ],
)
def test_the_off_switch_is_as_documented_and_says_when_it_is_ambiguous(
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    value: str,
    off: bool,
    warned: bool,
) -> None:
    """Anything but empty or ``0`` turns the cache off (documented); ``false`` does too,
    which its writer may not mean, so it is said once."""
    monkeypatch.setenv("HANOI_ASP_NO_CACHE", value)
    assert (table_cache.folder() is None) == off
    assert (table_cache.folder() is None) == off
    assert len(_warnings(caplog)) == int(warned)


@pytest.mark.usefixtures("unwarned")
def test_a_relative_xdg_cache_home_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The XDG specification: a relative path in its variables is invalid and ignored."""
    monkeypatch.delenv("HANOI_ASP_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert table_cache.folder() == tmp_path / ".cache" / "hanoi-asp"
    (said,) = _warnings(caplog)
    assert "XDG_CACHE_HOME='relative/cache'" in said
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert table_cache.folder() == tmp_path / "xdg" / "hanoi-asp"


def test_a_name_too_long_is_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """``holds`` asked the file system about a name past its limit and raised."""
    monkeypatch.setenv("HANOI_ASP_CACHE_DIR", "/" + "x" * 5000)
    assert not table_cache.holds("key") and table_cache.load("key") is None
    table_cache.store("key", b"\x01", 1)  # nothing written, nothing raised


NINE = (
    "peg(a;b;c;d). disk(1..9). init_on((1;5;9),a). init_on((2;6),b). "
    "init_on((3;7),c). init_on((4;8),d). goal_on(1..9,d).\n"
)
"""Optimum 31; its tables are large enough to be kept (a run of 8 disks)."""


def _hanoi(*argv: str, cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``hanoi-asp`` in a process of its own with the cache folder ``cache``; 60 s at
    most (a FIFO opened for reading blocked until killed)."""
    environment = {**os.environ, "HANOI_ASP_CACHE_DIR": str(cache), "NO_COLOR": "1", **env}
    return subprocess.run(
        [sys.executable, "-m", "hanoi_asp", *argv],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def nine(tmp_path: Path) -> Path:
    path = tmp_path / "nine.lp"
    path.write_text(NINE)
    return path


def _solved_optimally(done: subprocess.CompletedProcess[str]) -> bool:
    data = json.loads(done.stdout)
    return done.returncode == 0 and data["result"] == "OPTIMUM FOUND" and data["length"] == 31


@pytest.mark.parametrize("value", ["nan", "inf", "1e400"])
def test_a_solve_and_a_batch_under_a_bad_cap_answer_with_one_warning(
    tmp_path: Path, nine: Path, value: str
) -> None:
    """The command line: the optimum, exit 0, one line on stderr; a batch: no ERROR row
    (each worker warns once at most)."""
    done = _hanoi(
        "solve", str(nine), "--json", cache=tmp_path / "c1", HANOI_ASP_CACHE_MAX_MIB=value
    )
    assert _solved_optimally(done)
    assert done.stderr.splitlines() == [
        f"hanoi-asp: warning: HANOI_ASP_CACHE_MAX_MIB='{value}' is not a size in MiB "
        "(a number from 0 to 2^43): the default, 1024, is used"
    ]
    folder = tmp_path / "in"
    folder.mkdir()
    for number in range(3):
        (folder / f"nine-{number}.lp").write_text(NINE)
    out = tmp_path / "rows.jsonl"
    batch = _hanoi(
        "batch",
        str(folder),
        "--out",
        str(out),
        cache=tmp_path / "c2",
        HANOI_ASP_CACHE_MAX_MIB=value,
    )
    assert batch.returncode == 0, batch.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["result"] for r in rows] == ["OPTIMUM FOUND"] * 3
    assert "Traceback" not in batch.stderr
    assert 1 <= batch.stderr.count("hanoi-asp: warning: HANOI_ASP_CACHE_MAX_MIB") <= 3


def _warm(nine: Path, cache: Path) -> list[Path]:
    """The tables a solve of ``nine`` keeps, made in ``cache``."""
    assert _solved_optimally(_hanoi("solve", str(nine), "--json", cache=cache))
    kept = _tables(cache)
    assert kept
    return kept


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "link to /dev/zero", "folder"])
def test_a_table_that_is_no_regular_file_is_skipped(tmp_path: Path, nine: Path, kind: str) -> None:
    """A FIFO where a table should be (or a link to one) blocked the solve for ever
    (``--timeout 10`` did not help: the open waited for a writer).  Now it reads as
    missing, the table is built, and the name holds it again; what a link pointed at is
    untouched."""
    cache = tmp_path / "cache"
    for path in _warm(nine, cache):
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "link to a fifo":
            os.mkfifo(tmp_path / "pipe")
            path.symlink_to(tmp_path / "pipe")
        elif kind == "link to /dev/zero":
            path.symlink_to("/dev/zero")
        else:
            path.mkdir()
    done = _hanoi("solve", str(nine), "--json", "--timeout", "10", cache=cache)
    assert _solved_optimally(done) and done.stderr == ""
    if kind.startswith("link to a fifo"):
        assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode)


def test_not_regular_files_are_neither_held_nor_read(folder: Path) -> None:
    """The same in this process, each kind at the table's own name."""
    table_cache.store("key", b"\x01\x02", 1)
    (path,) = _tables(folder)
    os.mkfifo(folder / "pipe")
    makers: list[Callable[[], None]] = [
        lambda: os.mkfifo(path),
        lambda: path.symlink_to(folder / "pipe"),
        lambda: path.symlink_to("/dev/zero"),
        path.mkdir,
    ]
    for make in makers:
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
        make()
        assert not table_cache.holds("key") and table_cache.load("key") is None
        assert os.path.lexists(path)  # not a file of the cache's: left as it is


HOLDER = """
import sys
from hanoi_asp.methods import table_cache
found = table_cache.load("held")
assert found is not None
print("loaded", flush=True)
sys.stdin.readline()  # the file is truncated meanwhile
print(sum(found.payload[::4096]), flush=True)
"""


def test_a_table_truncated_while_held_does_not_kill_its_reader(folder: Path) -> None:
    """A reader holds a 16 MiB table; another process truncates the file to 100 bytes;
    the reader then goes through every page of it.  With the table memory-mapped, that
    was a bus error (exit 135, no output); now it reads the whole table it checked."""
    payload = bytes(range(256)) * (1 << 16)
    table_cache.store("held", payload, 1)
    (path,) = _tables(folder)
    reader = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "HANOI_ASP_CACHE_DIR": str(folder)},
    )
    assert reader.stdout is not None and reader.stdout.readline() == "loaded\n"
    os.truncate(path, 100)
    out, _ = reader.communicate("go\n", timeout=60)
    assert reader.returncode == 0
    assert int(out) == sum(payload[::4096])
    assert table_cache.load("held") is None and not path.exists()  # torn now: deleted


def test_a_table_truncated_while_read_reads_as_missing(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Truncated between the checks of its length and the read: missing, never a
    short table."""
    table_cache.store("torn", b"\x03" * 100_000, 1)
    (path,) = _tables(folder)
    read = os.preadv

    def truncating(descriptor: int, buffers: list[memoryview], offset: int) -> int:
        os.truncate(path, 200)
        return read(descriptor, buffers, offset)

    monkeypatch.setattr(os, "preadv", truncating)
    assert table_cache.load("torn") is None


def _aged(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_only_the_caches_own_files_are_deleted(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cap of 0 and files a day old: a user's ``*.pdb`` files (any name, even a
    table's name, without the cache's header), ``*.part`` files that are not the cache's
    temporary files (by name or by header), links and a FIFO stay; the cache's own old
    tables, its old temporary file and one torn before its header go; the table just
    written stays."""
    monkeypatch.setenv("HANOI_ASP_CACHE_MAX_MIB", "0")
    table_cache.store("old", b"\x01" * 1000, 1)
    (old_table,) = _tables(folder)
    foreign = {
        "notes.pdb": b"my protein database" * 1000,
        "0123456789abcdef0123456789abcdef.pdb": b"not a table" * 1000,
        "draft.part": b"half a download",
        ".abcdefgh.part": b"a user's hidden file",
        ".table-zzzzzzzz.part": b"looks like ours, is not",
    }
    for name, content in foreign.items():
        (folder / name).write_bytes(content)
    own_partial = folder / ".table-k2j4h5g6.part"
    own_partial.write_bytes(table_cache.MAGIC + b"\x00" * 100)
    torn_partial = folder / ".m0n1b2v3.part"  # the older naming, empty: died at once
    torn_partial.write_bytes(b"")
    fresh_partial = folder / ".table-q1w2e3r4.part"  # a writer at work
    fresh_partial.write_bytes(table_cache.MAGIC)
    (folder / "link.pdb").symlink_to(folder / "notes.pdb")
    (folder / ("f" * 32 + ".pdb")).symlink_to(folder / "notes.pdb")
    os.mkfifo(folder / ("e" * 32 + ".pdb"))
    for path in folder.iterdir():
        if not path.is_symlink() and path != fresh_partial:
            _aged(path, 86400)
    table_cache.store("new", b"\x02" * 1000, 1)
    assert not old_table.exists() and table_cache.load("new") is not None
    assert not own_partial.exists() and not torn_partial.exists() and fresh_partial.exists()
    for name, content in foreign.items():
        assert (folder / name).read_bytes() == content
    assert (folder / "link.pdb").is_symlink() and (folder / ("f" * 32 + ".pdb")).is_symlink()
    assert stat.S_ISFIFO((folder / ("e" * 32 + ".pdb")).lstat().st_mode)


def test_a_foreign_file_at_a_tables_name_is_read_as_missing_and_kept(folder: Path) -> None:
    """Not the cache's header: not read, not deleted by reading (a write of the table
    replaces it, as it replaces any file at its own name)."""
    table_cache.store("key", b"\x01", 1)
    (path,) = _tables(folder)
    path.write_bytes(b"someone else's data")
    assert table_cache.load("key") is None and path.read_bytes() == b"someone else's data"
