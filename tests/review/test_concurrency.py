"""At the same moment, over two database connections: identical questions store one answer, and the later of two
reviewers deciding on one answer sees the conflict instead of overwriting the other's decision."""

import threading
import time

import pytest
from django.db import connection, transaction

from knowledge.models import AnsweredQuestion
from knowledge.services import answered_question_create
from verification import review

pytestmark = pytest.mark.django_db(transaction=True)

# How long the main thread looks for the second connection to queue behind the first's lock: it polls, it
# asserts nothing about time; if it never sees the wait, the outcome is checked all the same.
POLLS, POLL_SECONDS = 400, 0.025


def store(question_hash: str, answer: str):
    return answered_question_create(
        question="Same question?", question_hash=question_hash, gate_key="", answer=answer, citations=[],
        question_vector=None, embedding_model="", confidence=0.5, retrieval_score=0.5, retrieved=[],
        weak_retrieval=False, refused=False, refusal_reason="", warning="", suggestions=[], model="extractive",
        routing_reason="test", verification={}, trace=[], topic_scores=[], entity_ids=[], cited=[],
    )


def wait_until_someone_waits_on_a_lock() -> bool:
    for _ in range(POLLS):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return True
        time.sleep(POLL_SECONDS)
    return False


def run_first_holding_then_second(first, second) -> dict:
    """Run ``first`` in a transaction on its own connection and keep it open until ``second``, on another
    connection, is queued behind it; then commit the first and let the second finish."""
    results: dict = {}
    started, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                results["first"] = first()
                started.set()
                release.wait(timeout=60)
        except Exception as exc:  # reported by the assertions below
            results["first_error"] = exc
            started.set()
        finally:
            connection.close()

    def follow():
        try:
            results["second"] = second()
        except Exception as exc:
            results["second_error"] = exc
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    started.wait(timeout=60)
    follower = threading.Thread(target=follow)
    follower.start()
    results["waited"] = wait_until_someone_waits_on_a_lock()
    release.set()
    holder.join()
    follower.join()
    return results


def test_two_identical_questions_at_the_same_moment_store_one_answer():
    results = run_first_holding_then_second(lambda: store("same-moment", "first answer [1]"),
                                            lambda: store("same-moment", "second answer [1]"))
    assert "first_error" not in results and "second_error" not in results, results
    (first, first_created), (second, second_created) = results["first"], results["second"]
    assert results["waited"]  # the second insert queued behind the first: the constraint decided
    assert first_created and not second_created and second.id == first.id and second.answer == "first answer [1]"
    assert AnsweredQuestion.objects.filter(question_hash="same-moment").count() == 1


def test_the_later_of_two_reviewers_sees_the_conflict(django_user_model):
    rita = django_user_model.objects.create_user("rita")
    sam = django_user_model.objects.create_user("sam")
    row = AnsweredQuestion.objects.create(question="Q?", question_hash="two-reviewers", answer="A [1].")
    seen = row.review_version  # both reviewers opened the page at this version

    results = run_first_holding_then_second(
        lambda: review.answer_flag(answered_question=row, user=rita, reason="Wrong rate.", expected_version=seen),
        lambda: review.answer_verify(answered_question=row, user=sam, expected_version=seen),
    )

    assert "first_error" not in results, results
    assert isinstance(results.get("second_error"), review.ReviewConflict), results
    assert "rita" in results["second_error"].message
    assert results["waited"]
    row.refresh_from_db()
    assert row.flagged and row.flagged_by == rita and not row.verified
    assert row.review_version == seen + 1
