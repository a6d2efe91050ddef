"""The ASP Competition's own HanoiTower encoding as a peer, driven like ``incmode.lp``.

    python -m benchmarks.harness.peers.competition instances/aspcomp/0047-hanoi_tower-120-0.asp

The encoding (``encoding.asp`` from potassco/asp-planning-benchmarks, kept unchanged in
``shared/benchmarks/aspcomp-hanoi-tower/`` next to this repository, or next to a folder
above it) is read at run time, never copied here. The competition runs it with
``incmode.lp``, whose one line ``#include <incmode>.`` pulls in clingo's
incremental-mode script; we leave that file out (and drop such a line from the encoding,
should a copy have it) and do the script's work through clingo's Python API instead, so
that the run is timed and stopped by us: ground ``base``, then for t = 0, 1, 2, ...:
ground ``step(t)`` (t > 0) and ``check(t)``, make the external ``query(t)`` true and
release ``query(t-1)``, solve; stop at the first satisfiable t. The ``#external
query(t).`` declaration in ``check(t)`` is part of clingo's incmode program, not of the
encoding, so we add it as incmode does.

The encoding allows idle steps (``occurs/2`` is a choice), so the length is the number
of ``put(M,N,T)`` atoms, not t; the first satisfiable t is still the minimal number of
moves (a plan with fewer moves fits a smaller horizon: a minimal plan never moves a disk
twice in a row, which the encoding forbids).  The instance's ``steps(S)`` fact is not
used by the encoding and the search does not need it.  The plan is mapped back to
hanoi-asp's moves (``put(M,N,T)``: competition disk N onto M, a peg 1-4 or a disk; our
disk N - 4, see :mod:`hanoi_asp.inputs.aspcomp`) and replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import clingo

from benchmarks.harness.paths import ROOT
from benchmarks.harness.peers import PeerRun
from hanoi_asp import HanoiError, Puzzle, VerificationError, load_puzzle, replay
from hanoi_asp.inputs.aspcomp import PEGS
from hanoi_asp.inputs.instance import read_text

SHARED_ENCODING = Path("shared", "benchmarks", "aspcomp-hanoi-tower", "encoding.asp")


def _find_encoding() -> Path:
    """``shared/benchmarks/aspcomp-hanoi-tower/encoding.asp`` beside the checkout, or
    beside any folder above it (a worktree lies deeper than the main checkout)."""
    for folder in ROOT.parents:
        if (folder / SHARED_ENCODING).is_file():
            return folder / SHARED_ENCODING
    return ROOT.parent / SHARED_ENCODING


ENCODING = _find_encoding()
INCMODE_EXTERNAL = "\n#program check(t).\n#external query(t).\n"


def competition_program(encoding: Path = ENCODING) -> str:
    """The encoding without any ``#include <incmode>.`` (the shipped ``encoding.asp``
    has none: ``incmode.lp`` is that one line), plus incmode's external."""
    lines = encoding.read_text(encoding="utf-8").splitlines()
    if not any(line.startswith("#program step(t)") for line in lines):
        raise ValueError(f"{encoding}: no '#program step(t).': not an incremental encoding")
    kept = [line for line in lines if line.strip() != "#include <incmode>."]
    return "\n".join(kept) + INCMODE_EXTERNAL


def plan_from_puts(puzzle: Puzzle, puts: list[clingo.Symbol]) -> list[tuple[int, str]]:
    """``put(M,N,T)`` atoms -> ``(disk, target peg name)`` steps in time order, following
    the stacks to find the peg of a disk M.  Raises ValueError for two moves at one
    time, or a put onto a disk that is not on top."""
    moves = sorted(
        (a.arguments[2].number, a.arguments[1].number, a.arguments[0].number) for a in puts
    )
    times = [t for t, _, _ in moves]
    if len(set(times)) != len(times):
        raise ValueError("two moves at one time step")
    where = dict(enumerate(puzzle.initial_state(), start=1))
    steps: list[tuple[int, str]] = []
    for _, moved, onto in moves:
        disk = moved - PEGS
        if onto <= PEGS:
            target = puzzle.peg_index(str(onto))
        else:
            target = where[onto - PEGS]
            if any(d > onto - PEGS and p == target for d, p in where.items()):
                raise ValueError(f"put({onto},{moved},_): disk {onto} is not on top")
        where[disk] = target
        steps.append((disk, puzzle.pegs[target]))
    return steps


def solve_competition(
    instance_path: str | Path, timeout_s: float, *, threads: int = 1, encoding: Path = ENCODING
) -> PeerRun:
    """The competition encoding on one competition instance, horizon 0, 1, 2, ... up to
    the first satisfiable one, stopped at ``timeout_s`` (between horizons, or by
    cancelling the solve: grounding one step cannot be interrupted, so a caller must
    still kill the process at a hard limit).  ``threads``: clingo's (1, as plain
    ``clingo`` runs it)."""
    started = time.perf_counter()
    deadline = started + timeout_s

    def outcome(status: str, length: int | None = None, detail: str = "") -> PeerRun:
        return PeerRun(status, length, time.perf_counter() - started, detail)

    path = str(instance_path)
    try:
        puzzle = load_puzzle(path)  # only ground facts: safe to hand to clingo
        text = read_text(path)
        program = competition_program(encoding)
    except (HanoiError, OSError, ValueError) as error:
        return outcome("ERROR", detail=str(error))
    control = clingo.Control([f"--parallel-mode={threads}"], logger=lambda code, message: None)
    control.add("base", [], text)
    control.add("base", [], program)
    puts: list[clingo.Symbol] = []

    def on_model(model: clingo.Model) -> None:
        puts[:] = [s for s in model.symbols(shown=True) if s.match("put", 3)]

    step = 0
    while True:
        if time.perf_counter() >= deadline:
            return outcome("TIMEOUT", detail=f"horizons 0..{step - 1} refuted")
        parts: list[tuple[str, list[clingo.Symbol]]] = [("check", [clingo.Number(step)])]
        if step > 0:
            control.release_external(clingo.Function("query", [clingo.Number(step - 1)]))
            parts.append(("step", [clingo.Number(step)]))
            control.cleanup()
        else:
            parts.append(("base", []))
        control.ground(parts)
        control.assign_external(clingo.Function("query", [clingo.Number(step)]), True)
        with control.solve(on_model=on_model, async_=True) as handle:
            if not handle.wait(max(deadline - time.perf_counter(), 0.0)):
                handle.cancel()
                return outcome("TIMEOUT", detail=f"horizons 0..{step - 1} refuted")
            result = handle.get()
        if result.satisfiable:
            break
        step += 1
    try:
        steps = plan_from_puts(puzzle, puts)
        replay(puzzle, steps)
    except (ValueError, VerificationError) as error:
        return outcome("ERROR", detail=f"plan rejected: {error}")
    return outcome("OPTIMUM FOUND", len(steps), f"horizon {step}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("instance")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--encoding", type=Path, default=ENCODING)
    args = parser.parse_args(argv)
    run = solve_competition(
        args.instance, args.timeout, threads=args.threads, encoding=args.encoding
    )
    print(json.dumps(run.to_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
