"""``batch --dask slurm:N`` against a real Slurm: a one-node cluster from Debian's
packages (``slurm-wlm``, ``munge``) that the fixture starts (munged, slurmctld, slurmd
as this test's own processes, with a configuration, key and ports of their own) and
tears down.  Without Slurm (not installed, not root, the daemons will not start) those
tests skip with the reason; CI installs the packages and runs them as root."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, ROOT, STUCK, wait_for_rows

DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo")
START_S = 30.0
SCHEDULER = {"dashboard": False, "dashboard_address": ":0"}
"""The batch's Dask scheduler serves HTTP on port 8787 unless told otherwise; when
another Dask on this machine holds that port (an earlier test's, another user's) its
warning was this process's error (pytest's filterwarnings) and the cluster did not
start: any free port instead, in this process and in the batches the tests start.

dask-jobqueue adds its ``jobqueue`` settings when first imported; imported inside
``dask.config.set`` (which on leaving deletes every key it found missing), those
settings were gone for every later test (``KeyError: 'jobqueue'``, a half-built
``SLURMCluster`` warning when collected), so it is imported first."""


@pytest.fixture(autouse=True)
def scheduler_on_any_port() -> Iterator[None]:
    import dask
    import dask_jobqueue  # noqa: F401  (before the set below: see its docstring)

    with dask.config.set({"jobqueue.slurm.scheduler-options": SCHEDULER}):
        yield


@dataclass
class Slurm:
    """A running one-node Slurm: the environment that finds it, and its folder."""

    env: dict[str, str]
    folder: Path

    def run(self, *argv: str) -> str:
        done = subprocess.run(
            argv, env=self.env, capture_output=True, text=True, timeout=30, check=False
        )
        return done.stdout

    def jobs(self, *states: str) -> list[str]:
        """The ids of the jobs in these states (``R``: running; none given: every job
        not ended yet)."""
        which = ("-t", ",".join(states)) if states else ()
        return self.run("squeue", "-h", *which, "-o", "%i").split()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])


def why_no_slurm() -> str | None:
    missing = [name for name in DAEMONS if shutil.which(name) is None]
    if missing:
        return f"no Slurm here: {', '.join(missing)} not found (apt-get install slurm-wlm munge)"
    if os.geteuid() != 0:
        return "no Slurm here: slurmd must run as root to start jobs"
    try:
        import dask_jobqueue  # noqa: F401
    except ImportError:
        return "no dask-jobqueue: pip install 'hanoi-asp[slurm]'"
    return None


def slurm_conf(folder: Path, node: str) -> str:
    cpus = os.cpu_count() or 1
    return f"""\
