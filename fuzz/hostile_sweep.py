"""Every class of hostile input, each case a fresh ``hanoi-asp`` process, counted:
``python fuzz/hostile_sweep.py [--only SUBSTRING] [--csv FILE]``.

What a hostile user tries (issue 29): huge or wrapped numbers, booleans and floats where
integers are meant, NUL bytes, paths that are not regular files, files past the size
cap, binary junk, scripts and includes in instances and encodings, encodings whose
grounding never ends or eats memory, illegal plans, batch folders holding all of it.
Each case must end with its documented answer: exit 2 and one line on stderr naming the
file (bad input), or the limit's result (UNKNOWN, exit 3, for a time or memory limit),
within 2 s (instances) or T + 1 s (an encoding under ``--timeout T``; for ``grade``,
whose limit is per horizon, T + 0.5 s past its start-up measured beside it), never a
traceback.  Wall time includes Python's start-up; peak memory is the largest resident
set of the process and the children it waited for (``wait4``).  Prints one row per
case, then the count of cases and of failures.  Outside CI: the tests in
``tests/end_to_end/test_hostile_files.py`` check a sample of these cases on every change.

Issue 45 added the classes of what hanoi-asp writes and how it is stopped, each case
checked by what it leaves (``Case.verify``): numbers past 32 bits in every base;
``site`` into ``.``, ``sub/..``, links, and stopped by a signal at moments spread over
its run (the folder whole, old or new, nothing beside it); results lines nested
100,000 deep and names a spreadsheet would run (``report``, ``batch --resume``,
``--csv``); characters XML forbids in JUnit and SVG (parsed); SIGHUP to ``solve``,
``batch`` (local and Dask), ``grade`` and ``serve``, under ``nohup``, and a real closed
terminal (a pseudo-terminal closed under the command).  A stopped case must also leave
no process of its group running.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
QUICKSTART = ROOT / "instances" / "quickstart.lp"
ENCODING = (ROOT / "encodings" / "quickstart.lp").read_text()
SPEC = '{"pegs": ["a", "b", "c"], "disks": 3, "init": {"a": [1, 2, 3]}, "goal": {"c": [1, 2, 3]}}'
TOML = 'pegs = ["a", "b", "c"]\ndisks = 3\n[init]\na = [1, 2, 3]\n[goal]\nc = [1, 2, 3]\n'
FACTS = "peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\n"
TIMEOUT = 2
"""The ``--timeout T`` given to every case: an encoding must end within T + 1 s."""
INSTANCE_SECONDS = 2.0
ENCODING_SECONDS = TIMEOUT + 1.0
GRADE_STOP_SECONDS = 0.5
"""grade's ``--timeout`` is per horizon: it does not count the start-up (Python, the
imports, the reference's solve), which ``solve`` and ``explain`` count.  So a grade case
that reaches a horizon must end within T + this of a grade that ends at once, measured
beside it (:data:`GRADE_AT_ONCE`): the kill, the report and the noise between two runs
(a grounding gets no grace past T; a solve's 0.6 s would not fit)."""
GRADE_AT_ONCE = [
    "grade",
    "--encoding",
    str(ROOT / "encodings" / "quickstart.lp"),
    str(ROOT / "instances" / "teaching" / "01-one-disk.lp"),
]
"""A grade that ends at once: its wall time is grade's start-up under the load of now."""


@dataclass
class Case:
    name: str
    kind: str  # "instance" or "encoding"
    argv: Callable[[Path], list[str]]
    """The command's arguments, given the case's folder (files made by ``make``)."""
    make: Callable[[Path], None]
    exits: tuple[int, ...]
    says: str = ""
    """Text the one line on stderr (exit 2) must hold; the file's name always."""
    names: str = ""
    """The file the message must name (relative to the case's folder)."""
    timed: bool = True
    """Held to the time target (grade's whole grading of a wrong encoding is not)."""
    cwd: str = ""
    """Where the command runs, in the case's folder (``site .`` runs inside the target)."""
    stop: Stop | None = None
    """Signals sent while it runs."""
    terminal: str | None = None
    """Run on a pseudo-terminal that is its controlling terminal, closed when ``stop`` is
    due (the kernel sends SIGHUP): stdout on the terminal (``""``) or to this file."""
    ignore_hangup: bool = False
    """Start with SIGHUP ignored, as ``nohup`` does."""
    per_horizon: bool = False
    """Its time limit counts per horizon (grade): held to :data:`GRADE_STOP_SECONDS`
    past the start-up measured beside it, not to :data:`ENCODING_SECONDS`."""
    verify: Callable[[Path, Outcome], list[str]] | None = None
    """What must hold afterwards (files, folders, stdout): the problems found."""


@dataclass
class Stop:
    """Signals sent to a running case, as a user, a job scheduler or a closed terminal
    sends them: once ``ready`` (polled) and ``delay`` seconds later, one after another."""

    signals: tuple[int, ...] = ()
    ready: Callable[[Path], bool] = lambda _: True
    delay: float = 0.0
    group: bool = False
    """To the whole process group (a terminal's hangup, Slurm's SIGTERM)."""
    gap: float = 0.01
    """Between two signals."""


@dataclass
class Outcome:
    case: Case
    code: int
    seconds: float
    peak_mib: float
    stderr: str
    problems: list[str] = field(default_factory=list)
    stdout: str = ""
    limit: float | None = None
    """The seconds it was held to (None: not timed)."""


def write(name: str, content: str | bytes) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    return make


def fifo(name: str) -> Callable[[Path], None]:
    return lambda folder: os.mkfifo(folder / name)


def link(name: str, target: str) -> Callable[[Path], None]:
    return lambda folder: (folder / name).symlink_to(target)


def directory(name: str) -> Callable[[Path], None]:
    return lambda folder: (folder / name).mkdir()


def nothing(folder: Path) -> None:
    """No file at all."""


def rendered(command: str) -> Callable[[Path], list[str]]:
    """``explain FILE``, or ``render FILE --svg OUT`` (explain takes no ``--svg``)."""
    if command == "render":
        return lambda folder: [command, str(folder / "a.lp"), "--svg", str(folder / "o.svg")]
    return lambda folder: [command, str(folder / "a.lp")]


def solve(name: str, *extra: str) -> Callable[[Path], list[str]]:
    return lambda folder: ["solve", str(folder / name), "--timeout", str(TIMEOUT), *extra]


def with_encoding(command: str, name: str, *extra: str) -> Callable[[Path], list[str]]:
    def argv(folder: Path) -> list[str]:
        head = [command] if command == "grade" else [command, str(QUICKSTART)]
        return [*head, "--encoding", str(folder / name), "--timeout", str(TIMEOUT), *extra]

    return argv


def instance_cases() -> list[Case]:
    def bad(name: str, file: str, content: str | bytes, says: str) -> Case:
        return Case(name, "instance", solve(file), write(file, content), (2,), says, file)

    def spec(value: str) -> str:
        return SPEC.replace('"disks": 3', f'"disks": {value}')

    junk = random.Random(29).randbytes(4096)
    nested = "[" * 100_000 + "]" * 100_000
    cases = [
        bad("json: disks 10**23", "a.json", spec("99999999999999999999999"), "100000"),
        bad("json: disks 10**9", "a.json", spec("1000000000"), "100000"),
        bad("json: disks true", "a.json", spec("true"), "integer"),
        bad("json: disks 3.0", "a.json", spec("3.0"), "integer"),
        bad("json: disks 1e9", "a.json", spec("1e9"), "integer"),
        bad("json: disks as a string", "a.json", spec('"3"'), "integer"),
        bad("json: disks -1", "a.json", spec("-1"), "disks"),
        bad("json: an unknown key", "a.json", SPEC[:-1] + ', "colour": 1}', "colour"),
        bad("json: nested 100,000 deep", "a.json", nested, "a.json"),
        bad("json: not JSON", "a.json", '{"pegs": [', "a.json"),
        bad("json: a goal on no peg", "a.json", SPEC.replace('"c": [1', '"z": [1'), "z"),
        bad("json: a NUL byte", "a.json", SPEC[:10] + "\0" + SPEC[10:], "malformed JSON"),
        bad(
            "toml: disks 10**9", "a.toml", TOML.replace("disks = 3", "disks = 1000000000"), "100000"
        ),
        bad("toml: misspelt key", "a.toml", TOML.replace("disks = 3", "disk = 3"), "disk"),
        bad("toml: disks true", "a.toml", TOML.replace("disks = 3", "disks = true"), "integer"),
        bad("toml: malformed", "a.toml", "pegs = [\n", "a.toml"),
        bad("lp: moves 2**32 + 3", "a.lp", FACTS + "moves(4294967299).\n", "4294967299"),
        bad("lp: disk 2**32 + 3", "a.lp", "peg(a;b;c).\ndisk(4294967299).\n", "4294967299"),
        bad("lp: moves -2**31", "a.lp", FACTS + "moves(-2147483648).\n", "moves(-2147483648)"),
        bad("lp: moves -2**31 - 1", "a.lp", FACTS + "moves(-2147483649).\n", "-2147483649"),
        bad("lp: moves 2**32 + 5 in hex", "a.lp", FACTS + "moves(0x100000005).\n", "0x100000005"),
        bad("lp: moves 2**32 + 5 in octal", "a.lp", FACTS + "moves(0o40000000005).\n", "0o4"),
        bad("lp: moves 2**32 + 5 in binary", "a.lp", FACTS + f"moves({bin(2**32 + 5)}).\n", "0b1"),
        bad("lp: moves -(2**31 + 1) in hex", "a.lp", FACTS + "moves(-0x80000001).\n", "-0x8"),
        bad("lp: disks 1..2**32 + 4 in hex", "a.lp", "peg(a;b;c).\ndisk(1..0x100000004).\n", "0x1"),
        bad("lp: disks 1..2+2**31-8", "a.lp", "peg(a;b;c).\ndisk(1..2+2147483640).\n", "20000"),
        bad("lp: a NUL byte in a comment", "a.lp", FACTS + "% a\0b\nmoves(3).\n", "NUL"),
        bad("lp: moves 2**31", "a.lp", FACTS + "moves(2147483648).\n", "2147483648"),
        bad("lp: a range to 2**32", "a.lp", "peg(a;b;c).\ndisk(1..65536*65536).\n", "4294967296"),
        bad("lp: disks 1..2**31-1", "a.lp", "peg(a;b;c).\ndisk(1..2147483647).\n", "a.lp"),
        bad("lp: pegs 1..2**31-1", "a.lp", "peg(1..2147483647).\ndisk(1).\n", "a.lp"),
        bad("lp: disks 1..100001", "a.lp", "peg(a;b;c).\ndisk(1..100001).\n", "a.lp"),
        bad("lp: moves -1", "a.lp", FACTS + "moves(-1).\n", "a.lp"),
        bad("lp: a NUL byte", "a.lp", FACTS[:12] + "\0" + FACTS[12:], "NUL"),
        bad("lp: a missing period", "a.lp", FACTS.replace("disk(1..3).", "disk(1..3)"), "period"),
        bad(
            "lp: #script",
            "a.lp",
            '#script (python)\nimport os\nos.system("touch pwned")\n#end.\n',
            "a.lp",
        ),
        bad("lp: #include", "a.lp", FACTS + '#include "/etc/passwd".\n', "a.lp"),
        bad(
            "lp: a rule",
            "a.lp",
            FACTS.replace("init_on(1..3,a).", "init_on(D,a) :- disk(D)."),
            "a.lp",
        ),
        bad("lp: a disk on two pegs", "a.lp", FACTS + "init_on(1,b).\n", "a.lp"),
        bad("lp: an undeclared disk", "a.lp", FACTS + "goal_on(4,c).\n", "a.lp"),
        bad("lp: an edge to no peg", "a.lp", FACTS + "edge(a,z).\n", "a.lp"),
        bad("lp: empty", "a.lp", "", "a.lp"),
        bad("lp: binary junk", "a.lp", junk, "a.lp"),
        bad("lp: invalid UTF-8", "a.lp", b"peg(a;b;c).\xff\xfe\n", "a.lp"),
        bad("lp: 11 MiB", "a.lp", FACTS + "%" + "x" * (11 * 2**20) + "\n", "a.lp"),
        bad("lp: a million facts", "a.lp", "".join(f"peg(p{i}).\n" for i in range(10**6)), "a.lp"),
        bad("asp: truncated competition file", "a.asp", "peg(1..3).\ndisk(1..", "a.asp"),
        bad("asp: a number past 32 bits", "a.asp", "disk(4294967299).\n", "4294967299"),
    ]
    for name, maker in [
        ("a FIFO", fifo("a.lp")),
        ("a link to /dev/zero", link("a.lp", "/dev/zero")),
        ("a link to /dev/urandom", link("a.lp", "/dev/urandom")),
        ("a folder named .lp", directory("a.lp")),
        ("a broken link", link("a.lp", "/nonexistent/x.lp")),
        ("a missing file", nothing),
    ]:
        cases.append(Case(f"path: {name}", "instance", solve("a.lp"), maker, (2,), "a.lp", "a.lp"))
    for command in ("explain", "render"):
        cases.append(
            Case(
                f"{command}: a FIFO",
                "instance",
                rendered(command),
                fifo("a.lp"),
                (2,),
                "a.lp",
                "a.lp",
            )
        )
    return cases


RUNAWAY = ENCODING + "\np(0). p(X+1) :- p(X).\n"
HUNGRY = ENCODING + "\nq(X,Y) :- X = 1..100000, Y = 1..100000.\n"
ILLEGAL = ENCODING.replace(":- move(D,_,T), on(D,P,T-1), blocked(D,P,T).", "")


def encoding_cases() -> list[Case]:
    cases: list[Case] = []
    for command in ("solve", "explain", "grade"):

        def case(
            name: str,
            content: str | bytes | Callable[[Path], None],
            exits: tuple[int, ...],
            says: str = "",
            *extra: str,
            command: str = command,
        ) -> Case:
            make = content if callable(content) else write("e.lp", content)
            names = "e.lp" if 2 in exits and exits != (2, 3) else ""
            return Case(
                f"{command} --encoding: {name}",
                "encoding",
                with_encoding(command, "e.lp", *extra),
                make,
                exits,
                says,
                names,
            )

        limit_exits = (1, 3) if command == "grade" else (3,)
        syntax_exits = (1,) if command == "grade" else (2,)  # grade: a finding, score 0
        graded = command == "grade"
        cases += [
            case("grounding without end", RUNAWAY, limit_exits),
            case(
                "grounding without end, 300 MiB cap",
                RUNAWAY,
                limit_exits,
                "",
                "--memory-limit",
                "300MiB",
            ),
            case("10^10 atoms", HUNGRY, limit_exits),
            case("#script", ENCODING + "\n#script (python)\nimport os\n#end.\n", (2,), "script"),
            case("#include", ENCODING + '\n#include "/etc/passwd".\n', (2,), "include"),
            case("a syntax error", ENCODING + "\nmove(D,P,T) :- .\n", syntax_exits, "e.lp:"),
            case("a number past 32 bits", ENCODING + "\nx(4294967299).\n", (2,), "4294967299"),
            case("a number past 32 bits in hex", ENCODING + "\nx(0x100000005).\n", (2,), "0x1"),
            case("a NUL byte", ENCODING + "\0\n", (2,), "NUL"),
            case("a FIFO", fifo("e.lp"), (2,), "regular file"),
            case("a link to /dev/zero", link("e.lp", "/dev/zero"), (2,), "regular file"),
            case("11 MiB", ENCODING + "%" + "x" * (11 * 2**20) + "\n", (2,), "e.lp"),
        ]
        if command != "grade":
            cases.append(case("an illegal plan", ILLEGAL, (2,), "illegal"))
        else:
            cases.append(case("an illegal plan", ILLEGAL, (1,)))
        if graded:  # findings, not limits: grading the teaching set takes its time
            for graded_case in cases[-1:] + [c for c in cases if "syntax" in c.name][-1:]:
                graded_case.timed = False
            for limit_case in cases:
                if limit_case.name.startswith("grade ") and limit_case.exits == limit_exits:
                    limit_case.per_horizon = True
    return cases


def batch_cases() -> list[Case]:
    def folder_of_everything(folder: Path) -> None:
        base = folder / "in"
        base.mkdir()
        (base / "good.lp").write_text(FACTS)
        (base / "huge.json").write_text(
            SPEC.replace('"disks": 3', '"disks": 99999999999999999999999')
        )
        (base / "wrap.lp").write_text(FACTS + "moves(4294967299).\n")
        (base / "script.lp").write_text("#script (python)\nimport os\n#end.\n")
        os.mkfifo(base / "fifo.lp")
        (base / "zero.lp").symlink_to("/dev/zero")
        (base / "broken.lp").symlink_to("/nonexistent.lp")

    def argv(folder: Path) -> list[str]:
        out = folder / "rows.jsonl"
        return ["batch", str(folder / "in"), "--timeout", str(TIMEOUT), "--out", str(out)]

    return [Case("batch: a folder of everything", "batch", argv, folder_of_everything, (2,))]


SMALL = str(ROOT / "instances" / "classic" / "3pegs-3disks.lp")
SITE = ["index.html", "player", "static"]
HARD = (ROOT / "instances" / "hard" / "4pegs-20disks-arbitrary.lp").read_text()
"""A plan at once, never proven in a case's time."""
STUCK = (  # a cyclic move graph: no plan built at once, none found in seconds
    "peg(a;b;c;d). disk(1..12). init_on(1..12,a). goal_on(1..12,c).\n"
    "edge(a,b). edge(b,c). edge(c,d). edge(d,a).\n"
)
Verify = Callable[[Path, Outcome], list[str]]


def users_folder(folder: Path) -> None:
    """``ne/``: a user's file, a subfolder with a file, a link."""
    (folder / "ne" / "sub").mkdir(parents=True)
    (folder / "ne" / "data.txt").write_text("important")
    (folder / "ne" / "sub" / "deep.txt").write_text("also important")
    (folder / "ne" / "link").symlink_to("data.txt")


def as_it_was(folder: Path) -> list[str]:
    ne = folder / "ne"
    found = sorted(str(p.relative_to(ne)) for p in ne.rglob("*"))
    if found != ["data.txt", "link", "sub", "sub/deep.txt"]:
        return [f"ne/ holds {found}"]
    if (ne / "data.txt").read_text() != "important" or os.readlink(ne / "link") != "data.txt":
        return ["ne/'s files changed"]
    return []


def a_site(folder: Path) -> list[str]:
    ne = folder / "ne"
    found = sorted(p.name for p in ne.iterdir())
    if found != SITE:
        return [f"ne/ holds {found}, not the site"]
    try:
        json.loads((ne / "static" / "site.json").read_text())
    except (OSError, ValueError):
        return ["ne/static/site.json is not whole"]
    return []


def nothing_beside(*names: str) -> Verify:
    """Nothing but ``names`` (and the command's own files) in the case's folder: no
    half-built or hidden folder left beside the target."""

    def verify(folder: Path, _: Outcome) -> list[str]:
        left = sorted(p.name for p in folder.iterdir() if p.name not in names)
        return [f"left beside it: {left}"] if left else []

    return verify


def made(*makers: Callable[[Path], None]) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        for maker in makers:
            maker(folder)

    return make


def both(*checks: Verify) -> Verify:
    return lambda folder, outcome: [problem for c in checks for problem in c(folder, outcome)]


def site_cases() -> list[Case]:
    """Issue 45 item 1: ``site DIR --force`` emptied DIR and then failed for ``.`` and
    ``sub/..``; a failed or stopped export must leave DIR exactly as it was."""

    def site(*args: str) -> Callable[[Path], list[str]]:
        return lambda folder: ["site", *args, "--instances", SMALL]

    replaced = both(lambda f, _: a_site(f), nothing_beside("ne"))
    kept = both(lambda f, _: as_it_was(f), nothing_beside("ne"))
    cases = [
        Case(
            "site: ne/sub/.. --force",
            "site",
            site("ne/sub/..", "--force"),
            users_folder,
            (0,),
            verify=replaced,
        ),
        Case(
            "site: . --force",
            "site",
            site(".", "--force"),
            users_folder,
            (0,),
            cwd="ne",
            verify=replaced,
        ),
        Case(
            "site: ./ --force",
            "site",
            site("./", "--force"),
            users_folder,
            (0,),
            cwd="ne",
            verify=replaced,
        ),
        Case(
            "site: ne/sub/../. --force",
            "site",
            site("ne/sub/../.", "--force"),
            users_folder,
            (0,),
            verify=replaced,
        ),
        Case(
            "site: . in an empty folder",
            "site",
            site("."),
            directory("ne"),
            (0,),
            cwd="ne",
            verify=replaced,
        ),
        Case(
            "site: . --force, an instance read from inside it",
            "site",
            lambda folder: ["site", ".", "--force", "--instances", "data.lp"],
            made(users_folder, write("ne/data.lp", FACTS)),
            (0,),
            cwd="ne",
            verify=replaced,
        ),
        Case(
            "site: . without --force",
            "site",
            site("."),
            users_folder,
            (2,),
            "--force",
            cwd="ne",
            verify=kept,
        ),
        Case(
            "site: a link to a folder, --force",
            "site",
            site("link", "--force"),
            made(users_folder, link("link", "ne")),
            (0,),
            verify=both(
                lambda f, _: a_site(f),
                nothing_beside("ne", "link"),
                lambda f, _: [] if (f / "link").is_symlink() else ["the link is gone"],
            ),
        ),
        Case(
            "site: a dangling link",
            "site",
            site("gone", "--force"),
            link("gone", "nowhere"),
            (2,),
            "leads to nothing",
            verify=nothing_beside("gone"),
        ),
        Case(
            "site: a file",
            "site",
            site("a.lp", "--force"),
            write("a.lp", FACTS),
            (2,),
            "not a folder",
            verify=nothing_beside("a.lp"),
        ),
        Case(
            "site: a loop of links",
            "site",
            site("x", "--force"),
            made(link("x", "y"), link("y", "x")),
            (2,),
            "leads to nothing",
            verify=nothing_beside("x", "y"),
        ),
        Case("site: / (nothing beside it)", "site", site("/"), nothing, (2,), "root folder"),
    ]
    moments = random.Random(45).sample([i / 20 for i in range(4, 30)], 9)
    for stop, moment in zip(
        [signal.SIGTERM, signal.SIGINT, signal.SIGHUP] * 3, sorted(moments), strict=True
    ):
        cases.append(
            Case(
                f"site: . --force, {stop.name} at {moment:.2f} s",
                "site",
                site(".", "--force"),
                users_folder,
                (0, 3),
                cwd="ne",
                stop=Stop((stop,), delay=moment),
                verify=both(
                    lambda f, _: as_it_was(f) if a_site(f) else [],  # one or the other, whole
                    nothing_beside("ne"),
                ),
            )
        )
    return cases


DEEP = "[" * 100_000 + "]" * 100_000
ROW = {"instance": "in/a.lp", "result": "OPTIMUM FOUND", "length": 7, "time_s": 0.5}
FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(1+1)", "+cmd|' /C calc'!A0", "-2+3", "\tx", "\rx"]


def rows(*extra: str, configs: tuple[str, ...] = ()) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        lines = [json.dumps({**ROW, "config": c}) for c in configs] or [json.dumps(ROW)]
        (folder / "r.jsonl").write_text("\n".join([*lines, *extra]) + "\n")

    return make


def csv_cells(name: str, column: str, expected: list[str]) -> Verify:
    def verify(folder: Path, _: Outcome) -> list[str]:
        with (folder / name).open(newline="") as handle:
            found = [row[column] for row in csv.DictReader(handle)]
        return [] if sorted(found) == sorted(expected) else [f"{column} cells {found}"]

    return verify


def instance_folder(folder: Path) -> None:
    (folder / "in").mkdir()
    (folder / "in" / "a.lp").write_text(FACTS)


def report_cases() -> list[Case]:
    """Issue 45 item 5: a results line nested 100,000 deep (a traceback, exit 1), and
    names a spreadsheet would run as formulas."""

    def resumed(folder: Path) -> None:
        instance_folder(folder)
        row = {**ROW, "instance": "in/a.lp"}  # as the batch names it: no sha256, so run again
        (folder / "r.jsonl").write_text(json.dumps(row) + "\n" + DEEP + "\n")

    def one_row(folder: Path, outcome: Outcome) -> list[str]:
        results = [json.loads(line)["result"] for line in (folder / "r.jsonl").open()]
        return [] if results == ["OPTIMUM FOUND"] else [f"rows {results}"]

    def shown(folder: Path, outcome: Outcome) -> list[str]:
        page = (folder / "r.html").read_text()
        if "\x1b" in outcome.stdout or "\x1b" in page or "\x01" in page:
            return ["a control character reached the terminal or the page"]
        return []

    def batch_csv(folder: Path) -> None:
        (folder / "=cmd.lp").write_text(FACTS)
        (folder / "@x.lp").write_text(FACTS)

    return [
        Case(
            "report: a line nested 100,000 deep",
            "report",
            lambda f: ["report", str(f / "r.jsonl")],
            rows(DEEP),
            (2,),
            ":2: not a result row (nested",
            "r.jsonl",
        ),
        Case(
            "report: a row nested 500 deep",
            "report",
            lambda f: ["report", str(f / "r.jsonl")],
            rows('{"instance": "x", "result": "UNKNOWN", "x": ' + "[" * 500 + "]" * 500 + "}"),
            (2,),
            ":2: not a result row (nested",
            "r.jsonl",
        ),
        Case(
            "batch --resume: a line nested 100,000 deep",
            "report",
            lambda f: ["batch", "in", "--out", "r.jsonl", "--resume"],
            resumed,
            (0,),
            verify=both(
                one_row,
                lambda f, o: (
                    []
                    if "line 2: nested more than 64 levels deep: dropped" in o.stderr
                    else ["no note of the dropped line"]
                ),
            ),
        ),
        Case(
            "report --csv: formulas in names",
            "report",
            lambda f: ["report", "r.jsonl", "--csv", "s.csv"],
            rows(configs=tuple(FORMULAS)),
            (0,),
            verify=csv_cells("s.csv", "config", [f"'{name}" for name in FORMULAS]),
        ),
        Case(
            "batch --csv: an instance named =cmd.lp",
            "report",
            lambda f: ["batch", "=cmd.lp", "@x.lp", "--out", "r.jsonl", "--csv", "r.csv"],
            batch_csv,
            (0,),
            verify=csv_cells("r.csv", "instance", ["'=cmd.lp", "'@x.lp"]),
        ),
        Case(
            "report --html: TeX and escapes in names",
            "report",
            lambda f: ["report", "r.jsonl", "--html", "r.html"],
            rows(configs=("red\x1b[31m", "a$\\foo{$\x01")),
            (0,),
            verify=shown,
        ),
    ]


def well_formed(name: str) -> Verify:
    def verify(folder: Path, outcome: Outcome) -> list[str]:
        import xml.etree.ElementTree as ElementTree

        data = (
            outcome.stdout.encode(errors="surrogateescape")
            if name == "-"
            else (folder / name).read_bytes()
        )
        try:
            ElementTree.fromstring(data)
        except ElementTree.ParseError as error:
            return [f"not well-formed XML: {error}"]
        return []

    return verify


def xml_cases() -> list[Case]:
    """Issue 45 item 6: characters XML 1.0 forbids, in the names and strings hanoi-asp
    writes into JUnit and SVG."""
    quickstart = (ROOT / "encodings" / "quickstart.lp").read_text()
    strict = quickstart + '\n:- move(D,P,T), P != "x\x01\x1b".\n'  # rejects every plan

    def junit(instance: str, encoding: str) -> Callable[[Path], list[str]]:
        return lambda f: ["grade", "--encoding", encoding, instance, "--format", "junit"]

    def named(instance: str, encoding: str, text: str = quickstart) -> Callable[[Path], None]:
        def make(folder: Path) -> None:
            (folder / instance).write_text(FACTS)
            (folder / encoding).write_text(text)

        return make

    spec = (
        SPEC.replace('"a", "b", "c"', '"a\\u0001", "b\\u001b", "c\\ufffe"')
        .replace('"init": {"a"', '"init": {"a\\u0001"')
        .replace('"goal": {"c"', '"goal": {"c\\ufffe"')
    )
    return [
        Case(
            "junit: control characters in the names",
            "xml",
            junit("in\x01st.lp", "en\x1bc.lp"),
            named("in\x01st.lp", "en\x1bc.lp"),
            (0,),
            verify=well_formed("-"),
        ),
        Case(
            "junit: a file name that is not UTF-8",
            "xml",
            junit(os.fsdecode(b"in\xff.lp"), "e.lp"),
            named(os.fsdecode(b"in\xff.lp"), "e.lp"),
            (0,),
            verify=well_formed("-"),
        ),
        Case(
            "junit: control characters in a student's rule",
            "xml",
            junit("a.lp", "e.lp"),
            named("a.lp", "e.lp", strict),
            (1,),
            verify=well_formed("-"),
        ),
        Case(
            "render --svg: control characters in peg names",
            "xml",
            lambda f: ["render", "a.json", "--svg", "o.svg"],
            write("a.json", spec),
            (0,),
            verify=well_formed("o.svg"),
        ),
    ]


def sent(*signals: int, group: bool = False, **stop: Any) -> Stop:
    return Stop(tuple(signals), group=group, **stop)


def an_answer(name: str = "") -> Verify:
    """solve's JSON after a stop: the best plan (exit 0) or UNKNOWN (exit 3)."""

    def verify(folder: Path, outcome: Outcome) -> list[str]:
        text = (folder / name).read_text() if name else outcome.stdout
        try:
            data = json.loads(text)
        except ValueError:
            return ["no JSON answer"]
        expected = {0: "SATISFIABLE", 3: "UNKNOWN"}.get(outcome.code)
        if data.get("stopped") != "interrupt" or data.get("result") != expected:
            return [f"answered {data.get('result')} ({data.get('stopped')}), exit {outcome.code}"]
        return []

    return verify


def has_rows(*results: str) -> Verify:
    def verify(folder: Path, outcome: Outcome) -> list[str]:
        found = [json.loads(line)["result"] for line in (folder / "r.jsonl").open()]
        return [] if found == list(results) else [f"rows {found}"]

    return verify


def signal_cases() -> list[Case]:
    """Issue 45 item 9: SIGHUP (a closed terminal or SSH session) lost solve's plan
    (exit 129); it must be a stop like SIGTERM for solve, batch, grade and serve."""
    hard = write("hard.lp", HARD)

    def solve_hard(f: Path) -> list[str]:
        return ["solve", "hard.lp", "--json"]

    def batch_folder(folder: Path) -> None:
        instance_folder(folder)
        (folder / "in" / "z-stuck.lp").write_text(STUCK)  # the largest: it starts first

    def a_row(folder: Path) -> bool:
        path = folder / "r.jsonl"
        return path.exists() and path.read_text().count("\n") >= 1

    def serving(folder: Path) -> bool:  # uvicorn answers: its own handlers are in place
        import urllib.request

        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/", timeout=1).close()
        except OSError:
            return False
        return True

    batch = ["batch", "in", "--workers", "2", "--out", "r.jsonl"]
    interrupted = both(
        has_rows("OPTIMUM FOUND"),
        lambda f, o: (
            [] if "interrupted; finished results are in" in o.stderr else ["no interrupt summary"]
        ),
    )
    return [
        Case(
            "SIGHUP: solve",
            "signal",
            solve_hard,
            hard,
            (0, 3),
            stop=sent(signal.SIGHUP, delay=3),
            verify=an_answer(),
        ),
        Case(
            "SIGHUP: solve, twice",
            "signal",
            solve_hard,
            hard,
            (0, 3),
            stop=sent(signal.SIGHUP, signal.SIGHUP, delay=3),
            verify=an_answer(),
        ),
        Case(
            "SIGHUP: solve, to its group",
            "signal",
            solve_hard,
            hard,
            (0, 3),
            stop=sent(signal.SIGHUP, group=True, delay=3),
            verify=an_answer(),
        ),
        Case(
            "SIGHUP: solve while Python loads",
            "signal",
            solve_hard,
            hard,
            (0, 3),
            stop=sent(signal.SIGHUP, delay=0.2),
            verify=an_answer(),
        ),
        Case(
            "SIGHUP: batch, to its group",
            "signal",
            lambda f: batch,
            batch_folder,
            (3,),
            stop=sent(signal.SIGHUP, group=True, ready=a_row),
            verify=interrupted,
        ),
        Case(
            "SIGHUP: batch --dask local:2, to its group",
            "signal",
            lambda f: ["batch", "in", "--dask", "local:2", "--out", "r.jsonl"],
            batch_folder,
            (3,),
            stop=sent(signal.SIGHUP, group=True, ready=a_row),
            verify=interrupted,
        ),
        Case(
            "SIGHUP: grade, to its group",
            "signal",
            lambda f: [
                "grade",
                "--encoding",
                str(ROOT / "encodings" / "quickstart.lp"),
                "hard.lp",
                "--timeout",
                "60",
            ],
            hard,
            (3,),
            stop=sent(signal.SIGHUP, group=True, delay=1),
        ),
        Case(
            "SIGHUP: serve, to its group",
            "signal",
            lambda f: ["serve", "--port", str(PORT)],
            nothing,
            (0,),
            stop=sent(signal.SIGHUP, group=True, ready=serving),
            verify=lambda f, o: [] if o.stdout.endswith("stopped\n") else ["not stopped"],
        ),
        Case(
            "SIGHUP under nohup: solve goes on, then SIGTERM",
            "signal",
            solve_hard,
            hard,
            (0, 3),
            stop=sent(signal.SIGHUP, signal.SIGTERM, group=True, delay=1, gap=1),
            ignore_hangup=True,
            verify=both(  # it cannot end by itself: alive 1 s past the hangup, it went on
                an_answer(), lambda f, o: [] if o.seconds > 2 else ["ended at the hangup"]
            ),
        ),
        Case(
            "closed terminal: solve > answer.json",
            "signal",
            solve_hard,
            hard,
            (0, 3),
            stop=sent(delay=3),
            terminal="answer.json",
            verify=an_answer("answer.json"),
        ),
        Case(
            "closed terminal: solve on it",
            "signal",
            solve_hard,
            hard,
            (3,),
            stop=sent(delay=3),
            terminal="",
        ),
        Case(
            "closed terminal: batch on it",
            "signal",
            lambda f: batch,
            batch_folder,
            (3,),
            stop=sent(ready=a_row),
            terminal="",
            verify=has_rows("OPTIMUM FOUND"),
        ),
    ]


PORT = 8000 + os.getpid() % 1000
"""serve's port in the sweep (a fixed one, so the sweep can ask whether it serves)."""


def start_up_seconds(runs: int = 3) -> float:
    """The median wall time of :data:`GRADE_AT_ONCE`, each a fresh process."""
    times = []
    for _ in range(runs):
        began = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "hanoi_asp", *GRADE_AT_ONCE],
            capture_output=True,
            env={**os.environ, "NO_COLOR": "1"},
            check=False,
            timeout=60,
        )
        times.append(time.monotonic() - began)
    return sorted(times)[len(times) // 2]


def time_limit(case: Case) -> float | None:
    if not case.timed:
        return None
    if case.per_horizon:
        return start_up_seconds() + TIMEOUT + GRADE_STOP_SECONDS
    return {"instance": INSTANCE_SECONDS, "encoding": ENCODING_SECONDS}.get(case.kind)


def run_case(case: Case, base: Path) -> Outcome:
    limit = time_limit(case)  # measured before: the load of now, not the case's own
    folder = Path(tempfile.mkdtemp(dir=base))
    case.make(folder)
    argv = [sys.executable, "-m", "hanoi_asp", *case.argv(folder)]
    env = {**os.environ, "NO_COLOR": "1"}
    began = time.monotonic()
    master = None
    chunks: dict[str, bytes] = {}
    hung_up = threading.Event()
    if case.terminal is not None:
        process, master = on_a_terminal(argv, folder / case.cwd, env, case.terminal, folder)
        readers = [threading.Thread(target=drain, args=(master, chunks, hung_up))]
    else:
        process = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=folder / case.cwd,
            env=env,
            start_new_session=case.stop is not None,
            preexec_fn=ignore_hangup if case.ignore_hangup else None,
        )
        readers = [
            threading.Thread(target=lambda: chunks.update(out=process.stdout.read())),  # type: ignore[union-attr]
            threading.Thread(target=lambda: chunks.update(err=process.stderr.read())),  # type: ignore[union-attr]
        ]
    for reader in readers:
        reader.start()
    killer = threading.Timer(60, process.kill)
    killer.start()
    if case.stop is not None:
        deliver(case.stop, process, folder, None if master is None else hung_up)
    _, status, usage = os.wait4(process.pid, 0)  # the peak of it and its waited children
    killer.cancel()
    if master is not None:
        hung_up.set()
    for reader in readers:
        reader.join()
    code = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - began
    peak = usage.ru_maxrss / 1024
    stderr = chunks.get("err", b"").decode(errors="replace")
    stdout = chunks.get("out", b"").decode(errors="surrogateescape")  # its bytes kept
    outcome = Outcome(case, code, seconds, peak, stderr, stdout=stdout, limit=limit)
    if case.stop is not None and not group_ended(process.pid):
        outcome.problems.append("processes of its group still running 5 s after it ended")
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # our own child's group, nothing else
    check(outcome, folder)
    return outcome


