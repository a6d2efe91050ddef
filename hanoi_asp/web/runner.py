"""Where the API's jobs run: in warm worker processes forked from a server that imported
the engine once (:class:`~hanoi_asp.processes.WarmPool`), each job under a memory cap,
killed at its hard time limit, when its client goes away (the page's Stop aborts the
request) or when the server stops.

Jobs wait their turn in three lanes, each with ``width`` slots and a bounded queue (503
with ``Retry-After`` past it): small puzzles on the engine's own encoding, small
puzzles on a user's own encoding (a student's grade of a few small instances), and the
rest.  A flood in one lane never delays the others: a student's 3-disk question waits
for at most one small job, whatever hard solves or runaway encodings fill the rest.
Each lane has ``width`` workers of its own: what a hard job leaves in its worker (the
puzzle's pattern tables, a grown heap) stays in the main lane's few workers rather than
in every worker of the app.

A job's time limit counts from its arrival: it waits at most that long for a slot (503,
saying how long it waited) and then runs for what is left of it.
"""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import AsyncIterator
from concurrent.futures import Future
from contextlib import ExitStack, asynccontextmanager
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from hanoi_asp.model.errors import HanoiError
from hanoi_asp.processes import Stopped, WarmPool, default_memory_limit, outcome
from hanoi_asp.web.errors import ApiError
from hanoi_asp.web.jobs import run_isolated
from hanoi_asp.web.schemas import JobBody

KILL_GRACE_S = 0.5
"""How long past its own timeout a job on a user's encoding may run before its process
is killed: the kill is for grounding that never ends."""
ENGINE_GRACE_S = 3.0
"""The same for a job on the engine's own encoding, which stops itself at its deadline
(its grounding is bounded): the kill is a backstop, and a loaded machine's late stop
must not turn its answer into a 504."""
QUEUE_PER_SLOT = 8
"""Jobs that may wait per running slot of a lane; past that a request is a 503."""
SMALL_DISKS, SMALL_PEGS = 8, 5
"""A puzzle this small on the engine's own encoding is answered in well under a second."""
SMALL_RANDOM = 10
"""Random puzzles a grade may ask for and still be a small job (they have at most 7
disks; the teaching set's instances are small too)."""
LANES = ("express", "own", "main")
"""The engine's encoding on a small puzzle, a user's encoding on one, the rest."""
MIN_RUN_S = 0.1
"""A job whose turn comes with less than this left of its time limit is not started."""
POLL_S = 0.05
"""How often a running job's client is checked (it may have gone away)."""
JOB_TASKS = 200
"""Jobs one warm worker runs before it is replaced (clingo never frees the symbols a
process made)."""
WORKER_PRELOAD = "hanoi_asp.web.worker"
"""What the workers' server imports once: the jobs, the engine and numpy."""


class Runner:
    """The jobs of one app: ``width`` slots per lane, ``grace`` seconds past a job's
    timeout before its process is killed (None: :data:`KILL_GRACE_S` for a user's
    encoding, :data:`ENGINE_GRACE_S` for the engine's own)."""

    def __init__(self, width: int, grace: float | None = None) -> None:
        self.grace = grace
        self.lanes = {lane: Lane(width) for lane in LANES}
        # the express lane's jobs are small: the others share the machine's memory
        self.memory = default_memory_limit(2 * width)
        self.running: set[Future[Any]] = set()
        self.stopping = False
        """Set when the server begins to stop: every job answers 503 at once (a job
        still waiting when the server's grace ran out was cancelled mid-await, and
        uvicorn logged each with a traceback)."""
        self.started = False
        """Whether the lanes' workers were started (with the app's first job)."""

    async def run(self, kind: str, body: JobBody, request: Request) -> Response:
        """The job's answer (the CLI's object, or its refusal); 499 when the client
        went away before it."""
        try:
            return await self._run(kind, body, request)
        except ClientGone:
            return Response(status_code=499)

    async def _run(self, kind: str, body: JobBody, request: Request) -> Response:
        arrived = time.monotonic()
        if not self.started and not self.stopping:  # every lane's workers, as one pool did
            self.started = True
            for each in self.lanes.values():
                each.warm()
        lane = self.lanes[lane_of(body)]
        async with lane.turn(request, arrived + body.timeout - MIN_RUN_S, self) as queued:
            job = body  # a job that waited runs for what is left (its answer says so)
            if queued:  # one that found a free slot keeps its own, however slow the server
                left = body.timeout - (time.monotonic() - arrived)
                job = body.model_copy(update={"timeout": math.floor(left * 100) / 100})
            grace = self.grace
            if grace is None:
                grace = KILL_GRACE_S if body.encoding is not None else ENGINE_GRACE_S
            limit = job.timeout + grace  # its kill: past the job's own stop
            future = lane.pool.submit(run_isolated, kind, job, self.memory, timeout=limit)
            self.running.add(future)
            try:
                while not future.done():
                    if await request.is_disconnected():
                        future.cancel()  # its worker is killed
                        raise ClientGone
                    if self.stopping:  # the server stops: answer, then it ends
                        future.cancel()
                        raise stopping()
                    await asyncio.sleep(POLL_S)
            except asyncio.CancelledError:  # the server's grace ran out
                future.cancel()
                raise stopping() from None
            finally:
                self.running.discard(future)
                if not future.done():  # the server stops (the request was cancelled)
                    future.cancel()
        try:
            status, payload = outcome(future)
        except Stopped as stop:
            if stop.why == "timeout":
                message = f"stopped: the job ran past its limit of {body.timeout} s"
                raise ApiError(504, message) from None
            message = f"the job's process died (exit code {stop.code}; out of memory?)"
            raise ApiError(503, message) from None
        return JSONResponse(payload, status_code=status)

    def stop(self) -> None:
        """The server stops: so do its jobs."""
        self.stopping = True
        for future in list(self.running):
            future.cancel()
        with ExitStack() as stops:  # every lane's workers, whatever stopping another raised
            for lane in self.lanes.values():
                stops.callback(lane.stop)


