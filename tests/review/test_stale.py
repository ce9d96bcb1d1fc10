"""Re-ingesting keeps the cache true: answers citing a changed or removed chunk go stale; reviewers' edits to the
graph survive seeding and re-ingestion."""

import json

import pytest

from knowledge.models import AnsweredQuestion, AnswerSourceChange, Chunk, Entity, QuestionSource, Source, Topic
from knowledge.services import corpus_ingest, graph_seed, seed_fingerprint
from tests.knowledge.conftest import SMALL_CORPUS, vbkb_record
from verification import review
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_kb")]

QUESTION = "What is the VA rating for tinnitus?"


def reingest(tmp_path, capture, records, name="again.json"):
    path = tmp_path / name
    path.write_text(json.dumps(records))
    with capture(execute=True):
        return corpus_ingest(paths=[path])


def records_with(entry_id: str, **changes) -> list[dict]:
    return [{**r, **changes} if r.get("entry_id") == entry_id else dict(r) for r in SMALL_CORPUS]


def test_a_changed_cited_chunk_makes_its_answers_stale(tmp_path, reviewer, django_capture_on_commit_callbacks):
    first = answer_question(question=QUESTION)
    row = AnsweredQuestion.objects.get(id=first.id)
    review.answer_verify(answered_question=row, user=reviewer)
    before = Chunk.objects.get(entry_id="t-tinnitus").content
    after = before.replace("The only rating is 10%", "The only rating is 10%, and it may be paired with hearing loss")

    summary = reingest(tmp_path, django_capture_on_commit_callbacks, records_with("t-tinnitus", content=after))

    assert summary.stale_answers == 1 and "1 answers now stale" in summary.line()
    row.refresh_from_db()
    assert row.stale and not row.current and not row.verified and row.needs_review
    assert review.review_state_label(row) == "Stale"
    change = AnswerSourceChange.objects.get(answered_question=row)
    assert (change.entry_id, change.kind, change.before, change.after) == ("t-tinnitus", "changed", before, after)
    assert row.history.first().history_change_reason == "a source it cites was changed on re-ingest: t-tinnitus"
    fresh = answer_question(question=QUESTION)
    assert fresh.id != row.id and fresh.cache == "miss"  # the stale answer left the cache


def test_an_unchanged_re_ingest_leaves_answers_alone(small_kb, django_capture_on_commit_callbacks):
    first = answer_question(question=QUESTION)
    with django_capture_on_commit_callbacks(execute=True):
        summary = corpus_ingest(paths=[small_kb])
    assert summary.stale_answers == 0 and AnsweredQuestion.objects.get(id=first.id).current


def test_a_stale_answer_is_verified_again_only_when_its_sources_still_hold_it(
        tmp_path, reviewer, django_capture_on_commit_callbacks):
    row = AnsweredQuestion.objects.get(id=answer_question(question=QUESTION).id)
    original = Chunk.objects.get(entry_id="t-tinnitus").content
    reingest(tmp_path, django_capture_on_commit_callbacks,
             records_with("t-tinnitus", content=original.replace("10%", "20%")), name="wrong.json")
    row.refresh_from_db()
    with pytest.raises(review.CorrectionRefused) as refused:
        review.answer_verify(answered_question=row, user=reviewer)
    assert review.ERR_CORRECTION_NUMBERS.format(values="10%") in refused.value.problems

    reingest(tmp_path, django_capture_on_commit_callbacks,
             records_with("t-tinnitus", content=original + " It is rated the same for every ear."), name="ok.json")
    newer = answer_question(question=QUESTION)  # the question got a fresh answer meanwhile
    row.refresh_from_db()
    review.answer_verify(answered_question=row, user=reviewer, note="Still right.")
    row.refresh_from_db()
    assert row.verified and not row.stale and row.current
    assert not AnsweredQuestion.objects.get(id=newer.id).current
    assert answer_question(question=QUESTION).id == row.id


