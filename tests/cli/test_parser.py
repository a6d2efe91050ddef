"""The command line's options (``hanoi_asp/cli/parser.py``): help texts, the version, and
usage errors as one line, exit 2."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from support.cli import RunCli
from support.files import INSTANCES, QUICKSTART, ROOT

import hanoi_asp


def test_help_documents_exit_codes(run_cli: RunCli) -> None:
    code, out, _ = run_cli("solve", "--help")
    assert code == 0
    for line in ("0  a plan was found", "1  UNSATISFIABLE", "2  bad input", "3  UNKNOWN"):
        assert line in out


def test_version_is_written_once(run_cli: RunCli) -> None:
    code, out, _ = run_cli("--version")
    assert code == 0 and out.strip() == f"hanoi-asp {hanoi_asp.__version__}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]


def test_help_texts(run_cli: RunCli) -> None:
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


def test_moves_and_max_moves_together_are_refused(run_cli: RunCli) -> None:
    code, _, err = run_cli("solve", QUICKSTART, "--moves", "15", "--max-moves", "10")
    assert code == 2 and "not allowed with argument" in err


@pytest.mark.parametrize("bad", ["0", "65", "two"])
def test_bad_thread_counts_are_usage_errors(run_cli: RunCli, bad: str) -> None:
    code, _, err = run_cli("solve", str(INSTANCES / "quickstart.lp"), "--threads", bad)
    assert code == 2
    assert "--threads" in err and "Traceback" not in err


def test_batch_retry_takes_the_kinds_the_batch_knows(run_cli: RunCli) -> None:
    from hanoi_asp.batch.row import RETRY_KINDS
    from hanoi_asp.cli.parser import build_parser

    for kind in RETRY_KINDS:
        assert build_parser().parse_args(["batch", "x", "--retry", kind]).retry == [kind]
    code, _, err = run_cli("batch", "x", "--retry", "everything")
    assert code == 2 and "invalid choice: 'everything'" in err


RUNS = [
    ["solve", "x.lp", "--json", "--timeout", "3", "--method", "bfs"],
    ["check", "x.lp", "plan.txt", "--json"],
    ["batch", "x", "y", "--workers", "2", "--retry", "timeout"],
    ["report", "r.jsonl"],
    ["explain", "x.lp"],
    ["render", "x.lp", "--html", "out.html"],
    ["grade", "--encoding", "e.lp", "--random", "3"],
    ["generate", "out", "--pegs", "3", "--disks", "4", "--count", "2"],
    ["export", "x.lp", "--pddl", "out"],
    ["serve"],
    ["site", "out"],
]


@pytest.mark.parametrize("argv", RUNS, ids=lambda argv: argv[0])
def test_a_run_reads_its_command_as_the_whole_parser_does(argv: list[str]) -> None:
    from hanoi_asp.cli.parser import build_parser

    assert build_parser(argv).parse_args(argv) == build_parser().parse_args(argv)


def test_only_a_named_command_gets_its_sub_parser_and_help_lists_them_all() -> None:
    from hanoi_asp.cli.commands import COMMANDS
    from hanoi_asp.cli.parser import build_parser

    def choices(argv: list[str] | None) -> list[str]:
        commands = build_parser(argv)._subparsers._group_actions[0]  # type: ignore[union-attr]
        return list(commands.choices)  # type: ignore[arg-type]

    every = [command.NAME for command in COMMANDS]
    assert choices(["solve", "x.lp"]) == ["solve"]
    for argv in (None, [], ["--help"], ["--help", "solve"], ["solv", "x.lp"], ["--version"]):
        assert choices(argv) == every
    assert {run[0] for run in RUNS} == set(every)


def test_a_misspelt_command_is_told_every_choice(run_cli: RunCli) -> None:
    code, _, err = run_cli("solv", "x.lp")
    assert code == 2 and "invalid choice: 'solv' (choose from 'solve', 'check'," in err
    code, out, _ = run_cli("--help")
    assert code == 0 and "{solve,check,batch,report,explain,render,grade," in out


def test_each_command_is_its_module_and_a_run_imports_no_other() -> None:
    from hanoi_asp.cli.commands import COMMANDS

    for command in COMMANDS:
        assert command.module.NAME == command.NAME
        assert command.module.__name__ == f"hanoi_asp.cli.{command.NAME}_command"
    code = (
        "import sys; from hanoi_asp.cli.parser import build_parser; "
        "build_parser(['solve', 'x.lp']).parse_args(['solve', 'x.lp']); "
        "print(sorted(m for m in sys.modules if m.endswith('_command')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['hanoi_asp.cli.solve_command']"
