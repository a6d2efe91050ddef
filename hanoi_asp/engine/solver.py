"""One horizon at a time: ground the encoding for a plan length and ask clingo.

Two drivers share one interface (:class:`HorizonSolver`):

* :class:`OneShotSolver` grounds the whole one-shot encoding afresh for every
  horizon, with ``moves(M)`` as a fact: the quickstart's way, kept for teaching and
  as the benchmark baseline.
* :class:`IncrementalSolver` keeps one ``clingo.Control`` and grounds one more
  ``step(t)`` per horizon (clingo's multi-shot pattern), so clauses learnt while
  refuting short horizons are reused at the longer ones.

Nothing here decides what a horizon means for minimality; :mod:`hanoi_asp.engine.search`
does.  Nothing here prints.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Protocol

import clingo

from hanoi_asp.inputs.facts import instance_facts, peg_name
from hanoi_asp.model.errors import EncodingError, VerificationError
from hanoi_asp.model.puzzle import Puzzle
from hanoi_asp.model.result import HorizonRun, Status

Steps = list[tuple[int, str]]
"""A solver's raw answer: per step, the moved disk and its target peg."""

POLL_SECONDS = 0.1
GROUND_CHUNK = 32
"""Steps per ground call (3-peg n=9: 5.6 s of grounding one by one, 1.5 s in chunks)."""


class HorizonPropagator(Protocol):
    """A ``clingo.Propagator`` whose checks depend on the horizon being solved."""

    horizon: int

    def init(self, init: clingo.PropagateInit) -> None: ...