def lane_of(body: JobBody) -> str:
    """The job's lane: ``express`` for the engine's own encoding on a small puzzle,
    ``own`` for a user's encoding on one (a grade asking for a few random puzzles at
    most), ``main`` for the rest."""
    try:
        puzzle = body.puzzle()  # bounded: sizes are checked before anything is built
    except HanoiError:
        return "express"  # an error answer is quick
    if puzzle.disks > SMALL_DISKS or len(puzzle.pegs) > SMALL_PEGS:
        return "main"
    if body.encoding is None:
        return "express"
    return "own" if (body.random or 0) <= SMALL_RANDOM else "main"


class Lane:
    """At most ``width`` jobs at once, in ``width`` workers of the lane's own, at most
    ``width`` x :data:`QUEUE_PER_SLOT` waiting (503 past that), a waiting job whose
    client went away dropped, and one still waiting at its deadline refused (503)."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.slots = asyncio.Semaphore(width)
        self.waiting = 0
        self.room = width * QUEUE_PER_SLOT
        self._pool: WarmPool | None = None

    @property
    def pool(self) -> WarmPool:
        """The lane's ``width`` workers (forked with the app's first job: :meth:`warm`)."""
        if self._pool is None or not self._pool.active:
            self._pool = WarmPool(self.width, WORKER_PRELOAD, tasks=JOB_TASKS)
        return self._pool

    def warm(self) -> None:
        """Fork the lane's workers now rather than with its first job (a pool forks
        them when it is first given one), so that job does not wait for their start."""
        self.pool.submit(os.getpid, timeout=None)

    def stop(self) -> None:
        """Kill the lane's workers."""
        if self._pool is not None:
            self._pool.stop()

    @asynccontextmanager
    async def turn(self, request: Request, deadline: float, runner: Runner) -> AsyncIterator[bool]:
        """A slot, until ``deadline``; 503 once ``runner`` is stopping.  Says whether the
        job waited for it (no slot was free when it came): a wait, not a measured time,
        so a loaded server does not cut the limit of a job that found a slot free."""
        if self.waiting >= self.room:
            raise ApiError(503, f"busy: {self.waiting} jobs are waiting; try again shortly")
        queued = self.slots.locked()
        self.waiting += 1
        arrived = time.monotonic()
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    waited = time.monotonic() - arrived
                    raise ApiError(
                        503,
                        f"busy: no free slot for {waited:.1f} s, the job's whole time limit; "
                        "try again shortly",
                    )
                if runner.stopping:
                    raise stopping()
                try:
                    await asyncio.wait_for(self.slots.acquire(), timeout=min(0.25, left))
                    break
                except TimeoutError:
                    if await request.is_disconnected():
                        raise ClientGone from None
                except asyncio.CancelledError:  # the server's grace ran out
                    raise stopping() from None
        finally:
            self.waiting -= 1
        try:
            yield queued
        finally:
            self.slots.release()


def stopping() -> ApiError:
    return ApiError(503, "the server is stopping: the job was ended")


class ClientGone(Exception):
    """The client of a job went away: a waiting job never runs, a running one is
    killed."""
