"""Instance files of every supported format -> :class:`~hanoi_asp.model.puzzle.Puzzle`.

>>> detect_format("spec.toml"), detect_format("0005-hanoi_tower-60-0.asp")
('toml', 'lp')

* ``.lp`` (and anything not ``.json``/``.toml``): quickstart-style ASP facts,
  read by :mod:`hanoi_asp.inputs.read_facts` without running anything in the file.
* ``.asp`` or any file naming ``on0``/``ongoal``: the ASP Competition's HanoiTower
  format (:mod:`hanoi_asp.inputs.aspcomp`).
* ``.json`` / ``.toml``: a spec validated by the pydantic model.
* ``.pddl`` or any file that defines a PDDL problem: a problem of a Hanoi domain, the
  domain given or beside it (:mod:`hanoi_asp.inputs.pddl`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

from hanoi_asp.inputs.aspcomp import looks_like_aspcomp, read_aspcomp
from hanoi_asp.inputs.pddl_files import DomainFile, domain_for, pddl_kind
from hanoi_asp.inputs.read_facts import read_facts
from hanoi_asp.model.errors import InputError, InvalidPuzzle
from hanoi_asp.model.files import read_user_file
from hanoi_asp.model.puzzle import Puzzle

TextFormat = Literal["lp", "aspcomp", "json", "toml"]
"""The formats whose one text is the whole instance (the web's editor takes these)."""
Format = Literal[TextFormat, "pddl"]
"""Every format: a PDDL problem comes with its domain (a file, or one read)."""


KNOWN_SUFFIXES = (".lp", ".asp", ".json", ".toml", ".pddl")


def detect_format(path: str) -> Format:
    """The format a file name says; ``lp`` (sniffed again for the competition format)
    for anything but ``.json`` and ``.toml``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix == ".toml":
        return "toml"
    if suffix == ".pddl":
        return "pddl"
    return "lp"


def looks_like_spec(text: str) -> Format | None:
    """``json`` or ``toml`` if the text looks like a spec rather than ASP facts.

    >>> looks_like_spec('pegs = ["a", "b"]'), looks_like_spec('{"pegs": []}')
    ('toml', 'json')
    >>> looks_like_spec("peg(a). % a comment")
    """
    body = text.lstrip()
    if body.startswith("{"):
        return "json"
    if re.search(r"^\s*(\[[\w.\s]+\]|[A-Za-z_][\w-]*\s*=)", text, re.MULTILINE):
        return "toml"
    return None


def read_text(path: str) -> str:
    """A file's text, or an :class:`InputError` saying why it cannot be read: only a
    regular file, at most :data:`MAX_FILE_BYTES` (see :mod:`hanoi_asp.model.files`)."""
    return read_user_file(path, what="instance")


def load_puzzle(
    path: str, fmt: Format | None = None, domain: str | DomainFile | None = None
) -> Puzzle:
    """Read and validate an instance file; every problem is an :class:`InputError`.
    ``domain``: a PDDL problem's domain file, or one read (default: the one beside it)."""
    text = read_text(path)
    if domain is None and fmt in (None, "lp", "pddl"):
        domain = domain_for(path, text)
    return parse_puzzle(text, path, fmt, domain)


def parse_puzzle(
    text: str, path: str, fmt: Format | None = None, domain: str | DomainFile | None = None
) -> Puzzle:
    """Validate an instance's text (read elsewhere: a file shipped to a batch worker, a
    page's editor); ``path`` names it in errors and, without ``fmt``, gives its format.
    A PDDL problem's ``domain`` is never looked for beside ``path``: a text's name is no
    file (:func:`load_puzzle` looks for a file's)."""
    given = fmt
    fmt = fmt or detect_format(path)
    if fmt == "lp" and looks_like_aspcomp(text):
        fmt = "aspcomp"
    elif fmt == "lp" and pddl_kind(text) is not None:
        fmt = "pddl"
    if fmt == "pddl":
        from hanoi_asp.inputs.pddl import read_pddl  # imported here: .lp files need none of it

        return read_pddl(text, path, domain)
    if fmt == "lp":
        try:
            return read_facts(text, path)
        except InputError as error:
            raise _unknown_format(error, path, text, given) from None
    if fmt == "aspcomp":
        return read_aspcomp(text, path)
    data = _parse_json(text, path) if fmt == "json" else _parse_toml(text, path)
    return puzzle_from_spec(data, path, text)


def _unknown_format(error: InputError, path: str, text: str, given: Format | None) -> InputError:
    """A file read as ASP facts that is not: say how to name its real format."""
    spec = looks_like_spec(text)
    known = Path(path).suffix.lower() in KNOWN_SUFFIXES
    if given is not None or known:
        if spec is None:
            return error
        how = f"read as --format lp, but it looks like a {spec.upper()} spec: "
        how += f"pass --format {spec}"
    elif spec is not None:
        how = (
            f"cannot tell the format from the file name (no {', '.join(KNOWN_SUFFIXES)} "
            f"suffix); it looks like a {spec.upper()} spec: name it .{spec} or pass --format {spec}"
        )
    else:
        how = (
            f"cannot tell the format from the file name (no {', '.join(KNOWN_SUFFIXES)} "
            f"suffix) and it is not ASP facts ({error.message}): name it by its format "
            "or pass --format"
        )
    return InputError(how, path=path)


def _parse_json(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"malformed JSON: {error.msg}", path=path, line=error.lineno) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", path=path) from None


def _parse_toml(text: str, path: str) -> Any:
    import tomllib  # imported here: only a TOML spec needs it

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line = None
        if "(at line " in message:
            message, _, where = message.partition(" (at line ")
            line = int(where.split(",")[0].rstrip(")"))
        raise InputError(f"malformed TOML: {message}", path=path, line=line) from None


def puzzle_from_spec(data: Any, path: str, text: str = "") -> Puzzle:
    """Validate parsed spec data; report the first problem as ``field: message``, or
    every unknown key with its line in ``text`` (a misspelt ``disk = 3`` is named, not
    reported as ``disks`` missing)."""
    if not isinstance(data, dict):
        raise InputError("a spec must be an object/table with pegs, disks, init, goal", path=path)
    try:
        return Puzzle.model_validate(data)
    except InvalidPuzzle as error:
        unknown = [
            str(problem["loc"][0])
            for problem in error.problems
            if problem["type"] == "extra_forbidden" and len(problem["loc"]) == 1
        ]
        if not unknown:
            raise InputError(error.message, path=path) from None
        lines = [_key_line(text, key) for key in unknown]
        named = ", ".join(
            f"{key!r}" + ("" if line is None else f" (line {line})")
            for key, line in zip(unknown, lines, strict=True)
        )
        fields = ", ".join(Puzzle.model_fields)
        raise InputError(
            f"unknown key{'s' if len(unknown) > 1 else ''} {named}: a spec has {fields}",
            path=path,
            line=next((line for line in lines if line is not None), None),
        ) from None


def _key_line(text: str, key: str) -> int | None:
    """The line where a top-level ``key`` is written: ``key = ...`` (TOML) or
    ``"key": ...`` (JSON)."""
    pattern = rf'^\s*(?:{re.escape(key)}\s*=|"{re.escape(key)}"\s*:)|"{re.escape(key)}"\s*:'
    for number, line in enumerate(text.splitlines(), start=1):
        if re.search(pattern, line):
            return number
    return None
