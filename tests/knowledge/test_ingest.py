import json

import pytest
from django.core.management import CommandError, call_command

from knowledge.corpus_formats import CorpusFormatError, corpus_parse
from knowledge.models import Chunk, ChunkEmbedding, Entity, Source, Topic
from knowledge.services import corpus_ingest

from .conftest import SMALL_CORPUS, shared_data, vbkb_record

pytestmark = pytest.mark.django_db


def ingest(path, capture, **kwargs):
    with capture(execute=True):
        return corpus_ingest(paths=[path], **kwargs)


def test_ingest_writes_chunks_sources_topics_and_vectors(ingested):
    assert (ingested.added, ingested.updated, ingested.unchanged, ingested.skipped) == (5, 0, 0, 1)
    assert Chunk.objects.count() == 5
    assert ChunkEmbedding.objects.filter(model="all-MiniLM-L6-v2", dimensions=384).count() == 5
    tinnitus = Chunk.objects.get(entry_id="t-tinnitus")
    assert tinnitus.topic.slug == "disability_ratings"
    assert tinnitus.source.domain == "www.ecfr.gov" and tinnitus.source.whitelisted
    assert tinnitus.entities.filter(type="dc_code", value="6260").exists()
    assert Chunk.objects.get(entry_id="t-itf").entities.filter(type="va_form", value="21-0966").exists()


def test_definition_records_become_term_entities(ingested):
    term = Entity.objects.get(type="term", value="nexus letter")
    assert "IMO" in term.aliases and "at least as likely as not" in term.definition
    assert term.source.url == "https://www.va.gov/disability/eligibility/"


def test_a_page_using_a_term_changed_alone_keeps_the_glossary_definition(tmp_path, django_capture_on_commit_callbacks):
    # A procedure page names the term too; edited on its own, it must not become the term's definition.
    page = vbkb_record("t-nexus-how", "Ask your doctor for a nexus letter with the records reviewed.", topic="claims",
                       type="procedure", term="nexus letter", title="Getting a nexus letter",
                       url="https://www.va.gov/disability/eligibility/")
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps([*SMALL_CORPUS, page]))
    ingest(path, django_capture_on_commit_callbacks)
    edited = dict(page, content=page["content"] + " A private doctor can write it.")
    path.write_text(json.dumps([*SMALL_CORPUS, edited]))
    ingest(path, django_capture_on_commit_callbacks)
    assert "at least as likely as not" in Entity.objects.get(type="term", value="nexus letter").definition
    # Ingested without the glossary record at all, the page keeps the definition the glossary record gave.
    path.write_text(json.dumps([edited | {"content": edited["content"] + " Again."}]))
    ingest(path, django_capture_on_commit_callbacks)
    assert "at least as likely as not" in Entity.objects.get(type="term", value="nexus letter").definition


def test_graph_is_seeded_with_topics_and_every_diagnostic_code(ingested):
    for slug in ["disability_ratings", "healthcare_benefits", "education_benefits", "home_loans", "appeals",
                 "forms", "pension"]:
        assert Topic.objects.filter(slug=slug).exists()
    assert Entity.objects.filter(type="dc_code").count() > 700
    assert Entity.objects.get(type="dc_code", value="9411").name.lower().startswith("posttraumatic")


def test_second_run_changes_and_embeds_nothing(small_corpus_file, ingested, django_capture_on_commit_callbacks):
    before = dict(ChunkEmbedding.objects.values_list("chunk_id", "updated_at"))
    summary = ingest(small_corpus_file, django_capture_on_commit_callbacks)
    assert (summary.added, summary.updated, summary.unchanged, summary.to_embed) == (0, 0, 5, 0)
    assert dict(ChunkEmbedding.objects.values_list("chunk_id", "updated_at")) == before


def test_edited_content_is_updated_and_re_embedded(tmp_path, ingested, django_capture_on_commit_callbacks):
    records = [dict(r) for r in SMALL_CORPUS]
    records[2]["content"] += " You can also start it by phone."
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(records))
    old = ChunkEmbedding.objects.get(chunk__entry_id="t-itf")
    summary = ingest(path, django_capture_on_commit_callbacks)
    assert (summary.added, summary.updated, summary.unchanged, summary.to_embed) == (0, 1, 4, 1)
    new = ChunkEmbedding.objects.get(chunk__entry_id="t-itf")
    assert new.text_hash != old.text_hash
    assert list(new.embedding) != list(old.embedding)