def deliver(stop: Stop, process: subprocess.Popen[bytes], folder: Path, hang_up: Any) -> None:
    """Wait until ``stop`` is due, then send its signals (or close the terminal)."""
    deadline = time.monotonic() + 60
    while running(process.pid) and time.monotonic() < deadline:
        if stop.ready(folder):
            break
        time.sleep(0.05)
    time.sleep(stop.delay)
    if hang_up is not None:
        hang_up.set()  # the terminal closes: the kernel sends SIGHUP
        return
    for number in stop.signals:
        with suppress(ProcessLookupError):
            (os.killpg if stop.group else os.kill)(process.pid, number)
        time.sleep(stop.gap)


def running(pid: int) -> bool:
    """Whether the child has not ended, without reaping it (``wait4`` does, for its peak)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


def on_a_terminal(
    argv: list[str], cwd: Path, env: dict[str, str], stdout: str, folder: Path
) -> tuple[subprocess.Popen[bytes], int]:
    """The command on a new pseudo-terminal that is its controlling terminal."""
    import fcntl
    import termios

    master, slave = os.openpty()

    def controlled() -> None:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    with open(folder / stdout if stdout else os.devnull, "wb") as out:
        process = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=out if stdout else slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            preexec_fn=controlled,
        )
    os.close(slave)
    return process, master


def drain(master: int, chunks: dict[str, bytes], hung_up: threading.Event) -> None:
    """Read the terminal (what was written there counts as stderr) until it is closed."""
    import select

    got = b""
    while not hung_up.is_set():
        if select.select([master], [], [], 0.05)[0]:
            try:
                data = os.read(master, 65536)
            except OSError:  # the command ended: nothing more to read
                data = b""
            if not data:
                hung_up.wait()
            got += data
    os.close(master)
    chunks["err"] = got


def ignore_hangup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def group_ended(group: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def check(outcome: Outcome, folder: Path) -> None:
    case, problems, lines = outcome.case, outcome.problems, outcome.stderr.strip().splitlines()
    if outcome.code not in case.exits:
        problems.append(f"exit {outcome.code}, not {case.exits}")
    if "Traceback" in outcome.stderr:
        problems.append("a traceback")
    if outcome.code == 2 and case.kind != "batch":
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr")
        if case.says and case.says not in outcome.stderr:
            problems.append(f"does not say {case.says!r}")
        if case.names and str(folder / case.names) not in outcome.stderr:
            problems.append("does not name the file")
    limit = outcome.limit
    if limit is not None and outcome.seconds > limit:
        problems.append(f"{outcome.seconds:.2f} s > {limit:.2f} s")
    if (folder / "pwned").exists():
        problems.append("the script ran")
    if case.verify is not None:
        try:
            problems.extend(case.verify(folder, outcome))
        except Exception as error:  # a file missing, not whole, or nested past reading
            problems.append(f"cannot check what it left: {type(error).__name__}: {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="cases whose name holds this text")
    parser.add_argument("--csv", type=Path, help="write one row per case here")
    args = parser.parse_args()
    every = instance_cases() + encoding_cases() + batch_cases()
    every += site_cases() + report_cases() + xml_cases() + signal_cases()
    cases = [c for c in every if args.only in c.name]
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory() as base:
        for case in cases:
            outcome = run_case(case, Path(base))
            outcomes.append(outcome)
            verdict = "ok" if not outcome.problems else "FAIL: " + "; ".join(outcome.problems)
            if outcome.case.per_horizon and outcome.limit is not None:
                verdict += f" (limit {outcome.limit:.2f} s)"
            print(
                f"{case.name:58} exit {outcome.code}  {outcome.seconds:5.2f} s  "
                f"{outcome.peak_mib:7.1f} MiB  {verdict}",
                flush=True,
            )
    failed = [o for o in outcomes if o.problems]
    worst = {
        kind: max((o.seconds for o in outcomes if o.case.kind == kind), default=0.0)
        for kind in ("instance", "encoding", "batch")
    }
    peak = max((o.peak_mib for o in outcomes), default=0.0)
    print(
        f"\n{len(outcomes)} cases, {len(failed)} failed; slowest instance case "
        f"{worst['instance']:.2f} s, slowest encoding case {worst['encoding']:.2f} s "
        f"(--timeout {TIMEOUT}), batch {worst['batch']:.2f} s; largest peak {peak:.0f} MiB"
    )
    if args.csv:
        with args.csv.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["case", "exit", "seconds", "peak_mib", "problems"])
            for o in outcomes:
                row = [o.case.name, o.code, f"{o.seconds:.3f}", f"{o.peak_mib:.1f}"]
                writer.writerow([*row, "; ".join(o.problems)])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
