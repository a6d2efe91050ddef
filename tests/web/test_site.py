"""``hanoi-asp site OUTDIR``: the static playground's folder and its ``site.json``
(issue 31, item 1).  The page itself is driven in a browser by the browser tests; here
the folder, the document's shape and every reference answer are checked, the answers
against breadth-first search."""

from __future__ import annotations

import errno
import json
import os
import shlex
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, ROOT

from hanoi_asp.inputs.instance import parse_puzzle
from hanoi_asp.methods.bfs import search
from hanoi_asp.model.errors import InputError
from hanoi_asp.model.plan import replay
from hanoi_asp.web import folder_swap
from hanoi_asp.web import site as site_module
from hanoi_asp.web.site import SITE_JSON, SiteDocument, export_site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SiteDocument]:
    out = tmp_path_factory.mktemp("site") / "out"
    export_site(out)
    document = SiteDocument.model_validate_json((out / SITE_JSON).read_text("utf-8"))
    return out, document


def test_the_folder_is_the_servers_layout(site: tuple[Path, SiteDocument]) -> None:
    out, _ = site
    for name in ("index.html", "static/js/main.js", "static/app.css", "player/player.js"):
        assert (out / name).is_file(), name
    shipped = ROOT / "hanoi_asp" / "web" / "static"
    copied = {p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file()}
    here = {p.relative_to(out / "static") for p in (out / "static").rglob("*") if p.is_file()}
    assert here == copied - {Path("index.html")}  # the same front end, every file of it
    for relative in copied - {Path("index.html"), Path("site.json")}:  # as they are, but one
        assert (out / "static" / relative).read_bytes() == (shipped / relative).read_bytes(), (
            relative
        )
    assert (out / "index.html").read_bytes() == (shipped / "index.html").read_bytes()
    assert json.loads((shipped / "site.json").read_text())["backend"] == "server"
    assert json.loads((out / "static" / "site.json").read_text())["version"] == 1


def test_the_default_set_teaching_exercises_encodings(site: tuple[Path, SiteDocument]) -> None:
    _, document = site
    teaching = sorted(p.name for p in (INSTANCES / "teaching").glob("*.lp"))
    assert document.teaching == teaching
    assert [i.name for i in document.instances] == [*teaching, "quickstart.lp"]
    exercises = sorted(p.name for p in (ROOT / "encodings" / "exercises").glob("*.lp"))
    assert [e.name for e in document.exercises] == exercises
    assert all(e.expect for e in document.exercises)  # every shipped header says what fails
    assert {e.name for e in document.encodings} == {"incremental.lp", "quickstart.lp"}
    quickstart = next(e for e in document.encodings if e.name == "quickstart.lp")
    assert quickstart.text == (ROOT / "encodings" / "quickstart.lp").read_text("utf-8")


def test_every_answer_agrees_with_breadth_first_search(site: tuple[Path, SiteDocument]) -> None:
    _, document = site
    for item in document.instances:
        puzzle = parse_puzzle(item.text, item.name)
        assert item.pegs == list(puzzle.pegs) and item.disks == puzzle.disks
        found = search(puzzle, max_moves=puzzle.max_moves)
        answers = item.answers
        if found.steps is None:  # no plan (at all, or within moves/1)
            assert answers.result == "UNSATISFIABLE" and answers.optimum is None
            assert answers.plan == [] and answers.verdicts == []
            continue
        assert answers.result == "OPTIMUM FOUND" and answers.optimum == len(found.steps)
        steps = [(step["disk"], step["to"]) for step in answers.plan]
        assert len(replay(puzzle, steps)) == answers.optimum  # a plan the simulator accepts
        assert [s["step"] for s in answers.plan] == list(range(1, answers.optimum + 1))
        for verdict in answers.verdicts:
            shorter = search(puzzle, max_moves=verdict.horizon).steps is not None
            assert (verdict.result == "SATISFIABLE") == shorter, (item.name, verdict)
        assert [v.horizon for v in answers.verdicts] == list(range(answers.optimum + 1))


