"""``python -m hanoi_asp`` and the ``hanoi-asp`` console script, with the one error funnel.

Every error the package raises on purpose is a :class:`HanoiError` carrying its exit
code; :func:`error_funnel` turns it, Ctrl-C, a closed pipe and an unwritable output file
into one line on stderr and the documented exit code (see :mod:`hanoi_asp.model.errors`),
never a traceback.

The command line's modules (clingo, rich, pydantic) are imported inside the funnel, so
a Ctrl-C while they load is answered like any other: ``interrupted``, exit 3.
"""

from __future__ import annotations

import _thread
import argparse
import atexit
import errno
import gc
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from types import FrameType
from typing import TextIO

from hanoi_asp.model.errors import (
    EXIT_BAD_INPUT,
    EXIT_FOUND,
    EXIT_INTERNAL,
    EXIT_UNKNOWN,
    STOP_SIGNALS,
    HanoiError,
    UsageError,
)
from hanoi_asp.outputs.safe_text import visible_text


@contextmanager
def error_funnel(json_instance: str | None = None) -> Iterator[None]:
    """Map every error to its one-line message and exit code (raised as SystemExit).
    With ``json_instance``, the error is also printed as a JSON object on stdout."""
    try:
        yield
    except UsageError as error:
        _fail(error.message, error.exit_code, json_instance, error.prog)
    except HanoiError as error:
        _fail(str(error.for_command_line()), error.exit_code, json_instance)
    except KeyboardInterrupt:
        _fail("interrupted", EXIT_UNKNOWN, json_instance)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): not an error of ours; later writes
        # (the interpreter's final flush) go nowhere instead of failing again
        _nowhere(sys.stdout)
        raise SystemExit(EXIT_FOUND) from None
    except OSError as error:  # an output file that cannot be written
        if error.errno == errno.EIO and _SigintSeen.hangup:
            # the terminal closed (SIGHUP), and with it stdout: a stop, told to no one
            _nowhere(sys.stdout, sys.stderr)
            raise SystemExit(EXIT_UNKNOWN) from None
        where = f"{error.filename}: " if error.filename else ""
        _fail(f"{where}{error.strerror or error}", EXIT_BAD_INPUT, json_instance)
    except BaseException as error:
        # pydantic-core (pyo3) turns a Ctrl-C during its import into a PanicException,
        # a BaseException: after a Ctrl-C, it is that interrupt
        if _SigintSeen.seen and not isinstance(error, SystemExit | GeneratorExit):
            _fail("interrupted", EXIT_UNKNOWN, json_instance)
        raise


def _fail(message: str, code: int, json_instance: str | None, prog: str = "hanoi-asp") -> None:
    """Say it (where stderr and stdout can still be written) and exit with ``code``."""
    label = "internal error" if code == EXIT_INTERNAL else "error"
    with suppress(OSError):  # a closed stderr (`2>&-`, a terminal gone): no one to tell
        # one line whatever a name holds (a newline, a terminal's escape): shown, not acted
        sys.stderr.write(f"{prog}: {label}: {visible_text(message)}\n")
        sys.stderr.flush()
    if json_instance is not None:
        from hanoi_asp.outputs.json import error_json

        with suppress(OSError):
            print(json.dumps(error_json(json_instance, message, code)))
    raise SystemExit(code) from None


