"""The day a chunk's facts were checked: read from every corpus format, stored on the chunk, validated."""

import datetime
import json

import pytest

from knowledge.corpus_formats import ERR_CHECKED_ON, ERR_CHECKED_ON_FUTURE, CorpusFormatError, corpus_parse
from knowledge.models import Chunk, ChunkEmbedding
from knowledge.services import corpus_ingest

from .conftest import vbkb_record

pytestmark = pytest.mark.django_db

ITF_URL = "https://www.va.gov/resources/your-intent-to-file-a-va-claim/"


def write(tmp_path, records, name="corpus.json"):
    path = tmp_path / name
    path.write_text(json.dumps(records))
    return path


def ingest(path, capture):
    with capture(execute=True):
        return corpus_ingest(paths=[path])


def test_checked_on_is_stored_per_chunk_and_optional(tmp_path, django_capture_on_commit_callbacks):
    path = write(tmp_path, [
        vbkb_record("itf", "File VA Form 21-0966 to keep your date for one year.", url=ITF_URL,
                    checked_on="2025-11-03"),
        vbkb_record("hlr", "File VA Form 20-0996 within one year of the decision."),
    ])
    ingest(path, django_capture_on_commit_callbacks)
    assert Chunk.objects.get(entry_id="itf").checked_on == datetime.date(2025, 11, 3)
    assert Chunk.objects.get(entry_id="hlr").checked_on is None


def test_every_part_of_a_split_record_keeps_its_date(tmp_path, django_capture_on_commit_callbacks):
    paragraphs = [f"Paragraph {i} explains the knee rating rules in some detail for this test. " * 3 for i in range(10)]
    ingest(write(tmp_path, [vbkb_record("long", "\n\n".join(paragraphs), checked_on="2025-10-01")]),
           django_capture_on_commit_callbacks)
    dates = set(Chunk.objects.filter(entry_id__startswith="long#").values_list("checked_on", flat=True))
    assert dates == {datetime.date(2025, 10, 1)}


def test_a_new_checked_date_updates_the_chunk_without_re_embedding(tmp_path, django_capture_on_commit_callbacks):
    record = vbkb_record("itf", "File VA Form 21-0966 to keep your date for one year.", url=ITF_URL,
                         checked_on="2025-01-15")
    ingest(write(tmp_path, [record]), django_capture_on_commit_callbacks)
    vector_before = ChunkEmbedding.objects.get(chunk__entry_id="itf").updated_at

    summary = ingest(write(tmp_path, [{**record, "checked_on": "2025-11-20"}]), django_capture_on_commit_callbacks)
    assert (summary.updated, summary.to_embed) == (1, 0)
    assert Chunk.objects.get(entry_id="itf").checked_on == datetime.date(2025, 11, 20)
    assert ChunkEmbedding.objects.get(chunk__entry_id="itf").updated_at == vector_before


@pytest.mark.parametrize("value", ["2025-13-01", "2025-02-30", "03/11/2025", "20251103", "2025-11-03T10:00", 20251103,
                                   "yesterday"])
def test_a_malformed_date_rejects_the_file_naming_the_record(tmp_path, value):
    path = write(tmp_path, [vbkb_record("a", "ok", checked_on="2025-11-03"), vbkb_record("b", "text", checked_on=value)])
    with pytest.raises(CorpusFormatError) as caught:
        corpus_ingest(paths=[path])
    assert caught.value.location == "record 2 (b)"
    assert caught.value.reason == ERR_CHECKED_ON.format(value=value)
    assert not Chunk.objects.exists()


def test_a_date_in_the_future_is_rejected(tmp_path):
    tomorrow = datetime.date.today() + datetime.timedelta(days=1)
    path = write(tmp_path, [vbkb_record("a", "ok", checked_on=tomorrow.isoformat())])
    with pytest.raises(CorpusFormatError) as caught:
        corpus_parse(paths=[path])
    assert caught.value.location == "record 1 (a)"
    assert caught.value.reason == ERR_CHECKED_ON_FUTURE.format(value=tomorrow)


def test_jsonl_and_markdown_documents_carry_the_date(tmp_path):
    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "itf", "title": "Intent to file", "url": ITF_URL,
                                "text": "An intent to file keeps your date.", "checked_on": "2025-09-09"}) + "\n")
    folder = tmp_path / "md"
    folder.mkdir()
    # YAML reads an unquoted date as a date, a quoted one as text: both are accepted.
    (folder / "hlr.md").write_text("---\ntitle: Higher-Level Review\nurl: https://www.va.gov/decision-reviews/\n"
                                   "checked_on: 2025-08-08\n---\nAsk for a Higher-Level Review within one year.\n")
    (folder / "sc.md").write_text("---\ntitle: Supplemental Claim\nurl: https://www.va.gov/decision-reviews/\n"
                                  "checked_on: '2025-07-07'\n---\nAdd new and relevant evidence.\n")
    parsed = corpus_parse(paths=[docs, folder])
    assert {r.entry_id: r.checked_on for r in parsed.records} == {
        "itf-1": datetime.date(2025, 9, 9), "hlr-1": datetime.date(2025, 8, 8), "sc-1": datetime.date(2025, 7, 7),
    }
    (folder / "bad.md").write_text("---\ntitle: Bad\nurl: https://www.va.gov/\nchecked_on: last spring\n---\nText.\n")
    with pytest.raises(CorpusFormatError, match="checked_on 'last spring'") as caught:
        corpus_parse(paths=[folder])
    assert caught.value.location == "file bad.md"


