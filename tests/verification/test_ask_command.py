"""manage.py ask: the same answer object as the API, one per batch line, each carrying its input's id."""

import json

import pytest
from django.core.management import call_command

from verification.serializers import AnswerSerializer
from verification.services import ERR_EMPTY

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


def test_batch_output_keeps_each_inputs_id_beside_the_stored_answers_id(tmp_path, capsys):
    batch = tmp_path / "questions.jsonl"
    inputs = [{"id": "q-7", "question": "What is the VA rating for tinnitus?"},
              {"id": 12, "question": "   "},
              {"id": None, "question": "How do I file a Higher-Level Review?"},
              {"input_id": "x01", "question": "What is DIC?"}]
    batch.write_text("\n".join(json.dumps(item) for item in inputs) + "\n")
    call_command("ask", "--batch", str(batch), "--json", "--no-cache")
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["input_id"] for line in lines] == ["q-7", 12, None, "x01"]
    assert isinstance(lines[0]["id"], int) and lines[0]["id"] != "q-7" and "10%" in lines[0]["answer"]
    assert lines[1]["error"] == {"code": "empty_question", "message": ERR_EMPTY}
    assert lines[2]["id"] not in (None, lines[0]["id"])


def test_json_output_is_the_answer_object(capsys):
    call_command("ask", "What is the VA rating for tinnitus?", "--json", "--no-cache")
    body = json.loads(capsys.readouterr().out)
    assert body["question"] == "What is the VA rating for tinnitus?" and body["citations"] and body["trace"]
    assert set(body) == set(AnswerSerializer().fields)  # the API's contract, field for field
    assert body["sources_checked_on"]
