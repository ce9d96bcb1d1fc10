"""The answer cache holds one answer per question, counts its serves, and keeps no-cache runs out."""

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from knowledge.models import AnsweredQuestion
from knowledge.services import answered_question_create
from verification import review
from verification.models import LowConfidenceReport
from verification.review_selectors import dashboard_get, review_queue
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_kb")]

QUESTION = "What is the VA rating for tinnitus?"


def store(question_hash: str, **extra):
    values = {"question": "q", "question_hash": question_hash, "gate_key": "", "answer": "a [1]", "citations": [],
              "question_vector": None, "embedding_model": "", "confidence": 0.5, "retrieval_score": 0.5,
              "retrieved": [], "weak_retrieval": False, "refused": False, "refusal_reason": "", "warning": "",
              "suggestions": [], "model": "extractive", "routing_reason": "test", "verification": {}, "trace": [],
              "topic_scores": [], "entity_ids": [], "cited": [], **extra}
    return answered_question_create(**values)


def test_a_question_holds_one_current_answer_by_constraint():
    AnsweredQuestion.objects.create(question="q", question_hash="h1")
    with pytest.raises(IntegrityError), transaction.atomic():
        AnsweredQuestion.objects.create(question="q", question_hash="h1")
    AnsweredQuestion.objects.create(question="q", question_hash="h1", current=False)  # one out of the cache
    AnsweredQuestion.objects.create(question="q", question_hash="h1", refused=True, refusal_reason="out_of_scope")


def test_storing_a_question_stored_at_the_same_moment_returns_the_first():
    first, created = store("h2", answer="first [1]")
    again, created_again = store("h2", answer="second [1]")
    assert created and not created_again and again.id == first.id and again.answer == "first [1]"
    assert AnsweredQuestion.objects.filter(question_hash="h2").count() == 1


def test_no_cache_runs_neither_read_nor_fill_the_cache_or_the_queue(settings, django_capture_on_commit_callbacks):
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "warning": 0.99}}
    with django_capture_on_commit_callbacks(execute=True):
        unstored = answer_question(question=QUESTION, use_cache=False)
        served = answer_question(question=QUESTION)
        again_unstored = answer_question(question=QUESTION, use_cache=False)
    assert served.cache == "miss" and served.id != unstored.id  # the no-cache answer was not in the cache
    assert again_unstored.cache == "miss" and again_unstored.id not in (served.id, unstored.id)
    off = AnsweredQuestion.objects.filter(id__in=[unstored.id, again_unstored.id])
    assert all(row.off_record and not row.current for row in off)
    assert list(LowConfidenceReport.objects.values_list("answered_question_id", flat=True)) == [served.id]
    assert list(AnsweredQuestion.objects.filter(review_queue()).values_list("id", flat=True)) == [served.id]


def test_ask_no_cache_stores_nothing_the_cache_serves(capsys):
    call_command("ask", QUESTION, "--no-cache", "--json")
    printed = json.loads(capsys.readouterr().out)
    assert printed["cache"] == "miss" and AnsweredQuestion.objects.get(id=printed["id"]).off_record
    assert answer_question(question=QUESTION).cache == "miss"


def test_serves_are_counted_with_those_of_verified_entries(reviewer):
    first = answer_question(question=QUESTION)
    answer_question(question=QUESTION)
    review.answer_verify(answered_question=AnsweredQuestion.objects.get(id=first.id), user=reviewer)
    answer_question(question=QUESTION)
    row = AnsweredQuestion.objects.get(id=first.id)
    assert (row.hit_count, row.verified_hit_count) == (2, 1) and row.last_served_at is not None
    figures = dashboard_get()
    assert (figures.served, figures.served_verified) == (3, 1)
    assert figures.verified_share == pytest.approx(1 / 3) and figures.verified_this_week == 1


def test_cache_clear_takes_answers_out_by_topic_and_keeps_reviewed_ones(reviewer, capsys):
    tinnitus = answer_question(question=QUESTION)
    review_row = answer_question(question="How long do I have to file a Higher-Level Review appeal?")
    with pytest.raises(CommandError, match="Unknown topic 'nope'"):
        call_command("cache_clear", "--topic", "nope")
    call_command("cache_clear", "--topic", "appeals")
    assert "1 answers left the cache (topic appeals)" in capsys.readouterr().out
    assert not AnsweredQuestion.objects.get(id=review_row.id).current
    assert AnsweredQuestion.objects.get(id=tinnitus.id).current
    assert answer_question(question="How long do I have to file a Higher-Level Review appeal?").cache == "miss"

    review.answer_verify(answered_question=AnsweredQuestion.objects.get(id=tinnitus.id), user=reviewer)
    call_command("cache_clear")
    assert AnsweredQuestion.objects.get(id=tinnitus.id).current  # a reviewer's decision stays
    call_command("cache_clear", "--include-reviewed")
    assert not AnsweredQuestion.objects.filter(current=True, refused=False).exists()
    assert answer_question(question=QUESTION).cache == "miss"


def test_a_cache_hit_is_served_in_three_queries_with_what_the_miss_gave(django_assert_max_num_queries):
    """Look up, load with topics, entities and the sources' date, count the serve: one round trip each."""
    miss = answer_question(question=QUESTION)
    with django_assert_max_num_queries(3):
        hit = answer_question(question=QUESTION)
    assert hit.cache == "exact" and hit.id == miss.id
    assert (hit.topics, hit.entities, hit.citations) == (miss.topics, miss.entities, miss.citations)
    assert hit.sources_checked_on == miss.sources_checked_on
    assert AnsweredQuestion.objects.get(id=miss.id).hit_count == 1
