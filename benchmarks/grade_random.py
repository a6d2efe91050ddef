"""How long ``grade --random`` takes: a correct encoding, and finding plus shrinking.

    python -m benchmarks.grade_random                   # seeds 1 2 3, 300 puzzles
    python -m benchmarks.grade_random --seeds 1 2 --count 300

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
(``tests/support/grade_mutants.py``), and each run prints the counterexample's kind, pegs,
disks and horizon and the lines its reason names.

Prints every run, then the median and the worst per case, and writes
``results/grade_random.log`` (``--out``; with the machine's load at the start and the
end: it is not controlled, so say so when quoting the figures).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.output import Log, log_footer, log_header
from benchmarks.harness.paths import QUICKSTART_ENCODING, ROOT, TESTS, result_file
from benchmarks.harness.processes import run_tree
from benchmarks.harness.stats import Spread

QUICKSTART = QUICKSTART_ENCODING
KILL_AFTER_S = 600.0
"""A grading run still going after this long is killed (the targets are 30 and 60 s)."""
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


def timed(encoding: Path, count: int, seed: int) -> tuple[float, int | None, str, str]:
    """One ``grade --random`` process: its wall time, exit code, stderr and the
    counterexample in short."""
    command = [sys.executable, "-m", "hanoi_asp", "grade", "--encoding", str(encoding)]
    command += ["--random", str(count), "--seed", str(seed), "--json"]
    done = run_tree(command, timeout_s=KILL_AFTER_S, cwd=ROOT)
    return done.seconds, done.returncode, done.stderr, _found(done.stdout)


def _found(out: str) -> str:
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


def seeded_mutants() -> dict[str, str]:
    """The tests' 24 seeded mistakes (``grade_mutants.py`` under ``tests/``, loaded from
    its file: the tests are not a package the benchmarks import)."""
    import importlib.util

    found = sorted(TESTS.rglob("grade_mutants.py"))
    spec = importlib.util.spec_from_file_location("grade_mutants", found[0]) if found else None
    if spec is None or spec.loader is None:
        raise SystemExit(f"no grade_mutants.py under {TESTS}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return {mutant.name: mutant.text() for mutant in module.MUTANTS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.grade_random", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--cases", nargs="+", help="only these (correct, choice-up-to-4, ...)")
    parser.add_argument("--seeded", action="store_true", help="the tests' seeded mistakes")
    parser.add_argument("--out", type=Path, default=result_file("grade_random", ".log"))
    args = parser.parse_args(argv)
    log = Log()
    log_header(log, "grade_random", sys.argv[1:] if argv is None else argv)
    source = QUICKSTART.read_text()
    cases = {"correct": source}
    for name, (old, new) in ISSUE_MUTANTS.items():
        assert old in source, name
        cases[name] = source.replace(old, new, 1)
    if args.seeded:
        cases = seeded_mutants()
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
                log(line.rstrip())
                seconds.append(took)
            spread = Spread(seconds)
            log(
                f"{name:20s} median {spread.median:6.1f} s, "
                f"worst {spread.worst:6.1f} s ({len(seconds)} runs)"
            )
    log_footer(log)
    log.save(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
