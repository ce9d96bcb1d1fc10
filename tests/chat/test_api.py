"""The public API: the answer contract outside clients rely on (docs/ARCHITECTURE.md), bad input, memory, feedback,
stored answers, health, keys and throttles."""

import json
import re

import pytest
from django.core.cache import cache

from chat.errors import ERR_MEDIA_TYPE, ERR_SURROGATE, ERR_THROTTLED, ERR_TOO_DEEP
from chat.models import AnswerFeedback, Conversation
from chat.services import api_client_create
from knowledge.models import AnsweredQuestion

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

URL = "/api/v1/answer/"
CONTRACT_KEYS = {
    "id", "question", "rewritten_question", "answer", "citations", "confidence", "weak_retrieval", "refused",
    "refusal_reason", "warning", "suggestions", "cache", "model", "routing_reason", "topics", "entities",
    "verification", "verified", "flagged", "request_id", "trace", "latency_ms", "sources_checked_on",
}
VERIFICATION_KEYS = {"citation_score", "invalid_urls", "hallucinated_numbers", "hallucinated_codes",
                     "removed_citations", "is_clean"}
TINNITUS = "What is the rating for tinnitus under DC 6260?"


@pytest.fixture(autouse=True)
def _throttle_counts_cleared():
    cache.clear()
    yield
    cache.clear()


def post(client, body, content_type="application/json", url=URL, **headers):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type=content_type, secure=True, headers=headers)


def test_answer_matches_the_contract(client):
    response = post(client, {"question": TINNITUS, "session_id": "abc"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == CONTRACT_KEYS
    assert set(body["verification"]) == VERIFICATION_KEYS
    assert body["cache"] in {"miss", "exact", "semantic", "graph"}
    assert isinstance(body["id"], int) and body["request_id"].startswith("req-")
    citation = body["citations"][0]
    assert set(citation) == {"number", "chunk_id", "url", "title", "quote"}
    assert all({"stage", "ms"} <= set(stage) for stage in body["trace"])
    assert body["entities"] and all(set(e) == {"type", "value"} for e in body["entities"])
    assert isinstance(body["latency_ms"], float)
    assert body["question"] == TINNITUS and body["rewritten_question"] is None
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", body["sources_checked_on"])


def test_a_cache_hit_carries_the_date_its_sources_were_checked(client):
    first = post(client, {"question": TINNITUS}).json()
    again = post(client, {"question": TINNITUS}).json()
    assert (first["cache"], again["cache"]) == ("miss", "exact")
    assert again["sources_checked_on"] == first["sources_checked_on"] is not None


def test_the_path_works_without_its_trailing_slash(client):
    response = post(client, {"question": TINNITUS}, url="/api/v1/answer")
    assert response.status_code == 200 and "10%" in response.json()["answer"]


def test_refusal_matches_the_contract(client):
    body = post(client, {"question": "What is the rating for DC 9999?"}).json()
    assert body["refused"] is True and body["refusal_reason"] == "entity_not_found"
    assert body["citations"] == [] and set(body) == CONTRACT_KEYS and body["sources_checked_on"] is None


def test_a_cache_hit_shows_the_question_asked_never_the_stored_one(client):
    first = post(client, {"question": "My name is John Carter. What is the VA rating for tinnitus?"}).json()
    other = post(client, {"question": "my name is john carter. what is the va rating for tinnitus"}).json()
    assert other["cache"] == "exact" and other["id"] == first["id"]
    assert other["question"] == "my name is john carter. what is the va rating for tinnitus"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"question": ""}, "empty_question"),
        ({"question": "   \n\t "}, "empty_question"),
        ({"question": "x" * 2001}, "question_too_long"),
        ({"question": 42}, "invalid_type"),
        ({"question": None}, "invalid_type"),
        ({"question": ["what"]}, "invalid_type"),
        ({"question": "rating\x07 for tinnitus"}, "control_characters"),
        ({}, "missing_question"),
        ({"question": "ok", "extra": 1}, "unknown_fields"),
        ({"question": "ok", "session_id": 5}, "invalid_session_id"),
        ({"question": "ok", "session_id": "s" * 65}, "invalid_session_id"),
        ({"question": "ok", "topic": 5}, "invalid_topic"),
        (["question"], "invalid_body"),
        ("not json at all", "invalid_json"),
        ('{"question": "unterminated', "invalid_json"),
        ('{"question": NaN}', "invalid_json"),
        (b'{"question": "\xff\xfe"}', "invalid_json"),
    ],
)
def test_bad_input_is_a_400_with_a_message(client, body, code):
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and error["message"]


