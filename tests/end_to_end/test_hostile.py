"""Hostile and broken input: never a traceback, never code run, always a documented exit."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli import RunCli
from support.files import ROOT, SLOW, STUCK, wait_for_rows
from support.fuzz_tokens import TOKENS

from hanoi_asp import InputError, load_puzzle


def check_cli(run_cli: RunCli, path: Path) -> None:
    code, out, err = run_cli("solve", str(path), "--json", "--timeout", "5")
    assert code in (0, 1, 2, 3), (code, err)
    assert "Traceback" not in err
    data = json.loads(out)  # exactly one JSON object
    assert isinstance(data, dict) and data["version"] == 1
    if code == 2:
        assert len(err.strip().splitlines()) == 1


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_garbled_instance_text(run_cli: RunCli, tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.lp"
    path.write_text(text)
    check_cli(run_cli, path)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200))
def test_random_bytes(run_cli: RunCli, tmp_path: Path, data: bytes) -> None:
    for name in ("fuzz.lp", "fuzz.json", "fuzz.toml", "fuzz.asp"):
        path = tmp_path / name
        path.write_bytes(data)
        check_cli(run_cli, path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "pegs": st.lists(st.sampled_from(["a", "b", "c", "d", ""]), max_size=5) | json_values,
            "disks": st.integers(-1, 5) | json_values,
            "init": st.dictionaries(
                st.sampled_from(["a", "b", "z"]), st.lists(st.integers(-1, 6), max_size=4)
            )
            | json_values,
            "goal": st.dictionaries(
                st.sampled_from(["a", "b", "z"]), st.lists(st.integers(-1, 6), max_size=4)
            )
            | json_values,
            "max_moves": st.integers(-2, 30) | json_values,
            "moves_allowed": st.sampled_from(["linear", "cyclic", "complete", "star"])
            | st.lists(st.lists(st.sampled_from(["a", "b", "c", "z"]), max_size=3), max_size=4)
            | json_values,
        },
    )
)
def test_random_specs(run_cli: RunCli, tmp_path: Path, spec: dict[str, object]) -> None:
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(spec))
    check_cli(run_cli, path)


SCRIPT = (
    "peg(a;b). disk(1). init_on(1,a). goal_on(1,b).\n"
    '#script (python)\nopen("{marker}", "w").close()\n#end.\n'
)


@pytest.mark.parametrize("suffix", [".lp", ".asp"])
def test_script_never_runs_anywhere(run_cli: RunCli, tmp_path: Path, suffix: str) -> None:
    marker = tmp_path / "pwned"
    path = tmp_path / f"evil{suffix}"
    path.write_text(SCRIPT.format(marker=marker))
    with pytest.raises(InputError, match="#script"):
        load_puzzle(str(path))  # the Python API
    code, _, _ = run_cli("solve", str(path))
    assert code == 2
    code, _, _ = run_cli("batch", str(path), "--out", str(tmp_path / "r.jsonl"))
    assert code == 2
    code, _, _ = run_cli("explain", str(path))
    assert code == 2
    code, _, _ = run_cli("render", str(path), "--svg", str(tmp_path / "x.svg"))
    assert code == 2
    code, _, _ = run_cli(
        "grade", "--encoding", str(ROOT / "encodings" / "quickstart.lp"), str(path)
    )
    assert code == 2
    assert not marker.exists()
    row = json.loads((tmp_path / "r.jsonl").read_text())
    assert row["result"] == "ERROR" and "#script" in row["error"]


def test_script_in_an_encoding_never_runs(run_cli: RunCli, tmp_path: Path) -> None:
    """A student's encoding handed to grade, explain or solve is not trusted either."""
    marker = tmp_path / "pwned"
    encoding = tmp_path / "student.lp"
    script = '#script (python)\nopen("{marker}", "w").close()\n#end.\n'
    encoding.write_text(script.format(marker=marker) + '#include "/etc/passwd".\n')
    instance = str(ROOT / "instances" / "quickstart.lp")
    for argv in (
        ("grade", "--encoding", str(encoding)),
        ("explain", instance, "--encoding", str(encoding)),
        ("solve", instance, "--encoding", str(encoding)),
    ):
        code, _, err = run_cli(*argv)
        assert code == 2 and "#script is not allowed" in err and err.count("\n") == 1
    assert not marker.exists()


