"""The solve options on the command line (``hanoi_asp/cli/solve_options.py``), made from
their one declaration (``SolveOptions``' fields and their flags): every command takes
what its declaration says, ``--config`` takes every solve option, and each option given
reaches its field."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

import pytest
from support.cli import RunCli
from support.files import QUICKSTART, ROOT

from hanoi_asp.cli.batch_command import batch_configs
from hanoi_asp.cli.parser import build_parser
from hanoi_asp.cli.solve_options import FORMATS, config_options, solve_options
from hanoi_asp.model.flags import Flag, Place
from hanoi_asp.model.options import Encoding, SolveOptions, solve_flags

QUICKSTART_ENCODING = str(ROOT / "encodings" / "quickstart.lp")
BATCH_OWN = {"timeout"}
"""The solve options a ``--config`` does not take: a batch's ``--timeout`` is its own,
the per-instance limit (a hard kill outside the solve), the same for every
configuration so that their times compare."""


def _sample(name: str, flag: Flag) -> tuple[list[str], Any]:
    """Words that give ``flag`` a value other than its field's default, and that value."""
    default = getattr(SolveOptions(), name)
    if flag.switch:
        return [flag.flag], not default
    if flag.choices is not None:
        choice = next(c for c in flag.choices if c != default)
        return [flag.flag, choice], choice
    if flag.many:
        return [flag.flag, "disks=9", flag.flag, "pegs=5"], replace(default, disks=9, pegs=5)
    if name == "encoding":
        return [flag.flag, QUICKSTART_ENCODING], Encoding.from_file(QUICKSTART_ENCODING)
    return [flag.flag, "3"], 3


def _flags_of(command: str) -> set[str]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {o for action in commands.choices[command]._actions for o in action.option_strings}


def test_config_takes_every_solve_option() -> None:
    """Walks the declared options of ``solve``: each one a ``--config`` takes, given
    there, sets its field (the batch's own time limit aside)."""
    walked = []
    for name, flag in solve_flags("solve"):
        if name in BATCH_OWN:
            assert "config" not in flag.takes
            continue
        assert "config" in flag.takes, flag.flag
        words, value = _sample(name, flag)
        item = "x=" + " ".join(words)
        given = config_options(item)[1]
        assert given == {name: value}, item
        assert getattr(replace(SolveOptions(), **given), name) == value
        walked.append(flag.flag)
    assert {"--no-cache", "--limit", "--moves", "--no-mirror", "--work"} <= set(walked)


@pytest.mark.parametrize("command", ["solve", "explain", "render", "batch"])
def test_each_command_takes_the_options_declared_for_it(command: Place) -> None:
    declared = {flag.flag for _, flag in solve_flags(command)}
    others = {flag.flag for _, flag in solve_flags()} - declared
    own = {"batch": {"--timeout", "--encoding"}}.get(command, set())  # the batch's own
    flags = _flags_of(command)
    assert declared <= flags
    assert not (others - own) & flags


@pytest.mark.parametrize("command", ["solve", "explain", "render", "batch"])
def test_every_option_given_reaches_its_field(command: Place) -> None:
    for name, flag in solve_flags(command):
        words, value = _sample(name, flag)
        head = [command, "x"] if command == "batch" else [command, QUICKSTART]
        args = build_parser().parse_args([*head, *words])
        assert getattr(solve_options(args, command), name) == value, flag.flag
        defaults = solve_options(build_parser().parse_args(head), command)
        assert defaults == SolveOptions(), command


def test_batch_configurations_start_from_the_batch_own_options() -> None:
    base = SolveOptions(method="bfs", table_cache=False)
    configs = dict(batch_configs(base, [QUICKSTART_ENCODING], ["m=--no-mirror --mode oneshot"]))
    assert configs["quickstart"] == replace(base, encoding=Encoding.from_file(QUICKSTART_ENCODING))
    assert configs["m"] == replace(base, mirror=False, mode="oneshot")


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("x=--timeout 3", "unrecognized arguments: --timeout 3"),
        ("x=--moves 3 --max-moves 4", "not allowed with argument"),
        ("x=--threads 65", "argument --threads: clingo runs at most 64 threads"),
        ("x=--limit disks", "--limit takes disks=N"),
        ("x=--method dfs", "invalid choice: 'dfs'"),
        ("x=--encoding 'no such.lp'", "no such.lp: cannot read encoding"),
        ("x=--bound 'open", "No closing quotation"),
        ("=--no-cache", "--config takes NAME=OPTIONS"),
    ],
)
def test_config_refuses_in_one_line(item: str, words: str) -> None:
    from hanoi_asp.model.errors import InputError

    with pytest.raises(InputError) as refused:
        config_options(item)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_usage_errors_keep_their_words(run_cli: RunCli) -> None:
    code, _, err = run_cli("solve", QUICKSTART, "--moves", "-1")
    assert code == 2
    assert err.strip() == "hanoi-asp solve: error: argument --moves: must not be negative: -1"
    code, _, err = run_cli("solve", QUICKSTART, "--max-moves", "3", "--moves", "4")
    assert "argument --moves: not allowed with argument --max-moves" in err


def test_no_mirror_turns_the_mirror_off(run_cli: RunCli) -> None:
    import json

    tower = str(ROOT / "instances" / "classic" / "4pegs-6disks.lp")
    _, out, _ = run_cli("solve", tower, "--json")
    _, plain, _ = run_cli("solve", tower, "--json", "--no-mirror")
    mirrored, direct = json.loads(out), json.loads(plain)
    assert "mirror.lp" in mirrored["programs"] and "mirror.lp" not in direct["programs"]
    assert mirrored["length"] == direct["length"] == 17
    assert direct["result"] == "OPTIMUM FOUND"


def test_the_format_choices_are_the_readers() -> None:
    from typing import get_args

    from hanoi_asp.inputs.instance import Format

    assert get_args(Format) == FORMATS
