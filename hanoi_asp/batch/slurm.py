"""``batch --dask slurm:N``: the batch's own Dask cluster on Slurm, N worker jobs.

The batch starts a Dask scheduler in its own process and submits N jobs through
dask-jobqueue's ``SLURMCluster`` (``sbatch``), each one Dask worker with ``cores``
threads, each thread solving one instance at a time in a warm process of its own
(:mod:`hanoi_asp.batch.dask`).  ``--slurm-option KEY=VALUE`` sets a job's resources
(:data:`OPTIONS`); anything else comes from dask-jobqueue's own configuration
(``~/.config/dask/jobqueue.yaml``, section ``jobqueue.slurm``), as for any
``SLURMCluster``.

A worker job that ends early (``scancel``, pre-emption, its walltime, a node lost)
loses nothing: the scheduler runs its instances again on other workers (an instance
whose worker died twice is recorded as an error row, see
:data:`hanoi_asp.batch.dask.ALLOWED_FAILURES`), and :meth:`SlurmJobs.keep_up` submits a
job in its place :data:`REPLACE_AFTER_S` seconds after its worker went, so the batch
keeps N jobs until it ends.  When the batch ends, or is stopped, its jobs are cancelled;
if the batch itself is killed, its workers give up after their ``death-timeout``
(60 s by default) and their jobs end.

>>> jobs_of("slurm:4"), jobs_of("local:4")
(4, None)
>>> job_options([("partition", "short"), ("cores", "8"), ("job-extra-directives", "--qos=low")])
{'queue': 'short', 'cores': 8, 'job_extra_directives': ['--qos=low']}
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from contextlib import suppress
from typing import Any

from hanoi_asp.model.errors import STOP_SIGNALS, InputError

PREFIX = "slurm:"
DASHBOARD = "127.0.0.1:0"
"""Where the batch's scheduler serves its dashboard: any free port, on this machine."""
INSTALL_HINT = "--dask slurm:N needs the slurm extra: pip install 'hanoi-asp[slurm]'"

OPTIONS = {
    "queue": "the partition (sbatch -p); also spelled partition",
    "account": "the account charged (sbatch -A)",
    "cores": "Dask worker threads per job, one instance each at a time (default 1)",
    "memory": "memory per job, e.g. 4GiB (default 2GiB); an instance may use 80% of it "
    "shared among the job's threads (or --memory-limit)",
    "walltime": "time limit per job, e.g. 02:00:00 (default 00:30:00: a job that "
    "reaches it is replaced)",
    "job-cpu": "CPUs to book per job (default: cores)",
    "job-mem": "memory to book per job, in Slurm's words (default: memory)",
    "job-extra-directives": "another #SBATCH line, e.g. --qos=low (repeatable)",
    "job-script-prologue": "a shell line run before the worker, e.g. 'module load "
    "python' (repeatable)",
    "job-directives-skip": "leave out #SBATCH lines containing this (repeatable)",
    "worker-extra-args": "another argument of dask worker (repeatable)",
    "log-directory": "where the jobs' output goes (default: sbatch's, the current folder)",
    "local-directory": "the workers' scratch folder",
    "interface": "network interface of the scheduler and workers, e.g. ib0",
    "python": "the workers' Python (default: this one; hanoi-asp must be installed there)",
    "name": "the jobs' name (default dask-worker)",
    "death-timeout": "seconds a worker waits for a vanished scheduler (default 60)",
    "shebang": "the job script's first line",
}
"""``--slurm-option`` keys: dask-jobqueue's own names for a ``SLURMCluster`` job."""
ALIASES = {"partition": "queue"}
REPEATABLE = frozenset(
    {"job-extra-directives", "job-script-prologue", "job-directives-skip", "worker-extra-args"}
)
NUMBERS = frozenset({"cores", "job-cpu", "death-timeout"})
DEFAULTS: dict[str, Any] = {"cores": 1, "memory": "2GiB"}
"""What a job gets when neither ``--slurm-option`` nor dask-jobqueue's configuration
says (dask-jobqueue itself insists on both)."""
REPLACE_AFTER_S = 2.0
"""Seconds after a worker left the scheduler that its job is taken as gone and another
submitted (Dask's ``distributed.deploy.lost-worker-timeout``; its default is 15 s)."""
KEEP_UP_S = 1.0
"""How often the batch asks the cluster to keep its N jobs."""


