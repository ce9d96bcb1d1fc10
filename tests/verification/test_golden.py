"""The golden sets as a quality gate: CI fails when a guarded metric drops more than 5 points below the
committed baseline, or when anything unsupported is served.

golden.jsonl (baseline.json) is the set the weights and thresholds were tuned on; holdout.jsonl
(holdout_baseline.json) was written afterwards from the corpus alone and is never tuned on, so its figures
say how the tuning carries over to new questions."""

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


def test_holdout_questions_are_new(golden_items):
    holdout = golden_load(path=GOLDEN / "holdout.jsonl")
    seen = {" ".join(item["question"].lower().split()) for item in golden_items}
    assert len(holdout) >= 50
    assert not [item["question"] for item in holdout if " ".join(item["question"].lower().split()) in seen]


@pytest.mark.parametrize(("questions", "baseline_file"), [("golden.jsonl", "baseline.json"),
                                                           ("holdout.jsonl", "holdout_baseline.json")])
def test_quality_holds_against_the_baseline(questions, baseline_file):
    report = golden_evaluate(items=golden_load(path=GOLDEN / questions))
    baseline = json.loads((GOLDEN / baseline_file).read_text())
    assert baseline_compare(report=report, baseline=baseline) == [], json.dumps(report["failures"][:10], indent=1)
    assert report["invalid_citations_served"] == 0
    assert report["unsupported_numbers_served"] == 0
    assert report["out_of_scope_refusal_recall"] >= 0.95


def test_baseline_comparison_catches_a_drop():
    baseline = {"answered_correctly": 0.85, "refusal_recall": 0.95}
    assert baseline_compare(report={"answered_correctly": 0.79, "refusal_recall": 0.95}, baseline=baseline)
    assert not baseline_compare(report={"answered_correctly": 0.81, "refusal_recall": 0.91}, baseline=baseline)
