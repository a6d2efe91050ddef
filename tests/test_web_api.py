"""The playground's JSON API (FastAPI's test client) and ``hanoi-asp serve`` itself."""

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
from pathlib import Path
from typing import Any

import psutil
import pytest
from conftest import INSTANCES, ROOT
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from reference import bfs_distance

from hanoi_asp.model.plan import legal_move
from hanoi_asp.web.app import MAX_BODY, create_app

THREE = "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"
HARD = (INSTANCES / "hard" / "4pegs-12disks-arbitrary.lp").read_text()
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(local_only=False)) as test_client:
        yield test_client


def cli_json(*argv: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "hanoi_asp", *argv, "--json"],
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def without_times(data: Any) -> Any:
    """The object with every time and instance name left out (they differ by run)."""
    if isinstance(data, dict):
        return {
            k: without_times(v)
            for k, v in data.items()
            if not k.startswith("time") and k not in ("instance", "seconds", "timings")
        }
    if isinstance(data, list):
        return [without_times(v) for v in data]
    return data


def test_solve_explain_grade_give_the_clis_objects(client: TestClient, tmp_path: Path) -> None:
    text = (INSTANCES / "quickstart.lp").read_text()
    answer = client.post("/api/solve", json={"instance": text, "timeout": 10})
    assert answer.status_code == 200
    assert without_times(answer.json()) == without_times(
        cli_json("solve", str(INSTANCES / "quickstart.lp"))
    )
    explained = client.post("/api/explain", json={"instance": THREE}).json()
    (tmp_path / "three.lp").write_text(THREE)
    assert without_times(explained) == without_times(
        cli_json("explain", str(tmp_path / "three.lp"))
    )
    assert explained["result"]["length"] == 7
    # from 0, as `explain --bound none`: every shorter horizon refuted, then the plan
    from_zero = client.post("/api/explain", json={"instance": THREE, "bound": "none"}).json()
    assert without_times(from_zero) == without_times(
        cli_json("explain", str(tmp_path / "three.lp"), "--bound", "none")
    )
    verdicts = [(run["horizon"], run["status"]) for run in from_zero["horizons"]]
    assert verdicts == [(h, "UNSAT") for h in range(7)] + [(7, "SAT")]
    refused = client.post("/api/explain", json={"instance": THREE, "bound": "zero"})
    assert refused.status_code == 422 and refused.json()["error"].startswith("bound:")
    exercise = ROOT / "encodings" / "exercises" / "no-frame-axiom.lp"
    graded = client.post(
        "/api/grade", json={"instance": THREE, "encoding": exercise.read_text()}
    ).json()
    cli = cli_json("grade", "--encoding", str(exercise), str(tmp_path / "three.lp"))
    assert graded["passed"] is cli["passed"] is False
    assert without_times(graded["instances"]) == without_times(cli["instances"])
    good = (ROOT / "encodings" / "quickstart.lp").read_text()
    assert client.post("/api/grade", json={"instance": THREE, "encoding": good}).json()["passed"]


def test_exactly_m_moves(client: TestClient) -> None:
    nine = client.post("/api/solve", json={"instance": THREE, "moves": 9}).json()
    assert nine["result"] == "SATISFIABLE" and nine["length"] == 9
    two = client.post("/api/solve", json={"instance": THREE, "moves": 2}).json()
    assert two["result"] == "UNSATISFIABLE"  # below the optimum of 7


positions = st.tuples(
    st.integers(3, 4),  # pegs
    st.lists(st.integers(0, 3), min_size=1, max_size=5),  # each disk's peg at the start
    st.lists(st.integers(-1, 3), min_size=5, max_size=5),  # in the goal (-1: anywhere)
)


@given(positions)
def test_a_hint_is_a_legal_optimal_move(client: TestClient, case: Any) -> None:
    pegs, start, wanted = case
    names = "abcd"[:pegs]
    state = tuple(p % pegs for p in start)
    goal = {d: wanted[d - 1] % pegs for d in range(1, len(state) + 1) if wanted[d - 1] >= 0}
    goal = goal or {1: 0}
    facts = f"peg({';'.join(names)}). disk(1..{len(state)}).\n"
    facts += "".join(f"init_on({d},{names[p]}).\n" for d, p in enumerate(state, 1))
    facts += "".join(f"goal_on({d},{names[p]}).\n" for d, p in goal.items())
    hint = client.post("/api/hint", json={"instance": facts}).json()
    distance = bfs_distance(pegs, state, goal)
    assert hint["distance"] == distance and hint["proven"] is True
    if distance == 0:
        assert hint["move"] is None
        return
    disk, target = hint["move"]["disk"], names.index(hint["move"]["to"])
    assert names[state[disk - 1]] == hint["move"]["from"]
    assert legal_move(state, disk, target) is None
    after = tuple(target if d == disk else p for d, p in enumerate(state, 1))
    assert bfs_distance(pegs, after, goal) == distance - 1


