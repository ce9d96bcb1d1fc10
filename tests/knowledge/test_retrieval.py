import pytest
from django.db import connection

from knowledge.selectors import chunks_search

pytestmark = pytest.mark.django_db


def test_dense_retrieval_finds_lay_wording(ingested):
    hits = chunks_search(query="what rating do I get for ringing in my ears")
    assert hits[0].entry_id == "t-tinnitus"
    assert "dense" in hits[0].retrievers
    assert hits[0].similarity > 0.4
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert hits[0].url.startswith("https://www.ecfr.gov/")


def test_lexical_retrieval_contributes_exact_terms(ingested):
    hits = chunks_search(query="Chapter 30")
    top = hits[0]
    assert top.entry_id == "t-ch30"
    assert set(top.retrievers) == {"dense", "lexical"}
    assert top.ranks["lexical"] == 1


def test_chunks_naming_the_questions_form_are_retrieved_by_the_graph(ingested):
    from knowledge.models import Entity

    form = Entity.objects.get(type="va_form", value="21-0966")
    query = "GI Bill monthly education benefit for school, and 21-0966"
    without = chunks_search(query=query, top_k=1, lexical_weight=0)
    assert "t-itf" not in [h.entry_id for h in without]  # meaning alone points at education
    hits = chunks_search(query=query, top_k=1, lexical_weight=0, entity_ids=[form.id])
    itf = next(h for h in hits if h.entry_id == "t-itf")
    assert itf.ranks["entity"] == 1 and "entity" in itf.retrievers
    assert itf.similarity > 0  # still the true cosine, for the thresholds
    # The weight turns the graph's list off.
    assert chunks_search(query=query, top_k=1, lexical_weight=0, entity_ids=[form.id], entity_weight=0) == without


def test_similarity_is_cosine_for_every_hit(ingested):
    from knowledge.embeddings import embedding_provider_get

    provider = embedding_provider_get()
    query = "how long do I have to ask for a higher-level review"
    hits = chunks_search(query=query, top_k=5)
    qv = provider.embed([query])[0]
    for hit in hits:
        expected = float(qv @ provider.embed([f"{hit.title}: {hit.content}"])[0])
        assert hit.similarity == pytest.approx(expected, abs=1e-4)


def test_filters_by_topic_and_type(ingested):
    hits = chunks_search(query="rating", topic="appeals")
    assert hits and {h.topic for h in hits} == {"appeals"}
    hits = chunks_search(query="rating", chunk_type="definition")
    assert [h.entry_id for h in hits] == ["t-nexus"]


def test_filters_by_source_in_the_same_round_trip(ingested):
    from django.test.utils import CaptureQueriesContext

    url = "https://www.va.gov/decision-reviews/higher-level-review/"
    chunks_search(query="warm the common-words list")
    with CaptureQueriesContext(connection) as queries:
        hits = chunks_search(query="what rating do I get for ringing in my ears", source=url)
    assert [h.entry_id for h in hits] == ["t-hlr"] and hits[0].url == url
    assert len(queries) == 1
    assert chunks_search(query="tinnitus", source="https://www.va.gov/no-such-page/") == []


def test_top_k_limits_results(ingested):
    assert len(chunks_search(query="VA benefits", top_k=2)) == 2


def _prepared_hybrid() -> tuple[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans FROM pg_prepared_statements "
                       "WHERE statement LIKE '%%knowledge_chunkembedding%%'")
        rows = cursor.fetchall()
    assert len(rows) == 1, rows
    return rows[0]


def test_hybrid_query_is_prepared_once_and_reuses_its_plan(ingested):
    chunks_search(query="rating for tinnitus")
    _, before = _prepared_hybrid()
    chunks_search(query="how do I file a supplemental claim")
    statement, after = _prepared_hybrid()
    assert after == before + 1  # the same statement, its one generic plan run again
    assert "%(" not in statement and "$1" in statement  # bound on the server


def test_hybrid_query_uses_the_partial_hnsw_index(ingested):
    chunks_search(query="rating for tinnitus")
    statement, _ = _prepared_hybrid()
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # five rows: the planner would rather scan them
        # The plan the prepared statement reuses: made without its parameters' values.
        cursor.execute("EXPLAIN (GENERIC_PLAN) " + statement.replace("%", "%%"))
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "chunk_emb_hnsw_384" in plan


def test_search_command_prints_scores(ingested, capsys):
    from django.core.management import call_command

    call_command("search", "intent to file deadline")
    out = capsys.readouterr().out
    assert "t-itf" in out and "0." in out


def test_each_chunk_names_the_benefits_the_graph_links_it_to(ingested):
    from knowledge.models import Chunk
    from knowledge.selectors import chunk_benefits_get

    ids = dict(Chunk.objects.filter(entry_id__in=["t-ch30", "t-itf", "t-tinnitus"]).values_list("entry_id", "id"))
    benefits = chunk_benefits_get(chunk_ids=list(ids.values()))
    assert benefits[ids["t-ch30"]] >= {"gi_bill_montgomery"}
    assert "gi_bill_montgomery" not in benefits.get(ids["t-itf"], frozenset())
    assert chunk_benefits_get(chunk_ids=[]) == {}
    # Read again, they are kept: no query, the same answer.
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert chunk_benefits_get(chunk_ids=list(ids.values())) == benefits
    assert len(queries) == 0


