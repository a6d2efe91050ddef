"""Our engine as a peer: ``python -m hanoi_asp solve FILE --json`` in a fresh process
tree, from this checkout or from a baseline revision's ``git worktree``, each run with
a pattern-table cache of its own (cold, as a first solve on a new machine) unless one
is shared; the plan it prints is replayed here before it counts.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.harness.paths import ROOT
from benchmarks.harness.processes import TreeRun, last_line, run_tree
from hanoi_asp import Puzzle, VerificationError, replay


def solve_command(path: Path | str, timeout: float | None = None, *extra: str) -> list[str]:
    """``python -m hanoi_asp solve PATH --json [--timeout T] EXTRA...``."""
    command = [sys.executable, "-m", "hanoi_asp", "solve", str(path), "--json"]
    if timeout is not None:
        command += ["--timeout", f"{timeout:g}"]
    return command + list(extra)


def environment(tree: Path) -> dict[str, str]:
    """This environment with ``tree``'s ``hanoi_asp`` first on the path (a baseline's
    worktree shadows the installed package), and no colours."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), env.get("PYTHONPATH")) if p)
    env["NO_COLOR"] = "1"
    return env


@dataclass(frozen=True)
class Answer:
    """One solve of ours: the process tree's run, and the JSON it printed (None when it
    was killed or printed none: ``why`` says which)."""

    run: TreeRun
    json: dict[str, Any] | None
    why: str = ""


def solve_json(
    command: Sequence[str],
    tree: Path = ROOT,
    *,
    kill_after: float,
    tables: Path | None = None,
    memory_limit_mib: float | None = None,
) -> Answer:
    """Run ``command`` (a :func:`solve_command`) with ``tree``'s package, in ``tree``
    (``-m`` puts the working folder first on the path), killed at ``kill_after``
    seconds or over ``memory_limit_mib``; ``tables``: the pattern-table cache folder to
    share (None: an empty one for this run alone)."""
    with tempfile.TemporaryDirectory(prefix="hanoi-tables-") as empty:
        env = {**environment(tree), "HANOI_ASP_CACHE_DIR": str(tables or empty)}
        done = run_tree(
            command, timeout_s=kill_after, cwd=tree, env=env, memory_limit_mib=memory_limit_mib
        )
    if done.stopped:
        return Answer(done, None, f"killed ({done.stopped}) at {done.seconds:.1f} s")
    try:
        answer: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return Answer(
            done, None, f"exit {done.returncode}: {last_line(done.stderr or done.stdout)}"
        )
    return Answer(done, answer)


def check_plan(puzzle: Puzzle, plan: Sequence[dict[str, Any]]) -> str:
    """``ok``, or why :func:`hanoi_asp.replay` rejects the JSON plan."""
    try:
        replay(puzzle, [(int(move["disk"]), str(move["to"])) for move in plan])
    except (VerificationError, KeyError, ValueError, TypeError) as error:
        return f"failed: {error}"
    return "ok"


@contextlib.contextmanager
def baseline_tree(rev: str, wanted: bool = True) -> Iterator[tuple[Path | None, str]]:
    """A detached ``git worktree`` of ``rev`` in a temporary folder, removed after:
    (its folder, "") or (None, why it could not be made); (None, "") if not ``wanted``."""
    if not wanted:
        yield None, ""
        return
    folder = Path(tempfile.mkdtemp(prefix="hanoi-baseline-"))
    made = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), rev],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        if made.returncode != 0:
            yield None, f"git worktree add {rev} failed: {last_line(made.stderr)}"
        else:
            yield folder, ""
    finally:
        if made.returncode == 0:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                capture_output=True,
                check=False,
            )
        shutil.rmtree(folder, ignore_errors=True)


def compile_tree(checkout: Path) -> None:
    """Compile ``checkout``'s package to bytecode first, as ``pip install`` does, so that
    no run pays for compiling our sources: with ``PYTHONDONTWRITEBYTECODE`` set (as on
    this machine) every run would, about 0.1 s each, which a user of the installed
    package never pays.  The peers come installed, so compiled, already."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(checkout / "hanoi_asp")],
        check=True,
        capture_output=True,
    )