def test_parse_draws_the_puzzle(client: TestClient) -> None:
    text = (INSTANCES / "variants" / "linear-3pegs-4disks.lp").read_text()
    drawn = client.post("/api/parse", json={"instance": text}).json()
    assert drawn["pegs"] == ["a", "b", "c"] and drawn["disks"] == 4
    assert drawn["start"] == {"a": [1, 2, 3, 4]} and drawn["goal"] == {"c": [1, 2, 3, 4]}
    assert ["a", "b"] in drawn["graph"] and ["a", "c"] not in drawn["graph"]
    toml = (INSTANCES / "arbitrary.toml").read_text()
    assert client.post("/api/parse", json={"instance": toml, "format": "toml"}).status_code == 200


def test_the_page_and_its_lists(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "static/js/main.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for path in (
        "/static/js/main.js",
        "/static/app.css",
        "/player/player.js",
        "/player/player.css",
    ):
        assert client.get(path).status_code == 200, path
    refused = (
        "/static/../app.py",
        "/static/jobs.py",
        "/player/index.html",
        "/static/%2e%2e",
        "/static/%2e%2e/app.py",
        "/static/x/%2e%2e/%2e%2e/app.py",
        "/static/.hidden.js",
        "/player/%2e%2e/drawing.py",
        "/static/js/main.js/",
        "/static/",
    )
    for path in refused:
        assert client.get(path).status_code == 404, path
    encodings = client.get("/api/encodings").json()["encodings"]
    names = [e["name"] for e in encodings]
    assert names[0] == "incremental.lp" and encodings[0]["default"]
    assert "no-frame-axiom.lp" in names and "quickstart.lp" in names
    examples = client.get("/api/examples").json()["examples"]
    assert "03-quickstart.lp" in [e["name"] for e in examples]


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"instance": THREE + "foo(.\n"}, 400, "instance.lp:2: syntax error"),
        ({"instance": THREE, "encoding": "move(D,P,T) :- .\n"}, 400, "encoding.lp:1:"),
        ({"instance": THREE, "timeout": 1e9}, 422, "timeout"),
        ({"instance": THREE, "moves": -1}, 422, "moves"),
        ({"instance": THREE, "color": "red"}, 422, "color"),
        ({"instance": "peg(a;b;c). disk(1..99). init_on(1..99,a).\n"}, 400, "99 disks exceed"),
        ({"instance": "[pegs]\n", "format": "toml"}, 400, "instance.toml"),
    ],
)
def test_bad_input_is_a_4xx_with_one_line(
    client: TestClient, body: dict[str, Any], status: int, says: str
) -> None:
    answer = client.post("/api/solve", json=body)
    assert answer.status_code == status
    error = answer.json()["error"]
    assert says in error and "\n" not in error and "Traceback" not in answer.text


def test_errors_point_at_their_line(client: TestClient) -> None:
    answer = client.post("/api/solve", json={"instance": THREE + "\n\nfoo(.\n"}).json()
    assert (answer["where"], answer["line"]) == ("instance", 4)
    broken = (ROOT / "encodings" / "quickstart.lp").read_text().splitlines()
    broken[9] = "this is not ASP"
    answer = client.post(
        "/api/explain", json={"instance": THREE, "encoding": "\n".join(broken)}
    ).json()
    assert (answer["where"], answer["line"]) == ("encoding", 10)


