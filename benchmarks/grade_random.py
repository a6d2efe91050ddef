"""How long ``grade --random`` takes: a correct encoding, and finding plus shrinking.

    python benchmarks/grade_random.py                     # seeds 1 2 3, 300 puzzles
    python benchmarks/grade_random.py --seeds 1 2 --count 300

Targets (issue 32): ``grade --random 300`` on a correct encoding at most 60 s; finding
and shrinking a counterexample at most 30 s.  Each measurement is the whole command
(``python -m hanoi_asp grade ...``) in a fresh process, wall time, imports included:

* ``correct``: encodings/quickstart.lp, the teaching set and ``--count`` random puzzles
  (exit 0 expected);
* ``mutant``: each of the issue's five mistakes in the quickstart encoding (the choice
  rule for disks up to 4, the frame axiom stopping after step 40, the top-disk test for
  disks below 5, blocking from disks up to 5 only, the goal for disks up to 4): the
  time to find the first failure and shrink it (exit 1 expected).

With ``--seeded`` the cases are instead the tests' 24 seeded mistakes
(``tests/grade_mutants.py``), and each run prints the counterexample's kind, pegs,
disks and horizon and the lines its reason names.

Prints every run, then the median and the worst per case; the machine's other load
is not controlled, so say so when quoting the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICKSTART = ROOT / "encodings" / "quickstart.lp"
ISSUE_MUTANTS = {
    "choice-up-to-4": ("disk(D), peg(P) } = 1", "disk(D), peg(P), D <= 4 } = 1"),
    "frame-stops-at-40": ("not moves(T).\n", "not moves(T), T < 40.\n"),
    "top-disk-below-5": (
        ":- move(D,_,T), on(D,P,T-1), blocked(D,P,T).",
        ":- move(D,_,T), on(D,P,T-1), blocked(D,P,T), D < 5.",
    ),
    "blocked-up-to-5": (
        "blocked(D-1,P,T+1) :- on(D,P,T), not moves(T).",
        "blocked(D-1,P,T+1) :- on(D,P,T), not moves(T), D <= 5.",
    ),
    "goal-up-to-4": (
        ":- goal_on(D,P), not on(D,P,M), moves(M).",
        ":- goal_on(D,P), not on(D,P,M), moves(M), D <= 4.",
    ),
}


def timed(encoding: Path, count: int, seed: int) -> tuple[float, int, str, str]:
    command = [sys.executable, "-m", "hanoi_asp", "grade", "--encoding", str(encoding)]
    command += ["--random", str(count), "--seed", str(seed), "--json"]
    began = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    took = time.monotonic() - began
    return took, done.returncode, done.stderr.decode(errors="replace"), _found(done.stdout)


def _found(out: bytes) -> str:
    """The counterexample in short: kind, pegs, disks, horizon, the lines named."""
    try:
        example = json.loads(out)["counterexample"]
    except (ValueError, KeyError):
        return ""
    if example is None:
        return ""
    lines = ",".join(str(rule["line"]) for rule in example["rules"])
    return (
        f"{example['kind']} {example['pegs']}p {example['disks']}d {example['horizon']} moves"
        + (f", lines {lines}" if lines else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--cases", nargs="+", help="only these (correct, choice-up-to-4, ...)")
    parser.add_argument("--seeded", action="store_true", help="the tests' seeded mistakes")
    args = parser.parse_args()
    cases = {"correct": QUICKSTART.read_text()}
    source = QUICKSTART.read_text()
    for name, (old, new) in ISSUE_MUTANTS.items():
        assert old in source, name
        cases[name] = source.replace(old, new, 1)
    if args.seeded:
        sys.path.insert(0, str(ROOT / "tests"))
        from grade_mutants import MUTANTS

        cases = {mutant.name: mutant.text() for mutant in MUTANTS}
    with tempfile.TemporaryDirectory() as folder:
        for name, text in cases.items():
            if args.cases and name not in args.cases:
                continue
            path = Path(folder) / f"{name}.lp"
            path.write_text(text)
            seconds = []
            for seed in args.seeds:
                took, code, err, found = timed(path, args.count, seed)
                expected = 0 if name == "correct" and not args.seeded else 1
                flag = "" if code == expected else f"  UNEXPECTED exit {code}: {err.strip()}"
                line = f"{name:20s} seed {seed}: {took:6.1f} s, exit {code}{flag}  {found}"
                print(line.rstrip(), flush=True)
                seconds.append(took)
            print(
                f"{name:20s} median {statistics.median(seconds):6.1f} s, "
                f"worst {max(seconds):6.1f} s ({len(seconds)} runs)",
                flush=True,
            )


if __name__ == "__main__":
    main()
