"""A batch's rows (``hanoi_asp/batch/row.py``): which earlier rows ``--retry`` runs again."""

from __future__ import annotations

import pytest

from hanoi_asp.batch.row import RETRY_KINDS, BatchRow, retried

ROWS: dict[str, BatchRow] = {
    "optimal": {"instance": "a.lp", "result": "OPTIMUM FOUND"},
    "feasible-at-limit": {"instance": "b.lp", "result": "SATISFIABLE", "stopped": "timeout"},
    "unknown-killed": {"instance": "c.lp", "result": "UNKNOWN", "stopped": "killed"},
    "unknown-memory": {"instance": "d.lp", "result": "UNKNOWN", "stopped": "memory"},
    "error": {"instance": "e.lp", "result": "ERROR", "error": "bad"},
    "unsat": {"instance": "f.lp", "result": "UNSATISFIABLE"},
}
EXPECTED = {
    "unknown": {"unknown-killed", "unknown-memory"},
    "error": {"error"},
    "satisfiable": {"feasible-at-limit"},
    "timeout": {"feasible-at-limit", "unknown-killed"},
}


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_each_retry_kind_runs_its_rows_again(kind: str) -> None:
    assert {name for name, row in ROWS.items() if retried(row, (kind,))} == EXPECTED[kind]


def test_kinds_add_up_and_none_runs_nothing_again() -> None:
    assert set(RETRY_KINDS) == set(EXPECTED)
    every = {name for name, row in ROWS.items() if retried(row, tuple(RETRY_KINDS))}
    assert every == set().union(*EXPECTED.values())
    assert not any(retried(row, ()) for row in ROWS.values())
