"""What a request body passes before FastAPI reads it into its model.

A route that takes a body is a :class:`CheckedRoute`: its sender is checked first (a
page of another site is refused, and only ``application/json`` is read), then the body
is read as it streams and refused (413) once it passes :data:`MAX_BODY`, so a huge body
is never held whole; then it must be JSON (400) nested at most :data:`MAX_DEPTH` levels
deep (400: a deeper one would end in a RecursionError wherever it is read).  Only then
does FastAPI validate it into the route's model (422 with one line, see
:func:`hanoi_asp.web.errors.invalid`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from hanoi_asp.web.errors import ApiError
from hanoi_asp.web.schemas import ErrorBody

MAX_BODY = 512 * 1024
"""Bytes in a request body: two texts of at most 100,000 characters, and some room."""
MAX_DEPTH = 32
"""Levels of arrays and objects a body may nest: the API's own bodies have one."""

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Bad input: the CLI's one-line message"},
    403: {"model": ErrorBody, "description": "Sent by a page of another site (Origin)"},
    413: {"model": ErrorBody, "description": f"A body over {MAX_BODY} bytes"},
    415: {"model": ErrorBody, "description": "A body that is not application/json"},
    422: {"model": ErrorBody, "description": "A body that does not fit (its first problem)"},
}
"""The refusals of every route that takes a body, for the API's schema."""


class CheckedRoute(APIRoute):
    """A route whose body, when it takes one, is checked and read here, capped, before
    FastAPI reads it (FastAPI would read it whole first)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def checked(request: Request) -> Response:
            request = CappedRequest(request.scope, request.receive)
            check_sender(request)
            await request.json()  # read and kept: FastAPI's own read finds it
            return await handler(request)

        return checked


class CappedRequest(Request):
    """A request whose body is read at most :data:`MAX_BODY` bytes far (413 past
    that), and kept, as Starlette keeps a body it read."""

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            declared = self.headers.get("content-length", "0")
            if not declared.isdigit() or int(declared) > MAX_BODY:
                raise too_large()
            body = bytearray()
            async for chunk in self.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise too_large()
            self._body = bytes(body)
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                value = json.loads(await self.body())
            except RecursionError:  # far deeper than MAX_DEPTH
                raise too_deep() from None
            except (ValueError, UnicodeDecodeError) as error:
                raise ApiError(400, f"the request body is not JSON: {error}") from None
            if not nests_within(value, MAX_DEPTH):
                raise too_deep()
            self._json = value
        return self._json


def nests_within(value: Any, depth: int) -> bool:
    """Whether ``value`` nests at most ``depth`` levels of lists and objects, looked at
    without recursion (its depth is what is in question).

    >>> nests_within({"a": [1, [2]]}, 3), nests_within({"a": [1, [2]]}, 2)
    (True, False)
    >>> nests_within("text", 0)
    True
    """
    level = [value] if isinstance(value, dict | list) else []  # the containers, level 1
    for _ in range(depth):  # then those inside them, one level deeper each time
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
    return not level


def too_deep() -> ApiError:
    return ApiError(400, f"the request body nests more than {MAX_DEPTH} levels deep")


def too_large() -> ApiError:
    return ApiError(413, f"the request body is over {MAX_BODY} bytes")


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
