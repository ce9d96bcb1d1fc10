"""Reviewers' decisions as services: verify, flag, clear a flag, send back, correct; each kept in the history."""

import pytest

from knowledge.models import AnsweredQuestion
from verification import review
from verification.layers.confidence import LOW_CONFIDENCE_WARNING
from verification.models import LowConfidenceReport
from verification.review_selectors import review_history
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_kb")]

QUESTION = "What is the VA rating for tinnitus?"
PARAPHRASE = "What rating does VA give for tinnitus?"
WARNING_START = LOW_CONFIDENCE_WARNING.split("{")[0]


@pytest.fixture
def warn_always(settings):
    """Every answer carries the low-confidence warning, so it needs review and gets a report."""
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "warning": 0.99}}


@pytest.fixture
def loose_semantic_cache(settings):
    """A paraphrase counts as the same question whatever its wording; the gate still applies."""
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "semantic_cache": 0.6}}


def ask(question=QUESTION, capture=None):
    if capture is None:
        return answer_question(question=question)
    with capture(execute=True):
        return answer_question(question=question)


def stored(result) -> AnsweredQuestion:
    return AnsweredQuestion.objects.get(id=result.id)


def test_verify_clears_the_queue_resolves_the_report_and_drops_the_warning(
        warn_always, reviewer, django_capture_on_commit_callbacks):
    first = ask(capture=django_capture_on_commit_callbacks)
    row = stored(first)
    assert row.needs_review and row.warning.startswith(WARNING_START)
    assert LowConfidenceReport.objects.get(answered_question=row).status == "open"

    review.answer_verify(answered_question=row, user=reviewer, note="Checked against 38 CFR 4.87.")

    row.refresh_from_db()
    assert row.verified and row.verified_by == reviewer and not row.needs_review and not row.flagged
    assert row.warning == "" and WARNING_START not in row.answer and "10%" in row.answer
    report = LowConfidenceReport.objects.get(answered_question=row)
    assert report.status == "resolved" and report.resolved_by == reviewer
    assert report.resolution_note == "Checked against 38 CFR 4.87."
    served = ask()
    assert served.id == row.id and served.cache == "exact" and served.verified
    assert served.warning is None and WARNING_START not in served.answer
    latest = review_history(answered_question=row)[0]
    assert latest.who == "rita" and latest.reason == "verified: Checked against 38 CFR 4.87."


def test_a_stored_answer_has_one_stored_history_row_that_a_decision_is_diffed_against(reviewer):
    row = stored(ask())
    (record,) = row.history.all()
    assert record.history_type == "+" and record.history_user is None
    assert (record.question_hash, record.answer, record.confidence, record.current, record.citations) == (
        row.question_hash, row.answer, row.confidence, row.current, row.citations)

    review.answer_verify(answered_question=row, user=reviewer, note="Checked against 38 CFR 4.87.")

    latest, first = review_history(answered_question=row)
    assert (first.change, first.who) == ("stored", "system")
    assert latest.change.startswith("changed: ") and "verified" in latest.change and latest.who == "rita"


def test_a_flag_needs_a_reason(reviewer):
    row = stored(ask())
    with pytest.raises(review.ReviewError) as raised:
        review.answer_flag(answered_question=row, user=reviewer, reason="  ")
    assert raised.value.message == review.ERR_REASON_REQUIRED.format(action="flag")
    row.refresh_from_db()
    assert not row.flagged


def test_a_flagged_answer_is_never_served_nor_made_again_and_its_correction_is(reviewer, loose_semantic_cache):
    first = ask()
    row = stored(first)
    review.answer_flag(answered_question=row, user=reviewer, reason="Says nothing about hearing loss.")

    for question in (QUESTION, "  what is the va rating for TINNITUS  ", PARAPHRASE):
        again = ask(question)
        assert again.id == row.id and again.refused and again.refusal_reason == review.REFUSAL_UNDER_REVIEW
        assert again.answer == review.UNDER_REVIEW_MESSAGE and again.citations == [] and again.flagged
        assert row.answer not in again.answer
    assert AnsweredQuestion.objects.filter(refused=False).count() == 1  # nothing regenerated

    correction = "Tinnitus is rated 10% under DC 6260, whether it is heard in one ear or both [1]."
    review.answer_correct(answered_question=row, user=reviewer, text=correction, reason="Clearer.")
    for question in (QUESTION, PARAPHRASE):
        served = ask(question)
        assert served.id == row.id and served.answer == correction and served.verified and not served.flagged
        assert not served.refused and served.citations[0]["chunk_id"] == "t-tinnitus"
    row.refresh_from_db()
    assert row.corrected_by == reviewer and row.verification["is_clean"]


