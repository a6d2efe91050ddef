"""A folder built beside another put in its place whole, or not at all.

``site OUTDIR`` builds the site in a hidden folder next to ``OUTDIR`` (same file
system, so every move is a rename) and swaps it in only when complete: a failed or
stopped export leaves the folder exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType

from hanoi_asp.model.errors import STOP_SIGNALS, InputError


def target_folder(outdir: Path) -> Path:
    """The folder ``outdir`` names, resolved (``.``, ``sub/..``, links followed): its
    parent, where the site is built, is then never inside it.  The root folder has no
    parent to build in; a dangling link names no folder."""
    if outdir.is_symlink() and not outdir.exists():
        raise InputError(
            f"is a link to {os.readlink(outdir)}, which leads to nothing (a missing "
            "file, or a loop of links)",
            path=str(outdir),
        )
    try:
        target = outdir.resolve()
    except (OSError, RuntimeError) as error:  # a loop of links (RuntimeError before 3.13)
        raise InputError(f"cannot be resolved: {error}", path=str(outdir)) from None
    if target.exists() and not target.is_dir():
        raise InputError("exists and is not a folder", path=str(outdir))
    if target.parent == target:
        raise InputError(
            "is the root folder: a site is built beside its folder, and / has nothing "
            "beside it; give a folder below it",
            path=str(outdir),
        )
    if target.is_dir() and target.stat().st_dev != target.parent.stat().st_dev:
        raise InputError(
            "is a mount point: a site is built beside its folder and moved in, which "
            "cannot cross file systems; give a folder inside it",
            path=str(outdir),
        )
    return target


def beside(target: Path, role: str, outdir: Path) -> Path:
    """A new hidden folder next to ``target`` (same file system: moves are renames)."""
    try:
        return Path(tempfile.mkdtemp(prefix=f".{target.name}-{role}", dir=target.parent))
    except OSError as error:
        raise InputError(
            f"cannot make a folder beside it, in {target.parent}: {error.strerror or error}",
            path=str(outdir),
        ) from None


def put_in_place(building: Path, target: Path, outdir: Path) -> None:
    """Make ``target`` hold what ``building`` holds, and nothing else.

    A new target is ``building`` renamed.  An existing one keeps its own folder (its
    permissions, a shell standing in it, links to it): what it holds is moved to a
    folder beside it, the site moved in, and the old content deleted only then.  Every
    move is a rename within one file system; if one fails, the ones done are undone,
    so the target holds what it held before.  Ctrl-C, SIGTERM and SIGHUP wait until
    the moves are done (:func:`stop_signals_held`): a stop never leaves half of each."""
    if not target.exists():
        building.rename(target)
        return
    old = beside(target, "replaced-", outdir)
    moved_out: list[str] = []
    moved_in: list[str] = []
    swapped = False
    try:
        with stop_signals_held():
            try:
                for name in sorted(os.listdir(target)):
                    os.rename(target / name, old / name)
                    moved_out.append(name)
                for name in sorted(os.listdir(building)):
                    os.rename(building / name, target / name)
                    moved_in.append(name)
            except OSError:
                _move_back(moved_in, target, building)
                _move_back(moved_out, old, target)
                with suppress(OSError):
                    old.rmdir()  # only if every file went back
                if old.exists():
                    raise InputError(
                        "the export failed and what the folder held could not all be put "
                        f"back: the rest is in {old}",
                        path=str(outdir),
                    ) from None
                raise
            swapped = True
    finally:  # a stop held during the moves is raised after them: the old content goes
        if swapped:
            shutil.rmtree(old, ignore_errors=True)


def _move_back(names: list[str], source: Path, target: Path) -> None:
    for name in names:
        with suppress(OSError):
            os.rename(source / name, target / name)


@contextmanager
def stop_signals_held() -> Iterator[None]:
    """Run the block to its end before a stop signal is handled: each one that comes
    meanwhile is noted and raised again after it.  Only Python's own handlers are held
    (an ignored signal stays ignored), and only in the main thread, where they run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(number: int, _: FrameType | None) -> None:
        came.append(number)

    held = {
        number: signal.signal(number, note)
        for number in STOP_SIGNALS
        if callable(signal.getsignal(number))
    }
    try:
        yield
    finally:
        for number, handler in held.items():
            signal.signal(number, handler)
        for late in came:
            signal.raise_signal(late)
