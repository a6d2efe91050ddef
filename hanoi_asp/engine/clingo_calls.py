"""clingo's calls, timed and interruptible: a control with a logger that keeps clingo's
messages, grounding and solving clocked, a solve that stops at a deadline, and the
plan read back from a model.

A failure is an :class:`~hanoi_asp.model.errors.EncodingError` at the encoding's own
line; a malformed answer (no move at a step, two at one) a
:class:`~hanoi_asp.model.errors.VerificationError`.  Nothing here prints.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Sequence

import clingo

from hanoi_asp.inputs.facts import peg_name
from hanoi_asp.model.errors import EncodingError, MalformedAnswer, VerificationError
from hanoi_asp.model.result import HorizonRun, Status

Steps = list[tuple[int, str]]
"""A solver's raw answer: per step, the moved disk and its target peg."""

POLL_SECONDS = 0.1
"""How often a running solve looks at its deadline (stopping only: the scheduler stops
a solve call from inside it, at a point of the work, :mod:`hanoi_asp.engine.scheduler`)."""


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
        halt: threading.Event | None = None,
    ) -> None:
        self.encoding_path = encoding_path
        self.options = [*(() if warnings else ("--warn=none",)), *options]
        self.threads = threads
        self.halt = halt
        """Set when a running solve is cancelled (the deadline, Ctrl-C): what waits inside
        clingo's callback (the scheduler meeting A*) stops waiting."""
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
                while True:  # looked at before the first wait too: at once if due
                    if deadline is not None and time.monotonic() >= deadline:
                        self._cancel(handle)
                        break
                    if handle.wait(POLL_SECONDS):
                        break
            except KeyboardInterrupt:
                self._cancel(handle)
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

    def _cancel(self, handle: clingo.SolveHandle) -> None:
        if self.halt is not None:
            self.halt.set()
        handle.cancel()

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
    """The ``move(D,P,T)`` atoms of a model as one (disk, peg) per step 1..horizon; a
    step with two moves or none is a :class:`MalformedAnswer` naming the first."""
    by_step: dict[int, list[tuple[int, str]]] = {}
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
        by_step.setdefault(step.number, []).append((disk.number, name))
    for number in range(1, horizon + 1):
        found = sorted(by_step.get(number, ()))
        if len(found) != 1:
            moved = " and ".join(f"disk {disk} to {peg}" for disk, peg in found)
            times = "twice" if len(found) == 2 else f"{len(found)} times"
            raise MalformedAnswer(
                f"the encoding's answer moves {times} at step {number}: {moved}"
                if found
                else f"the encoding's answer has no move at step {number}",
                step=number,
                moves={t: tuple(sorted(moves)) for t, moves in sorted(by_step.items())},
            )
    return [by_step[t][0] for t in range(1, horizon + 1)]
