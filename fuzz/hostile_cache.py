"""What a hostile user does to the table cache (issue 45), each case a fresh ``hanoi-asp``
process on a puzzle whose tables are kept, counted:
``python fuzz/hostile_cache.py [--only SUBSTRING]``.

Settings that make no sense (``HANOI_ASP_CACHE_MAX_MIB=nan``, ...), FIFOs, links and
folders where a table should be, tables truncated while a solve holds them, and files of
the user's own in the folder under a cap of 0.  Each case must answer the optimum (31
moves; 58 on the hard one) with exit 0 within :data:`SECONDS`, with nothing on stderr
but at most one warning line per process (``hanoi-asp: warning: ...``), never a
traceback, and leave every file that is not the cache's as it was.  The tests in
``tests/methods/test_table_cache.py`` check one of each class on every change; this runs
them all, each in a process of its own, the way a user meets them.  (Truncation during
a solve is timed: A* reads its strong tables for about a second after the delay; with
the tables memory-mapped it was a bus error in 1 of 2 runs.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

NINE = (
    "peg(a;b;c;d). disk(1..9). init_on((1;5;9),a). init_on((2;6),b). "
    "init_on((3;7),c). init_on((4;8),d). goal_on(1..9,d).\n"
)
"""Optimum 31; its tables (a run of 8 disks on 4 pegs) are large enough to be kept."""
OPTIMUM = 31
HARD = Path(__file__).resolve().parent.parent / "instances" / "hard" / "4pegs-12disks-arbitrary.lp"
HARD_OPTIMUM = 58
SECONDS = 20.0
"""A solve here takes well under a second; a FIFO opened for reading blocked for ever."""
FOREIGN = {
    "notes.pdb": b"a user's protein database" * 1000,
    "0123456789abcdef0123456789abcdef.pdb": b"not a table, with a table's name" * 100,
    "download.part": b"half a download",
    ".abcdefgh.part": b"a user's hidden file, named like the cache's older temporary files",
    ".table-zzzzzzzz.part": b"named like the cache's temporary files, without its header",
}


@dataclass
class Case:
    name: str
    prepare: Callable[[Path], None]
    """Given the cache folder, warm (a solve has filled it) unless ``cold``."""
    env: dict[str, str]
    cold: bool = False
    during: Callable[[Path], None] | None = None
    """Done to the cache folder while the solve runs (after ``DURING_DELAY``)."""
    command: str = "solve"
    hard: bool = False
    """On :data:`HARD` (tables held for about a second) instead of :data:`NINE`."""


DURING_DELAY = 0.8


def tables(cache: Path) -> list[Path]:
    return sorted(p for p in cache.glob("*.pdb") if len(p.stem) == 32 and p.is_file())


def nothing(cache: Path) -> None:
    """Leave the folder as the warm solve left it."""


def replace_tables(make: Callable[[Path, Path], None]) -> Callable[[Path], None]:
    """Each table replaced by what ``make(path, cache)`` puts at its name."""

    def prepare(cache: Path) -> None:
        for path in tables(cache):
            path.unlink()
            make(path, cache)

    return prepare


def fifo(path: Path, cache: Path) -> None:
    os.mkfifo(path)


def link_to_fifo(path: Path, cache: Path) -> None:
    pipe = cache.parent / f"pipe-{path.stem}"
    os.mkfifo(pipe)
    path.symlink_to(pipe)


def link_to(target: str) -> Callable[[Path, Path], None]:
    return lambda path, cache: path.symlink_to(target)


def folder(path: Path, cache: Path) -> None:
    path.mkdir()


def foreign_files(cache: Path) -> None:
    cache.mkdir(exist_ok=True)
    for name, content in FOREIGN.items():
        (cache / name).write_bytes(content)
        then = time.time() - 86400
        os.utime(cache / name, (then, then))


def truncate_tables(cache: Path) -> None:
    for path in tables(cache):
        os.truncate(path, 100)


def setting(name: str, value: str) -> Case:
    return Case(f"{name}={value!r}", nothing, {name: value}, cold=True)


def cases() -> list[Case]:
    found = [
        setting("HANOI_ASP_CACHE_MAX_MIB", value)
        for value in ("nan", "inf", "-inf", "1e400", "1e308", "-3", "abc", "", "0x10", "1 2")
    ]
    found += [
        setting("HANOI_ASP_NO_CACHE", "false"),
        Case("XDG_CACHE_HOME relative", nothing, {"XDG_CACHE_HOME": "relative"}, cold=True),
        Case(
            "batch, HANOI_ASP_CACHE_MAX_MIB='nan'",
            nothing,
            {"HANOI_ASP_CACHE_MAX_MIB": "nan"},
            cold=True,
            command="batch",
        ),
        Case("a FIFO at a table's name", replace_tables(fifo), {}),
        Case("a link to a FIFO at a table's name", replace_tables(link_to_fifo), {}),
        Case("a link to /dev/zero at a table's name", replace_tables(link_to("/dev/zero")), {}),
        Case("a link to /dev/urandom", replace_tables(link_to("/dev/urandom")), {}),
        Case("a dangling link at a table's name", replace_tables(link_to("/nonexistent")), {}),
        Case("a folder at a table's name", replace_tables(folder), {}),
        Case("tables truncated before the solve", truncate_tables, {}),
        Case("tables truncated during the solve", nothing, {}, during=truncate_tables, hard=True),
        Case("tables deleted during the solve", nothing, {}, during=replace_tables(fifo)),
        Case(
            "a user's files under a cap of 0",
            foreign_files,
            {"HANOI_ASP_CACHE_MAX_MIB": "0"},
            cold=True,
        ),
    ]
    return found


def hanoi(argv: list[str], cache: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    environment = {**os.environ, "HANOI_ASP_CACHE_DIR": str(cache), "NO_COLOR": "1", **env}
    if "XDG_CACHE_HOME" in env:
        del environment["HANOI_ASP_CACHE_DIR"]
        environment["HOME"] = str(cache.parent)
    return subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", *argv],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cache.parent,
    )


def run_case(case: Case, base: Path) -> tuple[float, list[str]]:
    """The case's seconds and its problems (none: right)."""
    work = Path(tempfile.mkdtemp(dir=base))
    cache, instance = work / "cache", work / "nine.lp"
    instance.write_text(HARD.read_text() if case.hard else NINE)
    optimum = HARD_OPTIMUM if case.hard else OPTIMUM
    if not case.cold:
        warm = hanoi(["solve", str(instance)], cache, {})
        warm.communicate(timeout=120)
    case.prepare(cache)
    if case.command == "batch":
        folder_in = work / "in"
        folder_in.mkdir()
        for number in range(3):
            (folder_in / f"nine-{number}.lp").write_text(NINE)
        argv = ["batch", str(folder_in), "--out", str(work / "rows.jsonl")]
    else:
        argv = ["solve", str(instance), "--json", "--timeout", "10"]
        if case.hard:
            argv += ["--method", "astar"]  # the strong tables in use for seconds
    began = time.monotonic()
    process = hanoi(argv, cache, case.env)
    if case.during is not None:
        time.sleep(DURING_DELAY)
        case.during(cache)
    problems: list[str] = []
    try:
        out, err = process.communicate(timeout=SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        problems.append(f"still running after {SECONDS} s (killed)")
    seconds = time.monotonic() - began
    if process.returncode != 0:
        problems.append(f"exit {process.returncode}")
    if "Traceback" in err:
        problems.append("a traceback")
    others = [line for line in err.splitlines() if not line.startswith("hanoi-asp: warning: ")]
    if case.command == "solve":
        if others or len(err.splitlines()) > 1:
            problems.append(f"stderr: {err.strip()[:200]!r}")
        try:
            data = json.loads(out)
            if data["result"] != "OPTIMUM FOUND" or data["length"] != optimum:
                problems.append(f"answered {data['result']} {data['length']}")
        except (ValueError, KeyError):
            problems.append(f"stdout is no answer: {out[:200]!r}")
    else:
        rows = (work / "rows.jsonl").read_text().splitlines()
        answers = [json.loads(row)["result"] for row in rows]
        if answers != ["OPTIMUM FOUND"] * 3:
            problems.append(f"rows: {answers}")
    if case.prepare is foreign_files:
        for name, content in FOREIGN.items():
            if not (cache / name).is_file() or (cache / name).read_bytes() != content:
                problems.append(f"{name} deleted or changed")
    return seconds, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", default="", help="cases whose name holds this text")
    args = parser.parse_args()
    chosen = [c for c in cases() if args.only in c.name]
    failed = 0
    with tempfile.TemporaryDirectory() as base:
        for case in chosen:
            seconds, problems = run_case(case, Path(base))
            failed += bool(problems)
            verdict = "ok" if not problems else "FAIL: " + "; ".join(problems)
            print(f"{case.name:48} {seconds:5.2f} s  {verdict}", flush=True)
    print(f"\n{len(chosen)} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
