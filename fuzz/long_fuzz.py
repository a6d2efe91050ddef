"""A long fuzz run of the CLI, outside CI: ``python fuzz/long_fuzz.py --count 100000``.

Feeds garbled ASP text, random bytes, mutated valid instances and random JSON/TOML
specs to ``hanoi-asp solve --json`` (in-process) and checks what the tests check:
no exception escapes, the exit code is 0-3, stdout is exactly one JSON object, and an
exit 2 comes with exactly one line on stderr.  Prints counts per exit code.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # support

from support.fuzz_tokens import TOKENS

from hanoi_asp.__main__ import main

VALID = "peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\nmoves(9).\n"


HOSTILE_NUMBERS = [
    "4294967299",
    "2147483648",
    "-2147483649",
    "99999999999999999999999",
    "65536*65536",
    "1..2147483647",
    "true",
    "3.0",
    "1e9",
]
"""Numbers past clingo's 32 bits, huge ranges, and non-integers (issue 29, items 1 and 4)."""


def hostile(rng: random.Random) -> tuple[str, bytes]:
    """A valid instance or spec with one hostile part: a huge or wrapped number, a NUL
    byte, a missing period, an unknown spec key."""
    number = rng.choice(HOSTILE_NUMBERS)
    kind = rng.randrange(5)
    if kind == 0:
        return ".lp", VALID.replace(rng.choice(["9", "3", "1..3"]), number, 1).encode()
    if kind == 1:
        at = rng.randrange(len(VALID))
        return ".lp", (VALID[:at] + "\0" + VALID[at:]).encode()
    if kind == 2:
        return ".lp", VALID.replace(".\n", "\n", 1).encode()
    spec = '{"pegs": ["a", "b", "c"], "disks": 3, "init": {"a": [1, 2, 3]}, "goal": {"c": [1]}}'
    if kind == 3:
        return ".json", spec.replace('"disks": 3', f'"disks": {number}').encode()
    return ".toml", f'pegs = ["a", "b"]\ndisk = {number}\n[init]\na = [1]\n'.encode()


def sample(rng: random.Random) -> tuple[str, bytes]:
    kind = rng.randrange(5)
    if kind == 4:
        return hostile(rng)
    if kind == 0:
        text = "".join(rng.choice(TOKENS) for _ in range(rng.randrange(60)))
        return ".lp", text.encode()
    if kind == 1:
        return rng.choice([".lp", ".json", ".toml", ".asp"]), rng.randbytes(rng.randrange(120))
    if kind == 2:  # a valid instance with a few characters changed
        chars = list(VALID)
        for _ in range(rng.randrange(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice(TOKENS)
        return ".lp", "".join(chars).encode()
    spec = {
        "pegs": rng.sample(["a", "b", "c", "d"], rng.randrange(0, 5)),
        "disks": rng.randrange(-1, 5),
        "init": {rng.choice("abz"): [rng.randrange(-1, 6)] for _ in range(rng.randrange(3))},
        "goal": {rng.choice("abz"): [rng.randrange(-1, 6)] for _ in range(rng.randrange(3))},
    }
    if rng.random() < 0.3:
        spec["max_moves"] = rng.choice([-1, 0, 5, "x", 2.5])
    if rng.random() < 0.3:
        spec["moves_allowed"] = rng.choice(
            ["linear", "cyclic", "star", [["a", "b"]], [["a", "a"]], [["a", "z"]], 3]
        )
    return ".json", json.dumps(spec).encode()


METHODS = ("asp", "asp", "bfs", "recursive", "frame-stewart")


def one(path: Path, method: str = "asp") -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["solve", str(path), "--json", "--timeout", "2", "--method", method])
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    assert code in (0, 1, 2, 3), code
    data = json.loads(out.getvalue())
    assert isinstance(data, dict) and data["version"] == 1
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
    return code


def run(count: int, seed: int) -> int:
    rng = random.Random(seed)
    codes: Counter[int] = Counter()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        for index in range(count):
            suffix, data = sample(rng)
            path = Path(folder) / f"fuzz{suffix}"
            path.write_bytes(data)
            try:
                codes[one(path, METHODS[index % len(METHODS)])] += 1
            except Exception:
                print(f"FAILED on input {index}: {data!r}", file=sys.stderr)
                raise
    seconds = time.monotonic() - started
    print(
        f"{count} inputs, seed {seed}, {seconds:.0f} s: "
        + ", ".join(f"exit {c}: {n}" for c, n in sorted(codes.items()))
        + ", failures: 0"
    )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(run(args.count, args.seed))
