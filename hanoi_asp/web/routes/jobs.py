"""``POST /api/solve``, ``/api/explain``, ``/api/grade``, ``/api/hint``: one route per
entry of :data:`hanoi_asp.web.jobs.JOBS`, each run by the app's
:class:`~hanoi_asp.web.runner.Runner`."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping

from fastapi import APIRouter, Request, Response

from hanoi_asp.web.guard import REFUSALS, CheckedRoute
from hanoi_asp.web.jobs import Job
from hanoi_asp.web.runner import Runner
from hanoi_asp.web.schemas import ErrorBody, JobBody

JOB_REFUSALS = {
    **REFUSALS,
    503: {"model": ErrorBody, "description": "Busy (Retry-After), stopping, or out of memory"},
    504: {"model": ErrorBody, "description": "The job ran past its hard time limit"},
}


def job_router(jobs: Mapping[str, Job]) -> APIRouter:
    """A route for each job, answering its model's JSON (the CLI's object)."""
    router = APIRouter(prefix="/api", route_class=CheckedRoute, tags=["jobs"])
    for kind, job in jobs.items():
        router.add_api_route(
            f"/{kind}",
            _endpoint(kind),
            methods=["POST"],
            response_model=job.answer,
            responses=JOB_REFUSALS,
            summary=job.summary,
            description=inspect.cleandoc(job.run.__doc__ or ""),
            name=f"api_{kind}",
        )
    return router


def _endpoint(kind: str) -> Callable[[JobBody, Request], Awaitable[Response]]:
    async def endpoint(body: JobBody, request: Request) -> Response:
        runner: Runner = request.app.state.runner
        return await runner.run(kind, body, request)

    return endpoint