def test_a_removed_split_part_makes_its_answers_stale(tmp_path, django_capture_on_commit_callbacks):
    long_text = "\n\n".join(f"Paragraph {n} about the Board appeal lane, its dockets and its hearings. " * 4
                            for n in range(1, 7))
    record = vbkb_record("t-board", long_text, topic="appeals", title="Board appeals",
                         url="https://www.va.gov/decision-reviews/board-appeal/")
    reingest(tmp_path, django_capture_on_commit_callbacks, [*SMALL_CORPUS, record], name="long.json")
    parts = list(Chunk.objects.filter(entry_id__startswith="t-board#").order_by("entry_id"))
    assert len(parts) >= 2
    last = parts[-1]
    row = AnsweredQuestion.objects.create(question="Board?", question_hash="board", answer="Board [1].",
                                          citations=[{"number": 1, "chunk_id": last.entry_id}])
    QuestionSource.objects.create(question=row, source=last.source, chunk=last, citation_number=1)

    summary = reingest(tmp_path, django_capture_on_commit_callbacks,
                       [*SMALL_CORPUS, {**record, "content": "The Board appeal lane in short."}], name="short.json")

    assert summary.removed == len(parts) and not Chunk.objects.filter(entry_id__startswith="t-board#").exists()
    assert Chunk.objects.filter(entry_id="t-board").exists()
    row.refresh_from_db()
    assert row.stale and not row.current
    change = AnswerSourceChange.objects.get(answered_question=row)
    assert change.kind == "removed" and change.after == "" and change.before == last.content


def test_seeding_updates_rows_nobody_edited_and_keeps_edited_ones():
    tinnitus = Entity.objects.get(type="dc_code", value="6260")
    assert "ringing in the ears" in tinnitus.aliases  # from seed/condition_aliases.json
    # A row as an older seed wrote it (its fingerprint matches its values): seeding brings it up to date.
    old = {"name": "Old name", "aliases": []}
    Entity.objects.filter(id=tinnitus.id).update(**old, seed_hash=seed_fingerprint(old))
    # Rows an older seed wrote and a reviewer then edited: their values no longer match that seed's fingerprint.
    ptsd = Entity.objects.get(type="dc_code", value="9411")
    older = {"name": ptsd.name, "aliases": ["PTSD"]}
    ptsd.aliases, ptsd.seed_hash = ["PTSD", "shell shock"], seed_fingerprint(older)
    ptsd._change_reason = "veterans of older wars say so"
    ptsd.save()
    ratings = Topic.objects.get(slug="disability_ratings")
    ratings.keywords, ratings.seed_hash = ["rating", "my own keyword"], seed_fingerprint(
        {"name": ratings.name, "keywords": ["rating"]})
    ratings.save()

    counts = graph_seed()

    tinnitus.refresh_from_db()
    ptsd.refresh_from_db()
    ratings.refresh_from_db()
    assert tinnitus.name == "Tinnitus, recurrent" and "tinnitus" in tinnitus.aliases
    assert ptsd.aliases == ["PTSD", "shell shock"] and ratings.keywords == ["rating", "my own keyword"]
    assert counts["updated"] == 1 and counts["kept_edited"] == 2
    assert graph_seed() == {"added": 0, "updated": 0, "kept_edited": 2}


def test_reviewers_edits_to_terms_and_the_whitelist_survive_re_ingest(tmp_path, django_capture_on_commit_callbacks):
    term = Entity.objects.get(type="term", value="nexus letter")
    term.definition = "A doctor's written opinion that your condition is at least as likely as not from service."
    term.aliases = [*term.aliases, "medical nexus"]
    term.save()
    source = Source.objects.get(url="https://www.va.gov/disability/eligibility/")
    source.whitelisted = False
    source.save()
    nexus = next(r for r in SMALL_CORPUS if r.get("entry_id") == "t-nexus")

    reingest(tmp_path, django_capture_on_commit_callbacks,
             records_with("t-nexus", content=nexus["content"] + " VA weighs it with the rest."))

    term.refresh_from_db()
    source.refresh_from_db()
    assert term.definition.startswith("A doctor's written opinion") and "medical nexus" in term.aliases
    assert not source.whitelisted
    assert "VA weighs it" in Chunk.objects.get(entry_id="t-nexus").content


def test_lay_names_resolve_to_the_same_diagnostic_code():
    from knowledge.extraction import entities_extract
    from knowledge.selectors import condition_names_get

    for text in ("ringing in my ears", "Tinnitus rating", "DC 6260"):
        found = entities_extract(text=text, conditions=condition_names_get())
        assert ("dc_code", "6260") in {(e.type, e.value) for e in found}, text