def test_entity_lookups_are_kept_and_still_find_one_added_since(ingested):
    from django.test.utils import CaptureQueriesContext

    from knowledge.models import Entity
    from knowledge.selectors import entities_unknown, entity_ids_get

    assert entities_unknown(dc_codes=["6260"], va_forms=[]) == []
    with CaptureQueriesContext(connection) as queries:
        assert entities_unknown(dc_codes=["6260"], va_forms=[]) == []
        assert set(entity_ids_get(pairs=[("dc_code", "6260")])) == {("dc_code", "6260")}
    assert len(queries) == 0
    assert entities_unknown(dc_codes=["9999"], va_forms=[]) == [("dc_code", "9999")]
    added = Entity.objects.create(type="dc_code", value="9999")
    # Added after the kept map was read: found in the database, not taken for a code that does not exist.
    assert entities_unknown(dc_codes=["9999"], va_forms=[]) == []
    assert entity_ids_get(pairs=[("dc_code", "9999")]) == {("dc_code", "9999"): added.id}


def test_sentence_vectors_are_read_as_stored_in_order(ingested):
    # Read in PostgreSQL's binary format; the same numbers, sentences and order as Django's VectorField gives.
    import numpy as np

    from knowledge.models import Chunk, ChunkSentence
    from knowledge.selectors import _units_cache, chunk_units_get

    chunks = list(Chunk.objects.order_by("-id").values_list("id", "content"))
    _units_cache.clear()

    units = chunk_units_get(chunks=chunks, model_name="all-MiniLM-L6-v2")

    assert list(units) == [pk for pk, _ in chunks]
    for pk, _ in chunks:
        stored = ChunkSentence.objects.filter(chunk_id=pk, model="all-MiniLM-L6-v2").order_by("position")
        assert [text for text, _ in units[pk]] == [s.text for s in stored] and stored
        for (_, vector), sentence in zip(units[pk], stored, strict=True):
            assert vector.dtype == np.float32 and vector.shape == (384,)
            assert np.array_equal(vector, np.asarray(sentence.embedding, dtype=np.float32))


def test_the_corpus_words_are_read_once_not_again_when_the_reference_data_expires(ingested):
    from django.test.utils import CaptureQueriesContext

    from knowledge import selectors

    words = selectors.corpus_words_get()
    assert words["tinnitus"] >= 1
    with selectors._cache_lock:
        selectors._reference_cache.clear()  # what REFERENCE_TTL_SECONDS does to the kept reference data
    with CaptureQueriesContext(connection) as queries:
        assert selectors.corpus_words_get() is words
    assert len(queries) == 0


def test_rare_words_are_the_questions_words_the_corpus_holds_only_a_few_times(ingested):
    from knowledge import selectors

    selectors.reference_cache_clear()
    # "buzzing" and "linking" are in one chunk each; "senior" and "montgomery" too, but they are everyday
    # English words; "rating" is in several chunks; "wombat" in none.
    rare = selectors.rare_words_find(text="is a senior montgomery rating wombat buzzing or linking")
    assert rare == ["buzzing", "linking"]


def test_a_source_holding_a_rare_word_of_the_question_takes_the_last_place(ingested, settings):
    from knowledge import selectors as kb
    from knowledge.embeddings import embedding_provider_get
    from verification.pipeline.retrieval import _with_rare_word_source
    from verification.pipeline.state import AnswerState

    kb.reference_cache_clear()
    question = "a higher-level review of my claim for the buzzing"
    vector = embedding_provider_get().embed([question])[0]
    hits = kb.chunks_search(query="higher-level review", query_vector=vector, top_k=1)
    assert "t-tinnitus" not in {h.entry_id for h in hits}
    state = AnswerState(asked=question, request_id="r", text=question, vector=vector)
    kept = _with_rare_word_source(state, hits, kb.rare_words_find(text=question))
    assert [h.entry_id for h in kept[:-1]] == [h.entry_id for h in hits[:-1]]
    assert kept[-1].entry_id == "t-tinnitus" and kept[-1].rank == hits[-1].rank
    # Held already, or no rare word asked: the hits stay as they are.
    assert _with_rare_word_source(state, hits, ["senior"]) == hits  # the Higher-Level Review page says it
    assert _with_rare_word_source(state, hits, []) == hits


def test_vectors_are_sent_as_text_that_keeps_their_values():
    import numpy as np

    from veterans_ai.prepared import vector_text

    vector = np.random.default_rng(7).standard_normal(384).astype(np.float32)
    assert vector_text(vector) == "[" + ",".join(map("{:.7g}".format, vector.tolist())) + "]"
    exact = np.array(vector_text(vector, digits=9)[1:-1].split(","), dtype=np.float32)
    assert np.array_equal(exact, vector)


def test_a_stored_answer_keeps_its_question_vector_exactly():
    import numpy as np

    from knowledge.models import AnsweredQuestion
    from knowledge.services import answered_question_create

    vector = np.random.default_rng(11).standard_normal(384).astype(np.float32)
    row, created = answered_question_create(
        question="q", question_hash="h" * 64, gate_key="q", answer="a", citations=[], question_vector=vector,
        embedding_model="all-MiniLM-L6-v2", confidence=0.5, retrieval_score=0.5, retrieved=[], weak_retrieval=False,
        refused=False, refusal_reason="", warning="", suggestions=[], model="extractive", routing_reason="",
        verification={}, trace=[], topic_scores=[], entity_ids=[], cited=[])
    assert created
    stored = AnsweredQuestion.objects.get(id=row.id).question_embedding
    assert np.array_equal(np.asarray(stored, dtype=np.float32), vector)