def _nowhere(*streams: TextIO) -> None:
    """Send what is still to be written to these streams nowhere (later writes, the
    interpreter's final flush, would fail again)."""
    for stream in streams:
        with suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code (errors exit through the funnel)."""
    with error_funnel(_starting_json(argv)):
        from hanoi_asp.cli.parser import build_parser

        parser = build_parser(sys.argv[1:] if argv is None else argv)
        refused: UsageError | None = None
        try:
            args = parser.parse_args(argv)
        except UsageError as error:
            refused = error  # answered below, naming the instance as far as it can be read
    if refused is not None:
        with error_funnel(_usage_json(parser, argv)):
            raise refused
    wants_json = getattr(args, "json", False) and hasattr(args, "file")
    with error_funnel(args.file if wants_json else None):
        from hanoi_asp.cli.commands import run

        return run(args)
    raise AssertionError("unreachable")  # pragma: no cover  (the funnel always exits)


def _starting_json(argv: Sequence[str] | None) -> str | None:
    """The instance of a ``--json`` command, read from the raw arguments, so that a
    Ctrl-C while the parser loads still prints a JSON object (``FILE`` follows the
    command name in every command that has ``--json``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--json" not in args:
        return None
    return args[1] if len(args) > 1 and not args[1].startswith("-") else ""


def _usage_json(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> str | None:
    """The instance of a ``--json`` command line for its usage error's JSON object: its
    ``FILE`` as far as the parser can tell (an unknown option leaves it known)."""
    given = _starting_json(argv)
    if given is None:
        return None
    try:
        known, _ = parser.parse_known_args(argv)
    except UsageError:
        return given
    file = getattr(known, "file", None)
    return file if isinstance(file, str) else given


class _SigintSeen:
    """Ctrl-C's handler: raises KeyboardInterrupt as Python's own does, and remembers it.
    SIGTERM and SIGHUP are handled the same way (:data:`STOP_SIGNALS`), so a stopped job
    still prints its best plan or UNKNOWN and keeps its results.  A hangup once a stop
    is under way only repeats it (a closed terminal sends one, its shell another) and
    would cut the answer short: it is let go."""

    seen = False
    hangup = False
    """A SIGHUP came: writing to the terminal may fail (EIO) from now on."""

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGHUP:
            _SigintSeen.hangup = True
            if _SigintSeen.seen:
                return
        _SigintSeen.seen = True
        raise KeyboardInterrupt


REDELIVER_AFTER_S = 0.01
"""How soon a Ctrl-C swallowed by a destructor is delivered again (from another thread,
so that it lands in the main thread's code, not in this hook)."""


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """A Ctrl-C that lands in a destructor (a clingo AST node freed while an instance is
    parsed) would be swallowed there and the solve would go on: deliver it again, to
    the main thread's code once this hook has returned.  Not from the hook itself: the
    handler would run at once, inside the hook, where Python ignores it too (the solve
    went on: ``tests/cli/test_main.py``); nor may a Ctrl-C arriving while the hook runs be
    lost.  After a Ctrl-C, other destructor errors are echoes of it (objects left
    half-built) and are not shown."""
    try:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _deliver_again()
        elif not _SigintSeen.seen:
            sys.__unraisablehook__(unraisable)
    except KeyboardInterrupt:
        _deliver_again()


def _deliver_again() -> None:
    timer = threading.Timer(REDELIVER_AFTER_S, _thread.interrupt_main)
    timer.daemon = True
    timer.start()


def _too_late_to_stop() -> None:
    """The command has answered and Python is shutting down: a stop signal now has
    nothing left to stop, but once Python has put back the default handlers it would
    end the process by that signal (seen: SIGINT 0.7 s into a ``site`` that had just
    written its folder, exit -2 instead of 0).  Ignored handlers are left in place."""
    for number in STOP_SIGNALS:
        with suppress(ValueError):  # not the main thread (cannot be, at exit)
            signal.signal(number, signal.SIG_IGN)


def _no_final_collection() -> None:
    """The command has answered and Python is shutting down: its final garbage
    collections would walk every object the imports made (pydantic's schemas, clingo's
    modules) only to free memory the system takes back anyway, much of a quick
    command's time (docs/decisions/startup.md).  Frozen, they are not walked.  Objects
    are still freed when nothing holds them; one that only a cycle holds is left to the
    system, finalizer and all, as Python may leave any object at exit.  Nothing written
    is at stake: every output is closed (``with``) or flushed as it is written, and
    Python flushes the standard streams after this."""
    gc.freeze()


def entrypoint() -> None:
    """The console script.  After a Ctrl-C the process ends with ``os._exit``: CPython
    3.11 marks a KeyboardInterrupt raised inside ``exec`` of a string (dataclasses make
    their methods so, e.g. while a module is still being imported) as unhandled even
    when the funnel handled it, and would then end the process by SIGINT instead of
    with the documented exit code (seen in 2 of 30 runs, Ctrl-C at 0.27 s and 0.39 s)."""
    # a signal ignored from the start stays ignored, as Python leaves an ignored SIGINT:
    # nohup ignores SIGHUP, a script's `cmd &` SIGINT
    for number in STOP_SIGNALS:
        if signal.getsignal(number) != signal.SIG_IGN:
            signal.signal(number, _SigintSeen())
    atexit.register(_no_final_collection)  # runs last: registered before any other
    atexit.register(_too_late_to_stop)
    sys.unraisablehook = _unraisable
    try:
        with error_funnel():
            code = main()
            sys.stdout.flush()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else EXIT_INTERNAL
    if _SigintSeen.seen:
        with suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entrypoint()
