"""``hanoi-asp serve``: the app under uvicorn on a socket bound here, so a taken port
is a one-line error before anything starts, and ``--port 0`` can say which port it got."""

from __future__ import annotations

import contextlib
import socket
import webbrowser
from collections.abc import Callable

from hanoi_asp.engine import kill_descendants
from hanoi_asp.model.errors import InputError

LOCAL = ("127.0.0.1", "localhost", "::1")


def serve(host: str, port: int, *, open_browser: bool, say: Callable[[str], None]) -> None:
    """Serve until Ctrl-C; running jobs are stopped with the server."""
    try:
        import uvicorn

        from hanoi_asp.web.app import create_app
    except ImportError:
        raise InputError("serve needs the web extra: pip install 'hanoi-asp[web]'") from None

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(128)  # connections wait in the queue until uvicorn takes them
    except OSError as error:
        listener.close()
        raise InputError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{listener.getsockname()[1]}/"
    app = create_app(local_only=host in LOCAL)
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2)
    say(f"hanoi-asp playground on {url} (Ctrl-C stops it)")
    if open_browser:
        webbrowser.open(url)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops, then re-raises Ctrl-C
            uvicorn.Server(config).run(sockets=[listener])
    finally:  # every process the server started ends with it (jobs, their forkserver)
        kill_descendants()
    say("stopped")
