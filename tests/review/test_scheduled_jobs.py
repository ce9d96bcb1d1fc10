"""The reviewers' scheduled jobs: the daily low-confidence digest and the re-check of stale answers. Each is
run as its Celery task (eager here; tests/integration runs them on a worker and beat)."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from knowledge.models import AnsweredQuestion, Chunk
from knowledge.services import corpus_ingest
from tests.knowledge.conftest import SMALL_CORPUS
from verification import review
from verification.models import LowConfidenceDigest, LowConfidenceReport
from verification.services import answer_question
from verification.tasks import low_confidence_digest_task, stale_answers_recheck_task

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_kb")]

TINNITUS = "What is the VA rating for tinnitus?"


def report_for(question: str, *, gap: str, score: float, when) -> LowConfidenceReport:
    row = AnsweredQuestion.objects.get(id=answer_question(question=question, use_cache=False).id)
    report, _ = LowConfidenceReport.objects.update_or_create(
        answered_question=row, defaults={"best_score": score, "topic_gap": gap, "report": {"topic_gaps": [gap]}})
    LowConfidenceReport.objects.filter(id=report.id).update(created_at=when)
    return report


def test_the_digest_groups_a_days_reports_by_topic_gap_largest_first_and_is_written_once_per_day(reviewer):
    yesterday = timezone.now() - timedelta(days=1)
    a = report_for("tinnitus rating in one ear", gap="hearing", score=0.41, when=yesterday)
    report_for("tinnitus rating both ears", gap="hearing", score=0.39, when=yesterday)
    report_for("intent to file deadline", gap="claims", score=0.44, when=yesterday)
    report_for("chapter 30 months", gap="education", score=0.40, when=timezone.now())  # today: not in the digest
    review.low_confidence_report_resolve(report=a, user=reviewer, note="Added a chunk on one-ear tinnitus.")

    count = low_confidence_digest_task.delay().get()
    low_confidence_digest_task.delay().get()  # a second run rewrites the same day

    digest = LowConfidenceDigest.objects.get()
    assert count == 3 and digest.day == yesterday.date()
    assert (digest.report_count, digest.open_count) == (3, 2)
    assert [(g["topic_gap"], g["count"], g["open"]) for g in digest.groups] == [("hearing", 2, 1), ("claims", 1, 1)]
    assert digest.groups[0]["mean_best_score"] == pytest.approx(0.40)
    assert {e["question"] for e in digest.groups[0]["examples"]} == {"tinnitus rating in one ear",
                                                                     "tinnitus rating both ears"}


def test_the_digest_is_shown_to_reviewers_in_the_admin(client, reviewer):
    report_for("tinnitus rating in one ear", gap="hearing", score=0.41, when=timezone.now() - timedelta(days=1))
    low_confidence_digest_task.delay().get()
    client.force_login(reviewer)
    digest = LowConfidenceDigest.objects.get()
    page = client.get(f"/admin/verification/lowconfidencedigest/{digest.id}/change/", secure=True)
    assert page.status_code == 200
    assert b"hearing" in page.content and b"tinnitus rating in one ear" in page.content
    listing = client.get("/admin/verification/lowconfidencedigest/", secure=True)
    assert b"hearing (1)" in listing.content


def reingest(tmp_path, capture, content: str) -> None:
    records = [{**r, "content": content} if r.get("entry_id") == "t-tinnitus" else r for r in SMALL_CORPUS]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(records))
    with capture(execute=True):
        corpus_ingest(paths=[path])


def test_a_stale_answer_is_checked_again_against_its_changed_source_once(tmp_path, client, reviewer,
                                                                         django_capture_on_commit_callbacks):
    row = AnsweredQuestion.objects.get(id=answer_question(question=TINNITUS).id)
    original = Chunk.objects.get(entry_id="t-tinnitus").content
    reingest(tmp_path, django_capture_on_commit_callbacks, original.replace("10%", "20%"))

    assert stale_answers_recheck_task.delay().get() == 1
    assert stale_answers_recheck_task.delay().get() == 0  # same sources: nothing new to check

    row.refresh_from_db()
    recheck = row.verification["recheck"]
    assert review.ERR_CORRECTION_NUMBERS.format(values="10%") in recheck["problems"]
    assert row.stale and not row.current  # still out of the cache: a reviewer decides
    assert not row.history.filter(history_change_reason__icontains="recheck").exists()
    client.force_login(reviewer)
    page = client.get(f"/admin/knowledge/answeredquestion/{row.id}/change/", secure=True).content.decode()
    assert "it no longer holds" in page and "10%" in page

    reingest(tmp_path, django_capture_on_commit_callbacks, original + " It is rated the same for every ear.")
    assert stale_answers_recheck_task.delay().get() == 1  # the source changed again: checked again
    row.refresh_from_db()
    assert row.verification["recheck"]["problems"] == []
    page = client.get(f"/admin/knowledge/answeredquestion/{row.id}/change/", secure=True).content.decode()
    assert "every claim is still supported" in page