ClusterName=hanoitest
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={folder}/munge.socket
CredType=cred/munge
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd.pid
SlurmctldLogFile={folder}/slurmctld.log
SlurmdLogFile={folder}/slurmd.log
PlugStackConfig={folder}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
KillWait=5
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=2048 State=UNKNOWN
PartitionName=debug Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Slurm]:
    reason = why_no_slurm()
    if reason:
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("slurm")
    folder.chmod(0o711)  # munged: its socket's folder must be reachable, not writable
    for name in ("state", "spool", "jobs"):
        (folder / name).mkdir()
    (folder / "plugstack.conf").write_text("")
    key = folder / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    node = socket.gethostname().split(".")[0]
    conf = folder / "slurm.conf"
    conf.write_text(slurm_conf(folder, node))
    env = {
        **os.environ,
        "SLURM_CONF": str(conf),
        "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path]),
        "DASK_JOBQUEUE__SLURM__SCHEDULER_OPTIONS": repr(SCHEDULER),
    }
    cluster = Slurm(env, folder)
    commands = [
        [
            "munged",
            "--foreground",
            "--force",
            f"--key-file={key}",
            f"--socket={folder}/munge.socket",
            f"--pid-file={folder}/munged.pid",
            f"--log-file={folder}/munged.log",
            f"--seed-file={folder}/munged.seed",
        ],
        ["slurmctld", "-D", "-i", "-f", str(conf)],
        ["slurmd", "-D", "-f", str(conf)],
    ]
    started: list[subprocess.Popen[bytes]] = []
    try:
        for command in commands:
            with (folder / f"{command[0]}.out").open("wb") as log:  # the daemon keeps its own
                started.append(
                    subprocess.Popen(
                        command,
                        env=env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
            if command[0] == "munged":
                _wait_for(lambda: (folder / "munge.socket").exists(), "munged's socket")
        up = _wait_for(
            lambda: cluster.run("sinfo", "-h", "-o", "%t").strip() == "idle", "an idle node"
        )
        if not up:
            logs = " | ".join(
                (folder / f"{name}.out").read_text(errors="replace").strip()[-300:]
                for name in ("munged", "slurmctld", "slurmd")
            )
            pytest.skip(f"Slurm did not start here: {logs}")
        yield cluster
    finally:
        if started:
            cluster.run("scancel", "--full", *cluster.jobs())  # none left behind
            _wait_for(lambda: not cluster.jobs(), "the jobs to end")
        for process in reversed(started):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_for(ready: object, what: str, seconds: float = START_S) -> bool:
    assert callable(ready)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return True
        time.sleep(0.2)
    return False


def hanoi(*argv: str) -> list[str]:
    return [sys.executable, "-m", "hanoi_asp", *argv]


def slow_folder(base: Path) -> Path:
    """Four quick instances and ten that take the full 2 s timeout each: time to
    cancel a worker job while it solves one."""
    base.mkdir()
    for index in range(4):
        text = f"peg(a;b;c). disk(1..{index + 3}). init_on(1..{index + 3},a). goal_on(1,c).\n"
        (base / f"q{index}.lp").write_text(text)
    for index in range(10):
        (base / f"s{index}.lp").write_text(STUCK + f"% copy {index}\n")
    return base


def test_a_cancelled_worker_job_loses_nothing(slurm: Slurm, tmp_path: Path) -> None:
    """Two worker jobs through SLURMCluster; one is cancelled with scancel while it
    solves an instance: that instance runs again elsewhere, a job is submitted in the
    cancelled one's place and joins, every instance has one row, the results file is
    whole, and the batch's jobs are gone when it ends."""
    base, out, logs = slow_folder(tmp_path / "in"), tmp_path / "r.jsonl", slurm.folder / "jobs"
    batch = subprocess.Popen(
        hanoi(
            "batch", str(base), "--dask", "slurm:2", "--timeout", "2", "--out", str(out),
            "--slurm-option", "memory=512MiB", "--slurm-option", f"log-directory={logs}",
        ),
        env=slurm.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_rows(out, 5)  # the quick ones done: both workers on 2-s instances now
        running = slurm.jobs("R")
        assert len(running) == 2, running
        victim = running[0]
        slurm.run("scancel", victim)
        stdout, stderr = batch.communicate(timeout=120)
    finally:
        if batch.poll() is None:
            os.killpg(batch.pid, signal.SIGKILL)
            batch.wait()
    assert batch.returncode == 1, stderr  # the stuck ones are UNKNOWN
    assert "Traceback" not in stderr + stdout, stderr
    lines = out.read_text().splitlines(keepends=True)
    assert all(line.endswith("\n") for line in lines)
    rows = [json.loads(line) for line in lines]  # every line whole
    names = sorted(Path(row["instance"]).name for row in rows)
    assert names == sorted(p.name for p in base.iterdir()), names  # each exactly once
    for row in rows:
        name = Path(row["instance"]).name
        expected = "OPTIMUM FOUND" if name.startswith("q") else "UNKNOWN"
        assert (row["result"], row["status"]) != ("ERROR", "crash"), row
        assert row["result"] == expected, row
    # the cancelled job was replaced: a third worker registered with the scheduler
    joined = [log for log in logs.glob("*.err") if "Registered to:" in log.read_text()]
    assert len(joined) >= 3, [log.name for log in logs.iterdir()]
    assert "CANCELLED" in (logs / f"dask-worker-{victim}.err").read_text()
    gone = _wait_for(lambda: not slurm.jobs(), "the batch's jobs to end", 20)
    assert gone, (slurm.run("squeue", "-o", "%i %t %r %M"), stderr[-3000:])


def test_the_scheduler_of_a_slurm_batch_retries_once(
    slurm: Slurm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scheduler the batch starts for Slurm allows one failure per task (an
    instance whose worker died twice is an error row, not a third run) and replaces a
    lost job after REPLACE_AFTER_S."""
    import dask

    from hanoi_asp.batch.dask import ALLOWED_FAILURES, SETTINGS, connect

    monkeypatch.setenv("SLURM_CONF", slurm.env["SLURM_CONF"])
    options = (("memory", "512MiB"), ("log-directory", str(slurm.folder / "jobs")))
    with dask.config.set(SETTINGS), connect("slurm:1", options) as cluster:
        assert cluster.slurm.cluster.scheduler.allowed_failures == ALLOWED_FAILURES == 1
        assert dask.config.get("distributed.deploy.lost-worker-timeout") == "2.0s"
    assert _wait_for(lambda: not slurm.jobs(), "the job to end", 20), slurm.jobs()


def test_slurm_refusing_the_job_is_one_line(
    slurm: Slurm, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLURM_CONF", slurm.env["SLURM_CONF"])
    shutil.copy(INSTANCES / "quickstart.lp", tmp_path / "a.lp")
    out = str(tmp_path / "r.jsonl")
    argv = ("batch", str(tmp_path / "a.lp"), "--dask", "slurm:1", "--out", out)
    code, _, err = run_cli(*argv, "--slurm-option", "partition=nowhere")
    assert code == 2, err
    assert "Slurm refuses the worker job" in err and "partition" in err
    assert len(err.strip().splitlines()) == 1, err
    assert not slurm.jobs()


# --- without Slurm ------------------------------------------------------------------


def test_slurm_options_are_checked(run_cli: RunCli, tmp_path: Path) -> None:
    shutil.copy(INSTANCES / "quickstart.lp", tmp_path / "a.lp")
    out = str(tmp_path / "r.jsonl")
    argv = ("batch", str(tmp_path / "a.lp"), "--out", out)
    code, _, err = run_cli(*argv, "--dask", "slurm:0")
    assert code == 2 and "slurm:N needs N from 1 to 1000" in err
    code, _, err = run_cli(*argv, "--dask", "slurm:2", "--slurm-option", "colour=red")
    assert code == 2 and "--slurm-option colour: unknown key" in err and "walltime" in err
    code, _, err = run_cli(*argv, "--dask", "slurm:2", "--slurm-option", "cores=many")
    assert code == 2 and "a whole number" in err
    code, _, err = run_cli(*argv, "--dask", "local:1", "--slurm-option", "cores=2")
    assert code == 2 and "--slurm-option is for --dask slurm:N" in err
    code, _, err = run_cli(*argv, "--dask", "slurm:2", "--slurm-option", "cores")
    assert code == 2 and "not KEY=VALUE" in err
    code, _, err = run_cli(*argv, "--dask", "slurm:2", "--slurm-option", "memory=lots")
    assert code == 2 and "--slurm-option memory: Could not interpret 'lots'" in err
    assert len(err.strip().splitlines()) == 1
