"""Which files a batch runs: the files given, and the instance files in the folders given
(walked recursively, in sorted order), leaving out what would hang or fool a worker and
the PDDL domains that are read with their problems."""

from __future__ import annotations

from pathlib import Path

from hanoi_asp.inputs.pddl_files import pddl_kind
from hanoi_asp.model.errors import InputError

INSTANCE_SUFFIXES = (".lp", ".asp", ".json", ".toml", ".pddl")


def find_instances(paths: list[str]) -> list[Path]:
    """Files as given; folders walked recursively, instance files in sorted order; none
    at all is an error."""
    return scan_instances(paths)[0]


def scan_instances(paths: list[str]) -> tuple[list[Path], list[str]]:
    """:func:`find_instances`, and what a folder walk skipped and why: an entry with an
    instance's name that is no regular file (a FIFO would hang a worker, a link to
    ``/dev/zero`` never end), or a link to nowhere."""
    found: list[Path] = []
    skipped: list[str] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for entry in sorted(path.rglob("*")):
                if entry.suffix not in INSTANCE_SUFFIXES or entry.is_dir():
                    continue
                if entry.suffix == ".pddl" and entry.is_file() and pddl_domain(entry):
                    continue  # a problem's domain, read with the problem
                if entry.is_file():
                    found.append(entry)
                else:
                    why = "a broken link" if not entry.exists() else "not a regular file"
                    skipped.append(f"{entry}: skipped, {why}")
        elif path.is_file():
            found.append(path)
        elif path.exists():
            raise InputError("is not a regular file: refused", path=name)
        else:
            raise InputError("no such file or folder", path=name)
    if not found:
        raise InputError(
            f"no instance files ({', '.join(INSTANCE_SUFFIXES)}) in: {' '.join(paths)}"
        )
    return found, skipped


def pddl_domain(path: Path) -> bool:
    """Does this ``.pddl`` file define a domain (not a problem)?  Its first KiB says."""
    try:
        with path.open("rb") as handle:
            head = handle.read(1024).decode("utf-8", "replace")
    except OSError:
        return False
    return pddl_kind(head) == "domain"
