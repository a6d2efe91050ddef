"""The validated API, the error funnel and the rough edges of issue 12, each as a user meets it."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from conftest import INSTANCES, ROOT

import hanoi_asp
from hanoi_asp import (
    Encoding,
    InputError,
    Puzzle,
    Result,
    SolveOptions,
    load_puzzle,
    plan_facts,
    replay,
    solve,
)
from hanoi_asp.cli import commands
from hanoi_asp.engine.encodings import read_encoding
from hanoi_asp.teaching.explain import explain

QUICKSTART = str(INSTANCES / "quickstart.lp")
EXERCISES = ROOT / "encodings" / "exercises"


def tower(pegs: int, disks: int) -> Puzzle:
    names = tuple("abcdefg"[:pegs])
    whole = tuple(range(1, disks + 1))
    return Puzzle(pegs=names, disks=disks, init={names[0]: whole}, goal={names[-1]: whole})


# -- the validated Python API ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"method": "dfs"}, "unknown method 'dfs'"),
        ({"mode": "fast"}, "unknown mode 'fast'"),
        ({"bound": "tight"}, "unknown bound 'tight'"),
        ({"threads": 0}, "threads must be 1-64"),
        ({"threads": 65}, "threads must be 1-64"),
        ({"max_moves": -1}, "max_moves must be a non-negative integer"),
        ({"exact_moves": -3}, "exact_moves must be a non-negative integer"),
        ({"timeout": 0}, "timeout must be a positive number"),
        ({"timeout": float("nan")}, "timeout must be a positive number"),
        ({"max_moves": 10, "exact_moves": 15}, "give one, not both"),
        ({"encoding": "encodings/quickstart.lp"}, "Encoding.from_file(path)"),
    ],
)
def test_solve_options_reject_what_they_cannot_do(options: dict[str, object], words: str) -> None:
    with pytest.raises(InputError) as caught:
        SolveOptions(**options)  # type: ignore[arg-type]
    assert words in str(caught.value)


def test_an_encoding_file_is_read_not_mistaken_for_text() -> None:
    options = SolveOptions(encoding=Encoding.from_file(ROOT / "encodings" / "quickstart.lp"))
    result = solve(load_puzzle(QUICKSTART), options)
    assert result.length == 15 and result.mode == "oneshot"
    assert result.programs == (str(ROOT / "encodings" / "quickstart.lp"),)
    with pytest.raises(InputError, match="cannot read encoding"):
        Encoding.from_file(ROOT / "no-such.lp")


def test_encoding_text_with_a_script_is_refused_through_the_api() -> None:
    text = read_encoding("quickstart") + "\n#script (python)\nimport os\n#end.\n"
    with pytest.raises(hanoi_asp.EncodingError, match="#script is not allowed"):
        solve(load_puzzle(QUICKSTART), SolveOptions(encoding=Encoding(text, "mine.lp")))


def test_result_is_keyword_only_and_to_dict_is_the_cli_json(run_cli) -> None:
    with pytest.raises(TypeError):
        Result(tower(3, 1), "UNKNOWN")  # type: ignore[misc]
    result = solve(load_puzzle(QUICKSTART), SolveOptions(source=QUICKSTART, threads=1))
    code, out, _ = run_cli("solve", QUICKSTART, "--json", "--threads", "1")
    assert code == 0 == result.exit_code
    printed, ours = json.loads(out), result.to_dict()
    printed.pop("time_s"), ours.pop("time_s")
    # seconds per phase differ by run; the command line adds the file's reading
    assert set(printed.pop("timings")) == {"reading", *ours.pop("timings")}
    printed["first_plan"].pop("time_s"), ours["first_plan"].pop("time_s")
    for run in printed["horizons"] + ours["horizons"]:
        run.pop("time_s")
    assert printed == ours


def test_programs_record_what_the_engine_loaded() -> None:
    assert solve(tower(3, 4)).programs == ("incremental.lp", "distance3.lp")
    # 4 pegs: the pattern propagator, and time-ordered moves as the bound is exact
    assert solve(tower(4, 5)).programs == ("incremental.lp", "patterns.lp", "mirror.lp")
    no_mirror = solve(tower(4, 5), SolveOptions(mirror=False)).programs
    assert no_mirror == ("incremental.lp", "patterns.lp")
    assert solve(tower(4, 5), SolveOptions(patterns=False)).programs == (
        "incremental.lp",
        "mirror.lp",
    )
    assert solve(tower(3, 3), SolveOptions(mode="oneshot")).programs == ("quickstart.lp",)
    assert solve(tower(3, 3), SolveOptions(method="bfs")).programs == ()
    for puzzle in (tower(3, 4), tower(4, 5)):
        explanation = explain(puzzle, SolveOptions())
        programs = explanation.result.programs
        assert (explanation.encoding_name, *explanation.extras) == programs


def test_version_is_written_once(run_cli) -> None:
    code, out, _ = run_cli("--version")
    assert code == 0 and out.strip() == f"hanoi-asp {hanoi_asp.__version__}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]


def test_nothing_below_the_cli_prints(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = load_puzzle(QUICKSTART)
    solve(puzzle)
    explain(puzzle, SolveOptions())
    assert capsys.readouterr() == ("", "")


# -- the one error funnel ---------------------------------------------------------------------


def _raising(error: BaseException):  # type: ignore[no-untyped-def]
    def handler(_args: object) -> int:
        raise error

    return handler


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (KeyboardInterrupt(), 3, "hanoi-asp: error: interrupted"),
        (InputError("bad thing", path="x.lp", line=3), 2, "hanoi-asp: error: x.lp:3: bad thing"),
        (hanoi_asp.VerificationError("step 2: oops"), 4, "hanoi-asp: internal error: step 2"),
        (PermissionError(13, "Permission denied", "out.svg"), 2, "out.svg: Permission denied"),
        (BrokenPipeError(), 0, ""),
    ],
)
def test_every_error_reaches_one_funnel(
    run_cli, monkeypatch: pytest.MonkeyPatch, error: BaseException, code: int, words: str
) -> None:
    monkeypatch.setitem(commands.HANDLERS, "solve", _raising(error))
    got, out, err = run_cli("solve", QUICKSTART, "--json")
    assert got == code
    assert words in err and len(err.strip().splitlines()) == (1 if words else 0)
    if code not in (0,):
        assert json.loads(out)["exit_code"] == code


# -- rough edges ----------------------------------------------------------------------------


def test_bfs_json_mode_is_not_the_method(run_cli) -> None:
    code, out, _ = run_cli("solve", QUICKSTART, "--method", "bfs", "--json")
    data = json.loads(out)
    assert code == 0 and data["method"] == "bfs" and data["mode"] is None


def test_a_broken_user_encoding_is_blamed_on_it_naming_the_first_bad_step(run_cli) -> None:
    exercise = EXERCISES / "no-top-disk-test.lp"
    code, _, err = run_cli(
        "solve", str(INSTANCES / "classic" / "3pegs-4disks.lp"), "--encoding", str(exercise)
    )
    assert code == 2
    assert "internal error" not in err and len(err.strip().splitlines()) == 1
    assert f"{exercise}: the encoding's plan of" in err
    assert re.search(r"illegal or incomplete: step \d+: illegal move of disk \d", err)


def test_grade_shows_clingos_warnings_about_the_students_encoding(run_cli, tmp_path: Path) -> None:
    typo = tmp_path / "typo.lp"
    typo.write_text(
        read_encoding("quickstart").replace(
            ":- goal_on(D,P), not on(D,P,M)", ":- goal(D,P), not on(D,P,M)"
        )
    )
    code, out, _ = run_cli(
        "grade", "--encoding", str(typo), str(INSTANCES / "teaching" / "02-three-disks.lp")
    )
    assert code == 1
    assert "atom does not occur in any rule head" in out and "goal(D,P)" in out
    assert f"{typo}:" in out
    code, out, _ = run_cli("grade", "--encoding", str(typo), "--json", QUICKSTART)
    assert any("goal(D,P)" in w for w in json.loads(out)["warnings"])
    # the shipped reference encodings draw no warning at all
    code, out, _ = run_cli(
        "grade", "--encoding", str(ROOT / "encodings" / "quickstart.lp"), "--json"
    )
    assert code == 0 and json.loads(out)["warnings"] == []


@pytest.mark.parametrize("addon", ["distance3.lp", "mirror.lp"])
def test_grade_refuses_an_add_on_that_is_not_a_whole_encoding(run_cli, addon: str) -> None:
    code, out, err = run_cli("grade", "--encoding", str(ROOT / "encodings" / addon))
    assert code == 2 and out == ""
    assert "not a whole encoding: no rule derives move/3" in err


def test_grade_details_show_teaching_instances_by_short_name(run_cli) -> None:
    code, out, _ = run_cli("grade", "--encoding", str(EXERCISES / "no-goal-test.lp"))
    assert code == 1
    assert "teaching/01-one-disk.lp: goal-not-reached" in out
    assert str(ROOT / "instances" / "teaching") not in out


def test_a_spec_without_extension_says_how_to_name_it(run_cli, tmp_path: Path) -> None:
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


def test_help_texts(run_cli) -> None:
    _, out, _ = run_cli("solve", "--help")
    assert ".asp" in out and "--facts" in out
    _, out, _ = run_cli("batch", "--help")
    for words in ("instance files, or folders", "multi-shot solving", "no plan longer than N"):
        assert words in out
    _, out, _ = run_cli("generate", "--help")
    for words in ("pegs per instance", "disks per instance", "how many instances", "random seed"):
        assert words in out
    _, out, _ = run_cli("render", "--help")
    assert "--moves" not in out and "exit codes" in out


def test_moves_and_max_moves_together_are_refused(run_cli) -> None:
    code, _, err = run_cli("solve", QUICKSTART, "--moves", "15", "--max-moves", "10")
    assert code == 2 and "not allowed with argument" in err


def test_explain_statistics_mean_what_they_say(run_cli) -> None:
    partial = str(INSTANCES / "teaching" / "06-partial-goal.lp")
    for mode in ("incremental", "oneshot"):
        _, out, _ = run_cli("explain", partial, "--mode", mode, "--json")
        runs = json.loads(out)["horizons"]
        assert runs and all(run["atoms"] > 0 and run["rules"] > 0 for run in runs)
    code, out, _ = run_cli("explain", QUICKSTART, "--bound", "none")
    assert code == 0
    assert "shorter than 0" not in out and "fewer than 0" not in out
    assert "starts at horizon 0: no lower bound used" in out
    assert "choices: decisions the solver made" in out


def test_tutorial_and_encoding_give_a_clingo_command_that_works() -> None:
    header = read_encoding("quickstart")
    assert "python -m clingo instances/quickstart.lp encodings/quickstart.lp" in header
    assert "python -m clingo" in (ROOT / "docs" / "tutorial.md").read_text()
    import clingo

    messages: list[str] = []
    ctl = clingo.Control(logger=lambda _c, m: messages.append(m))
    ctl.load(str(ROOT / "instances" / "quickstart.lp"))  # our own shipped, trusted files
    ctl.add("base", [], header)
    ctl.ground([("base", [])])
    assert ctl.solve().satisfiable
    assert not [m for m in messages if "edge" in m]  # #defined edge/2 silences the info


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    bom = tmp_path / "bom.lp"
    bom.write_bytes(b"\xef\xbb\xbf" + Path(QUICKSTART).read_bytes())
    assert load_puzzle(str(bom)) == load_puzzle(QUICKSTART)


def test_a_capitalised_predicate_gets_a_hint(run_cli, tmp_path: Path) -> None:
    bad = tmp_path / "cap.lp"
    bad.write_text("Peg(a;b;c).\ndisk(1).\n")
    code, _, err = run_cli("solve", str(bad))
    assert code == 2
    assert f"{bad}:1:" in err and "Peg is a variable" in err and "write peg(...)" in err


def test_solve_facts_prints_the_plan_as_asp_facts(run_cli) -> None:
    code, out, _ = run_cli("solve", QUICKSTART, "--facts")
    assert code == 0
    facts = re.findall(r"^move\((\d+),(\w+),(\d+)\)\.$", out, re.MULTILINE)
    assert len(facts) == len(out.strip().splitlines()) == 15
    steps = sorted((int(t), int(d), p) for d, p, t in facts)
    assert [t for t, _, _ in steps] == list(range(1, 16))
    plan = replay(load_puzzle(QUICKSTART), [(d, p) for _, d, p in steps])
    assert plan_facts(plan) == out.strip()


def test_the_package_namespace_is_its_api() -> None:
    """``dir(hanoi_asp)`` lists the API only (no ``Any``, ``TYPE_CHECKING`` or
    ``importlib``), and each name it lists loads."""
    assert dir(hanoi_asp) == sorted(hanoi_asp.__all__)
    assert not {"Any", "TYPE_CHECKING", "importlib"} & set(dir(hanoi_asp))
    assert all(getattr(hanoi_asp, name) is not None for name in hanoi_asp.__all__)
    assert hanoi_asp.Proof is type(hanoi_asp.solve(tower(3, 1)).proof_data)
