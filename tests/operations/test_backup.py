"""Backups of reviewers' work: exported, restored into a database without it, served as before."""

import json

import pytest
from django.core.management import CommandError, call_command

from knowledge.models import AnsweredQuestion, QuestionSource, Topic
from operations import backup
from verification import review
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

VERIFIED = "How long do I have to file a Higher-Level Review?"
FLAGGED = "Can my spouse use my GI Bill?"
CORRECTED = "What is the rating for tinnitus under DC 6260?"
EDITED_TOPIC = "appeals"
EDITED_NAME = "Appeals and decision reviews"


@pytest.fixture
def reviewed(reviewer):
    """Reviewers' work made through the services: one answer verified, one flagged, one corrected, a topic renamed."""
    rows = {q: AnsweredQuestion.objects.get(id=answer_question(question=q).id) for q in (VERIFIED, FLAGGED, CORRECTED)}
    review.answer_verify(answered_question=rows[VERIFIED], user=reviewer, note="Matches the HLR page.")
    review.answer_flag(answered_question=rows[FLAGGED], user=reviewer, reason="Transfer rules are missing.")
    correction = rows[CORRECTED].answer.split("\n")[0]
    review.answer_correct(answered_question=rows[CORRECTED], user=reviewer, text=correction, reason="Shorter.")
    answer_question(question="How is sleep apnea rated?")  # answered, never reviewed: not in the backup
    topic = Topic.objects.get(slug=EDITED_TOPIC)
    seeded_name = topic.name
    topic.name, topic._history_user = EDITED_NAME, reviewer
    topic.save()
    return {"rows": {q: AnsweredQuestion.objects.get(id=row.id) for q, row in rows.items()},
            "seeded_name": seeded_name, "correction": correction}


def reviewers_work_emptied(seeded_name: str) -> None:
    """The database as a fresh install has it: the corpus ingested, no answers, no history, topics as seeded."""
    AnsweredQuestion.objects.all().delete()
    AnsweredQuestion.history.all().delete()
    Topic.objects.filter(slug=EDITED_TOPIC).update(name=seeded_name)


def exported(tmp_path):
    path = tmp_path / "reviews.json"
    call_command("backup_export", str(path))
    return path


def snapshot():
    return (sorted(AnsweredQuestion.objects.values_list("question_hash", "answer", "review_version", "current")),
            AnsweredQuestion.history.count(), QuestionSource.objects.count(), Topic.objects.get(slug=EDITED_TOPIC).name)


def test_the_export_holds_the_reviewed_answers_and_the_edited_topic_only(reviewed, tmp_path):
    data = json.loads(exported(tmp_path).read_text())
    assert (data["format"], data["version"]) == (backup.FORMAT, backup.VERSION) and data["exported_at"]
    assert sorted(a["question"] for a in data["answers"]) == sorted([VERIFIED, FLAGGED, CORRECTED])
    assert [t["slug"] for t in data["topics"]] == [EDITED_TOPIC] and data["topics"][0]["name"] == EDITED_NAME
    assert data["entities"] == []
    verified = next(a for a in data["answers"] if a["question"] == VERIFIED)
    assert verified["verified"] and verified["verified_by"] == "rita"
    assert verified["history"][-1]["history_user"] == "rita"
    assert verified["history"][-1]["history_change_reason"] == "verified: Matches the HLR page."
    assert {s["chunk"] for s in verified["sources"]} >= {"appeals-higher-level-review-1"}
    assert "question_embedding" not in verified and "id" not in verified


def test_a_restored_backup_serves_the_same_reviewed_answers(reviewed, tmp_path, reviewer):
    path = exported(tmp_path)
    rows = reviewed["rows"]
    reviewers_work_emptied(reviewed["seeded_name"])

    call_command("backup_import", str(path))

    served = answer_question(question=VERIFIED)
    assert served.cache == "exact" and served.verified is True and served.answer == rows[VERIFIED].answer
    flagged = answer_question(question=FLAGGED)
    assert flagged.refused and flagged.answer == review.UNDER_REVIEW_MESSAGE
    assert rows[FLAGGED].answer not in flagged.answer
    corrected = answer_question(question=CORRECTED)
    assert corrected.cache == "exact" and corrected.verified and corrected.answer == reviewed["correction"]
    restored = AnsweredQuestion.objects.get(id=served.id)
    assert restored.verified_by == reviewer and restored.question_embedding is not None
    assert restored.created_at == rows[VERIFIED].created_at
    reasons = set(restored.history.filter(history_user=reviewer).values_list("history_change_reason", flat=True))
    assert reasons == {"verified: Matches the HLR page."}
    assert AnsweredQuestion.objects.get(id=corrected.id).corrected_by == reviewer
    assert Topic.objects.get(slug=EDITED_TOPIC).name == EDITED_NAME


