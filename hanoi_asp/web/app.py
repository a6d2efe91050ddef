"""The playground's web app (FastAPI): the page, its static files, a JSON API whose
answers are the CLI's JSON objects, and the API's OpenAPI page at ``/docs``.

Safe to leave running: every job runs in a process of its own, capped and killed at its
hard time limit, when the browser goes away or when the app stops
(:mod:`~hanoi_asp.web.runner`); bodies are checked and capped before they are read whole
(:mod:`~hanoi_asp.web.guard`); only the package's page files are served; a Host check
keeps pages of other sites (DNS rebinding) out of a server bound to this machine.  Every
answer carries a policy that lets the page load nothing from elsewhere.

The routes, by topic, are in :mod:`hanoi_asp.web.routes`; the job endpoints are made
from the one list :data:`hanoi_asp.web.jobs.JOBS`.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hanoi_asp import __version__
from hanoi_asp.web.errors import RETRY_AFTER_S, ApiError, invalid
from hanoi_asp.web.guard import MAX_BODY
from hanoi_asp.web.jobs import JOBS
from hanoi_asp.web.routes import docs, lists, page
from hanoi_asp.web.routes.jobs import job_router
from hanoi_asp.web.runner import Runner

__all__ = ["MAX_BODY", "create_app"]

LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def create_app(
    *, local_only: bool = True, slots: int | None = None, grace: float | None = None
) -> FastAPI:
    """The app.  ``local_only``: answer only requests addressed to this machine's
    names (the server binds to 127.0.0.1).  ``slots``: jobs at once per lane (default:
    the cores, at least 2, so two tabs never wait for each other).  ``grace``: how long
    past its own timeout a job may run before its process is killed (default: see
    :class:`~hanoi_asp.web.runner.Runner`)."""
    runner = Runner(slots or max(2, os.cpu_count() or 1), grace)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        runner.stop()

    app = FastAPI(
        title="hanoi-asp playground",
        summary="Proven-minimal Towers of Hanoi plans; the CLI's JSON over HTTP.",
        version=__version__,
        docs_url=None,  # served by routes.docs, with no CDN
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.runner = runner
    app.add_exception_handler(ApiError, refused)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, malformed)  # type: ignore[arg-type]
    for router in (page.router, lists.router, job_router(JOBS), docs.router):
        app.include_router(router)
    if local_only:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=LOCAL_HOSTS)
    app.add_middleware(SecurityHeaders)
    return app


async def refused(_: Request, error: ApiError) -> JSONResponse:
    headers = {"Retry-After": str(RETRY_AFTER_S)} if error.status == 503 else None
    return JSONResponse(error.as_dict(), status_code=error.status, headers=headers)


async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
    return await refused(request, invalid(error.errors()))


class SecurityHeaders:
    """Every answer's :data:`HEADERS` (a header the answer set itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
