"""``hanoi-asp site OUTDIR``: the static playground's folder and its ``site.json``
(issue 31, item 1).  The page itself is driven in a browser by the browser tests; here
the folder, the document's shape and every reference answer are checked, the answers
against breadth-first search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import RunCli
from support.files import INSTANCES, ROOT

from hanoi_asp.inputs.instance import parse_puzzle
from hanoi_asp.methods.bfs import search
from hanoi_asp.model.plan import replay
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
