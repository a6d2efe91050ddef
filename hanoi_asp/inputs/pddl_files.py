"""Which PDDL domain a problem is solved with: ``--domain FILE``, or the one found
beside the problem file.

Only a file's domain is looked for, never a text's (the web's editor, a Dask worker's
copy), so a text never makes a read of a file of the machine it runs on; a batch's client
reads the domain and ships it with the problem to workers that share no file system
(:class:`DomainFile`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hanoi_asp.model.errors import InputError
from hanoi_asp.model.files import read_user_file

DOMAIN_NAMES = (
    "{stem}-domain.pddl",
    "domain-{stem}.pddl",
    "{stem}_domain.pddl",
    "domain_{stem}.pddl",
    "domain.pddl",
)
"""Where a problem's domain is looked for beside it, in this order (the usual layouts
of planning benchmark folders: one ``domain.pddl`` per folder, or one per problem)."""

NO_DOMAIN = "no PDDL domain: give --domain FILE, or put domain.pddl beside the problem"
_DEFINE = re.compile(r"\(\s*define\s*\(\s*(problem|domain)\b", re.IGNORECASE)


def pddl_kind(text: str) -> str | None:
    """``problem`` or ``domain`` if the text (comments aside) defines one, else None.

    >>> pddl_kind("; a comment\\n(define (problem p1) (:domain hanoi))")
    'problem'
    >>> pddl_kind("peg(a).") is None
    True
    """
    body = "\n".join(line.split(";", 1)[0] for line in text.splitlines())
    found = _DEFINE.match(body.lstrip())
    return found.group(1).lower() if found else None


def domain_beside(path: str) -> Path | None:
    """The domain file beside the problem ``path``: the first of :data:`DOMAIN_NAMES`
    that exists, else None."""
    problem = Path(path)
    for pattern in DOMAIN_NAMES:
        candidate = problem.with_name(pattern.format(stem=problem.stem))
        if candidate != problem and candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class DomainFile:
    """A PDDL domain, read: its file's name (for messages) and its text."""

    path: str
    text: str

    @classmethod
    def read(cls, path: str | Path) -> DomainFile:
        """The domain file ``path``; one line if it cannot be read or is no domain."""
        text = read_user_file(str(path), what="domain")
        if pddl_kind(text) != "domain":
            raise InputError(
                "not a PDDL domain: no (define (domain ...)) at its start", path=str(path)
            )
        return cls(str(path), text)


def domain_for(path: str, text: str, given: DomainFile | None = None) -> DomainFile | None:
    """The domain of the file ``path`` (its ``text``) if it is a PDDL problem: ``given``
    (``--domain``), else the one beside it, read (none: one line); None for any other
    instance."""
    if pddl_kind(text) != "problem":
        return None
    if given is not None:
        return given
    beside = domain_beside(path)
    if beside is None:
        raise InputError(NO_DOMAIN, path=path)
    return DomainFile.read(beside)
