"""The web's editor takes the formats whose one text is the whole instance: a PDDL
problem's text is refused in one line, and never makes the server read a domain file of
its own folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hanoi_asp.web.app import create_app

PROBLEM = """(define (problem p) (:domain hanoi) (:objects a b c d1)
 (:init (smaller a d1) (smaller b d1) (smaller c d1) (on d1 a) (clear d1) (clear b) (clear c))
 (:goal (on d1 c)))
"""
DOMAIN = """(define (domain hanoi) (:predicates (clear ?x) (on ?x ?y) (smaller ?x ?y))
 (:action move :parameters (?disc ?from ?to)
  :precondition (and (smaller ?to ?disc) (on ?disc ?from) (clear ?disc) (clear ?to))
  :effect (and (clear ?from) (on ?disc ?to) (not (on ?disc ?from)) (not (clear ?to)))))
"""


@pytest.fixture
def client() -> Any:
    with TestClient(create_app(local_only=False)) as test_client:
        yield test_client


def test_a_pddl_problem_text_reads_no_file_of_the_server(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("domain.pddl", "instance-domain.pddl"):
        (tmp_path / name).write_text(DOMAIN, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    answer = client.post("/api/parse", json={"instance": PROBLEM})
    assert answer.status_code == 400, answer.text
    assert "instance.lp: no PDDL domain" in answer.text
    refused = client.post("/api/parse", json={"instance": PROBLEM, "format": "pddl"})
    assert refused.status_code == 422
