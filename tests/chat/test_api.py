"""POST /api/v1/answer/: the contract outside clients rely on (DESIGN.md)."""

import json

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

URL = "/api/v1/answer/"
CONTRACT_KEYS = {
    "id", "question", "answer", "citations", "confidence", "weak_retrieval", "refused", "refusal_reason", "warning",
    "suggestions", "cache", "model", "routing_reason", "topics", "entities", "verification", "verified", "flagged",
    "request_id", "trace", "latency_ms",
}
VERIFICATION_KEYS = {"citation_score", "invalid_urls", "hallucinated_numbers", "hallucinated_codes",
                     "removed_citations", "is_clean"}


def post(client, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(URL, data=data, content_type=content_type, secure=True)


def test_answer_matches_the_contract(client):
    response = post(client, {"question": "What is the rating for tinnitus under DC 6260?", "session_id": "abc"})
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


def test_refusal_matches_the_contract(client):
    body = post(client, {"question": "What is the rating for DC 9999?"}).json()
    assert body["refused"] is True and body["refusal_reason"] == "entity_not_found"
    assert body["citations"] == [] and set(body) == CONTRACT_KEYS


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
        (["question"], "invalid_body"),
        ("not json at all", "invalid_json"),
        ('{"question": "unterminated', "invalid_json"),
    ],
)
def test_bad_input_is_a_400_with_a_message(client, body, code):
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code and error["message"]


def test_wrong_content_type_is_a_400(client):
    response = client.post(URL, data="question=hello", content_type="application/x-www-form-urlencoded", secure=True)
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_json"


def test_exactly_2000_characters_is_accepted(client):
    question = ("What is the VA rating for tinnitus? " * 60)[:2000]
    assert post(client, {"question": question}).status_code == 200


def test_get_is_not_allowed(client):
    response = client.get(URL, secure=True)
    assert response.status_code == 405 and "error" in response.json()
