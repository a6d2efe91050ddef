"""The built wheel carries the encodings and solves from outside the checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from support.files import INSTANCES, ROOT


def test_wheel_ships_encodings_and_solves(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
        ],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("hanoi_asp-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "hanoi_asp/encodings/quickstart.lp" in names
    assert "hanoi_asp/encodings/incremental.lp" in names

    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    probe = (
        "import hanoi_asp, json; from importlib import resources; "
        "print(json.dumps([hanoi_asp.__file__, "
        "resources.files('hanoi_asp').joinpath('encodings/incremental.lp').is_file()]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    location, packaged = json.loads(done.stdout)
    assert location.startswith(str(target)) and packaged

    def hanoi_asp(*argv: str) -> subprocess.CompletedProcess[str]:
        """The installed package's CLI, run outside the checkout."""
        return subprocess.run(
            [sys.executable, "-m", "hanoi_asp", *argv],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    for mode in ("incremental", "oneshot"):
        done = hanoi_asp("solve", str(INSTANCES / "quickstart.lp"), "--json", "--mode", mode)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["length"] == 15
    # the mirror phase reads encodings/mirror.lp from the wheel
    assert "hanoi_asp/encodings/mirror.lp" in names
    tower = str(INSTANCES / "classic" / "4pegs-8disks.lp")
    done = hanoi_asp("solve", tower, "--json", "--no-first-plan")
    solved = json.loads(done.stdout)
    assert solved["length"] == 33 and solved["horizons"][0]["phase"] == "mirror-half"

    # the teaching set and the exercises ship too: grade runs from the wheel alone
    assert "hanoi_asp/teaching/01-one-disk.lp" in names
    assert "hanoi_asp/encodings/exercises/no-goal-test.lp" in names
    exercise = target / "hanoi_asp" / "encodings" / "exercises" / "no-goal-test.lp"
    done = hanoi_asp("grade", "--encoding", str(exercise), "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["score"]["total"] == 7
    # named as in the table and the text (issue 32), not by their site-packages path
    assert all(item["instance"].startswith("teaching/") for item in report["instances"])
