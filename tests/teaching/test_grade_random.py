"""grade --random: seeded mistakes are caught with a smallest counterexample and the
right reason; correct encodings in other styles are never flagged; the autograder
formats; the exercises fail with their own header's command."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import clingo
import pytest
from support.cli import RunCli
from support.files import ROOT
from support.grade_mutants import MUTANTS, QUICKSTART, Mutant

from hanoi_asp.model.options import Encoding
from hanoi_asp.model.puzzle import Puzzle, preset_edges
from hanoi_asp.teaching.grade import grade, grade_trial
from hanoi_asp.teaching.random_puzzles import mentions_edges, random_trials, reference
from hanoi_asp.teaching.shrink import with_counterexample
from hanoi_asp.teaching.why_rejected import why_rejected

STYLES = ROOT / "tests" / "support" / "grade_encodings"
EXERCISES = sorted((ROOT / "encodings" / "exercises").glob("*.lp"))
REJECTED = ("too-strict", "longer-than-optimal")
"""The kinds where the encoding rejects the reference plan: the reason names rules."""
SMALL_RANDOM = 100
"""Enough random puzzles to catch every seeded mistake (checked with seeds 1, 2)."""


def graded(text: str, count: int, seed: int) -> Any:
    encoding = Encoding(text, "student.lp")
    trials = random_trials(count, seed, graphs=mentions_edges(text))
    return with_counterexample(encoding, grade(encoding, [], 10.0, trials), 10.0)


def all_puzzles(disks: int) -> list[Puzzle]:
    """Every puzzle of ``disks`` disks on 2 and 3 pegs: any start, any goal (full or
    partial), with the complete, linear and cyclic move graphs."""
    out: list[Puzzle] = []
    for pegs in (("a", "b"), ("a", "b", "c")):
        for graph in ("complete", "linear", "cyclic"):
            edges = None if graph == "complete" else preset_edges(graph, pegs)
            for start in itertools.product(pegs, repeat=disks):
                for goal in itertools.product((None, *pegs), repeat=disks):
                    if all(g is None for g in goal) and disks > 1:
                        continue
                    init: dict[str, tuple[int, ...]] = {}
                    ends: dict[str, tuple[int, ...]] = {}
                    for disk, peg in enumerate(start, start=1):
                        init[peg] = (*init.get(peg, ()), disk)
                    for disk, peg in enumerate(goal, start=1):
                        if peg is not None:
                            ends[peg] = (*ends.get(peg, ()), disk)
                    out.append(
                        Puzzle(pegs=pegs, disks=disks, init=init, goal=ends, moves_allowed=edges)
                    )
    return out


def fails_with(encoding: Encoding, puzzle: Puzzle, kind: str) -> bool:
    optimum, _ = reference(puzzle)
    horizons = [0, 1, 2] if optimum is None else [max(optimum - 1, 0), optimum, optimum + 1]
    found, _ = grade_trial(encoding, "exhaustive", puzzle, optimum, horizons, 10.0)
    kinds = {f.kind for f in found.findings}
    if kind == "longer-than-optimal":
        kind = "too-strict"
    return kind in kinds


def blamed(mutant: Mutant) -> set[str]:
    """The rules a right reason may name: the mutated line is named by its new text."""
    return {mutant.new if line == mutant.old else line for line in mutant.blame}


@pytest.mark.parametrize(
    ("mutant", "seed"),
    [(m, 1 + n % 2) for n, m in enumerate(MUTANTS)],
    ids=[m.name for m in MUTANTS],
)
def test_every_seeded_mistake_is_caught_smallest_and_explained(mutant: Mutant, seed: int) -> None:
    """Each mistake is caught in :data:`SMALL_RANDOM` random puzzles, by one seed (1 and
    2 in turn across the mistakes: each catches every mistake, and both for each doubled
    the time), with the right reason, a smallest counterexample, and a file clingo runs
    to show it."""
    text = mutant.text()
    report = graded(text, SMALL_RANDOM, seed)
    example = report.counterexample
    assert not report.passed and example is not None, (mutant.name, seed)
    if example.kind in REJECTED:
        names = {rule.text for rule in example.rules}
        assert names & blamed(mutant), (mutant.name, example.reason)
        assert all(rule.file == "student.lp" and rule.line > 0 for rule in example.rules)
    # minimal: no puzzle with fewer disks fails the same way (exhaustively, 2-3 pegs)
    encoding = Encoding(text, "student.lp")
    for disks in range(1, min(example.puzzle.disks, 3)):
        for puzzle in all_puzzles(disks):
            assert not fails_with(encoding, puzzle, example.kind), (mutant.name, puzzle)
    # the counterexample is a file clingo runs with the encoding and shows the failure
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], example.instance + text)
    ctl.ground([("base", [])])
    models: list[list[clingo.Symbol]] = []

    def on_model(model: clingo.Model) -> bool:
        models.append(list(model.symbols(shown=True)))
        return False

    ctl.solve(on_model=on_model)
    if example.kind in REJECTED:
        assert not models  # no plan where the reference has one
    else:
        assert models  # a plan, which the simulator refuses (the reason says why)
        malformed = re.search(r"no move at step|moves twice", example.reason)
        assert example.reason and (example.plan or malformed or example.horizon == 0)


@pytest.mark.parametrize(
    ("style", "seed"), [("quickstart", 1), ("incremental-one-shot", 2), ("top", 1)]
)
def test_correct_encodings_in_other_styles_are_never_flagged(style: str, seed: int) -> None:
    """No finding on :data:`SMALL_RANDOM` random puzzles, one seed per style (the
    quickstart encoding is graded on more by the command-line tests below)."""
    path = QUICKSTART if style == "quickstart" else STYLES / f"{style}.lp"
    report = graded(path.read_text(), SMALL_RANDOM, seed)
    failing = [(g.instance, g.findings) for g in report.grades if not g.passed]
    assert report.passed and report.counterexample is None, failing


def test_why_rejected_names_the_rule_step_and_disk_of_the_issue_example() -> None:
    """The issue's frame axiom that stops after step 40, on a 6-disk tower (63 moves)."""
    text = QUICKSTART.read_text().replace("not moves(T).\n", "not moves(T), T < 40.\n", 1)
    tower = tuple(range(1, 7))
    puzzle = Puzzle(pegs=("a", "b", "c"), disks=6, init={"a": tower}, goal={"c": tower})
    _, plan = reference(puzzle)
    assert plan is not None
    rejection = why_rejected(Encoding(text, "student.lp"), puzzle, plan)
    assert rejection is not None
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(":- { on(D,P,T) }"))
    assert f"student.lp:{line}: ':- {{ on(D,P,T) }} != 1, " in rejection.reason
    assert "fails at step 41 for disk" in rejection.reason
    # the correct encoding accepts the reference plan: nothing to blame
    assert why_rejected(Encoding(QUICKSTART.read_text(), "q.lp"), puzzle, plan) is None


