"""``hanoi-asp serve`` itself (``hanoi_asp/web/serve.py``, ``runner.py``), as a process:
its host checks, abandoned and stopped jobs, a taken port, Ctrl-C, a flood of solves,
and the API's page in a browser under the page's policy."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import psutil
import pytest
from support.browser import keep_problems
from support.files import INSTANCES, ROOT

from hanoi_asp.web.jobs import JOBS

THREE = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"


HARD = (INSTANCES / "hard" / "4pegs-12disks-arbitrary.lp").read_text()


ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}


@pytest.mark.browser
def test_the_api_page_works_in_a_browser_under_the_pages_policy(chromium: Any) -> None:
    """Chromium shows every operation of ``/docs`` with the app's ``default-src 'self'``
    policy in force: nothing refused, nothing fetched from elsewhere."""
    server, address = start_server()
    try:
        page = chromium.new_page()
        problems: list[str] = []
        fetched: list[str] = []
        page.on("console", keep_problems(problems))
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: fetched.append(r.url))
        page.goto(f"http://{address}/docs")
        operations = len(JOBS) + 3  # the jobs, parse, the two lists
        page.locator(".opblock").nth(operations - 1).wait_for(timeout=30_000)
        assert page.locator(".opblock").count() == operations
        assert page.locator(".opblock-summary-path", has_text="/api/solve").count() == 1
        page.close()
        assert problems == []
        assert fetched and all(url.startswith(f"http://{address}/") for url in fetched), fetched
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


def start_server(*argv: str) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", "serve", "--port", "0", *argv],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    match = re.search(r"http://(\S+?):(\d+)/", line)
    assert match, line + server.stderr.read() if server.stderr else line
    return server, f"{match.group(1)}:{match.group(2)}"


def test_serve_binds_here_checks_hosts_kills_abandoned_jobs_and_stops_on_ctrl_c() -> None:
    server, address = start_server()
    try:
        host, port = address.rsplit(":", 1)
        assert host == "127.0.0.1"
        with socket.create_connection((host, int(port))) as conn:  # another site's name
            conn.sendall(b"GET /api/encodings HTTP/1.1\r\nHost: evil.example\r\n\r\n")
            assert b" 400 " in conn.recv(4096).split(b"\r\n")[0] + b" "
        body = json.dumps({"instance": HARD, "timeout": 60}).encode()
        conn = socket.create_connection((host, int(port)))
        conn.sendall(
            b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        jobs = wait_for(lambda: busy(solving(server.pid)), "a job process")
        conn.close()  # the browser goes away: its job's worker is killed
        assert not psutil.wait_procs(jobs, timeout=10)[1], "the abandoned job kept running"
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    assert server.returncode == 0 and "stopped" in out and "Traceback" not in err


def test_serve_on_a_taken_port_is_one_line_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "hanoi_asp", "serve", "--port", str(port)],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert (
        done.stderr.strip().count("\n") == 0 and f"cannot listen on 127.0.0.1:{port}" in done.stderr
    )


def solving(pid: int) -> list[psutil.Process]:
    """A server's job processes: the workers of its pool (grandchildren)."""
    kids = psutil.Process(pid).children(recursive=True)
    return [p for p in kids if p.ppid() != pid]


def busy(workers: list[psutil.Process]) -> list[psutil.Process]:
    """The workers running a job: a warm worker waiting for one has used next to no
    processor time (a hard solve uses a second of it within seconds)."""
    found = []
    for worker in workers:
        try:
            times = worker.cpu_times()
        except psutil.Error:
            continue
        if times.user + times.system > BUSY_CPU_S:
            found.append(worker)
    return found


BUSY_CPU_S = 0.5