def test_a_body_that_is_not_json_is_415(client):
    response = post(client, "question=hello", content_type="text/plain")
    assert response.status_code == 415
    assert response.json()["error"] == {"code": "unsupported_media_type",
                                        "message": ERR_MEDIA_TYPE.format(media_type="text/plain")}
    assert post(client, "question=hello", content_type="application/x-www-form-urlencoded").status_code == 415


def test_a_body_nested_1500_deep_is_a_400_not_a_crash(client):
    response = post(client, '{"question": ' + "[" * 1500 + "]" * 1500 + "}")
    assert response.status_code == 400 and response.json()["error"]["message"] == ERR_TOO_DEEP


@pytest.mark.parametrize("body", ['{"question": "tinnitus \\ud800 rating"}', '{"\\udfff": "x", "question": "ok"}'])
def test_a_lone_surrogate_is_a_400_not_a_crash(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "invalid_unicode", "message": ERR_SURROGATE}


def test_an_oversized_body_is_a_413(client, settings):
    response = post(client, {"question": "x" * (settings.API_MAX_BODY_BYTES + 10)})
    assert response.status_code == 413 and response.json()["error"]["code"] == "body_too_large"


def test_exactly_2000_characters_is_accepted(client):
    question = ("What is the VA rating for tinnitus? " * 60)[:2000]
    assert post(client, {"question": question}).status_code == 200


def test_get_is_not_allowed(client):
    response = client.get(URL, secure=True)
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"


