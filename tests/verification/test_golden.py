"""The golden set as a quality gate: CI fails when a guarded metric drops more than 5 points below the
committed baseline (tests/golden/baseline.json), or when anything unsupported is served."""

import json
from pathlib import Path

import pytest

from verification.evaluation import baseline_compare, golden_evaluate, golden_load

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


@pytest.fixture(scope="module")
def golden_items():
    return golden_load(path=GOLDEN / "golden.jsonl")


def test_golden_set_is_large_and_covers_refusals(golden_items):
    kinds = [item["kind"] for item in golden_items]
    assert len(golden_items) >= 120
    assert sum(k in ("out_of_scope", "entity_not_found", "unanswerable", "terminology_not_found") for k in kinds) >= 30


def test_quality_holds_against_the_baseline(golden_items):
    report = golden_evaluate(items=golden_items)
    baseline = json.loads((GOLDEN / "baseline.json").read_text())
    assert baseline_compare(report=report, baseline=baseline) == [], json.dumps(report["failures"][:10], indent=1)
    assert report["invalid_citations_served"] == 0
    assert report["unsupported_numbers_served"] == 0
    assert report["out_of_scope_refusal_recall"] >= 0.95


def test_baseline_comparison_catches_a_drop():
    baseline = {"answered_correctly": 0.85, "refusal_recall": 0.95}
    assert baseline_compare(report={"answered_correctly": 0.79, "refusal_recall": 0.95}, baseline=baseline)
    assert not baseline_compare(report={"answered_correctly": 0.81, "refusal_recall": 0.91}, baseline=baseline)
