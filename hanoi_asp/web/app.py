"""The playground's web app (Starlette, through FastAPI): the page, its static files and
a JSON API whose answers are the CLI's JSON objects.

Safe to leave running: every job runs in a process of its own (forked from a server that
imported the engine once), killed at its hard time limit, when the browser goes away
(the page's Stop button aborts the request) or when the app stops; at most ``slots``
jobs run at once and the rest wait their turn; bodies are capped before they are read
whole; only the package's page files are served; a Host check keeps pages of other sites (DNS
rebinding) out of a server bound to this machine.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pebble import ProcessExpired, concurrent
from starlette.middleware.trustedhost import TrustedHostMiddleware

from hanoi_asp.engine import (
    OverMemory,
    default_memory_limit,
    die_with_parent,
    forkserver,
    memory_cap,
    quick_kill,
)
from hanoi_asp.model.errors import HanoiError
from hanoi_asp.web.jobs import ApiError, JobBody, encodings, examples, parse_instance, run_job

KILL_GRACE_S = 0.5
"""How long past its own timeout a job may run before its process is killed: a solve
stops itself at its deadline; the kill is for grounding that never ends."""
MAX_BODY = 512 * 1024
"""Bytes in a request body: two texts of at most 100,000 characters, and some room."""
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
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
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def create_app(
    *, local_only: bool = True, slots: int | None = None, grace: float = KILL_GRACE_S
) -> FastAPI:
    """The app.  ``local_only``: answer only requests addressed to this machine's
    names (the server binds to 127.0.0.1).  ``slots``: jobs at once (default: the
    cores, at least 2, so two tabs never wait for each other).  ``grace``: how long
    past its own timeout a job may run before its process is killed."""
    width = slots or max(2, os.cpu_count() or 1)
    quick_kill()
    running: set[Any] = set()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        for future in list(running):  # the server stops: so do its jobs
            future.cancel()

    app = FastAPI(title="hanoi-asp playground", docs_url=None, redoc_url=None, lifespan=lifespan)
    if local_only:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=LOCAL_HOSTS)
    lanes = {lane: Lane(width) for lane in ("express", "main")}
    memory = default_memory_limit(2 * width)

    @app.exception_handler(ApiError)
    async def refused(_: Request, error: ApiError) -> JSONResponse:
        headers = dict(HEADERS)
        if error.status == 503:
            headers["Retry-After"] = str(RETRY_AFTER_S)
        return JSONResponse(error.as_dict(), status_code=error.status, headers=headers)

    @app.get("/")
    async def index() -> Response:
        return asset(STATIC, "index.html")

    @app.get("/static/{path:path}")
    async def static(path: str) -> Response:
        return asset(STATIC, path)

    @app.get("/player/{path:path}")
    async def player(path: str) -> Response:
        return asset(PLAYER, path)

    @app.get("/api/encodings")
    async def list_encodings() -> JSONResponse:
        return JSONResponse({"encodings": encodings()}, headers=HEADERS)

    @app.get("/api/examples")
    async def list_examples() -> JSONResponse:
        return JSONResponse({"examples": examples()}, headers=HEADERS)

    @app.post("/api/parse")
    async def parse(request: Request) -> JSONResponse:
        return JSONResponse(parse_instance(await read_json(request)), headers=HEADERS)

    async def job(kind: str, request: Request) -> Response:
        body = JobBody.read(await read_json(request))  # checked here, once
        seconds = body.timeout
        lane = lanes["express" if is_small(body) else "main"]
        async with lane.turn(request):
            isolated = concurrent.process(  # type: ignore[call-overload]
                timeout=max(0.1, seconds + grace), context=forkserver("hanoi_asp.web.jobs")
            )
            future = isolated(limited_job)(kind, body, memory)
            running.add(future)
            try:
                while not future.done():
                    if await request.is_disconnected():
                        future.cancel()  # pebble kills the job's process
                        return Response(status_code=499)
                    await asyncio.sleep(0.05)
            except asyncio.CancelledError:  # the server stops: answer, then it ends
                future.cancel()
                raise ApiError(503, "the server is stopping: the job was ended") from None
            finally:
                running.discard(future)
                if not future.done():  # the server stops (the request was cancelled)
                    future.cancel()
        try:
            status, payload = future.result()
        except FutureTimeout:
            raise ApiError(504, f"stopped: the job ran past its limit of {seconds} s") from None
        except ProcessExpired as error:
            raise ApiError(
                503, f"the job's process died (exit code {error.exitcode}; out of memory?)"
            ) from None
        return JSONResponse(payload, status_code=status, headers=HEADERS)

    for kind in ("solve", "explain", "grade", "hint"):
        app.add_api_route(f"/api/{kind}", endpoint_for(job, kind), methods=["POST"])
    return app


RETRY_AFTER_S = 5
"""What a 503 (the queue is full, or the server is stopping) asks a client to wait."""
QUEUE_PER_SLOT = 8
"""Jobs that may wait per running slot of a lane; past that a request is a 503."""
SMALL_DISKS, SMALL_PEGS = 8, 5
"""A puzzle this small on the engine's own encoding is answered in well under a second."""


