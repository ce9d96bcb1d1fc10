"""The chat pages through Django's test client: the same forms with htmx (partials) and without (post, then the
page at the answer); conversations, feedback, scope and limits."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from django.utils.html import escape

from chat.models import AnswerFeedback, Conversation
from chat.presenters import THANKS_HELPFUL, THANKS_NOT_HELPFUL
from chat.views import ERR_THROTTLED, ERR_UNKNOWN_SCOPE, SESSION_KEY
from knowledge.models import AnsweredQuestion
from verification.preprocess import PII_NOTICE
from verification.services import ERR_EMPTY

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

TINNITUS = "What is the VA rating for tinnitus?"
HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _throttle_counts_cleared():
    cache.clear()
    yield
    cache.clear()


def ask(client, question, htmx=False, **extra):
    return client.post("/ask/", {"question": question, **extra}, secure=True, headers=HX if htmx else {})


def conversation(client) -> Conversation:
    return Conversation.objects.get(key=client.session[SESSION_KEY])


def test_the_empty_page_has_its_landmarks_the_crisis_line_and_a_way_to_a_person(client):
    response = client.get("/", secure=True)
    html = response.content.decode()
    assert response.status_code == 200
    for landmark in ("<main", "<header", "<footer", 'aria-labelledby="crisis-title"', '<label for="question"',
                     'role="log"', 'aria-live="polite"'):
        assert landmark in html
    assert "988" in html and "838255" in html and "800-827-1000" in html and "find-rep" in html
    assert "automated assistant" in html and "not legal or medical advice" in html
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert SESSION_KEY not in client.session  # no conversation until a question is asked


def test_without_htmx_the_question_posts_and_the_page_shows_the_answer(client):
    response = ask(client, TINNITUS)
    assert response.status_code == 303
    turn = conversation(client).turns.get()
    assert response["Location"] == f"/#turn-{turn.id}"
    page = client.get("/", secure=True).content.decode()
    assert f'id="turn-{turn.id}"' in page and "10%" in page and 'class="sources"' in page
    assert "Sources checked on" in page


def test_with_htmx_the_answer_partial_is_returned(client):
    response = ask(client, TINNITUS, htmx=True)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith("<article")
    assert "10%" in html and 'href="#t' in html and "data-fresh" in html and "<html" not in html
    assert "Was this answer helpful?" in html


def test_a_question_in_crisis_gets_the_crisis_line_first_never_a_cached_answer(client):
    question = "I want to kill myself, what is the VA rating for tinnitus?"
    html = ask(client, question, htmx=True).content.decode()
    assert "crisis-answer" in html and "988" in html and "838255" in html and "10%" not in html
    again = ask(client, question, htmx=True).content.decode()
    assert "crisis-answer" in again and "10%" not in again


def test_a_flagged_answer_is_never_shown_again_on_the_page_or_by_id(client, django_user_model):
    from verification.review import UNDER_REVIEW_MESSAGE, answer_flag

    ask(client, TINNITUS)
    row = conversation(client).turns.get().answered_question
    answer_flag(answered_question=row, user=django_user_model.objects.create(username="rita", is_staff=True),
                reason="Says 20% for both ears.")
    page = client.get("/", secure=True).content.decode()
    assert escape(UNDER_REVIEW_MESSAGE) in page and row.answer[:40] not in page and 'class="sources"' not in page
    stored = client.get(f"/api/v1/questions/{row.id}/", secure=True).json()
    assert stored["answer"] == UNDER_REVIEW_MESSAGE and stored["refusal_reason"] == "under_review"
    assert stored["citations"] == [] and stored["flagged"] is True


def test_an_empty_question_is_a_message_not_an_answer(client):
    page = ask(client, "   ")
    assert page.status_code == 400 and escape(ERR_EMPTY) in page.content.decode()
    partial = ask(client, "", htmx=True)
    assert partial["HX-Retarget"] == "#ask-error" and escape(ERR_EMPTY) in partial.content.decode()
    assert not AnsweredQuestion.objects.exists()


def test_personal_details_are_removed_and_the_page_says_so(client):
    ask(client, "My SSN is 123-45-6789, what is the VA rating for tinnitus?")
    turn = conversation(client).turns.get()
    assert "123-45-6789" not in turn.question and turn.pii_removed
    assert escape(PII_NOTICE) in client.get("/", secure=True).content.decode()


def test_a_conversation_keeps_the_last_five_turns_and_expires_when_idle(client):
    for n in range(7):
        ask(client, f"What is the VA rating for tinnitus? ({n})")
    conv = conversation(client)
    assert [t.question for t in conv.turns.all()] == [f"What is the VA rating for tinnitus? ({n})" for n in range(2, 7)]
    Conversation.objects.filter(pk=conv.pk).update(last_active_at=timezone.now() - timedelta(minutes=31))
    assert 'class="turn"' not in client.get("/", secure=True).content.decode()
    ask(client, TINNITUS)
    assert conversation(client).turns.count() == 1


def test_new_conversation_clears_it(client):
    ask(client, TINNITUS)
    response = client.post("/new/", secure=True)
    assert response.status_code == 303 and response["Location"] == "/#question"
    assert not Conversation.objects.exists()
    assert 'class="turn"' not in client.get("/", secure=True).content.decode()


def test_not_helpful_asks_why_then_thanks_and_queues_the_answer(client):
    ask(client, TINNITUS)
    answer_id = conversation(client).turns.get().answered_question_id
    reason_form = client.post(f"/feedback/{answer_id}/", {"helpful": "0"}, secure=True, headers=HX)
    assert "What was wrong with this answer?" in reason_form.content.decode()
    assert AnsweredQuestion.objects.get(id=answer_id).needs_review
    thanks = client.post(f"/feedback/{answer_id}/", {"helpful": "0", "step": "reason", "reason": "wrong",
                                                     "comment": "my email is vet@example.org"}, secure=True, headers=HX)
    assert THANKS_NOT_HELPFUL in thanks.content.decode()
    vote = AnswerFeedback.objects.get(answered_question_id=answer_id)
    assert vote.reason == "wrong" and "vet@example.org" not in vote.comment


def test_feedback_without_javascript_returns_to_the_answer(client):
    ask(client, TINNITUS)
    answer_id = conversation(client).turns.get().answered_question_id
    response = client.post(f"/feedback/{answer_id}/", {"helpful": "0"}, secure=True)
    assert response.status_code == 303 and response["Location"] == f"/?feedback={answer_id}%3Areason#feedback-{answer_id}"
    assert "What was wrong with this answer?" in client.get(response["Location"], secure=True).content.decode()
    client.post(f"/feedback/{answer_id}/", {"helpful": "1"}, secure=True)
    assert THANKS_HELPFUL in client.get("/", secure=True).content.decode()
    assert AnswerFeedback.objects.get(answered_question_id=answer_id).helpful is True  # one vote, changed


def test_feedback_only_on_answers_this_conversation_was_given(client, django_user_model):
    other = AnsweredQuestion.objects.create(question="x", question_hash="x", answer="y")
    assert client.post(f"/feedback/{other.id}/", {"helpful": "0"}, secure=True).status_code == 404
    assert not AnswerFeedback.objects.exists()


def test_an_unknown_topic_on_the_page_is_said_plainly(client):
    response = client.get("/?topic=underwater-basketweaving", secure=True)
    assert response.status_code == 400
    assert escape(ERR_UNKNOWN_SCOPE.format(value="underwater-basketweaving")) in response.content.decode()


def test_a_known_topic_is_shown_and_carried_by_the_form(client):
    html = client.get("/?topic=education_benefits", secure=True).content.decode()
    assert "Answers on this page come only from" in html
    assert '<input type="hidden" name="topic" value="education_benefits">' in html


def test_the_page_is_throttled_by_address(client, settings):
    settings.CHAT_RATE = "1/min"
    assert ask(client, TINNITUS).status_code == 303
    throttled = ask(client, TINNITUS, htmx=True)
    assert throttled["HX-Retarget"] == "#ask-error"
    assert escape(ERR_THROTTLED.split("{")[0]) in throttled.content.decode()


def test_every_post_needs_the_csrf_token():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/ask/", {"question": TINNITUS}, secure=True).status_code == 403