def test_the_gate_keeps_a_different_question_out_of_a_flag(reviewer, loose_semantic_cache):
    row = stored(ask())
    review.answer_flag(answered_question=row, user=reviewer, reason="Wrong.")
    other = ask("What is the VA rating for tinnitus under DC 6260 with a 30% claim?")  # other numbers
    assert other.id != row.id and other.refusal_reason != review.REFUSAL_UNDER_REVIEW


@pytest.mark.parametrize(("text", "problem"), [
    ("Tinnitus is rated 30% under DC 6260 [1].", review.ERR_CORRECTION_NUMBERS.format(values="30%")),
    ("Tinnitus is rated 10% under DC 6260 [9].", review.ERR_CORRECTION_OUT_OF_RANGE.format(markers="[9]", count=1)),
    ("Tinnitus is rated 10% under DC 6260 [1]. See https://example.com/tinnitus [1].",
     review.ERR_CORRECTION_URLS.format(urls="https://example.com/tinnitus")),
    ("Tinnitus is rated 10% under DC 6260.", review.ERR_CORRECTION_NO_CITATION.format(count=1)),
    ("   ", review.ERR_CORRECTION_EMPTY),
])
def test_a_correction_that_fails_a_layer_is_refused_with_the_reason(reviewer, text, problem):
    row = stored(ask())
    assert len(row.citations) == 1
    before = (row.answer, row.review_version, row.verified)
    with pytest.raises(review.CorrectionRefused) as refused:
        review.answer_correct(answered_question=row, user=reviewer, text=text)
    assert problem in refused.value.problems
    row.refresh_from_db()
    assert (row.answer, row.review_version, row.verified) == before


def test_a_decision_made_on_an_older_version_is_a_conflict(reviewer, second_reviewer):
    row = stored(ask())
    seen = row.review_version
    review.answer_flag(answered_question=row, user=reviewer, reason="Wrong code.", expected_version=seen)
    with pytest.raises(review.ReviewConflict) as conflict:
        review.answer_verify(answered_question=row, user=second_reviewer, expected_version=seen)
    assert "rita" in conflict.value.message and "Flagged" in conflict.value.message
    row.refresh_from_db()
    assert row.flagged and not row.verified and row.flagged_by == reviewer


def test_clearing_a_flag_serves_the_answer_again_and_needs_a_flag(reviewer):
    row = stored(ask())
    with pytest.raises(review.ReviewError, match="not flagged"):
        review.answer_flag_clear(answered_question=row, user=reviewer, reason="x")
    review.answer_flag(answered_question=row, user=reviewer, reason="Looked wrong.")
    review.answer_flag_clear(answered_question=row, user=reviewer, reason="It was right after all.")
    again = ask()
    assert again.id == row.id and not again.refused and again.answer == row.answer


def test_send_back_to_the_queue_unverifies(reviewer):
    row = stored(ask())
    review.answer_verify(answered_question=row, user=reviewer)
    review.answer_requeue(answered_question=row, user=reviewer, reason="The rule changed in 2024.")
    row.refresh_from_db()
    assert row.needs_review and not row.verified and row.verified_by is None
    assert review.review_state_label(row) == "In the queue"
    assert [e.reason for e in review_history(answered_question=row)[:2]] == [
        "sent back to the queue: The rule changed in 2024.", "verified"]


def test_a_report_is_resolved_with_a_note(warn_always, reviewer, django_capture_on_commit_callbacks):
    row = stored(ask(capture=django_capture_on_commit_callbacks))
    report = LowConfidenceReport.objects.get(answered_question=row)
    with pytest.raises(review.ReviewError):
        review.low_confidence_report_resolve(report=report, user=reviewer, note="")
    review.low_confidence_report_resolve(report=report, user=reviewer, note="Added a chunk on tinnitus rules.")
    report.refresh_from_db()
    assert report.status == "resolved" and report.resolved_at and report.resolved_by == reviewer
    assert report.history.first().history_change_reason == "resolved: Added a chunk on tinnitus rules."


def test_the_reviewer_groups_hold_the_decision_permissions(reviewer, reader):
    assert reviewer.has_perms(["knowledge.verify_answeredquestion", "knowledge.flag_answeredquestion",
                               "knowledge.correct_answeredquestion", "knowledge.change_entity",
                               "verification.resolve_lowconfidencereport"])
    assert reader.has_perm("knowledge.view_answeredquestion")
    assert not reader.has_perm("knowledge.verify_answeredquestion") and not reader.has_perm("knowledge.change_chunk")
