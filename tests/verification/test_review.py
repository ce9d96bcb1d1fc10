"""Reviewers verify or flag answers in the admin; the cache serves verified answers first, flagged ones never."""

import pytest
from django.urls import reverse

from knowledge.models import AnsweredQuestion
from verification.review import UNDER_REVIEW_MESSAGE
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


@pytest.fixture
def admin_user(django_user_model):
    return django_user_model.objects.create_superuser("admin", "a@example.org", "pw-long-enough-123")


def test_admin_verify_action_marks_and_serves_verified(client, admin_user):
    first = answer_question(question="How long do I have to file a Higher-Level Review?")
    client.force_login(admin_user)
    url = reverse("admin:knowledge_answeredquestion_changelist")
    assert client.get(url, secure=True).status_code == 200
    response = client.post(url, {"action": "verify", "_selected_action": [first.id]}, secure=True)
    assert response.status_code == 302
    row = AnsweredQuestion.objects.get(id=first.id)
    assert row.verified and row.verified_by == admin_user and row.verified_at and not row.flagged
    again = answer_question(question="How long do I have to file a Higher-Level Review?")
    assert again.cache == "exact" and again.verified is True


def test_admin_flag_action_asks_a_reason_then_stops_serving(client, admin_user):
    first = answer_question(question="Can my spouse use my GI Bill?")
    client.force_login(admin_user)
    url = reverse("admin:knowledge_answeredquestion_changelist")
    asked = client.post(url, {"action": "flag", "_selected_action": [first.id]}, secure=True)
    assert asked.status_code == 200 and "Reason" in asked.content.decode()
    assert not AnsweredQuestion.objects.get(id=first.id).flagged
    client.post(url, {"action": "flag", "_selected_action": [first.id], "apply": "1",
                      "reason": "Transfer rules are missing."}, secure=True)
    row = AnsweredQuestion.objects.get(id=first.id)
    assert row.flagged and row.flagged_by == admin_user and not row.verified
    assert row.review_note == "Transfer rules are missing."
    again = answer_question(question="Can my spouse use my GI Bill?")
    assert again.id == first.id and again.answer == UNDER_REVIEW_MESSAGE and again.refused


def test_verified_paraphrase_is_served_from_the_semantic_cache():
    first = answer_question(question="What is the rating for tinnitus under DC 6260?")
    AnsweredQuestion.objects.filter(id=first.id).update(verified=True)
    again = answer_question(question="what rating is given for tinnitus under DC 6260")
    assert again.cache in {"semantic", "graph"} and again.id == first.id and again.verified


def test_admin_pages_render(client, admin_user):
    answer_question(question="How is sleep apnea rated?")
    client.force_login(admin_user)
    row = AnsweredQuestion.objects.latest("created_at")
    for url in [reverse("admin:knowledge_answeredquestion_change", args=[row.id]),
                reverse("admin:knowledge_answeredquestion_dashboard"),
                reverse("admin:knowledge_chunk_changelist"), reverse("admin:knowledge_entity_changelist"),
                reverse("admin:verification_lowconfidencereport_changelist"),
                reverse("admin:verification_lowconfidencereport_gaps")]:
        assert client.get(url, secure=True).status_code == 200, url
