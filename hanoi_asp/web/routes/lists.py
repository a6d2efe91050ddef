"""``/api/encodings``, ``/api/examples`` and ``/api/parse``: what the page's menus offer
and the board it draws, answered here at once (nothing in them can run long: parse
checks a puzzle's size before building it)."""

from __future__ import annotations

from fastapi import APIRouter

from hanoi_asp.engine import read_encoding, shipped
from hanoi_asp.model.errors import HanoiError
from hanoi_asp.outputs.html import player_data
from hanoi_asp.web.errors import ApiError
from hanoi_asp.web.guard import REFUSALS, CheckedRoute
from hanoi_asp.web.schemas import (
    EncodingList,
    EncodingText,
    ExampleList,
    ExampleText,
    InstanceBody,
    ParsedPuzzle,
)

DEFAULT_ENCODING = "incremental"
"""The engine's own encoding: the one a job with no ``encoding`` runs."""

router = APIRouter(prefix="/api", route_class=CheckedRoute, tags=["the page"])


@router.get("/encodings", summary="The shipped encodings and exercises")
async def list_encodings() -> EncodingList:
    """The shipped whole encodings (the engine's own first) and every exercise."""
    return EncodingList(encodings=encodings())


@router.get("/examples", summary="The teaching instances")
async def list_examples() -> ExampleList:
    """The teaching instances, for the page's examples menu."""
    return ExampleList(examples=examples())


@router.post("/parse", responses=REFUSALS, summary="A puzzle, to draw it")
async def parse(body: InstanceBody) -> ParsedPuzzle:
    """The puzzle as the page draws it (the player's data, no plan)."""
    try:
        puzzle = body.puzzle()
    except HanoiError as error:
        raise ApiError.of(error) from None
    drawn = player_data(puzzle, [])
    del drawn["plan"]
    graph = puzzle.moves_allowed
    return ParsedPuzzle.model_validate(
        {**drawn, "graph": None if graph is None else list(graph), "max_moves": puzzle.max_moves}
    )


def encodings() -> list[EncodingText]:
    found = [
        EncodingText(
            name=f"{name}.lp",
            title=title,
            text=read_encoding(name),
            default=name == DEFAULT_ENCODING,
        )
        for name, title in (
            (DEFAULT_ENCODING, "the engine's incremental encoding (default)"),
            ("quickstart", "the clingo quickstart encoding"),
        )
    ]
    exercises = shipped("encodings/exercises", "encodings/exercises")
    for item in sorted(exercises.iterdir(), key=lambda i: i.name):
        if item.name.endswith(".lp"):
            text = item.read_text(encoding="utf-8")
            title = f"exercise: {item.name.removesuffix('.lp').replace('-', ' ')}"
            found.append(EncodingText(name=item.name, title=title, text=text, default=False))
    return found


def examples() -> list[ExampleText]:
    from hanoi_asp.teaching.teaching_set import teaching_folder

    items = sorted(teaching_folder().iterdir(), key=lambda i: i.name)
    return [
        ExampleText(name=i.name, text=i.read_text(encoding="utf-8"), format="lp")
        for i in items
        if i.name.endswith(".lp")
    ]
