"""Every class of hostile input, each case a fresh ``hanoi-asp`` process, counted:
``python fuzz/hostile_sweep.py [--only SUBSTRING] [--csv FILE]``.

What a hostile user tries (issue 29): huge or wrapped numbers, booleans and floats where
integers are meant, NUL bytes, paths that are not regular files, files past the size
cap, binary junk, scripts and includes in instances and encodings, encodings whose
grounding never ends or eats memory, illegal plans, batch folders holding all of it.
Each case must end with its documented answer: exit 2 and one line on stderr naming the
file (bad input), or the limit's result (UNKNOWN, exit 3, for a time or memory limit),
within 2 s (instances) or T + 1 s (an encoding under ``--timeout T``), never a
traceback.  Wall time includes Python's start-up; peak memory is the largest resident
set of the process and the children it waited for (``wait4``).  Prints one row per
case, then the count of cases and of failures.  Outside CI: the tests in
``tests/end_to_end/test_hostile_files.py`` check a sample of these cases on every change.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass
class Outcome:
    case: Case
    code: int
    seconds: float
    peak_mib: float
    stderr: str
    problems: list[str] = field(default_factory=list)


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


def run_case(case: Case, base: Path) -> Outcome:
    folder = Path(tempfile.mkdtemp(dir=base))
    case.make(folder)
    began = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", *case.argv(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=folder,
        env={**os.environ, "NO_COLOR": "1"},
    )
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.append(process.stderr.read()))  # type: ignore[union-attr]
    reader.start()
    killer = threading.Timer(60, process.kill)
    killer.start()
    _, status, usage = os.wait4(process.pid, 0)  # the peak of it and its waited children
    killer.cancel()
    reader.join()
    code = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - began
    peak = usage.ru_maxrss / 1024
    err = b"".join(chunks)
    stderr = err.decode(errors="replace")
    outcome = Outcome(case, code, seconds, peak, stderr)
    check(outcome, folder)
    return outcome


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
    limit = INSTANCE_SECONDS if case.kind == "instance" else ENCODING_SECONDS
    if case.kind != "batch" and case.timed and outcome.seconds > limit:
        problems.append(f"{outcome.seconds:.2f} s > {limit} s")
    if (folder / "pwned").exists():
        problems.append("the script ran")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="cases whose name holds this text")
    parser.add_argument("--csv", type=Path, help="write one row per case here")
    args = parser.parse_args()
    cases = [c for c in instance_cases() + encoding_cases() + batch_cases() if args.only in c.name]
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory() as base:
        for case in cases:
            outcome = run_case(case, Path(base))
            outcomes.append(outcome)
            verdict = "ok" if not outcome.problems else "FAIL: " + "; ".join(outcome.problems)
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
