"""The command line's options (``hanoi_asp/cli/parser.py``): help texts, the version, and
usage errors as one line, exit 2."""

from __future__ import annotations

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
