"""The corpus itself (``tests/corpus``): at least 200 cases over the four kinds, each
named once, each with its expectation, a ``known`` marker only for a side that exists
and with its reason, and every kind answered by both sides' test modules."""

from __future__ import annotations

from pathlib import Path

from corpus.cases import HERE, KINDS, load

TESTS = Path(__file__).resolve().parents[1]


def test_the_corpus_has_its_cases() -> None:
    counts = {kind: len(load(kind)) for kind in KINDS}
    assert sum(counts.values()) >= 200, counts
    assert min(counts.values()) >= 30, counts
    for kind in KINDS:
        names = [case["name"] for case in load(kind)]
        assert len(names) == len(set(names)), kind
        for case in load(kind):
            assert "expect" in case, (kind, case["name"])
            for side, why in case.get("known", {}).items():
                assert side in ("python", "page") and len(why) > 20, (kind, case["name"])


def test_each_kind_is_run_by_both_sides() -> None:
    python = {path.name for path in TESTS.glob("*/test_corpus_*.py")}
    assert {f"test_corpus_{kind}.py" for kind in KINDS} <= python
    page = (HERE / "page.js").read_text()
    assert all(f"{kind}," in page or f"{kind}}}" in page for kind in KINDS)