class HorizonSolver(Protocol):
    calls: ClingoCalls

    def run(self, horizon: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        """Solve at ``horizon``; stop by ``deadline`` (a ``time.monotonic()`` value)."""
        ...


class ClingoCalls:
    """Shared plumbing: a logger that keeps clingo's messages, and a timed,
    interruptible solve.  clingo's warnings are off unless ``warnings`` is set (grading
    shows a student what clingo says about their encoding)."""

    def __init__(
        self,
        encoding_path: str,
        options: Sequence[str],
        threads: int | None = None,
        *,
        warnings: bool = False,
    ) -> None:
        self.encoding_path = encoding_path
        self.options = [*(() if warnings else ("--warn=none",)), *options]
        self.threads = threads
        self.messages: list[str] = []
        self.grounding = 0.0
        """Seconds spent in clingo's grounder so far (parsing included)."""
        self.solving = 0.0
        """Seconds spent in clingo's search so far."""

    def new_control(self) -> clingo.Control:
        ctl = clingo.Control(self.options, logger=self._log, message_limit=20)
        if self.threads is not None:
            # set on the configuration, so that it overrides a -t among the options
            ctl.configuration.solve.parallel_mode = str(self.threads)  # type: ignore[union-attr]

        return ctl

    def _log(self, _code: clingo.MessageCode, message: str) -> None:
        self.messages.append(message.strip())

    def failure(self, what: str) -> EncodingError:
        """The first error clingo logged, at the encoding's own line: clingo names text
        added from memory ``<block>`` (``<string>`` in older versions)."""
        detail = next((m for m in self.messages if "error" in m), what)
        placed = re.match(r"<(?:block|string)>:(\d+):\S*\s*(.*)", detail, re.DOTALL)
        if placed is None:
            return EncodingError(detail, path=self.encoding_path)
        line, rest = placed.groups()
        rest = re.sub(r"<(?:block|string)>:", "line ", rest)
        return EncodingError(rest, path=self.encoding_path, line=int(line))

    def add(self, ctl: clingo.Control, name: str, params: list[str], text: str) -> None:
        began = time.monotonic()
        try:
            ctl.add(name, params, text)
        except RuntimeError:
            raise self.failure("the encoding does not parse") from None
        finally:
            self.grounding += time.monotonic() - began

    def ground(self, ctl: clingo.Control, parts: list[tuple[str, list[clingo.Symbol]]]) -> None:
        began = time.monotonic()
        try:
            ctl.ground(parts)
        except RuntimeError:
            raise self.failure("the encoding does not ground") from None
        finally:
            self.grounding += time.monotonic() - began

    def solve(
        self, ctl: clingo.Control, horizon: int, deadline: float | None, started: float
    ) -> tuple[HorizonRun, Steps | None]:
        found: list[list[clingo.Symbol]] = []

        def on_model(model: clingo.Model) -> bool:
            found.append(list(model.symbols(atoms=True)))
            return False  # one model is all we need

        status: Status
        began = time.monotonic()
        with ctl.solve(on_model=on_model, async_=True) as handle:
            try:
                while not handle.wait(POLL_SECONDS):
                    if deadline is not None and time.monotonic() >= deadline:
                        handle.cancel()
                        break
            except KeyboardInterrupt:
                handle.cancel()
                handle.get()
                self.solving += time.monotonic() - began
                raise
            result = handle.get()
        self.solving += time.monotonic() - began
        if found:
            status = "SAT"
        elif result.unsatisfiable:
            status = "UNSAT"
        else:
            status = "UNKNOWN"
        stats = ctl.statistics
        solvers = stats["solving"]["solvers"]
        lp = stats["problem"]["lp"]
        run = HorizonRun(
            horizon=horizon,
            status=status,
            seconds=time.monotonic() - started,
            choices=int(solvers["choices"]),
            conflicts=int(solvers["conflicts"]),
            # the grounder's atoms: clingo's lp statistics say 0 atoms when the
            # preprocessor alone refutes a program (seen on a one-shot partial goal)
            atoms=len(ctl.symbolic_atoms),
            rules=int(lp["rules"]),
        )
        return run, (extract_steps(found[0], horizon) if found else None)

    def core(
        self,
        ctl: clingo.Control,
        assumptions: list[tuple[clingo.Symbol, bool]],
        deadline: float,
    ) -> list[int] | None:
        """The literals of clingo's unsatisfiable core under ``assumptions``; None if
        satisfiable or out of time by ``deadline``."""
        core: list[int] = []
        with ctl.solve(assumptions=assumptions, on_core=core.extend, async_=True) as handle:
            while not handle.wait(POLL_SECONDS):
                if time.monotonic() > deadline:
                    handle.cancel()
                    return None
            answer = handle.get()
        return core if answer.unsatisfiable else None


def extract_steps(symbols: list[clingo.Symbol], horizon: int) -> Steps:
    """The ``move(D,P,T)`` atoms of a model as one (disk, peg) per step 1..horizon."""
    by_step: dict[int, tuple[int, str]] = {}
    for symbol in symbols:
        if symbol.type != clingo.SymbolType.Function or symbol.name != "move":
            continue
        if len(symbol.arguments) != 3:
            continue
        disk, peg, step = symbol.arguments
        name = peg_name(peg)
        if disk.type != clingo.SymbolType.Number or step.type != clingo.SymbolType.Number:
            raise VerificationError(f"the encoding shows a malformed move: {symbol}")
        if name is None:
            raise VerificationError(f"the encoding shows a move to a non-peg: {symbol}")
        if not 1 <= step.number <= horizon:
            continue
        if step.number in by_step:
            raise VerificationError(f"the encoding's answer moves twice at step {step.number}")
        by_step[step.number] = (disk.number, name)
    missing = [t for t in range(1, horizon + 1) if t not in by_step]
    if missing:
        raise VerificationError(f"the encoding's answer has no move at step {missing[0]}")
    return [by_step[t] for t in range(1, horizon + 1)]


class OneShotSolver:
    """Ground a one-shot encoding afresh for every horizon (``moves(M)`` as a fact)."""

    def __init__(
        self,
        puzzle: Puzzle,
        encoding: str,
        *,
        encoding_path: str = "encoding",
        options: Sequence[str] = (),
        threads: int | None = None,
        warnings: bool = False,
    ) -> None:
        self.facts = instance_facts(puzzle)
        self.encoding = encoding
        self.calls = ClingoCalls(encoding_path, options, threads, warnings=warnings)

    def run(self, horizon: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        started = time.monotonic()
        ctl = self.calls.new_control()
        self.calls.add(ctl, "base", [], f"{self.facts}\nmoves({horizon}).")
        self.calls.add(ctl, "base", [], self.encoding)
        self.calls.ground(ctl, [("base", [])])
        return self.calls.solve(ctl, horizon, deadline, started)


class IncrementalSolver:
    """One control for all horizons: ground ``step(t)`` once each, switch ``query(t)``.

    ``prune`` adds the encoding's ``prune(t)`` program, whose constraints keep every
    minimal plan but not every plan: use it for the minimal search only.  ``extra``
    is more program text (e.g. ``distance3.lp`` and its facts) with the parts
    ``distance(t)`` and ``distance_check(t)``.  ``propagator`` is registered with clingo
    and told each horizon before it is solved (:mod:`hanoi_asp.engine.pruning`).
    """

    def __init__(
        self,
        puzzle: Puzzle,
        encoding: str,
        *,
        prune: bool,
        encoding_path: str = "encoding",
        options: Sequence[str] = (),
        extra: str = "",
        threads: int | None = None,
        warnings: bool = False,
        propagator: HorizonPropagator | None = None,
    ) -> None:
        self.calls = ClingoCalls(encoding_path, options, threads, warnings=warnings)
        self.ctl = self.calls.new_control()
        self.propagator = propagator
        if propagator is not None:
            self.ctl.register_propagator(propagator)  # type: ignore[arg-type]
        self.calls.add(self.ctl, "base", [], instance_facts(puzzle))
        self.calls.add(self.ctl, "base", [], encoding)
        if extra:
            self.calls.add(self.ctl, "base", [], extra)
        self.prune = prune
        self.grounded = -1  # the last horizon solved (its check(t) is ground)
        self.stepped = -1  # the last step(t) ground
        self.calls.ground(self.ctl, [("base", [])])

    def _unfinished(self, horizon: int, started: float) -> HorizonRun:
        seconds = time.monotonic() - started
        return HorizonRun(horizon, "UNKNOWN", seconds, 0, 0, 0, 0)

    def run(self, horizon: int, deadline: float | None) -> tuple[HorizonRun, Steps | None]:
        if horizon <= self.grounded:
            raise ValueError(f"horizons must increase: {horizon} after {self.grounded}")
        started = time.monotonic()
        # steps go to the grounder GROUND_CHUNK at a time: far faster than one call per
        # step, and the deadline is still checked between calls
        for first in range(self.stepped + 1, horizon + 1, GROUND_CHUNK):
            if deadline is not None and time.monotonic() >= deadline:
                # out of time while grounding: ground no further, report UNKNOWN
                return self._unfinished(horizon, started), None
            parts: list[tuple[str, list[clingo.Symbol]]] = []
            last = min(first + GROUND_CHUNK - 1, horizon)
            for t in range(first, last + 1):
                number = [clingo.Number(t)]
                if t > 0:
                    parts.append(("step", number))
                    if self.prune:
                        parts.append(("prune", number))
                # programs an encoding lacks are simply not grounded
                parts.append(("distance", number))
            self.calls.ground(self.ctl, parts)
            self.stepped = last
        # goal tests only where a horizon is solved
        number = [clingo.Number(horizon)]
        self.calls.ground(self.ctl, [("check", number), ("distance_check", number)])
        if self.grounded >= 0:
            self.ctl.release_external(clingo.Function("query", [clingo.Number(self.grounded)]))
        self.grounded = horizon
        self.ctl.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)
        if self.propagator is not None:
            self.propagator.horizon = horizon
        return self.calls.solve(self.ctl, horizon, deadline, started)