@pytest.mark.parametrize(
    ("records", "location", "reason"),
    [
        ([vbkb_record("a", "ok"), {"entry_id": "b", "url": "https://www.va.gov/"}], "record 2 (b)", "'content'"),
        ([vbkb_record("a", "ok"), vbkb_record("b", "text", url="")], "record 2 (b)", "'url'"),
        ([vbkb_record("a", "ok"), vbkb_record("b", "text", url="ftp://va.gov/x")], "record 2 (b)", "http(s)"),
        ([vbkb_record("a", "ok"), vbkb_record("b", "text", url="javascript:alert(1)")], "record 2 (b)", "http(s)"),
        ([vbkb_record("a", "ok"), "not an object"], "record 2", "JSON object"),
        ([vbkb_record("a", "ok"), vbkb_record("a", "again")], "record 2 (a)", "appears twice"),
        ([vbkb_record("a", "ok"), vbkb_record("b", 42)], "record 2 (b)", "must be text"),
        ([vbkb_record("a", "ok"), vbkb_record("b", "text", url="https://www.example.com/benefits")], "record 2 (b)",
         "not on the whitelisted domains"),
    ],
)
def test_malformed_file_is_rejected_whole(tmp_path, records, location, reason):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(records))
    with pytest.raises(CorpusFormatError) as caught:
        corpus_ingest(paths=[path])
    assert caught.value.location == location
    assert reason in caught.value.reason
    assert Chunk.objects.count() == 0 and Source.objects.count() == 0


