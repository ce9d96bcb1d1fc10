"""The answer cache holds one answer per question, counts its serves, and keeps no-cache runs out."""

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from knowledge.models import AnsweredQuestion
from knowledge.services import answered_question_create
from verification import review
from verification.models import LowConfidenceReport
from verification.preprocess import PII_NOTICE
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


def test_a_cache_hit_is_one_statement_once_its_answer_is_kept_with_what_the_miss_gave(django_assert_num_queries):
    """The first serve finds and counts it, then loads it with topics, entities and the sources' date; later
    serves only find and count it: one round trip."""
    miss = answer_question(question=QUESTION)
    with django_assert_num_queries(2):
        first = answer_question(question=QUESTION)
    with django_assert_num_queries(1):
        hit = answer_question(question=QUESTION)
    for served in (first, hit):
        assert served.cache == "exact" and served.id == miss.id
        assert (served.topics, served.entities, served.citations) == (miss.topics, miss.entities, miss.citations)
        assert served.sources_checked_on == miss.sources_checked_on
    assert AnsweredQuestion.objects.get(id=miss.id).hit_count == 2


# Each column the cache serves, a new value for it written behind the application's back (no save(), no
# updated_at), and what the next serve must show.
CHANGED_BEHIND_THE_BACK = [
    ("answer", "Changed [1].", lambda r: r.answer == "Changed [1]."),
    ("citations", [{"number": 1, "chunk_id": "x", "url": "https://www.va.gov/x", "title": "X", "quote": "q"}],
     lambda r: [c["chunk_id"] for c in r.citations] == ["x"]),
    ("confidence", 0.123, lambda r: r.confidence == 0.123),
    ("weak_retrieval", True, lambda r: r.weak_retrieval),
    ("warning", "Changed warning.", lambda r: r.warning == "Changed warning."),
    ("suggestions", ["Changed?"], lambda r: r.suggestions == ["Changed?"]),
    ("model", "changed-model", lambda r: r.model == "changed-model"),
    ("routing_reason", "changed_reason", lambda r: r.routing_reason == "changed_reason"),
    ("verification", {"citation_score": 0.5}, lambda r: r.verification == {"citation_score": 0.5}),
    ("verified", True, lambda r: r.verified),
    ("flagged", True, lambda r: r.flagged and r.refused and not r.citations),
]


@pytest.mark.parametrize(("column", "value", "shows"), CHANGED_BEHIND_THE_BACK, ids=[c[0] for c in CHANGED_BEHIND_THE_BACK])
def test_a_kept_cache_hit_is_never_served_after_its_answer_changed(column, value, shows):
    """Served answers are kept in the process, keyed by a fingerprint of what is served: any change to a served
    column, however it was written, is seen on the very next serve."""
    miss = answer_question(question=QUESTION)
    kept = answer_question(question=QUESTION)
    assert kept.cache == "exact" and not shows(kept)
    AnsweredQuestion.objects.filter(id=miss.id).update(**{column: value})
    assert shows(answer_question(question=QUESTION))


def test_a_kept_cache_hit_shows_each_askers_own_question():
    """The kept answer is shared; the question, the personal-data notice and the request id are each asker's."""
    first = answer_question(question=f"{QUESTION} My SSN is 123-45-6789.")
    answer_question(question=f"{QUESTION} My SSN is 123-45-6789.")  # now kept
    other = answer_question(question=f"{QUESTION} my ssn is 987-65-4321.")
    plain = answer_question(question=QUESTION)
    assert other.cache == "exact" and other.id == first.id and other.question.startswith(f"{QUESTION} my ssn is")
    assert not any(digits in other.question + other.answer for digits in ("123-45-6789", "987-65-4321"))
    assert other.answer.startswith(PII_NOTICE) and other.request_id != first.request_id
    assert plain.id != first.id and plain.question == QUESTION and not plain.answer.startswith(PII_NOTICE)