def is_small(body: JobBody) -> bool:
    """A job for the express lane: the engine's own encoding on a small puzzle.  Its
    slots are its own, so a flood of hard solves (they wait in the main lane) never
    delays a student's 3-disk question by more than one small job's time."""
    if body.encoding is not None:
        return False
    try:
        puzzle = body.puzzle()  # bounded: sizes are checked before anything is built
    except HanoiError:
        return True  # an error answer is quick
    return puzzle.disks <= SMALL_DISKS and len(puzzle.pegs) <= SMALL_PEGS


class Lane:
    """At most ``width`` jobs at once, at most ``width`` x :data:`QUEUE_PER_SLOT`
    waiting (503 past that), and a waiting job whose client went away is dropped."""

    def __init__(self, width: int) -> None:
        self.slots = asyncio.Semaphore(width)
        self.waiting = 0
        self.room = width * QUEUE_PER_SLOT

    @asynccontextmanager
    async def turn(self, request: Request) -> AsyncIterator[None]:
        if self.waiting >= self.room:
            raise ApiError(503, f"busy: {self.waiting} jobs are waiting; try again shortly")
        self.waiting += 1
        try:
            while True:
                try:
                    await asyncio.wait_for(self.slots.acquire(), timeout=0.25)
                    break
                except TimeoutError:
                    if await request.is_disconnected():
                        raise ClientGone from None
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self.slots.release()


class ClientGone(Exception):
    """The client of a waiting job went away: the job never runs."""


def endpoint_for(job: Any, kind: str) -> Any:
    async def endpoint(request: Request) -> Response:
        try:
            return await job(kind, request)  # type: ignore[no-any-return]
        except ClientGone:
            return Response(status_code=499)

    endpoint.__name__ = f"api_{kind}"
    return endpoint


def limited_job(kind: str, body: JobBody, memory: int) -> tuple[int, dict[str, Any]]:
    """In the job's process: it dies with the server (its forkserver ends with it),
    the memory cap (clingo has none), then the job."""
    die_with_parent()
    try:
        with memory_cap(memory):
            return run_job(kind, body)
    except OverMemory as error:
        return 503, ApiError(503, str(error)).as_dict()


def check_sender(request: Request) -> None:
    """Refuse what another site's page sent: any page can make a browser POST here
    (``text/plain`` needs no preflight), so a request whose ``Origin`` is not this
    server's own is refused (403), and only ``application/json`` bodies are read (415),
    which a foreign page cannot send without a preflight this server never answers.
    Scripts (curl, Python) send no ``Origin`` and are let in."""
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin is not None and origin != own:
        raise ApiError(403, f"refused: a request from {origin}, not from this server ({own})")
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise ApiError(415, f"the body must be application/json, not {media or 'untyped'}")


async def read_json(request: Request) -> Any:
    """The body as JSON, refused (413) past ``MAX_BODY`` bytes before it is all read,
    after :func:`check_sender`."""
    check_sender(request)
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise ApiError(413, f"the request body is over {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the request body is over {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise ApiError(400, f"the request body is not JSON: {error}") from None


def asset(folder: tuple[str, str], path: str) -> Response:
    """A file of the package's ``folder``, by a path of plain names (no ``..``, no
    hidden files) with a listed extension; anything else is a 404."""
    package, base = folder
    parts = path.split("/")
    media = MEDIA.get(os.path.splitext(path)[1].lower())
    if media is None or not all(SAFE_PART.fullmatch(part) for part in parts):
        return JSONResponse({"error": "not found"}, status_code=404, headers=HEADERS)
    try:
        data = resources.files(package).joinpath(base, *parts).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return JSONResponse({"error": "not found"}, status_code=404, headers=HEADERS)
    return Response(data, media_type=media, headers=HEADERS)