def test_bodies_are_capped_and_must_be_json(client: TestClient) -> None:
    huge = json.dumps({"instance": "%" + "x" * MAX_BODY})
    answer = client.post("/api/solve", content=huge, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "over" in answer.json()["error"]
    typed = {"content-type": "application/json"}
    assert client.post("/api/solve", content=b"{nope", headers=typed).status_code == 400
    assert client.post("/api/hint", json=[1, 2]).status_code == 422


@pytest.mark.parametrize("endpoint", ["solve", "explain", "grade", "hint", "parse"])
def test_other_sites_pages_are_refused(client: TestClient, endpoint: str) -> None:
    """Any web page can make a browser POST to 127.0.0.1 with ``text/plain`` (no
    preflight): that ran a job (200).  Now a foreign Origin is a 403, a body that is not
    application/json a 415, before anything is read or run."""
    body = json.dumps({"instance": THREE, "encoding": None})
    plain = {"content-type": "text/plain"}
    answer = client.post(f"/api/{endpoint}", content=body, headers=plain)
    assert answer.status_code == 415 and "application/json" in answer.json()["error"]
    evil = {"content-type": "application/json", "origin": "http://evil.example"}
    answer = client.post(f"/api/{endpoint}", content=body, headers=evil)
    assert answer.status_code == 403 and "evil.example" in answer.json()["error"]
    for origin in ("null", "http://testserver.evil.example", "https://testserver"):
        headers = {"content-type": "application/json", "origin": origin}
        assert client.post(f"/api/{endpoint}", content=body, headers=headers).status_code == 403
    # the page's own origin, and a script with no Origin at all, are let in
    own = {"content-type": "application/json", "origin": "http://testserver"}
    assert client.post(f"/api/{endpoint}", content=body, headers=own).status_code != 403
    assert client.post("/api/hint", json=[1, 2]).status_code == 422


def test_a_script_in_submitted_text_never_runs(client: TestClient, tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    script = f'#script (python)\nopen("{target}", "w").write("x")\n#end.\n'
    for body in (
        {
            "instance": THREE,
            "encoding": (ROOT / "encodings" / "quickstart.lp").read_text() + script,
        },
        {"instance": THREE + script},
        {"instance": THREE + '#include "/etc/passwd".\n'},
    ):
        for endpoint in ("solve", "explain", "grade", "hint"):
            answer = client.post(f"/api/{endpoint}", json=body)
            assert answer.status_code == 400, (endpoint, answer.text)
    assert not target.exists()


def test_a_solve_past_its_time_limit_is_stopped() -> None:
    with TestClient(create_app(local_only=False)) as client:
        started = time.monotonic()
        answer = client.post("/api/solve", json={"instance": HARD, "timeout": 1}).json()
        assert answer["result"] == "SATISFIABLE" and answer["stopped"] == "timeout"
        assert time.monotonic() - started < 10
    # a job that outlives its hard limit (here set below its own timeout) is killed
    with TestClient(create_app(local_only=False, grace=-0.5)) as client:
        answer = client.post("/api/solve", json={"instance": HARD, "timeout": 1.5})
        assert answer.status_code == 504 and "limit of 1.5 s" in answer.json()["error"]


def test_two_solves_at_once_both_finish() -> None:
    answers: list[int] = []
    with TestClient(create_app(local_only=False)) as client:

        def one() -> None:
            body = {"instance": HARD, "timeout": 2}
            answers.append(client.post("/api/solve", json=body).status_code)

        started = time.monotonic()
        threads = [threading.Thread(target=one) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        elapsed = time.monotonic() - started
    assert answers == [200, 200]
    assert elapsed < 3.8  # one after the other would take over 4 s


# -- the server ------------------------------------------------------------------------------


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
        jobs = wait_for(lambda: solving(server.pid), "a job process")
        conn.close()  # the browser goes away: its job is killed
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
    """A server's job processes: the children of its forkserver."""
    kids = psutil.Process(pid).children(recursive=True)
    return [p for p in kids if p.ppid() != pid]


def wait_for(find: Any, what: str, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {seconds} s")


def test_the_page_ships_in_the_wheel() -> None:
    from hatchling.builders.wheel import WheelBuilder

    shipped = {f.distribution_path for f in WheelBuilder(str(ROOT)).recurse_included_files()}
    for name in ("index.html", "js/main.js", "app.css", "site.json"):
        assert f"hanoi_asp/web/static/{name}" in shipped


def test_a_huge_number_is_refused_at_once(client: TestClient) -> None:
    """``"disks": 99999999999999999999999`` in a 130-byte spec took the server to 24 GiB
    (range(1, disks + 1) before the 64-disk limit): now a 400 at once."""
    spec = '{"pegs": ["a", "b"], "disks": 99999999999999999999999, "init": {}, "goal": {}}'
    for endpoint in ("parse", "solve"):
        started = time.monotonic()
        answer = client.post(f"/api/{endpoint}", json={"instance": spec, "format": "json"})
        assert answer.status_code == 400 and "disks" in answer.json()["error"]
        assert time.monotonic() - started < 5


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
    and a small puzzle is answered at once, every time.  Loopback only, bounded."""
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
                target=lambda: answers.append(post({"instance": HARD, "timeout": 8}, 30))
            )
            for _ in range(50)
        ]
        for thread in flood:
            thread.start()
        time.sleep(1.5)  # the flood is running and queued
        waits = []
        for _ in range(5):
            status, _, seconds = post({"instance": THREE, "timeout": 10}, 30)
            assert status == 200
            waits.append(seconds)
        assert max(waits) < 3, waits
        for thread in flood:
            thread.join(timeout=60)
        statuses = [status for status, _, _ in answers]
        assert 503 in statuses and 200 in statuses  # some queued and ran, the rest refused
        busy = next(headers for status, headers, _ in answers if status == 503)
        assert {k.lower(): v for k, v in busy.items()}.get("retry-after") == "5"
        assert post({"instance": HARD, "timeout": 2}, 30)[0] == 200  # the queue is free again
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
