"""``/docs``: the API's OpenAPI page (Swagger UI), with no request leaving the machine.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script,
which the app's ``default-src 'self'`` policy refuses.  This page loads Swagger UI from
the ``swagger-ui-bundle-v2`` package (the files of the ``swagger-ui-dist`` release,
Apache-2.0, its license at ``/docs/LICENSE``) and starts it from a file of its own.
"""

from __future__ import annotations

from importlib import metadata

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

from hanoi_asp.web.routes.page import not_found

OPENAPI_URL = "/openapi.json"
DISTRIBUTION = "swagger-ui-bundle-v2"
FILES = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}
"""The files of Swagger UI the page loads."""
PAGE = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hanoi-asp playground API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<p>{swagger_ui_path.name}, Copyright SmartBear Software Inc.,
<a href="/docs/LICENSE">Apache License 2.0</a>.</p>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""
START = f"""window.ui = SwaggerUIBundle({{
  url: "{OPENAPI_URL}",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
}});
"""
"""Swagger UI's start, as FastAPI's page has it, less the online validator (a
request to another site)."""

router = APIRouter(prefix="/docs", include_in_schema=False)


@router.get("")
async def page() -> Response:
    return HTMLResponse(PAGE)


@router.get("/start.js")
async def start() -> Response:
    return Response(START, media_type="text/javascript")


@router.get("/LICENSE")
async def license_text() -> Response:
    """Swagger UI's license, as its package ships it."""
    found = metadata.distribution(DISTRIBUTION)
    text = found.read_text("licenses/LICENSE") or found.read_text("LICENSE")
    return Response(text or "Apache License 2.0", media_type="text/plain")


@router.get("/{name}")
async def swagger_file(name: str) -> Response:
    media = FILES.get(name)
    if media is None:
        return not_found()
    return Response((swagger_ui_path / name).read_bytes(), media_type=media)
