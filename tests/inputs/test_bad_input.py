"""Every kind of bad input (``hanoi_asp/inputs``): one line naming the file (and line),
exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES

GOOD = "peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\n"


# (file name, content, text the message must contain, line the message must name)
CASES = [
    ("syntax.lp", "peg(a;b;c).\ndisk(1..3.\n", "syntax error", 2),
    ("unknown-peg.lp", GOOD + "init_on(1,z).\n", "unknown peg", 5),
    ("goal-unknown-peg.lp", GOOD + "goal_on(2,z).\n", "unknown peg", 5),
    ("disk-range.lp", GOOD + "init_on(7,a).\n", "out of range", 5),
    ("goal-disk-range.lp", GOOD + "goal_on(9,a).\n", "out of range", 5),
    ("missing.lp", "peg(a;b).\ndisk(1..3).\ninit_on(1..2,a).\n", "disk 3 has no init_on", 2),
    ("twice.lp", GOOD + "init_on(2,b).\n", "placed twice", 5),
    ("goal-twice.lp", GOOD + "goal_on(1,b).\n", "placed twice", 5),
    ("no-pegs.lp", "disk(1..3).\ninit_on(1..3,a).\n", "no peg/1 facts", None),
    ("no-disks.lp", "peg(a;b).\n", "no disk/1 facts", None),
    ("neg-moves.lp", GOOD + "moves(-1).\n", "non-negative integer", 5),
    ("sym-moves.lp", GOOD + "moves(a).\n", "non-negative integer", 5),
    ("rule.lp", GOOD + "p(X) :- disk(X).\n", "rule with a body", 5),
    ("variable.lp", GOOD + "disk(X).\n", "variable X", 5),
    ("script.lp", GOOD + '#script (python)\nopen("x","w")\n#end.\n', "#script", 5),
    ("const.lp", "#const n=3.\n" + GOOD, "#const", 1),
    ("include.lp", GOOD + '#include "other.lp".\n', "#include", 5),
    ("predicate.lp", GOOD + "foo(1).\n", "unknown predicate foo/1", 5),
    ("gap.lp", "peg(a;b).\ndisk(1;3).\ninit_on((1;3),a).\n", "numbered 1..n", 2),
    ("huge.lp", "peg(a).\ndisk(1..100000000).\n", "more than", 2),
    # an interval's bounds may be arithmetic: sized before anything is expanded
    ("huge-product.lp", "peg(a).\ndisk(1..1000*1000).\n", "more than 20000 facts", 2),
    ("huge-pool.lp", GOOD + "peg(1;1..(1000+1)*1000).\n", "more than 20000 facts", 5),
    ("empty-tuple-peg.lp", GOOD + "peg(()).\n", "must be a constant, integer or string", 5),
    ("function-peg.lp", GOOD + "peg(f(x)).\n", "must be a constant, integer or string", 5),
    ("empty-string-peg.lp", GOOD + 'peg("").\n', "a peg name cannot be empty", 5),
    ("empty-tuple-disk.lp", GOOD + "disk(()).\n", "a disk is a positive integer", 5),
    ("malformed.json", '{"pegs": ["a", "b"],\n "disks": 2,\n', "malformed JSON", 3),
    ("malformed.toml", 'pegs = ["a", "b"]\ndisks = = 2\n', "malformed TOML", 2),
    ("zero-pegs.json", '{"pegs": [], "disks": 1, "init": {}, "goal": {}}', "pegs", None),
    ("zero-disks.json", '{"pegs": ["a"], "disks": 0, "init": {}, "goal": {}}', "disks", None),
    (
        "spec-unknown-peg.json",
        '{"pegs": ["a"], "disks": 1, "init": {"z": [1]}, "goal": {}}',
        "unknown peg",
        None,
    ),
    (
        "spec-missing.toml",
        'pegs = ["a", "b"]\ndisks = 2\n[init]\na = [1]\n[goal]\n',
        "disk 2 is on no peg",
        None,
    ),
    (
        "spec-twice.toml",
        'pegs = ["a", "b"]\ndisks = 2\n[init]\na = [1, 2]\nb = [2]\n[goal]\n',
        "placed twice",
        None,
    ),
    (
        "spec-goal-twice.json",
        '{"pegs": ["a","b"], "disks": 1, "init": {"a": [1]}, "goal": {"a": [1], "b": [1]}}',
        "placed twice",
        None,
    ),
    (
        "spec-goal-range.json",
        '{"pegs": ["a"], "disks": 1, "init": {"a": [1]}, "goal": {"a": [4]}}',
        "out of range",
        None,
    ),
    (
        "spec-neg-moves.toml",
        'pegs = ["a"]\ndisks = 1\nmax_moves = -3\n[init]\na = [1]\n[goal]\n',
        "max_moves",
        None,
    ),
    (
        "spec-float-moves.json",
        '{"pegs": ["a"], "disks": 1, "init": {"a": [1]}, "goal": {}, "max_moves": 2.5}',
        "max_moves",
        None,
    ),
    (
        "spec-extra.json",
        '{"pegs": ["a"], "disks": 1, "init": {"a": [1]}, "goal": {}, "colour": 1}',
        "colour",
        None,
    ),
    ("spec-list.json", "[1, 2, 3]", "must be an object", None),
    ("binary.lp", b"\xff\xfe\x00peg(a).", "not UTF-8", None),
]


@pytest.mark.parametrize("name, content, expected, line", CASES, ids=[c[0] for c in CASES])
def test_bad_input_one_line_exit_2(
    run_cli: RunCli,
    tmp_path: Path,
    name: str,
    content: str | bytes,
    expected: str,
    line: int | None,
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    code, out, err = run_cli("solve", str(path))
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert str(path) in lines[0]
    assert expected in lines[0]
    if line is not None:
        assert f"{path}:{line}:" in lines[0]


def test_script_is_not_run(run_cli: RunCli, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.lp"
    path.write_text(GOOD + f'#script (python)\nopen("{marker}", "w").close()\n#end.\n')
    code, _, _ = run_cli("solve", str(path))
    assert code == 2
    assert not marker.exists()


def test_include_is_not_followed(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "other.lp").write_text("peg(z).")
    path = tmp_path / "inc.lp"
    path.write_text(f'#include "{tmp_path / "other.lp"}".\n' + GOOD)
    code, _, err = run_cli("solve", str(path))
    assert code == 2 and "#include" in err


def test_missing_file(run_cli: RunCli, tmp_path: Path) -> None:
    code, _, err = run_cli("solve", str(tmp_path / "nope.lp"))
    assert code == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["solve"],
        ["solve", "x.lp", "--moves", "-1"],
        ["solve", "x.lp", "--moves", "a"],
        ["frobnicate"],
    ],
)
def test_usage_errors_one_line_exit_2(run_cli: RunCli, argv: list[str]) -> None:
    code, _, err = run_cli(*argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_bad_input_under_json_is_still_json(run_cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "bad.lp"
    path.write_text("peg(a).\n")
    code, out, err = run_cli("solve", str(path), "--json")
    assert code == 2
    assert json.loads(out)["result"] == "ERROR"
    assert len(err.strip().splitlines()) == 1


def test_broken_user_encoding(run_cli: RunCli, tmp_path: Path) -> None:
    encoding = tmp_path / "enc.lp"
    encoding.write_text("move(D,P,T) :- .\n")
    good = tmp_path / "ok.lp"
    good.write_text(GOOD)
    code, _, err = run_cli("solve", str(good), "--encoding", str(encoding))
    assert code == 2
    assert str(encoding) in err and len(err.strip().splitlines()) == 1


def test_a_spec_without_extension_says_how_to_name_it(run_cli: RunCli, tmp_path: Path) -> None:
    for source, kind in (("arbitrary.toml", "toml"), ("arbitrary.json", "json")):
        noext = tmp_path / f"noext-{kind}"
        noext.write_text((INSTANCES / source).read_text())
        code, _, err = run_cli("solve", str(noext))
        assert code == 2
        assert "cannot tell the format from the file name" in err
        assert f"name it .{kind} or pass --format {kind}" in err
        code, _, err = run_cli("solve", str(noext), "--format", "lp")
        assert code == 2 and f"read as --format lp, but it looks like a {kind.upper()} spec" in err
        code, out, _ = run_cli("solve", str(noext), "--format", kind, "--json")
        assert code == 0 and json.loads(out)["result"] == "OPTIMUM FOUND"


def test_bad_move_graphs_are_input_errors(run_cli: RunCli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.lp"
    bad.write_text("peg(a;b).\ndisk(1).\ninit_on(1,a).\ngoal_on(1,b).\nedge(a,z).\n")
    code, _, err = run_cli("solve", str(bad))
    assert code == 2 and f"{bad}:5: edge: unknown peg z" in err
    loop = tmp_path / "loop.toml"
    loop.write_text('pegs=["a","b"]\ndisks=1\ninit={a=[1]}\ngoal={b=[1]}\nmoves_allowed="star"\n')
    code, _, err = run_cli("solve", str(loop))
    assert code == 2 and "unknown move graph preset 'star'" in err


def test_an_empty_move_graph_is_refused_not_read_as_every_move(
    run_cli: RunCli, tmp_path: Path
) -> None:
    path = tmp_path / "empty.json"
    path.write_text(
        '{"pegs": ["a", "b", "c"], "disks": 1, "init": {"a": [1]}, "goal": {"c": [1]},'
        ' "moves_allowed": []}'
    )
    code, _, err = run_cli("solve", str(path))
    assert code == 2 and "moves_allowed lists no move" in err and "Traceback" not in err
