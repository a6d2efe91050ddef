"""The page: ``/``, any file of the package's ``web/static/`` folder (subfolders
included) under ``/static/``, and the player's files (shared with ``render --html``)
under ``/player/``.  Only plain names with a listed extension are served; anything else
is a 404."""

from __future__ import annotations

import os
import re
from importlib import resources

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

STATIC = ("hanoi_asp.web", "static")
"""The page's own files: any file in this folder of the package (subfolders too)."""
PLAYER = ("hanoi_asp.outputs", "player")
"""The player's files, shared with ``render --html``."""
MEDIA = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain",
}
"""What may be served, by extension; any other file is a 404."""
SAFE_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> Response:
    return asset(STATIC, "index.html")


@router.get("/static/{path:path}")
async def static(path: str) -> Response:
    return asset(STATIC, path)


@router.get("/player/{path:path}")
async def player(path: str) -> Response:
    return asset(PLAYER, path)


def asset(folder: tuple[str, str], path: str) -> Response:
    """A file of the package's ``folder``, by a path of plain names (no ``..``, no
    hidden files) with a listed extension; anything else is a 404."""
    package, base = folder
    parts = path.split("/")
    media = MEDIA.get(os.path.splitext(path)[1].lower())
    if media is None or not all(SAFE_PART.fullmatch(part) for part in parts):
        return not_found()
    try:
        data = resources.files(package).joinpath(base, *parts).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return not_found()
    return Response(data, media_type=media)


def not_found() -> Response:
    return JSONResponse({"error": "not found"}, status_code=404)