def test_a_full_folder_is_refused_then_replaced(run_cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("a teacher's file")
    code, stdout, err = run_cli("site", str(out))
    assert code == 2 and stdout == "" and len(err.strip().splitlines()) == 1
    assert "not empty" in err and "--force" in err and "Traceback" not in err
    assert (out / "notes.txt").exists() and not (out / SITE_JSON).exists()
    code, stdout, _ = run_cli("site", str(out), "--force", "--title", "Logic 101")
    assert code == 0 and "8 instance(s)" in stdout
    assert not (out / "notes.txt").exists()
    assert json.loads((out / SITE_JSON).read_text("utf-8"))["title"] == "Logic 101"


def test_given_instances_and_exercises(run_cli: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "spec.toml").write_bytes((INSTANCES / "arbitrary.toml").read_bytes())
    (folder / "q.lp").write_bytes((INSTANCES / "quickstart.lp").read_bytes())
    (folder / "notes.txt").write_text("not an instance")
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    (exercises / "mine.lp").write_text("% Expect: too-strict\nmove(1,a,1).\n")
    out = tmp_path / "out"
    code, _, _ = run_cli(
        "site", str(out), "--instances", str(folder), "--exercises", str(exercises)
    )
    assert code == 0
    document = SiteDocument.model_validate_json((out / SITE_JSON).read_text("utf-8"))
    assert [i.name for i in document.instances] == ["q.lp", "spec.lp"]  # the spec as facts
    assert document.teaching == ["q.lp", "spec.lp"]  # the teacher's set is the graded one
    spec = document.instances[1]
    assert parse_puzzle(spec.text, spec.name) == parse_puzzle(
        (INSTANCES / "arbitrary.toml").read_text(), "arbitrary.toml"
    )
    assert [(e.name, e.expect) for e in document.exercises] == [("mine.lp", "too-strict")]
    (folder / "spec.lp").write_bytes((INSTANCES / "quickstart.lp").read_bytes())
    code, _, err = run_cli("site", str(out), "--force", "--instances", str(folder))
    assert code == 2 and "two instances would be named spec.lp" in err  # spec.toml as facts


def test_a_bad_instance_writes_nothing(run_cli: RunCli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.lp"
    bad.write_text("peg(a). disk(1).\ninit_on(1,a) :- foo.\n")
    out = tmp_path / "out"
    code, _, err = run_cli("site", str(out), "--instances", str(bad))
    assert code == 2 and "bad.lp:2" in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]  # no half-built folder


def test_the_wheel_ships_what_the_site_copies() -> None:
    from hatchling.builders.wheel import WheelBuilder

    shipped = {f.distribution_path for f in WheelBuilder(str(ROOT)).recurse_included_files()}
    assert "hanoi_asp/instances/quickstart.lp" in shipped
    front = ROOT / "hanoi_asp" / "web" / "static"
    files = {
        f"hanoi_asp/web/static/{p.relative_to(front)}" for p in front.rglob("*") if p.is_file()
    }
    assert "hanoi_asp/web/static/vendor/clingo-wasm/clingo.wasm" in files
    assert files <= shipped  # every file of the front end, clingo-wasm and its license too


SMALL = str(INSTANCES / "classic" / "3pegs-3disks.lp")
"""One small instance: the tests below are about where the site goes, not its answers."""


def tree(folder: Path) -> dict[str, tuple[str, bytes, int]]:
    """Everything in ``folder``: each path's kind, content (a link: its target) and mode."""
    found = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode & 0o7777
        if path.is_symlink():
            found[str(path.relative_to(folder))] = ("link", os.readlink(path).encode(), mode)
        elif path.is_dir():
            found[str(path.relative_to(folder))] = ("folder", b"", mode)
        else:
            found[str(path.relative_to(folder))] = ("file", path.read_bytes(), mode)
    return found


def a_users_folder(base: Path) -> Path:
    """A folder with a file, a subfolder with a file, a link and a mode of its own."""
    folder = base / "ne"
    (folder / "sub").mkdir(parents=True)
    (folder / "data.txt").write_text("important")
    (folder / "sub" / "deep.txt").write_text("also important")
    (folder / "link").symlink_to("data.txt")
    folder.chmod(0o750)
    return folder


FORMS = {  # how the folder is named, from where
    ".": ("ne", "."),
    "./": ("ne", "./"),
    "sub/..": (".", "ne/sub/.."),
    "sub/../.": (".", "ne/sub/../."),
    "plain": (".", "ne"),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_folder_named_any_way_is_replaced_in_place(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    """``site ne/sub/.. --force`` emptied ``ne`` and then failed (the temporary folder
    was made inside the target); ``site . --force`` too.  Now the folder keeps its own
    identity (a shell standing in it still sees the site) and only the site is in it."""
    folder = a_users_folder(tmp_path)
    where, name = FORMS[form]
    monkeypatch.chdir(folder if where == "ne" else tmp_path)
    before, inode = tree(folder), folder.stat().st_ino
    code, out, err = run_cli("site", name, "--instances", SMALL)
    assert code == 2 and out == "" and "not empty" in err and len(err.splitlines()) == 1, err
    assert tree(folder) == before
    code, out, err = run_cli("site", name, "--force", "--instances", SMALL)
    assert code == 0 and err == "", err
    serve = shlex.split(out.split("serve it with: ", 1)[1])
    assert serve[:4] == ["python", "-m", "http.server", "-d"] and len(serve) == 5, out
    assert serve[4] == str(folder.resolve()), out  # as typed, ne/sub/.. names nothing now
    assert folder.stat().st_ino == inode and folder.stat().st_mode & 0o777 == 0o750
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "player", "static"]
    assert json.loads((folder / SITE_JSON).read_text())["instances"][0]["name"] == (
        "3pegs-3disks.lp"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ne"]  # nothing left beside it


def test_an_empty_folder_named_dot(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli("site", ".", "--instances", SMALL)
    assert code == 0, err
    assert (tmp_path / SITE_JSON).is_file()


def failing_rename(fail_at: int) -> Callable[..., None]:
    """``os.rename`` that fails once, at its ``fail_at``-th call (0 first)."""
    real, calls = os.rename, [0]

    def rename(source: object, target: object) -> None:
        calls[0] += 1
        if calls[0] - 1 == fail_at:
            raise OSError(errno.EIO, "Input/output error", str(target))
        real(source, target)  # type: ignore[arg-type]

    return rename


@pytest.mark.parametrize("fail_at", range(7))  # index.html, then 3 entries out, 3 in
@pytest.mark.parametrize("form", ["sub/..", "."])
def test_a_failed_export_leaves_the_folder_exactly_as_it_was(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str, fail_at: int
) -> None:
    """The README's promise: a failed export leaves nothing behind and the folder as it
    was, wherever the moves into place fail (a full disk, an I/O error)."""
    folder = a_users_folder(tmp_path)
    where, name = FORMS[form]
    monkeypatch.chdir(folder if where == "ne" else tmp_path)
    before, inode = tree(folder), folder.stat().st_ino
    monkeypatch.setattr(os, "rename", failing_rename(fail_at))
    code, out, err = run_cli("site", name, "--force", "--instances", SMALL)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert "Input/output error" in err and "Traceback" not in err
    assert tree(folder) == before and folder.stat().st_ino == inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ne"]


def test_a_failed_copy_leaves_the_folder_as_it_was(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = a_users_folder(tmp_path)
    before = tree(folder)

    def full(_: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / ".ne-x"))

    monkeypatch.setattr(site_module, "_copy_front_end", full)
    code, _, err = run_cli("site", str(folder), "--force", "--instances", SMALL)
    assert code == 2 and "No space left on device" in err, err
    assert tree(folder) == before and sorted(p.name for p in tmp_path.iterdir()) == ["ne"]


def test_ctrl_c_during_the_moves_waits_for_them(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop signal that comes while the site is moved in is handled once it is in:
    never half the user's files and half the site."""
    folder = a_users_folder(tmp_path)
    real = os.rename
    calls = [0]

    def interrupted_rename(source: object, target: object) -> None:
        calls[0] += 1
        if calls[0] == 2:
            signal.raise_signal(signal.SIGINT)  # Python's handler: KeyboardInterrupt
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", interrupted_rename)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # whatever ran before
    try:
        code, _, err = run_cli("site", str(folder), "--force", "--instances", SMALL)
    finally:
        signal.signal(signal.SIGINT, before)
    assert code == 3 and "interrupted" in err, err
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "player", "static"]
    assert (folder / SITE_JSON).is_file() and sorted(p.name for p in tmp_path.iterdir()) == ["ne"]


def test_a_linked_folder_is_the_folder_it_links_to(run_cli: RunCli, tmp_path: Path) -> None:
    """``site LINK`` refused with Python's raw 'Cannot call rmtree on a symbolic link'
    (even an empty folder); now the site goes into the folder the link names, and the
    link stays a link."""
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to("real")
    code, _, err = run_cli("site", str(link), "--instances", SMALL)
    assert code == 0, err
    assert link.is_symlink() and (real / SITE_JSON).is_file()
    (real / "notes.txt").write_text("x")
    code, _, err = run_cli("site", str(link), "--force", "--instances", SMALL)
    assert code == 0 and not (real / "notes.txt").exists() and link.is_symlink(), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


@pytest.mark.parametrize("make", ["dangling link", "a file", "link loop"])
def test_what_names_no_folder_is_one_line(run_cli: RunCli, tmp_path: Path, make: str) -> None:
    out = tmp_path / "out"
    if make == "dangling link":
        out.symlink_to(tmp_path / "nowhere")
        says = "which leads to nothing"
    elif make == "a file":
        out.write_text("a file")
        says = "exists and is not a folder"
    else:
        out.symlink_to("loop")
        (tmp_path / "loop").symlink_to("out")
        says = "a loop of links"
    before = sorted(p.name for p in tmp_path.iterdir())
    code, stdout, err = run_cli("site", str(out), "--force", "--instances", SMALL)
    assert code == 2 and stdout == "" and len(err.splitlines()) == 1 and says in err, err
    assert "Traceback" not in err and sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_root_folder_has_no_place_beside_it(run_cli: RunCli) -> None:
    """Refused before anything is read or written (and without --force in any case)."""
    with pytest.raises(InputError, match="root folder"):
        folder_swap.target_folder(Path("/"))
    code, _, err = run_cli("site", "/", "--instances", SMALL)
    assert code == 2 and "is the root folder" in err and len(err.splitlines()) == 1


def test_no_room_beside_the_folder_is_one_line(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = a_users_folder(tmp_path)
    before = tree(folder)

    def read_only(**_: object) -> str:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / ".ne-x"))

    monkeypatch.setattr("hanoi_asp.web.folder_swap.tempfile.mkdtemp", read_only)
    code, _, err = run_cli("site", str(folder), "--force", "--instances", SMALL)
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"cannot make a folder beside it, in {tmp_path}: Permission denied" in err
    assert tree(folder) == before