def wait_for(find: Any, what: str, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {seconds} s")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_server_leaves_no_process(stop: signal.Signals) -> None:
    """SIGINT or SIGTERM to ``serve`` while a job grounds for ever: the job's process
    lived on under init (one grew to 3.7 GiB); now every process of the server's ends."""
    server, address = start_server()
    runaway = (ROOT / "encodings" / "quickstart.lp").read_text() + "\np(0). p(X+1) :- p(X).\n"
    body = json.dumps({"instance": THREE, "encoding": runaway, "timeout": 60}).encode()
    host, port = address.rsplit(":", 1)
    conn = socket.create_connection((host, int(port)))
    try:
        conn.sendall(
            b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        tree = psutil.Process(server.pid)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(tree.children(recursive=True)) < 2:
            time.sleep(0.1)  # the forkserver and the job's process
        processes = [tree, *tree.children(recursive=True)]
        assert len(processes) >= 3
        time.sleep(1)  # the job is grounding
        server.send_signal(stop)
        _, err = server.communicate(timeout=30)
        assert server.returncode == 0 and "Traceback" not in err, err
        assert b"503" in conn.recv(4096).split(b"\r\n")[0]  # the job's client is told
        _, alive = psutil.wait_procs(processes[1:], timeout=10)
        assert alive == [], [(p.pid, p.cmdline()[-1][:80], p.ppid()) for p in alive]
    finally:
        conn.close()
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()


def test_a_flood_of_hard_solves_does_not_delay_a_small_one() -> None:
    """50 concurrent hard solves from 48 clients held a 3-disk solve for 60 s: now the
    hard ones wait in their own lane (a bounded queue: 503 with Retry-After past it),
    and small puzzles are answered while the flood's lane is full: before any of its jobs
    has ended (they run or wait for 20 s), whatever the machine's speed.  Loopback only,
    bounded."""
    server, address = start_server()
    url = f"http://{address}/api/solve"
    answers: list[tuple[int, dict[str, str], float]] = []

    def post(body: dict[str, Any], timeout: float) -> tuple[int, dict[str, str], float]:
        import urllib.error
        import urllib.request

        request = urllib.request.Request(
            url, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, dict(answer.headers), time.monotonic() - started
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), time.monotonic() - started
        except OSError:
            return 0, {}, time.monotonic() - started

    try:
        flood = [
            threading.Thread(
                target=lambda: answers.append(post({"instance": HARD, "timeout": 20}, 120))
            )
            for _ in range(50)
        ]
        for thread in flood:
            thread.start()
        # a refusal: the flood's lane is full (its slots run, its queue is full)
        wait_for(lambda: [a for a in list(answers) if a[0] == 503], "a refusal", 120)
        for _ in range(5):
            status, _, _ = post({"instance": THREE, "timeout": 10}, 120)
            assert status == 200
        ended = [status for status, _, _ in list(answers) if status != 503]
        assert ended == [], "a small solve waited for the flood's jobs"
        for thread in flood:
            thread.join(timeout=120)
        statuses = [status for status, _, _ in answers]
        assert 503 in statuses and 200 in statuses  # some queued and ran, the rest refused
        busy = next(headers for status, headers, _ in answers if status == 503)
        assert {k.lower(): v for k, v in busy.items()}.get("retry-after") == "5"
        assert post({"instance": HARD, "timeout": 2}, 30)[0] == 200  # the queue is free again
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_server_stopped_with_jobs_waiting_logs_no_traceback(stop: signal.Signals) -> None:
    """Every stop with jobs queued logged a CancelledError's traceback per job (uvicorn
    cancels what is still running when its grace is over): now each job is told the
    server is stopping (503) within the grace, and the log stays empty."""
    server, address = start_server()
    url = f"http://{address}/api/solve"
    statuses: list[int] = []

    def post() -> None:
        import urllib.error
        import urllib.request

        body = json.dumps({"instance": HARD, "timeout": 60}).encode()
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
        except OSError:
            statuses.append(0)

    try:
        clients = [threading.Thread(target=post) for _ in range(12)]
        for client in clients:
            client.start()
        wait_for(lambda: busy(solving(server.pid)), "a running job", seconds=120)
        server.send_signal(stop)
        _, err = server.communicate(timeout=60)
        for client in clients:
            client.join(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    assert server.returncode == 0
    assert "Traceback" not in err and "CancelledError" not in err, err
    assert statuses and set(statuses) <= {503, 0}, statuses  # told, or the line closed