def test_bad_json_names_line_and_command_exits_1(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('[{"entry_id": "a",\n "content": }]')
    with pytest.raises(CommandError, match=r"line 2, column"):
        call_command("ingest", str(path))
    assert Chunk.objects.count() == 0


def test_unknown_format_is_rejected(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(CommandError, match="--format"):
        call_command("ingest", str(path))
    with pytest.raises(CommandError):
        call_command("ingest", str(path), "--format", "csv")


@pytest.mark.django_db(transaction=True)
def test_two_ingests_at_once_both_finish_and_store_each_record_once(small_corpus_file):
    """The second waits for the first (an advisory lock) instead of failing on the same new entries."""
    import threading

    from django.db import connection

    errors: list[BaseException] = []

    def run():
        try:
            corpus_ingest(paths=[small_corpus_file])
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Chunk.objects.count() == 5 and Chunk.objects.values("entry_id").distinct().count() == 5


def test_crash_mid_run_leaves_database_as_before(small_corpus_file, monkeypatch):
    import knowledge.services as services

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_entities_link", explode)
    with pytest.raises(RuntimeError):
        corpus_ingest(paths=[small_corpus_file])
    assert Chunk.objects.count() == 0 and Source.objects.count() == 0


def test_oversized_record_is_split_not_dropped(tmp_path, django_capture_on_commit_callbacks):
    paragraphs = [f"Paragraph {i} explains part {i} of the rating rules for the knee in detail. " * 3 for i in range(12)]
    path = tmp_path / "long.json"
    path.write_text(json.dumps([vbkb_record("long", "\n\n".join(paragraphs))]))
    ingest(path, django_capture_on_commit_callbacks)
    parts = list(Chunk.objects.filter(entry_id__startswith="long#").order_by("id"))
    assert len(parts) > 1
    assert all(len(p.content) <= 1000 for p in parts)
    joined = "\n".join(p.content for p in parts)
    assert all(f"Paragraph {i} explains" in joined for i in range(12))


def test_schemeless_domain_urls_get_https():
    from knowledge.corpus_formats import url_normalise

    assert url_normalise("veteransbenefitskb.com#7915") == "https://veteransbenefitskb.com#7915"
    assert url_normalise("https://www.va.gov/x") == "https://www.va.gov/x"
    assert url_normalise("mailto:someone@va.gov") is None
    assert url_normalise("not a url") is None


def test_jsonl_documents_are_chunked_with_title(tmp_path, django_capture_on_commit_callbacks):
    text = "\n\n".join(f"Section {i}. " + "Eligibility for the benefit depends on service. " * 8 for i in range(6))
    path = tmp_path / "docs.jsonl"
    path.write_text(json.dumps({"id": "doc1", "title": "GI Bill", "url": "https://www.va.gov/education/",
                                "text": text}) + "\n")
    ingest(path, django_capture_on_commit_callbacks)
    chunks = Chunk.objects.filter(entry_id__startswith="doc1-")
    assert chunks.count() > 1
    assert set(chunks.values_list("title", flat=True)) == {"GI Bill"}


def test_jsonl_bad_line_is_named(tmp_path):
    path = tmp_path / "docs.jsonl"
    good = json.dumps({"id": "a", "title": "A", "url": "https://www.va.gov/a", "text": "Some text."})
    path.write_text(good + "\n" + json.dumps({"id": "b", "title": "B", "text": "no url"}) + "\n")
    with pytest.raises(CorpusFormatError) as caught:
        corpus_parse(paths=[path])
    assert caught.value.location == "line 2 (b)"


def test_markdown_folder_with_front_matter(tmp_path, django_capture_on_commit_callbacks):
    folder = tmp_path / "md"
    folder.mkdir()
    (folder / "hlr.md").write_text("---\ntitle: Higher-Level Review\nurl: https://www.va.gov/decision-reviews/\n"
                                   "topic: appeals\n---\nAsk for a Higher-Level Review within one year.\n")
    ingest(folder, django_capture_on_commit_callbacks)
    chunk = Chunk.objects.get(entry_id="hlr-1")
    assert chunk.topic.slug == "appeals" and chunk.title == "Higher-Level Review"
    (folder / "bad.md").write_text("no front matter here")
    with pytest.raises(CorpusFormatError, match="front matter"):
        corpus_parse(paths=[folder])


def test_bundled_corpus_parses_and_cites_official_pages():
    from knowledge.services import bundled_corpus_paths

    parsed = corpus_parse(paths=bundled_corpus_paths(), fmt="vbkb")
    assert len(parsed.records) >= 400
    from urllib.parse import urlsplit

    for record in parsed.records:
        host = urlsplit(record.url).hostname
        assert host.endswith("va.gov") or host.endswith("ecfr.gov"), record.entry_id
        assert len(record.content) <= 1000, record.entry_id


def test_real_vbkb_corpus_parses():
    parsed = corpus_parse(paths=[shared_data("vbkb_corpus.json")])
    assert parsed.skipped == 1
    assert len({r.entry_id.split("#")[0] for r in parsed.records}) == 1467
    assert all(len(r.content) <= 1000 for r in parsed.records)


@pytest.fixture
def openai_embeddings(settings, openai_configured):
    settings.EMBEDDING_PROVIDER = "openai"
    return openai_configured


@pytest.mark.parametrize(("fallback", "models"), [
    (True, {"text-embedding-3-small", "all-MiniLM-L6-v2"}),
    (False, {"text-embedding-3-small"}),
])
def test_a_remote_embedding_provider_keeps_local_vectors_for_the_offline_path(
    openai_embeddings, settings, small_corpus_file, django_capture_on_commit_callbacks, fallback, models
):
    from knowledge.models import ChunkSentence

    settings.EMBEDDING_OFFLINE_FALLBACK = fallback
    ingest(small_corpus_file, django_capture_on_commit_callbacks)
    for model in models:
        assert ChunkEmbedding.objects.filter(model=model).count() == 5, model
        assert ChunkSentence.objects.filter(model=model).values("chunk_id").distinct().count() == 5, model
    assert set(ChunkEmbedding.objects.values_list("model", flat=True)) == models
    # Turning the fallback on later fills in what is missing, and only that.
    if not fallback:
        settings.EMBEDDING_OFFLINE_FALLBACK = True
        summary = ingest(small_corpus_file, django_capture_on_commit_callbacks)
        assert summary.unchanged == 5
        assert ChunkEmbedding.objects.filter(model="all-MiniLM-L6-v2").count() == 5


def _benefits_of(entry_id: str) -> set[str]:
    from knowledge.models import ChunkEntity

    return set(ChunkEntity.objects.filter(chunk__entry_id=entry_id, entity__type="benefit")
               .values_list("entity__value", flat=True))


def test_unchanged_chunks_are_linked_again_when_a_benefit_is_added(
    small_corpus_file, ingested, monkeypatch, django_capture_on_commit_callbacks
):
    # A release adds a benefit to knowledge/seed/benefits.json: chunks already stored that name it, unchanged,
    # must gain the edge, or questions naming the benefit never read them first.
    import knowledge.extraction as extraction

    assert "itf_program" not in _benefits_of("t-itf")
    monkeypatch.setitem(extraction.BENEFITS, "itf_program", ("Intent to file program", "intent to file"))
    monkeypatch.setattr(extraction, "_BENEFIT_INDEX", extraction._PhraseIndex(
        (name, slug) for slug, names in extraction.BENEFITS.items() for name in names))

    with django_capture_on_commit_callbacks(execute=True):
        summary = corpus_ingest(paths=[small_corpus_file])

    assert summary.added == summary.updated == 0  # nothing to store or embed again
    assert "itf_program" in _benefits_of("t-itf")
    assert "itf_program" not in _benefits_of("t-hlr")

    with django_capture_on_commit_callbacks(execute=True):
        corpus_ingest(paths=[small_corpus_file])  # the vocabulary unchanged since: the edges stay as they are
    assert "itf_program" in _benefits_of("t-itf")