def test_random_puzzles_are_deterministic_and_grow() -> None:
    first, again = random_trials(60, 7, graphs=True), random_trials(60, 7, graphs=True)
    assert [(t.puzzle, t.horizons) for t in first] == [(t.puzzle, t.horizons) for t in again]
    sizes = [t.puzzle.disks for t in first]
    assert sizes[0] == 1 and max(sizes) == 7
    assert any(t.puzzle.moves_allowed for t in first)
    assert any(t.optimum is not None and t.optimum - 1 in t.horizons for t in first)
    assert any(t.optimum is not None and max(t.horizons) > t.optimum for t in first)
    assert any(sum(map(len, t.puzzle.goal.values())) < t.puzzle.disks for t in first)
    for trial in first:  # the optimum is breadth-first search's, the plan replays
        assert (trial.optimum is None) == (trial.plan is None)
        assert trial.plan is None or len(trial.plan) == trial.optimum


def test_grade_random_cli_json_junit_gradescope(run_cli: RunCli, tmp_path: Path) -> None:
    """``grade --random N`` in each output format (40 puzzles: the formats and exit codes
    do not depend on N, and the mistake shows on the first, one-disk puzzles)."""
    student = tmp_path / "student.lp"
    student.write_text(MUTANTS[0].text())
    args = ("grade", "--encoding", str(student), "--random", "40", "--seed", "5")
    code, out, _ = run_cli(*args, "--json")
    report = json.loads(out)
    assert code == 1 and report["passed"] is False
    example = report["counterexample"]
    assert set(example) == {
        "instance", "pegs", "disks", "horizon", "kind", "plan", "reason", "rules"
    }  # fmt: skip
    assert example["kind"] == "too-strict" and example["disks"] == 1
    assert f"moves({example['horizon']})." in example["instance"]
    assert example["rules"][0]["file"] == str(student)
    code, out, _ = run_cli(*args, "--format", "junit")
    suite = ElementTree.fromstring(out.encode())
    assert code == 1 and int(suite.get("failures", "0")) >= 1
    assert {case.get("name") for case in suite.iter("testcase")} >= {
        "below optimum",
        "at optimum",
        "above optimum",
    }
    code, out, _ = run_cli(*args, "--format", "gradescope")
    results = json.loads(out)
    assert code == 1 and results["score"] < results["max_score"]
    assert "smallest counterexample" in results["output"]
    assert all({"name", "score", "max_score", "output"} <= set(t) for t in results["tests"])
    # a test for every point: the random puzzles not run have theirs, each 0 of 1
    assert sum(t["max_score"] for t in results["tests"]) == results["max_score"]
    assert sum(t["score"] for t in results["tests"]) == results["score"]
    assert any(t["name"].endswith("(not run)") and t["score"] == 0 for t in results["tests"])
    assert re.search(r"smallest counterexample \(too-strict\): pegs? \w+", results["output"])
    code, _, err = run_cli(*args, "--json", "--format", "junit")
    assert code == 2 and err.count("\n") == 1