def test_an_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/v1/nothing-here/", secure=True)
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_an_unknown_topic_or_source_is_a_400_naming_it(client):
    response = post(client, {"question": TINNITUS, "topic": "underwater-basketweaving"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_topic"
    assert "underwater-basketweaving" in response.json()["error"]["message"]
    response = post(client, {"question": TINNITUS, "source": "https://www.va.gov/no-such-page/"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "unknown_source"


def test_a_topic_restricts_the_sources(client):
    body = post(client, {"question": "How much does the GI Bill pay for housing?", "topic": "education_benefits"}).json()
    assert not body["refused"]
    cited = set(AnsweredQuestion.objects.get(id=body["id"]).sources.values_list("url", flat=True))
    assert cited and all("/education/" in url or "ecfr.gov" not in url for url in cited)


def test_session_id_gives_the_api_the_same_memory(client):
    post(client, {"question": "What is the VA rating for PTSD?", "session_id": "s-1"})
    follow = post(client, {"question": "and at 70 percent?", "session_id": "s-1"}).json()
    assert follow["question"] == "and at 70 percent?"
    assert "PTSD" in (follow["rewritten_question"] or "") and "70" in follow["rewritten_question"]
    assert any(stage["stage"] == "rewrite" for stage in follow["trace"])
    alone = post(client, {"question": "and at 70 percent?", "session_id": "s-2"}).json()
    assert alone["rewritten_question"] is None
    assert Conversation.objects.get(key="api:anon:s-1").turns.count() == 2


def test_a_stored_answer_shows_its_question_only_to_the_session_that_asked(client):
    asked = post(client, {"question": TINNITUS, "session_id": "mine"}).json()
    mine = client.get(f"/api/v1/questions/{asked['id']}/?session_id=mine", secure=True).json()
    assert mine["question"] == TINNITUS and mine["answer"] == asked["answer"]
    theirs = client.get(f"/api/v1/questions/{asked['id']}", secure=True).json()
    assert theirs["question"] is None and theirs["citations"] == asked["citations"]
    assert client.get("/api/v1/questions/999999999/", secure=True).status_code == 404


def test_not_helpful_feedback_queues_the_answer_for_review_and_one_vote_per_conversation(client):
    asked = post(client, {"question": TINNITUS}).json()
    url = f"/api/v1/questions/{asked['id']}/feedback/"
    first = post(client, {"helpful": True, "session_id": "v"}, url=url)
    assert first.status_code == 200 and first.json()["helpful"] is True
    second = post(client, {"helpful": False, "reason": "outdated", "comment": "email me at a@b.org",
                           "session_id": "v"}, url=url)
    assert second.status_code == 200
    votes = AnswerFeedback.objects.filter(answered_question_id=asked["id"])
    assert votes.count() == 1 and votes.get().reason == "outdated"
    assert "a@b.org" not in votes.get().comment
    assert AnsweredQuestion.objects.get(id=asked["id"]).needs_review is True


@pytest.mark.parametrize(("body", "code"), [({"helpful": "maybe"}, "invalid_helpful"),
                                            ({"helpful": False, "reason": "rude"}, "invalid_reason"),
                                            ({}, "invalid_helpful")])
def test_bad_feedback_is_a_400(client, body, code):
    asked = post(client, {"question": TINNITUS}).json()
    response = post(client, body, url=f"/api/v1/questions/{asked['id']}/feedback/")
    assert response.status_code == 400 and response.json()["error"]["code"] == code


def test_feedback_on_an_unknown_answer_is_a_404(client):
    assert post(client, {"helpful": True}, url="/api/v1/questions/987654321/feedback/").status_code == 404


def test_health_reports_every_part(client):
    response = client.get("/api/v1/health/", secure=True)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "cache", "broker", "embedding_model"}
    assert "pgvector" in body["checks"]["database"]["detail"]


def test_health_is_degraded_naming_a_broker_that_does_not_answer(client, settings):
    """Tasks then run in the web process: answers are still served, so 200, saying what stands in."""
    from chat import health

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    from veterans_ai.celery import app

    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        report = health.health_get(max_age=0)
        response = client.get("/api/v1/health/", secure=True)
    finally:
        app.conf.broker_url = "memory://localhost/"
        health.health_get(max_age=0)
    assert (report.failing, report.degraded) == ([], ["broker"])
    body = response.json()
    assert response.status_code == 200 and body["status"] == "degraded" and body["degraded"] == ["broker"]
    assert "tasks run in the web process" in body["checks"]["broker"]["detail"]


def test_health_is_503_naming_a_part_that_fails(client, monkeypatch):
    from chat import health

    def no_vector_extension() -> str:
        raise RuntimeError("the vector extension is not installed")

    monkeypatch.setitem(health.CHECKS, "database", no_vector_extension)
    try:
        response = client.get("/api/v1/health/", secure=True) if health.health_get(max_age=0) else None
    finally:
        monkeypatch.undo()
        health.health_get(max_age=0)
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["failing"] == ["database"] and response.json()["status"] == "unavailable"


def test_anonymous_callers_are_throttled_with_retry_after(client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "client": "100/min"}}
    codes = [post(client, {"question": TINNITUS}).status_code for _ in range(3)]
    throttled = post(client, {"question": TINNITUS})
    _, key = api_client_create(name="A VSO website")
    with_key = post(client, {"question": TINNITUS}, Authorization=f"Bearer {key}")
    assert codes == [200, 200, 429]
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert throttled.json()["error"]["code"] == "throttled"
    assert throttled.json()["error"]["message"] == ERR_THROTTLED.format(wait=int(throttled["Retry-After"]))
    assert with_key.status_code == 200  # an API client is counted by its key, at its own rate


def test_a_client_is_held_to_its_own_rate(client):
    _, key = api_client_create(name="Call centre", rate="1/min")
    assert post(client, {"question": TINNITUS}, Authorization=f"Bearer {key}").status_code == 200
    assert post(client, {"question": TINNITUS}, Authorization=f"Api-Key {key}").status_code == 429


@pytest.mark.parametrize("header", ["Bearer not-a-key", "Bearer", "Basic dXNlcjpwYXNz"])
def test_a_bad_key_is_a_401(client, header):
    response = post(client, {"question": TINNITUS}, Authorization=header)
    assert response.status_code == 401 and response.json()["error"]["code"] == "invalid_api_key"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_key_is_a_401(client):
    client_obj, key = api_client_create(name="Old partner")
    client_obj.active = False
    client_obj.save()
    assert post(client, {"question": TINNITUS}, Authorization=f"Bearer {key}").status_code == 401


def test_cors_is_closed_unless_an_origin_is_listed(client, settings):
    closed = client.options(URL, secure=True, headers={"Origin": "https://vso.example.org",
                                                       "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in closed
    settings.CORS_ALLOWED_ORIGINS = ["https://vso.example.org"]
    opened = client.options(URL, secure=True, headers={"Origin": "https://vso.example.org",
                                                       "Access-Control-Request-Method": "POST"})
    assert opened["Access-Control-Allow-Origin"] == "https://vso.example.org"


@pytest.mark.parametrize(("said", "secret"), [
    ("my social is 123456789, how is tinnitus rated?", "123456789"),
    ("SSN 123.45.6789 - how is tinnitus rated?", "6789"),
    ("call me 5551234567 about my tinnitus rating", "5551234567"),
    ("dob 14.03.1968, how is tinnitus rated?", "1968"),
])
def test_personal_details_are_neither_stored_nor_echoed(client, said, secret):
    from knowledge.models import AnsweredQuestion

    body = post(client, {"question": said}).json()
    row = AnsweredQuestion.objects.get(id=body["id"])
    assert secret not in body["question"] and "removed]" in body["question"]
    assert secret not in row.question and secret not in row.gate_key
