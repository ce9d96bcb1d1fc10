"""The workbench as reviewers use it: evidence on the change page, decisions as buttons and list actions,
permissions, escaping, the dashboard and the report pages."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from knowledge.models import AnsweredQuestion, Chunk, Entity, QuestionSource
from verification import review
from verification.models import LowConfidenceReport
from verification.review_selectors import segments_mark
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_kb")]

QUESTION = "What is the VA rating for tinnitus?"
HOSTILE = '<script>alert("x")</script>'


def change_url(row_id: int) -> str:
    return reverse("admin:knowledge_answeredquestion_change", args=[row_id])


def decide_url(row_id: int) -> str:
    return reverse("admin:knowledge_answeredquestion_decide", args=[row_id])


@pytest.fixture
def answered():
    return AnsweredQuestion.objects.get(id=answer_question(question=QUESTION).id)


def test_the_change_page_shows_the_evidence_with_the_sentences_used_marked(client, reviewer, answered):
    client.force_login(reviewer)
    page = client.get(change_url(answered.id), secure=True).content.decode()
    assert 'id="citation-1"' in page and "Tinnitus rating" in page
    marked = re.findall(r'<mark class="used">(.*?)</mark>', page)
    assert marked and any("10%" in m for m in marked)
    assert "Citation score 100%" in page and "Confidence" in page  # the verification report in words
    assert "retrieve" in page and "store" in page  # the trace as a table
    assert 'href="#citation-1"' in page  # the answer's markers link to their evidence
    for button in ("verify-button", "flag-button", "correct-link"):
        assert f'id="{button}"' in page


def test_segments_are_marked_by_the_words_a_claim_shares():
    content = "Tinnitus is rated under DC 6260.\nThe only rating is 10%, in one ear or both.\nScars are rated apart."
    marks = segments_mark(content=content, claims=["The only rating is 10%, whether in one ear or both"])
    assert [s.used for s in marks] == [False, True, False]


def test_a_reader_reads_but_cannot_decide(client, reader, answered):
    client.force_login(reader)
    page = client.get(change_url(answered.id), secure=True)
    assert page.status_code == 200 and 'id="flag-button"' not in page.content.decode()
    denied = client.post(decide_url(answered.id), {"decision": "flag", "reason": "x"}, secure=True)
    assert denied.status_code == 403
    assert client.get(reverse("admin:knowledge_answeredquestion_correct", args=[answered.id]),
                      secure=True).status_code == 403
    assert not AnsweredQuestion.objects.get(id=answered.id).flagged


def test_buttons_decide_and_a_stale_page_sees_the_conflict(client, reviewer, second_reviewer, answered):
    client.force_login(reviewer)
    version = answered.review_version
    missing = client.post(decide_url(answered.id), {"decision": "flag", "reason": "", "version": version},
                          secure=True, follow=True)
    assert review.ERR_REASON_REQUIRED.format(action="flag") in missing.content.decode()
    assert not AnsweredQuestion.objects.get(id=answered.id).flagged

    review.answer_verify(answered_question=answered, user=second_reviewer)  # meanwhile, someone else decides
    late = client.post(decide_url(answered.id), {"decision": "flag", "reason": "Wrong.", "version": version},
                       secure=True, follow=True)
    assert "Another reviewer changed this answer" in late.content.decode()
    row = AnsweredQuestion.objects.get(id=answered.id)
    assert row.verified and not row.flagged

    client.post(decide_url(answered.id), {"decision": "flag", "reason": "Wrong.", "version": row.review_version},
                secure=True)
    assert AnsweredQuestion.objects.get(id=answered.id).flagged


def test_a_reviewers_free_text_is_escaped_everywhere_it_is_shown(client, reviewer, answered,
                                                                  django_capture_on_commit_callbacks):
    review.answer_flag(answered_question=answered, user=reviewer, reason=HOSTILE)
    client.force_login(reviewer)
    pages = [client.get(change_url(answered.id), secure=True),
             client.get(reverse("admin:knowledge_answeredquestion_changelist") + "?state=flagged&q=tinnitus",
                        secure=True),
             client.get(reverse("admin:knowledge_answeredquestion_history", args=[answered.id]), secure=True)]
    for page in pages:
        text = page.content.decode()
        assert page.status_code == 200 and HOSTILE not in text
    assert "&lt;script&gt;" in pages[0].content.decode()

    correct = client.post(reverse("admin:knowledge_answeredquestion_correct", args=[answered.id]),
                          {"text": f"Tinnitus is rated 40% [1]. {HOSTILE}", "reason": HOSTILE,
                           "version": AnsweredQuestion.objects.get(id=answered.id).review_version}, secure=True)
    body = correct.content.decode()
    assert correct.status_code == 200 and HOSTILE not in body and "40%" in body  # refused, reasons shown


def test_the_change_page_needs_the_same_queries_for_seven_citations_as_for_one(client, reviewer, answered):
    chunks = list(Chunk.objects.order_by("entry_id"))
    source, topic = chunks[0].source, chunks[0].topic
    chunks += [Chunk.objects.create(entry_id=f"extra-{n}", source=source, topic=topic, title=f"Extra {n}",
                                    content=f"Extra fact {n}: a rating of {n}0% applies.", content_hash=str(n))
               for n in (1, 2)]
    seven = AnsweredQuestion.objects.create(
        question="Seven sources?", question_hash="seven", confidence=0.7,
        answer=" ".join(f"{c.title or c.entry_id} says so [{n}]." for n, c in enumerate(chunks[:7], start=1)),
        citations=[{"number": n, "chunk_id": c.entry_id, "url": c.source.url, "title": c.title, "quote": ""}
                   for n, c in enumerate(chunks[:7], start=1)],
        trace=[{"stage": "retrieve", "ms": 1.0}], verification={"citation_score": 1.0, "is_clean": True})
    for n, c in enumerate(chunks[:7], start=1):
        QuestionSource.objects.create(question=seven, source=c.source, chunk=c, citation_number=n)
    for row in (answered, seven):
        review.answer_flag(answered_question=row, user=reviewer, reason="check")
        review.answer_verify(answered_question=row, user=reviewer)
        LowConfidenceReport.objects.create(answered_question=row, best_score=0.3, report={"recommendations": ["x"]})
    client.force_login(reviewer)
    client.get(change_url(answered.id), secure=True)  # warm the session and permission caches

    counts = {}
    for row in (answered, seven):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(change_url(row.id), secure=True)
        assert page.status_code == 200
        counts[len(row.citations)] = len(queries)
    assert set(counts) == {1, 7} and counts[7] == counts[1], counts
    assert counts[7] <= 20, counts


def test_list_filters_and_actions(client, reviewer, answered):
    other = answer_question(question="How long do I have to file a Higher-Level Review?")
    client.force_login(reviewer)
    url = reverse("admin:knowledge_answeredquestion_changelist")
    for query in ("?state=queue", "?state=unreviewed", "?state=stale", "?confidence=high", "?stale__exact=1",
                  "?refusal_reason=out_of_scope", "?q=tinnitus", f"?topics__id__exact={answered.topics.first().id}",
                  f"?created_at__year={answered.created_at.year}"):
        assert client.get(url + query, secure=True).status_code == 200, query
    listed = client.get(url + "?state=unreviewed", secure=True).content.decode()
    assert "tinnitus" in listed.lower() and "Served, unreviewed" in listed

    asked = client.post(url, {"action": "requeue", "_selected_action": [answered.id, other.id]}, secure=True)
    assert asked.status_code == 200 and "say why" in asked.content.decode()
    client.post(url, {"action": "requeue", "_selected_action": [answered.id, other.id], "apply": "1",
                      "reason": "New rules."}, secure=True)
    queue = client.get(url + "?state=queue", secure=True).content.decode()
    assert "tinnitus" in queue.lower() and "Higher-Level Review" in queue


def test_correcting_through_the_admin(client, reviewer, answered):
    client.force_login(reviewer)
    url = reverse("admin:knowledge_answeredquestion_correct", args=[answered.id])
    form = client.get(url, secure=True).content.decode()
    assert "Check and save the correction" in form and "Tinnitus rating" in form
    bad = client.post(url, {"text": "Tinnitus is rated 30% [1].", "version": answered.review_version}, secure=True)
    assert review.ERR_CORRECTION_NUMBERS.format(values="30%") in bad.content.decode()
    good = client.post(url, {"text": "Tinnitus is rated 10% under DC 6260 [1].", "reason": "Shorter.",
                             "version": answered.review_version}, secure=True)
    assert good.status_code == 302
    served = answer_question(question=QUESTION)
    assert served.answer == "Tinnitus is rated 10% under DC 6260 [1]." and served.verified


def test_dashboard_and_report_pages(client, reviewer, settings, django_capture_on_commit_callbacks):
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "warning": 0.99}}
    with django_capture_on_commit_callbacks(execute=True):
        # Answered, and under the warning threshold set just below 1: every answer is reported.
        weak = answer_question(question="How long is an intent to file good for?")
    LowConfidenceReport.objects.filter(answered_question_id=weak.id).update(topic_gap="intent_to_file")
    client.force_login(reviewer)
    dashboard = client.get(reverse("admin:knowledge_answeredquestion_dashboard"), secure=True).content.decode()
    assert re.search(r'id="queue-size"><a [^>]*>1</a>', dashboard) and "intent_to_file: 1 open report" in dashboard
    gaps = client.get(reverse("admin:verification_lowconfidencereport_gaps"), secure=True).content.decode()
    assert "intent_to_file" in gaps and change_url(weak.id) in gaps

    report = LowConfidenceReport.objects.get(answered_question_id=weak.id)
    client.post(reverse("admin:verification_lowconfidencereport_resolve", args=[report.id]),
                {"note": "Added intent-to-file chunks.", "next": change_url(weak.id)}, secure=True)
    report.refresh_from_db()
    assert report.status == "resolved" and report.resolution_note == "Added intent-to-file chunks."


def test_editing_the_knowledge_base_asks_why_and_keeps_who(client, reviewer, answered):
    client.force_login(reviewer)
    entity = Entity.objects.get(type="dc_code", value="6260")
    url = reverse("admin:knowledge_entity_change", args=[entity.id])
    data = {"type": "dc_code", "value": "6260", "name": "Tinnitus", "aliases": "tinnitus,ringing in the ears",
            "definition": "", "source": ""}
    assert client.post(url, data, secure=True).status_code == 200  # no reason: the form is shown again
    assert client.post(url, {**data, "change_reason": "Plain name"}, secure=True).status_code == 302
    record = entity.history.first()
    assert record.history_user == reviewer and record.history_change_reason == "Plain name"

    chunk = Chunk.objects.get(entry_id="t-tinnitus")
    chunk_url = reverse("admin:knowledge_chunk_change", args=[chunk.id])
    edited = {"entry_id": chunk.entry_id, "source": chunk.source_id, "topic": chunk.topic_id, "subtopic": "",
              "type": chunk.type, "title": chunk.title, "content": chunk.content + " Tinnitus alone is never 20%.",
              "diagnostic_code": "6260", "change_reason": "Added a clarification",
              "embeddings-TOTAL_FORMS": "1", "embeddings-INITIAL_FORMS": "1", "embeddings-MIN_NUM_FORMS": "0",
              "embeddings-MAX_NUM_FORMS": "1000", "embeddings-0-id": chunk.embeddings.first().id,
              "embeddings-0-chunk": chunk.id}
    response = client.post(chunk_url, edited, secure=True)
    assert response.status_code == 302, response.content.decode()[:2000]
    answered.refresh_from_db()
    assert answered.stale and not answered.current
    assert answered.source_changes.get().after.endswith("never 20%.")


def test_answers_and_reports_cannot_be_deleted_even_by_a_superuser(client, django_user_model, answered):
    admin = django_user_model.objects.create_superuser("admin", "admin@example.org", "pw-long-enough-123")
    client.force_login(admin)
    url = reverse("admin:knowledge_answeredquestion_delete", args=[answered.id])
    assert client.post(url, {"post": "yes"}, secure=True).status_code == 403
    assert AnsweredQuestion.objects.filter(id=answered.id).exists()


def test_feedback_shows_on_the_page_escaped_and_filters_the_list(client, reviewer, answered):
    from chat.models import AnswerFeedback

    AnswerFeedback.objects.create(answered_question=answered, voter="conversation-1", helpful=False,
                                  reason="missing", comment=HOSTILE)
    client.force_login(reviewer)
    page = client.get(change_url(answered.id), secure=True).content.decode()
    assert "Missing something" in page and HOSTILE not in page and "&lt;script&gt;" in page
    url = reverse("admin:knowledge_answeredquestion_changelist")
    assert "tinnitus" in client.get(url + "?feedback=unhelpful", secure=True).content.decode().lower()
    assert "tinnitus" not in client.get(url + "?feedback=none", secure=True).content.decode().lower()