def test_grade_correct_encoding_passes_random_puzzles(run_cli: RunCli) -> None:
    """The command line's ``--random N``: the 7 teaching instances and N random puzzles,
    all passed (60 here: that no correct encoding is ever flagged is checked on more
    puzzles above, in three styles)."""
    code, out, _ = run_cli("grade", "--encoding", str(QUICKSTART), "--random", "60", "--json")
    report = json.loads(out)
    assert code == 0 and report["passed"] and report["counterexample"] is None
    assert report["score"]["total"] == 7 + 60


def test_grade_names_instances_alike_and_takes_folders(run_cli: RunCli) -> None:
    folder = ROOT / "instances" / "teaching"
    code, out, _ = run_cli("grade", "--encoding", str(QUICKSTART), str(folder), "--json")
    names = [item["instance"] for item in json.loads(out)["instances"]]
    assert code == 0 and len(names) == 7
    code, text, _ = run_cli("grade", "--encoding", str(QUICKSTART))
    default = json.loads(run_cli("grade", "--encoding", str(QUICKSTART), "--json")[1])
    for item in default["instances"]:
        assert item["instance"].startswith("teaching/") and item["instance"] in text


@pytest.mark.parametrize("exercise", EXERCISES, ids=[p.stem for p in EXERCISES])
def test_each_exercise_fails_with_its_own_header_command(run_cli: RunCli, exercise: Path) -> None:
    header = exercise.read_text()
    command = re.search(r"^% Grade it:\s+hanoi-asp (.+)$", header, re.MULTILINE)
    expect = re.search(r"^% Expect: (\S+)", header, re.MULTILINE)
    assert command and expect
    args = shlex.split(command.group(1))
    args = [str(ROOT / a) if a.startswith("encodings/") else a for a in args]
    code, out, _ = run_cli(*args, "--json")
    report = json.loads(out)
    kinds = {f["kind"] for item in report["instances"] for f in item["findings"]}
    assert code == 1 and expect.group(1) in kinds, kinds
    assert report["counterexample"] is not None


def test_api_grade_takes_random_and_seed() -> None:
    from fastapi.testclient import TestClient

    from hanoi_asp.web.app import create_app

    instance = (ROOT / "instances" / "teaching" / "01-one-disk.lp").read_text()
    mutant = next(m for m in MUTANTS if m.name == "no-propagation-past-disk-3")
    with TestClient(create_app(local_only=False)) as client:
        body = {"instance": instance, "encoding": mutant.text(), "random": 60, "seed": 1}
        answer = client.post("/api/grade", json=body)
        assert answer.status_code == 200
        report = answer.json()
        assert report["passed"] is False and report["counterexample"]["kind"] == "illegal-plan"
        assert report["instances"][0]["instance"] == "instance.lp"
        assert report["instances"][1]["instance"].startswith("teaching/")
        good = {**body, "encoding": QUICKSTART.read_text(), "random": 20}
        assert client.post("/api/grade", json=good).json()["counterexample"] is None
        too_many = client.post("/api/grade", json={**body, "random": 301})
        assert too_many.status_code == 422 and "random" in too_many.json()["error"]


@pytest.mark.parametrize("after", [0, 1, 3, 5])
def test_why_rejected_names_the_first_move_the_encoding_cannot_make(after: int) -> None:
    """A derived second move for every move onto c after step ``after``: the plan's
    first such move is the first the encoding cannot make (whatever clingo's core)."""
    choice = "{ move(D,P,T) : disk(D), peg(P) } = 1 :- moves(M), T = 1..M."
    extra = f"move(D,nowhere,T) :- move(D,P,T), T > {after}, P = c."
    text = QUICKSTART.read_text()
    assert choice in text
    text = text.replace(choice, choice + "\n" + extra, 1)
    tower = (1, 2, 3)
    puzzle = Puzzle(pegs=("a", "b", "c"), disks=3, init={"a": tower}, goal={"c": tower})
    _, plan = reference(puzzle)
    assert plan is not None
    first = next(step for step, (_, peg) in enumerate(plan, 1) if step > after and peg == "c")
    rejection = why_rejected(Encoding(text, "student.lp"), puzzle, plan)
    assert rejection is not None
    disk, peg = plan[first - 1]
    assert f"move at step {first}: move({disk},{peg},{first})," in rejection.reason
