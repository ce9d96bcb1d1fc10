"""Every log line is one JSON object carrying the request id, from the web request into the tasks it queues;
a task that fails for good is kept for operators."""

import io
import json
import logging

import pytest

from operations.models import TaskFailure
from verification.tasks import low_confidence_report_task
from veterans_ai.request_context import REQUEST_ID_HEADER, request_id_reset, request_id_set


@pytest.fixture
def log_lines():
    """The lines the configured console handler writes (its formatter and filters), captured."""
    console = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(console.formatter)
    for f in console.filters:
        handler.addFilter(f)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.django_db
def test_a_request_keeps_a_plain_request_id_its_caller_sent_and_the_answer_quotes_it(client, log_lines):
    response = client.post("/api/v1/answer", {"question": "what is the rating for tinnitus"},
                           content_type="application/json", secure=True, headers={REQUEST_ID_HEADER: "abc-123"})
    assert response.status_code == 200
    assert response[REQUEST_ID_HEADER] == "abc-123" == response.json()["request_id"]
    answer_lines = [line for line in log_lines() if line["message"] == "answer"]
    assert answer_lines and {line["request_id"] for line in answer_lines} == {"abc-123"}
    line = answer_lines[0]
    assert {"timestamp", "level", "component", "request_id", "message"} <= set(line)
    assert (line["level"], line["component"]) == ("INFO", "verification")
    assert "tinnitus" not in json.dumps(answer_lines)  # the question is not logged


@pytest.mark.django_db
def test_a_request_id_that_is_not_a_plain_token_is_replaced(client):
    response = client.get("/api/v1/health", secure=True, headers={REQUEST_ID_HEADER: "x" * 100})
    assert response[REQUEST_ID_HEADER].startswith("req-") and len(response[REQUEST_ID_HEADER]) == 20
    other = client.get("/api/v1/health", secure=True)
    assert other[REQUEST_ID_HEADER].startswith("req-") and other[REQUEST_ID_HEADER] != response[REQUEST_ID_HEADER]


@pytest.mark.django_db
def test_a_task_logs_under_the_request_that_queued_it_and_a_final_failure_is_recorded(log_lines):
    token = request_id_set("req-queued-by-web")
    try:
        result = low_confidence_report_task.apply(args=[987654], throw=False)  # as a worker runs it
    finally:
        request_id_reset(token)
    assert result.failed()
    task_lines = [line for line in log_lines() if line["component"] == "veterans_ai"]
    assert [line["message"] for line in task_lines][:1] == ["task verification.tasks.low_confidence_report_task started"]
    assert {line["request_id"] for line in task_lines} == {"req-queued-by-web"}
    failure = TaskFailure.objects.get()
    assert failure.task_name == "verification.tasks.low_confidence_report_task"
    assert failure.args == [987654] and failure.request_id == "req-queued-by-web"
    assert "DoesNotExist" in failure.error