def test_a_restored_verified_answer_is_served_to_another_wording(reviewed, tmp_path, settings):
    path = exported(tmp_path)
    reviewers_work_emptied(reviewed["seeded_name"])
    call_command("backup_import", str(path))
    settings.ANSWER_THRESHOLDS = {**settings.ANSWER_THRESHOLDS,
                                  "local": {**settings.ANSWER_THRESHOLDS["local"], "semantic_cache": 0.6}}

    served = answer_question(question="how long do i have to file a higher level review")

    assert served.verified and served.answer == reviewed["rows"][VERIFIED].answer


def test_importing_twice_changes_nothing(reviewed, tmp_path):
    path = exported(tmp_path)
    reviewers_work_emptied(reviewed["seeded_name"])
    first = backup.reviews_import(data=json.loads(path.read_text()))
    before = snapshot()

    again = backup.reviews_import(data=json.loads(path.read_text()))

    assert (first.answers_created, first.topics_changed) == (3, 1) and first.history_created >= 3
    assert again == backup.ImportResult(answers_kept=3)
    assert snapshot() == before


def test_an_import_never_overwrites_a_newer_review(reviewed, tmp_path, second_reviewer):
    path = exported(tmp_path)
    row = reviewed["rows"][VERIFIED]
    review.answer_flag(answered_question=row, user=second_reviewer, reason="The deadline changed.")

    result = backup.reviews_import(data=json.loads(path.read_text()))

    row.refresh_from_db()
    assert row.flagged and not row.verified and row.flagged_by == second_reviewer
    assert result.answers_created == 0 and result.answers_updated == 0 and result.history_created == 0


def test_a_citation_whose_chunk_is_gone_keeps_its_text_and_loses_its_chunk(reviewed, tmp_path):
    data = json.loads(exported(tmp_path).read_text())
    reviewers_work_emptied(reviewed["seeded_name"])
    answer = next(a for a in data["answers"] if a["question"] == VERIFIED)
    gone = answer["sources"][0]["chunk"]
    for source in answer["sources"]:
        if source["chunk"] == gone:
            source["chunk"] = "removed-from-the-corpus"

    result = backup.reviews_import(data=data)

    row = AnsweredQuestion.objects.get(question=VERIFIED)
    assert result.chunks_missing == 1 and row.citations == answer["citations"]
    assert QuestionSource.objects.filter(question=row, chunk__isnull=True, citation_number=1).exists()


def broken(path, how: str):
    data = json.loads(path.read_text())
    if how == "truncated":
        path.write_text(path.read_text()[: len(path.read_text()) // 2])
        return path
    if how == "version":
        data["version"] = 2
    if how == "missing field":
        del data["answers"][-1]["review_version"]
    if how == "missing history field":
        del data["answers"][0]["history"][0]["history_date"]
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("how", "message"), [
    ("version", backup.ERR_VERSION.format(found=2, expected=1)),
    ("truncated", "The backup is not valid JSON"),
    ("missing field", "answers[2] (“What is the rating for tinnitus under DC 6260?”): the field “review_version” is missing"),
    ("missing history field", "history[0]: the field “history_date” is missing"),
])
def test_a_bad_file_is_refused_naming_what_is_wrong_and_writes_nothing(reviewed, tmp_path, how, message):
    path = exported(tmp_path)
    reviewers_work_emptied(reviewed["seeded_name"])
    before = snapshot()

    with pytest.raises(CommandError) as refused:
        call_command("backup_import", str(broken(path, how)))

    assert message in str(refused.value) and "nothing was imported" in str(refused.value)
    assert snapshot() == before


def test_another_format_is_refused(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "something-else", "version": 1}))
    with pytest.raises(CommandError, match="Not a reviews backup"):
        call_command("backup_import", str(path))


def test_export_to_standard_output(reviewed, capsys):
    call_command("backup_export", "-")
    assert json.loads(capsys.readouterr().out)["format"] == backup.FORMAT


@pytest.mark.parametrize(("change", "message"), [
    ({"topics": [{"slug": "appeals", "name": "Appeals", "keywords": [], "updated_at": "2025-01-01T10:00:00"}]},
     "topics[0]: the field “updated_at” should be a date and time with its UTC offset"),
    ({"entities": ["term"]}, "entities[0] is not a JSON object"),
    ({"answers": {}}, "The backup has no “answers” list"),
    ({"format": None}, "Not a reviews backup: format is null"),
])
def test_a_malformed_backup_names_what_is_wrong(change, message):
    data = {"format": backup.FORMAT, "version": backup.VERSION, "topics": [], "entities": [], "answers": [], **change}
    with pytest.raises(backup.BackupInvalid) as refused:
        backup.backup_validate(data=data)
    assert message in refused.value.message


def test_an_embedding_model_that_fails_stops_the_import_with_a_message_and_writes_nothing(
        reviewed, tmp_path, settings, openai_configured):
    path = exported(tmp_path)
    reviewers_work_emptied(reviewed["seeded_name"])
    settings.EMBEDDING_PROVIDER = "openai"
    openai_configured.fail_next(times=50, status=500)

    with pytest.raises(CommandError, match=r"the embedding model failed .*nothing was imported"):
        call_command("backup_import", str(path))

    assert not AnsweredQuestion.objects.exists() and openai_configured.embedding_requests
