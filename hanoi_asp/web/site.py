"""``hanoi-asp site OUTDIR``: the playground as a static folder, for a class with
nothing to install.

>>> SiteDocument(title="t", encodings=[], exercises=[], instances=[], teaching=[]).version
1

The folder holds the same front end as ``hanoi-asp serve`` (its files copied as they
are, laid out as the server serves them: ``index.html``, ``static/``, ``player/``), with
one file in the place of the package's own: ``static/site.json``.  The package ships it
as ``{"backend": "server"}``; here it is the site document, which the page reads at load
and which switches it to its in-page back end (clingo compiled to WebAssembly, vendored
under ``static/vendor``).  ``site.json`` carries the texts (shipped encodings,
exercises, instances) and, for each instance, reference answers computed here by
hanoi-asp itself: the proven optimum, its proof, a plan the simulator replayed, and the
verdict at every horizon from 0 to the optimum.
A proven optimum m means no plan of fewer moves exists, so every horizon below m is
UNSATISFIABLE and m is SATISFIABLE: the verdicts follow from the proof, no horizon is
solved twice.  Nothing in the folder fetches from another origin.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hanoi_asp.engine import shipped, solve
from hanoi_asp.inputs.facts import to_facts
from hanoi_asp.inputs.instance import detect_format, parse_puzzle, read_text
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.options import SolveOptions
from hanoi_asp.model.plan import RULES
from hanoi_asp.model.result import Verdict
from hanoi_asp.teaching.teaching_set import teaching_folder
from hanoi_asp.web.folder_swap import beside, put_in_place, target_folder

SHIPPED_ENCODINGS = ("incremental", "quickstart")
"""The whole encodings a student starts from (the others are the engine's parts)."""
ANSWER_SECONDS = 20.0
"""Time to prove one instance's optimum at export; past it the instance has no answers."""
SITE_JSON = "static/site.json"
"""Where the site document goes: over the package's ``{"backend": "server"}``."""
EXPECT = re.compile(r"^%\s*Expect:\s*(\S+)", re.MULTILINE)


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HorizonVerdict(_Data):
    horizon: int
    result: Literal["SATISFIABLE", "UNSATISFIABLE"]


class Answers(_Data):
    """What hanoi-asp proved of an instance; ``optimum`` None: not proven (no plan
    exists, or the export's time ran out), said in ``proof``."""

    result: Verdict
    """``solve --json``'s result: ``OPTIMUM FOUND``, ``UNSATISFIABLE`` (no plan at all,
    or none within the instance's ``moves/1``), ``SATISFIABLE`` or ``UNKNOWN`` (time ran
    out)."""
    optimum: int | None
    proof: str
    plan: list[dict[str, Any]]
    """The steps exactly as ``solve --json`` writes them."""
    verdicts: list[HorizonVerdict]


class SiteText(_Data):
    name: str
    text: str


class SiteExercise(SiteText):
    expect: str | None
    """The finding its header's ``Expect:`` line names (``illegal-plan``, ...)."""


class SiteInstance(SiteText):
    pegs: list[str]
    disks: int
    answers: Answers


class SiteDocument(_Data):
    """``site.json``: version 1."""

    version: Literal[1] = 1
    title: str
    encodings: list[SiteText]
    exercises: list[SiteExercise]
    instances: list[SiteInstance]
    teaching: list[str]
    """Names of the instances the page grades an encoding on: the shipped teaching set,
    or every instance the teacher gave."""
    rules: dict[str, str] = Field(default_factory=lambda: dict(RULES))
    """Each rule a move can break, in a sentence (:data:`hanoi_asp.model.plan.RULES`):
    the page's check says a broken rule in Python's words, not a copy of them."""


def export_site(
    outdir: Path,
    *,
    instances: Sequence[str] = (),
    exercises: str | None = None,
    title: str = "hanoi-asp playground",
    force: bool = False,
    seconds: float = ANSWER_SECONDS,
) -> SiteDocument:
    """Write the static site to ``outdir`` and return its ``site.json`` document.
    ``instances``: files or folders (default: the teaching set and the quickstart
    puzzle); ``exercises``: a folder of ``.lp`` exercises (default: the shipped ones).
    A non-empty ``outdir`` is refused unless ``force``.  The site is built beside the
    folder and put in its place only when complete (:func:`.folder_swap.put_in_place`),
    so a failed export leaves the folder exactly as it was."""
    target = target_folder(outdir)
    if target.is_dir() and any(target.iterdir()) and not force:
        raise InputError("is not empty: give --force to replace what is in it", path=str(outdir))
    built = [_instance(name, text, seconds) for name, text in _instances(instances)]
    names = [item.name for item in built]
    if len(set(names)) < len(names):
        twice = sorted({name for name in names if names.count(name) > 1})
        raise InputError(f"two instances would be named {twice[0]}: a site names each once")
    document = SiteDocument(
        title=title,
        encodings=[_shipped_encoding(name) for name in SHIPPED_ENCODINGS],
        exercises=[_exercise(name, text) for name, text in _exercises(exercises)],
        instances=built,
        teaching=[i.name for i in built if instances or i.name != QUICKSTART_NAME],
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    building = beside(target, "", outdir)
    try:
        _copy_front_end(building)
        text = json.dumps(document.model_dump(), ensure_ascii=False, separators=(",", ":"))
        (building / SITE_JSON).write_text(text, encoding="utf-8")
        os.chmod(building, 0o755)  # mkdtemp's 0700 would hide the site from a web server
        put_in_place(building, target, outdir)
    finally:
        shutil.rmtree(building, ignore_errors=True)  # empty or gone once in place
    return document


QUICKSTART_NAME = "quickstart.lp"


def _instances(given: Sequence[str]) -> list[tuple[str, str]]:
    """(name, text) of each instance: the files given (a folder: its instance files,
    sorted), else the teaching set and the quickstart puzzle."""
    if not given:
        teaching = sorted(teaching_folder().iterdir(), key=lambda item: item.name)
        found = [
            (i.name, i.read_text(encoding="utf-8")) for i in teaching if i.name.endswith(".lp")
        ]
        quickstart = shipped("instances/quickstart.lp", "instances/quickstart.lp")
        return [*found, (QUICKSTART_NAME, quickstart.read_text(encoding="utf-8"))]
    found = []
    for path in given:
        folder = Path(path)
        files = sorted(_instance_files(folder)) if folder.is_dir() else [folder]
        found += [(file.name, read_text(str(file))) for file in files]
    if not found:
        raise InputError(f"no instance files in {', '.join(given)}")
    return found


def _instance_files(folder: Path) -> Iterator[Path]:
    for file in folder.iterdir():
        if file.suffix in (".lp", ".asp", ".json", ".toml") and file.is_file():
            yield file


def _instance(name: str, text: str, seconds: float) -> SiteInstance:
    """An instance with its answers; a non-``.lp`` instance becomes facts, the page's
    one format."""
    puzzle = parse_puzzle(text, name)
    if detect_format(name) != "lp":
        text, name = to_facts(puzzle), f"{Path(name).stem}.lp"
    result = solve(puzzle, SolveOptions(timeout=seconds, source=name))
    optimum = result.length if result.proven_minimal else None
    verdicts = [] if optimum is None else _verdicts(optimum)
    plan = result.to_dict(name)["plan"] if result.plan is not None else []
    answers = Answers(
        result=result.result, optimum=optimum, proof=result.proof, plan=plan, verdicts=verdicts
    )
    return SiteInstance(
        name=name, text=text, pegs=list(puzzle.pegs), disks=puzzle.disks, answers=answers
    )


def _verdicts(optimum: int) -> list[HorizonVerdict]:
    """Below a proven optimum no plan exists; at it, one does."""
    below = [HorizonVerdict(horizon=h, result="UNSATISFIABLE") for h in range(optimum)]
    return [*below, HorizonVerdict(horizon=optimum, result="SATISFIABLE")]


def _shipped_encoding(name: str) -> SiteText:
    path = f"encodings/{name}.lp"
    return SiteText(name=f"{name}.lp", text=shipped(path, path).read_text(encoding="utf-8"))


def _exercises(folder: str | None) -> list[tuple[str, str]]:
    if folder is None:
        items: list[Traversable] = list(
            shipped("encodings/exercises", "encodings/exercises").iterdir()
        )
        return sorted(
            (item.name, item.read_text(encoding="utf-8"))
            for item in items
            if item.name.endswith(".lp")
        )
    path = Path(folder)
    if not path.is_dir():
        raise InputError("is not a folder of exercises", path=folder)
    return sorted(
        (file.name, read_text(str(file))) for file in path.iterdir() if file.suffix == ".lp"
    )


def _exercise(name: str, text: str) -> SiteExercise:
    expect = EXPECT.search(text)
    return SiteExercise(name=name, text=text, expect=expect.group(1) if expect else None)


def _copy_front_end(target: Path) -> None:
    """The server's files at the server's paths: ``index.html`` at the top, the app's
    under ``static/``, the player's under ``player/``."""
    _copy_tree(resources.files("hanoi_asp.web").joinpath("static"), target / "static")
    (target / "static" / "index.html").rename(target / "index.html")
    _copy_tree(resources.files("hanoi_asp.outputs").joinpath("player"), target / "player")


def _copy_tree(source: Traversable, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        if item.name.startswith((".", "__")):
            continue
        if item.is_dir():
            _copy_tree(item, target / item.name)
        else:
            (target / item.name).write_bytes(item.read_bytes())
