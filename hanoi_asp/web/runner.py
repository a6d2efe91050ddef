"""Where the API's jobs run: each in a process of its own, forked from a server that
imported the engine once, under a memory cap, killed at its hard time limit, when its
client goes away (the page's Stop aborts the request) or when the server stops.

Jobs wait their turn in two lanes: small puzzles on the engine's own encoding in the
express lane, the rest in the main lane, each with ``width`` slots and a bounded queue
(503 with ``Retry-After`` past it), so a flood of hard solves never delays a student's
3-disk question by more than one small job's time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from pebble import ProcessExpired, concurrent

from hanoi_asp.engine import default_memory_limit, forkserver, quick_kill
from hanoi_asp.model.errors import HanoiError
from hanoi_asp.web.errors import ApiError
from hanoi_asp.web.jobs import run_isolated
from hanoi_asp.web.schemas import JobBody

KILL_GRACE_S = 0.5
"""How long past its own timeout a job may run before its process is killed: a solve
stops itself at its deadline; the kill is for grounding that never ends."""
QUEUE_PER_SLOT = 8
"""Jobs that may wait per running slot of a lane; past that a request is a 503."""
SMALL_DISKS, SMALL_PEGS = 8, 5
"""A puzzle this small on the engine's own encoding is answered in well under a second."""
POLL_S = 0.05
"""How often a running job's client is checked (it may have gone away)."""


class Runner:
    """The jobs of one app: ``width`` slots per lane, ``grace`` seconds past a job's
    timeout before its process is killed."""

    def __init__(self, width: int, grace: float = KILL_GRACE_S) -> None:
        quick_kill()
        self.grace = grace
        self.lanes = {lane: Lane(width) for lane in ("express", "main")}
        self.memory = default_memory_limit(2 * width)
        self.running: set[Future[Any]] = set()

    async def run(self, kind: str, body: JobBody, request: Request) -> Response:
        """The job's answer (the CLI's object, or its refusal); 499 when the client
        went away before it."""
        try:
            return await self._run(kind, body, request)
        except ClientGone:
            return Response(status_code=499)

    async def _run(self, kind: str, body: JobBody, request: Request) -> Response:
        lane = self.lanes["express" if is_small(body) else "main"]
        async with lane.turn(request):
            isolated = concurrent.process(  # type: ignore[call-overload]
                timeout=max(0.1, body.timeout + self.grace),
                context=forkserver("hanoi_asp.web.jobs"),
            )
            future = isolated(run_isolated)(kind, body, self.memory)
            self.running.add(future)
            try:
                while not future.done():
                    if await request.is_disconnected():
                        future.cancel()  # pebble kills the job's process
                        raise ClientGone
                    await asyncio.sleep(POLL_S)
            except asyncio.CancelledError:  # the server stops: answer, then it ends
                future.cancel()
                raise ApiError(503, "the server is stopping: the job was ended") from None
            finally:
                self.running.discard(future)
                if not future.done():  # the server stops (the request was cancelled)
                    future.cancel()
        try:
            status, payload = future.result()
        except FutureTimeout:
            raise ApiError(
                504, f"stopped: the job ran past its limit of {body.timeout} s"
            ) from None
        except ProcessExpired as error:
            raise ApiError(
                503, f"the job's process died (exit code {error.exitcode}; out of memory?)"
            ) from None
        return JSONResponse(payload, status_code=status)

    def stop(self) -> None:
        """The server stops: so do its jobs."""
        for future in list(self.running):
            future.cancel()


def is_small(body: JobBody) -> bool:
    """A job for the express lane: the engine's own encoding on a small puzzle."""
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
    """The client of a job went away: a waiting job never runs, a running one is
    killed."""