def jobs_of(address: str) -> int | None:
    """N of ``slurm:N`` (None for another address); N from 1 to 1000."""
    if not address.startswith(PREFIX):
        return None
    count = address.removeprefix(PREFIX)
    if not count.isdigit() or not 1 <= int(count) <= 1000:
        raise InputError(f"--dask {address}: slurm:N needs N from 1 to 1000 worker jobs")
    return int(count)


def job_options(pairs: list[tuple[str, str]] | tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """``--slurm-option`` pairs as ``SLURMCluster`` keyword arguments."""
    found: dict[str, Any] = {}
    for raw, value in pairs:
        key = ALIASES.get(raw.replace("_", "-"), raw.replace("_", "-"))
        if key not in OPTIONS:
            known = ", ".join(sorted([*OPTIONS, *ALIASES]))
            raise InputError(f"--slurm-option {raw}: unknown key (known: {known})")
        name = key.replace("-", "_") if key != "name" else "job_name"
        if key in REPEATABLE:
            found.setdefault(name, []).append(value)
        elif key in NUMBERS:
            if not value.isdigit() or int(value) < 1:
                raise InputError(f"--slurm-option {raw}={value}: a whole number from 1 needed")
            found[name] = int(value)
        else:
            found[name] = value
    return found


class SlurmJobs:
    """N worker jobs on Slurm and the Dask scheduler they join (in this process)."""

    cluster: Any
    """dask-jobqueue's ``SLURMCluster`` (untyped)."""

    def __init__(self, jobs: int, pairs: tuple[tuple[str, str], ...]) -> None:
        kept = {number: signal.getsignal(number) for number in STOP_SIGNALS}
        try:
            import dask
            import dask.utils
            from dask_jobqueue.slurm import SLURMCluster
        except ImportError:
            raise InputError(INSTALL_HINT) from None
        finally:  # dask-jobqueue's import sets SIGINT to sys.exit(): Ctrl-C ended a batch
            for number, handler in kept.items():  # as exit 4, without its summary
                if handler is not None:
                    with suppress(ValueError):  # not the main thread: nothing was set
                        signal.signal(number, handler)
        options = job_options(pairs)
        configured = dask.config.get("jobqueue.slurm", default={})
        for key, value in DEFAULTS.items():
            if options.get(key) is None and configured.get(key) is None:
                options[key] = value
        # the dashboard on a free port of this machine (Dask's own default, 8787, is
        # taken by a second batch), unless dask-jobqueue's configuration says otherwise
        scheduler = {"dashboard_address": DASHBOARD, **configured.get("scheduler-options", {})}
        self.jobs = jobs
        self._kept = time.monotonic()
        # one worker per job: its threads are the job's instances at once (each in a
        # process of its own), and a job that ends is one worker to replace
        try:  # checked here: a SLURMCluster that fails to start warns when collected
            dask.utils.parse_bytes(options.get("memory") or configured.get("memory"))
        except (ValueError, TypeError) as error:
            raise InputError(f"--slurm-option memory: {error}") from None
        self.cluster = SLURMCluster(processes=1, scheduler_options=scheduler, **options)
        try:
            self._check()
            self.cluster.scale(jobs=jobs)
        except BaseException:
            self.cluster.close()
            raise

    def _check(self) -> None:
        """Ask Slurm whether it would run the job (``sbatch --test-only``): a wrong
        partition, account or size is one clear line now, not a batch waiting forever."""
        script = self.cluster.job_script()
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as handle:
            handle.write(script)
        try:
            done = subprocess.run(
                ["sbatch", "--test-only", handle.name],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except FileNotFoundError:
            raise InputError("--dask slurm: no sbatch here (run it where Slurm is)") from None
        finally:
            os.unlink(handle.name)
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines() or ["(no message)"]
            raise InputError(f"--dask slurm: Slurm refuses the worker job: {said[-1]}")

    def keep_up(self) -> None:
        """Keep N jobs: one whose worker left (see :data:`REPLACE_AFTER_S`) is
        submitted again."""
        now = time.monotonic()
        if now - self._kept >= KEEP_UP_S:
            self._kept = now
            self.cluster.scale(jobs=self.jobs)

    def close(self) -> None:
        """Cancel the jobs (``scancel``) and stop the scheduler."""
        self.cluster.close()
