"""``hanoi-asp serve``: the app under uvicorn on a socket bound here, so a taken port
is a one-line error before anything starts, and ``--port 0`` can say which port it got."""

from __future__ import annotations

import contextlib
import signal
import socket
import webbrowser
from collections.abc import Callable, Iterator
from types import FrameType

from hanoi_asp.model.errors import InputError
from hanoi_asp.processes import kill_descendants

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
    server = uvicorn.Server(config)
    stop_server = server.handle_exit

    def stop_jobs_first(number: int, frame: FrameType | None) -> None:
        app.state.runner.stopping = True  # every job answers now, within uvicorn's grace
        stop_server(number, frame)

    server.handle_exit = stop_jobs_first  # type: ignore[method-assign,assignment]
    try:
        with contextlib.suppress(KeyboardInterrupt), _hangup_as_term(server.handle_exit):
            server.run(sockets=[listener])  # uvicorn stops, then re-raises Ctrl-C
    finally:  # every process the server started ends with it (jobs, their server)
        kill_descendants()
    say("stopped")


@contextlib.contextmanager
def _hangup_as_term(stop: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """A closed terminal's SIGHUP stops the server as SIGTERM does (uvicorn handles
    SIGINT and SIGTERM only: a hangup raised in its event loop, with tracebacks), and
    is raised again once it has stopped, for the command line's own handler; one
    ignored from the start (nohup) stays ignored."""
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        yield
        return
    came: list[int] = []

    def stop_server(number: int, frame: FrameType | None) -> None:
        came.append(number)
        stop(number, frame)

    before = signal.signal(signal.SIGHUP, stop_server)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)
        if came:
            signal.raise_signal(signal.SIGHUP)