def test_huge_interval_refused_fast(run_cli: RunCli, tmp_path: Path) -> None:
    import time

    path = tmp_path / "huge.lp"
    path.write_text("peg(a;b;c). disk(1..1000000). init_on(1..1000000,a).")
    started = time.monotonic()
    code, _, err = run_cli("solve", str(path))
    assert time.monotonic() - started < 1.0
    assert code == 2 and "more than" in err


def test_limits_name_themselves(run_cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "many.lp"
    path.write_text("peg(a;b;c). disk(1..70). init_on(1..70,a). goal_on(1..70,c).")
    code, _, err = run_cli("solve", str(path))
    assert code == 2 and "--limit disks=70" in err
    small = tmp_path / "small.lp"
    small.write_text("peg(a;b;c). disk(1..4). init_on(1..4,a). goal_on(1..4,c).")
    code, _, err = run_cli("solve", str(small), "--limit", "cells=20", "--no-first-plan")
    assert code == 2 and "--limit cells=" in err
    # with a plan in hand, a horizon over the limit ends the search, not the answer
    code, out, _ = run_cli("solve", str(small), "--limit", "cells=20", "--bound", "none", "--json")
    data = json.loads(out)
    assert code == 0 and data["result"] == "SATISFIABLE" and data["stopped"] == "limit"
    assert data["length"] == 15 and data["lower_bound"] == 2  # horizons 0 and 1 refuted
    code, _, _ = run_cli("solve", str(small), "--limit", "disks=4")
    assert code == 0


def _group_ended(group: int, seconds: float = 5) -> bool:
    """Whether every process of the group has ended (within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _start(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    return subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", *args],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=tmp_path,
    )


HARD = SLOW


@pytest.mark.parametrize("seconds", [0.2, 1.0, 3.0])
def test_ctrl_c_in_solve_gives_the_best_plan_or_unknown(tmp_path: Path, seconds: float) -> None:
    """A real SIGINT while starting, while bounding, while searching: never a traceback;
    exit 0 with the best plan once one exists, else UNKNOWN and exit 3."""
    path = tmp_path / "hard.lp"
    path.write_text(HARD)
    proc = _start(["solve", str(path), "--json"], tmp_path)
    time.sleep(seconds)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err
    assert _group_ended(proc.pid)  # A* racing clingo, if it ran, ended too
    data = json.loads(out)
    assert data["stopped"] == "interrupt"
    if proc.returncode == 0:
        assert data["result"] == "SATISFIABLE" and data["plan"]
        assert data["lower_bound"] <= data["length"] == data["upper_bound"]
    else:
        assert proc.returncode == 3, err
        assert data["result"] == "UNKNOWN" and data["plan"] == []
    if seconds >= 3:  # the plan built before the search exists by then
        assert proc.returncode == 0


def test_ctrl_c_without_a_plan_is_unknown_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "hard.lp"
    path.write_text(HARD)
    proc = _start(["solve", str(path), "--json", "--no-first-plan"], tmp_path)
    time.sleep(3)  # well into the search
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 3, err
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["result"] == "UNKNOWN" and data["stopped"] == "interrupt"


def test_ctrl_c_in_batch_keeps_finished_results(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for index in range(3):
        (folder / f"a{index}.lp").write_text(
            "peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n"
        )
    (folder / "z-stuck.lp").write_text(STUCK)  # the largest file: it starts first
    out = tmp_path / "r.jsonl"
    proc = _start(["batch", str(folder), "--workers", "2", "--out", str(out)], tmp_path)
    wait_for_rows(out, 3)
    time.sleep(1)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err
    assert "Traceback" not in err
    rows = [json.loads(line) for line in out.read_text().splitlines()]  # valid JSON lines
    assert sorted(Path(r["instance"]).name for r in rows)[:3] == ["a0.lp", "a1.lp", "a2.lp"]


def test_sigterm_in_solve_gives_the_best_plan(tmp_path: Path) -> None:
    """A job scheduler's SIGTERM (Slurm, systemd, ``timeout``) printed nothing; now it
    ends as Ctrl-C does: the best plan, exit 0."""
    path = tmp_path / "hard.lp"
    path.write_text(HARD)
    proc = _start(["solve", str(path), "--json"], tmp_path)
    time.sleep(3)  # the plan built first exists by then
    proc.send_signal(signal.SIGTERM)  # to the process alone, as `timeout` does
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err, err
    data = json.loads(out)
    assert data["result"] == "SATISFIABLE" and data["stopped"] == "interrupt" and data["plan"]


def test_sigterm_in_grade_and_batch_is_an_interruption(tmp_path: Path) -> None:
    stuck = tmp_path / "stuck.lp"
    stuck.write_text(ROOT.joinpath("encodings", "quickstart.lp").read_text())
    hard = tmp_path / "hard.lp"
    hard.write_text(HARD)
    proc = _start(["grade", "--encoding", str(stuck), str(hard), "--timeout", "60"], tmp_path)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 3 and "Traceback" not in err, err
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text("peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n")
    (folder / "z-stuck.lp").write_text(STUCK)  # the largest file: it starts first
    out = tmp_path / "r.jsonl"
    proc = _start(["batch", str(folder), "--workers", "2", "--out", str(out)], tmp_path)
    wait_for_rows(out, 1)
    time.sleep(1)
    os.killpg(proc.pid, signal.SIGTERM)  # Slurm signals the whole job step
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 3 and "Traceback" not in err, err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [Path(r["instance"]).name for r in rows] == ["a.lp"]
    assert rows[0]["result"] == "OPTIMUM FOUND"


WRAPPED = {  # the quickstart's moves(15), written past 32 bits: clingo would read 5
    "0x100000005": "the number 0x100000005 (4294967301) is past",
    "0b100000000000000000000000000000101": "(4294967301) is past",
    "0o40000000005": "the number 0o40000000005 (4294967301) is past",
    "-4294967301": "the number -4294967301 is past",
}


@pytest.mark.parametrize("number", sorted(WRAPPED))
@pytest.mark.parametrize("endpoint", ["/api/parse", "/api/solve"])
def test_the_api_refuses_numbers_past_32_bits(endpoint: str, number: str) -> None:
    """The API reads instances as the command line does: ``moves(0x100000005)`` was
    read as ``moves(5)`` there too (UNSATISFIABLE where the optimum is 15)."""
    from fastapi.testclient import TestClient

    from hanoi_asp.web.app import create_app

    text = (ROOT / "instances" / "quickstart.lp").read_text()
    assert "moves(15)." in text
    with TestClient(create_app(local_only=False)) as client:
        answer = client.post(endpoint, json={"instance": text.replace("15", number)})
        assert answer.status_code == 400, answer.text
        error = answer.json()
        assert error["where"] == "instance" and error["line"] == 5
        assert WRAPPED[number] in error["error"] and "another number" in error["error"]
        encoding = (ROOT / "encodings" / "quickstart.lp").read_text() + f"\nx({number}).\n"
        if endpoint == "/api/solve":
            answer = client.post(endpoint, json={"instance": text, "encoding": encoding})
            assert answer.status_code == 400 and answer.json()["where"] == "encoding"
            assert WRAPPED[number] in answer.json()["error"]


def _answer(out: str, code: int) -> dict[str, object]:
    """solve's JSON after a stop: the best plan (exit 0) or UNKNOWN (exit 3)."""
    data: dict[str, object] = json.loads(out)
    assert data["stopped"] == "interrupt"
    assert (code, data["result"]) in ((0, "SATISFIABLE"), (3, "UNKNOWN")), (code, data)
    assert bool(data["plan"]) == (code == 0)
    return data


@pytest.mark.parametrize("hangups", [1, 2])
def test_sighup_in_solve_is_a_stop_like_sigterm(tmp_path: Path, hangups: int) -> None:
    """A closed terminal or SSH session (SIGHUP) ended solve with exit 129 and the plan
    lost; now it answers as SIGTERM does.  A second hangup (the shell's, after the
    kernel's) does not cut the answer short."""
    path = tmp_path / "hard.lp"
    path.write_text(HARD)
    proc = _start(["solve", str(path), "--json"], tmp_path)
    time.sleep(3)  # either outcome is right; by then a plan is usual
    for _ in range(hangups):
        proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err, err
    _answer(out, proc.returncode)
    assert _group_ended(proc.pid)


def test_sighup_in_batch_keeps_rows_and_ends_every_process(tmp_path: Path) -> None:
    """A terminal's hangup reaches its whole foreground group: the batch, its pool's
    server and workers, multiprocessing's resource tracker.  The workers died of it
    and the tracker, started again, printed KeyError tracebacks; now the batch alone
    handles it, as SIGTERM: the rows kept, the summary, exit 3."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text("peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n")
    (folder / "z-stuck.lp").write_text(STUCK)  # the largest file: it starts first
    out = tmp_path / "r.jsonl"
    proc = _start(["batch", str(folder), "--workers", "2", "--out", str(out)], tmp_path)
    wait_for_rows(out, 1)
    os.killpg(proc.pid, signal.SIGHUP)
    stdout, err = proc.communicate(timeout=60)
    assert proc.returncode == 3 and "Traceback" not in err, err
    assert "interrupted; finished results are in" in err and "instance(s)" in stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(Path(r["instance"]).name, r["result"]) for r in rows] == [("a.lp", "OPTIMUM FOUND")]
    assert _group_ended(proc.pid)


def test_sighup_in_grade_and_serve(tmp_path: Path) -> None:
    encoding = tmp_path / "student.lp"
    encoding.write_text(ROOT.joinpath("encodings", "quickstart.lp").read_text())
    hard = tmp_path / "hard.lp"
    hard.write_text(HARD)
    proc = _start(["grade", "--encoding", str(encoding), str(hard), "--timeout", "60"], tmp_path)
    time.sleep(1)  # any moment: grading this takes far longer
    os.killpg(proc.pid, signal.SIGHUP)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 3 and "Traceback" not in err and "interrupted" in err, err
    assert _group_ended(proc.pid)
    proc = _start(["serve", "--port", "0"], tmp_path)
    assert proc.stdout is not None
    url = proc.stdout.readline().split(" on ")[1].split()[0]
    urllib.request.urlopen(url, timeout=30).close()  # serving: uvicorn runs
    os.killpg(proc.pid, signal.SIGHUP)  # as SIGTERM: uvicorn's own stop, no traceback
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and out.strip() == "stopped" and err == "", err
    assert _group_ended(proc.pid)


def test_nohup_still_protects_a_solve(tmp_path: Path) -> None:
    """A SIGHUP ignored from the start (``nohup``) stays ignored."""
    path = tmp_path / "hard.lp"
    path.write_text(HARD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hanoi_asp", "solve", str(path), "--json"],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),  # what nohup does
    )
    time.sleep(1)
    os.killpg(proc.pid, signal.SIGHUP)
    time.sleep(1)
    assert proc.poll() is None  # it never ends by itself in a test's time
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err, err
    _answer(out, proc.returncode)


def _on_a_terminal(
    args: list[str], tmp_path: Path, stdout: Path | None, ready: Callable[[], bool]
) -> int:
    """Run on a pseudo-terminal that is the process's controlling terminal, read what
    it writes there, and close the terminal once ``ready()``: the kernel sends SIGHUP
    and writes to it fail (EIO)."""
    import fcntl
    import select
    import termios

    master, slave = os.openpty()

    def controlled() -> None:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    closing = threading.Event()

    def read_until_closed() -> None:  # a terminal nobody reads would block its writer
        while not closing.is_set():
            if select.select([master], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(master, 65536)
        os.close(master)  # the terminal window closes

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    with open(stdout or os.devnull, "w") as file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "hanoi_asp", *args],
            env=env,
            stdin=slave,
            stdout=file if stdout else slave,
            stderr=slave,
            preexec_fn=controlled,
            cwd=tmp_path,
        )
        os.close(slave)
        reader = threading.Thread(target=read_until_closed)
        reader.start()
        deadline = time.monotonic() + 60
        while not ready() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        closing.set()
        reader.join()
        code = proc.wait(timeout=60)
    assert _group_ended(proc.pid)
    return code


def _after(seconds: float) -> Callable[[], bool]:
    """Ready once ``seconds`` have passed (for a solve, where either answer is right)."""
    end = time.monotonic() + seconds
    return lambda: time.monotonic() >= end


def test_a_closed_terminal(tmp_path: Path) -> None:
    """solve's answer goes to a file when stdout is one; on the closed terminal itself
    it is told to no one, with exit 3 and no traceback (an ``Input/output error``,
    exit 2 or 1, before); a batch keeps its rows."""
    path = tmp_path / "hard.lp"
    path.write_text(HARD)
    answer = tmp_path / "answer.json"
    code = _on_a_terminal(["solve", str(path), "--json"], tmp_path, answer, _after(3))
    _answer(answer.read_text(), code)
    assert _on_a_terminal(["solve", str(path)], tmp_path, None, _after(3)) == 3
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.lp").write_text("peg(a;b;c). disk(1..3). init_on(1..3,a). goal_on(1..3,c).\n")
    (folder / "z-stuck.lp").write_text(STUCK)
    out = tmp_path / "r.jsonl"

    def a_row() -> bool:
        return out.exists() and out.read_text().endswith("\n")

    batch = ["batch", "in", "--workers", "2", "--out", str(out)]
    assert _on_a_terminal(batch, tmp_path, None, a_row) == 3
    assert [json.loads(line)["result"] for line in out.read_text().splitlines()] == [
        "OPTIMUM FOUND"
    ]


def test_a_stop_while_python_shuts_down_changes_nothing(tmp_path: Path) -> None:
    """Once the command has answered, a stop signal has nothing left to stop: it came
    as a KeyboardInterrupt in an exit handler, or killed the process once Python had put
    back the default handlers (a ``site`` that had written its folder ended by SIGINT)."""
    late = (
        "import atexit, os, signal, sys\n"
        "atexit.register(os.kill, os.getpid(), signal.SIGTERM)  # runs after the CLI's own\n"
        "sys.argv = ['hanoi-asp', 'solve', sys.argv[1], '--json']\n"
        "from hanoi_asp.__main__ import entrypoint\n"
        "entrypoint()\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", late, str(ROOT / "instances" / "quickstart.lp")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert json.loads(done.stdout)["result"] == "OPTIMUM FOUND"


def test_ctrl_c_stays_ours_once_dask_jobqueue_is_imported() -> None:
    """Importing dask-jobqueue sets SIGINT to ``sys.exit()``: Ctrl-C in a ``batch --dask
    slurm:N`` was a SystemExit, exit 4 without the summary.  A fresh interpreter: the
    import runs once per process."""
    check = (
        "import signal\n"
        "from hanoi_asp.__main__ import _SigintSeen\n"
        "from hanoi_asp.batch.slurm import SlurmJobs\n"
        "from hanoi_asp.model.errors import STOP_SIGNALS, InputError\n"
        "for number in STOP_SIGNALS:\n"
        "    signal.signal(number, _SigintSeen())\n"
        "try:\n"
        "    SlurmJobs(1, (('memory', 'much'),))  # refused once dask-jobqueue is imported\n"
        "except InputError:\n"
        "    pass\n"
        "print(all(isinstance(signal.getsignal(n), _SigintSeen) for n in STOP_SIGNALS))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", check], env=env, capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "True", done.stderr
