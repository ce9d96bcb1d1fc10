"""Reads from the knowledge base. All vector search goes through `chunks_search`."""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import cachetools
import numpy as np
import psycopg.sql
import snowballstemmer
from django.conf import settings
from django.db import connection
from django.db.models import Min, Q
from django.db.models.functions import Cast
from pgvector.django import CosineDistance, VectorField

from knowledge.embeddings import embedding_provider_get
from knowledge.embeddings.local import everyday_words_get
from knowledge.extraction import ByIdentity
from knowledge.gate import gate_has_entities, intent_overlap
from knowledge.models import Chunk, ChunkEmbedding
from veterans_ai.prepared import fetchall_prepared, vector_from_binary, vector_text

# Small, rarely-changing tables read on every question (glossary, topic keywords, whitelisted domains) are
# kept in process for REFERENCE_TTL_SECONDS: an edit shows within that time, and the hot path saves a round
# trip each. Chunk sentence vectors are immutable per content hash, so they are kept until evicted.
REFERENCE_TTL_SECONDS = 30
_reference_cache: cachetools.TTLCache = cachetools.TTLCache(maxsize=64, ttl=REFERENCE_TTL_SECONDS)
_units_cache: cachetools.LRUCache = cachetools.LRUCache(maxsize=4096)
_cache_lock = threading.RLock()
COMMON_LEXEME_SHARE = 0.2
_lexeme_cache: cachetools.TTLCache = cachetools.TTLCache(maxsize=1, ttl=3600)


def _reference(key: str, loader):
    with _cache_lock:
        value = _reference_cache.get(key)
    if value is None:
        value = loader()
        with _cache_lock:
            _reference_cache[key] = value
    return value


def reference_cache_clear() -> None:
    global _corpus_words, _corpus_stems
    with _cache_lock:
        _reference_cache.clear()
        _units_cache.clear()
        _lexeme_cache.clear()
        _chunk_benefits.clear()
        _corpus_words = None
        _corpus_stems = None


# Reciprocal-rank constant: the usual 60 (Cormack et al., 2009); the weights, not k, decide the blend.
RRF_K = 60


@dataclass(frozen=True)
class ChunkHit:
    chunk_id: int
    entry_id: str
    title: str
    url: str
    content: str
    topic: str
    type: str
    diagnostic_code: str
    source_id: int
    similarity: float  # cosine similarity to the question: the thresholds act on this
    rank: int  # 1-based rank after fusion
    retrievers: tuple[str, ...]  # "dense", "lexical"
    fused_score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)
    checked_on: date | None = None  # the day its facts were checked against the official page


def chunks_search(
    *,
    query: str,
    query_vector: np.ndarray | None = None,
    top_k: int | None = None,
    topic: str | None = None,
    source: str | None = None,
    chunk_type: str | None = None,
    dense_weight: float | None = None,
    lexical_weight: float | None = None,
    candidates: int | None = None,
    entity_ids: Sequence[int] = (),
    entity_weight: float | None = None,
    codes_written: Sequence[str] = (),
    provider_name: str | None = None,
) -> list[ChunkHit]:
    """Return the top-K chunks for a question: pgvector HNSW cosine, full-text search and the chunks linked
    to the codes and forms the question names (``entity_ids``), fused by weighted RRF.

    ``topic`` (a topic slug) and ``source`` (a source URL) keep every retriever to the chunks of that topic
    or page. The chunk of a diagnostic code the question writes out (``codes_written``) counts twice among the
    linked ones: "what's diagnostic code 5276" wants flatfoot's criteria, not a page naming 5276 in passing.
    """
    provider = embedding_provider_get(provider=provider_name)
    if query_vector is None:
        query_vector = provider.embed([query])[0]
    top_k = top_k or settings.RETRIEVAL_TOP_K
    candidates = max(candidates or settings.RETRIEVAL_CANDIDATES, top_k)
    dense_weight = settings.RETRIEVAL_DENSE_WEIGHT if dense_weight is None else dense_weight
    lexical_weight = settings.RETRIEVAL_LEXICAL_WEIGHT if lexical_weight is None else lexical_weight
    entity_weight = settings.RETRIEVAL_ENTITY_WEIGHT if entity_weight is None else entity_weight

    rows = _hybrid_rows(
        vector=query_vector, model_name=provider.model_name, dimensions=provider.dimensions, query_text=query,
        candidates=candidates, top_k=top_k, dense_weight=dense_weight, lexical_weight=lexical_weight,
        topic=topic, source=source, chunk_type=chunk_type, entity_ids=list(entity_ids), entity_weight=entity_weight,
        codes_written=list(codes_written),
    )
    hits = []
    for rank, row in enumerate(rows, start=1):
        ranks = {name: r for name, r in (("dense", row[9]), ("lexical", row[10]), ("entity", row[13]))
                 if r is not None}
        hits.append(ChunkHit(
            chunk_id=row[0], entry_id=row[1], title=row[2], url=row[7], content=row[3], topic=row[6], type=row[4],
            diagnostic_code=row[5], source_id=row[12], similarity=float(row[11]) if row[11] is not None else 0.0, rank=rank,
            retrievers=tuple(ranks), fused_score=float(row[8]), ranks=ranks, checked_on=row[14],
        ))
    return hits


# One round trip: the HNSW top-N, the full-text top-N, their weighted reciprocal-rank fusion, and the cosine
# similarity of every fused hit (lexical-only hits included, since the thresholds act on it).
_HYBRID_SQL = """
WITH dense AS (
    SELECT chunk_id, row_number() OVER (ORDER BY distance) AS r
    FROM (
        SELECT e.chunk_id, e.embedding::vector({dims}) <=> %(q)s::vector({dims}) AS distance
        FROM knowledge_chunkembedding e {dense_join}
        WHERE e.model = {model} {chunk_filter}
        ORDER BY e.embedding::vector({dims}) <=> %(q)s::vector({dims})
        LIMIT %(n)s
    ) nearest
),
lexical AS (
    SELECT id AS chunk_id, row_number() OVER (ORDER BY score DESC, id) AS r
    FROM (
        SELECT c.id, ts_rank(c.search_vector, query) AS score
        FROM knowledge_chunk c, (
            SELECT to_tsquery('simple', coalesce(string_agg(quote_literal(lexeme), ' | '), '')) AS query
            FROM unnest(to_tsvector('english', %(text)s))
            WHERE NOT lexeme = ANY(%(common)s)
        ) q
        WHERE %(lexical)s AND c.search_vector @@ query {chunk_filter}
        ORDER BY score DESC, c.id
        LIMIT %(n)s
    ) matched
),
entity AS (
    SELECT chunk_id, own, row_number() OVER (ORDER BY own DESC, matched DESC, distance, chunk_id) AS r
    FROM (
        SELECT ce.chunk_id, count(*) AS matched,
               bool_or(c.diagnostic_code = ANY(%(codes)s::text[])) AS own,
               min(e.embedding::vector({dims}) <=> %(q)s::vector({dims})) AS distance
        FROM knowledge_chunkentity ce
        JOIN knowledge_chunk c ON c.id = ce.chunk_id
        JOIN knowledge_chunkembedding e ON e.chunk_id = ce.chunk_id AND e.model = {model}
        WHERE ce.entity_id = ANY(%(entities)s::bigint[]) {chunk_filter}
        GROUP BY ce.chunk_id
        ORDER BY own DESC, matched DESC, distance, ce.chunk_id
        LIMIT %(n)s
    ) linked
),
fused AS (
    SELECT chunk_id, SUM(score) AS fused
    FROM (
        SELECT chunk_id, %(wd)s / ({rrf_k} + r) AS score FROM dense
        UNION ALL
        SELECT chunk_id, %(wl)s / ({rrf_k} + r) AS score FROM lexical
        UNION ALL
        SELECT chunk_id, %(we)s * (1 + own::int) / ({rrf_k} + r) AS score FROM entity
    ) parts
    GROUP BY chunk_id
    ORDER BY fused DESC, chunk_id
    LIMIT %(k)s
)
SELECT c.id, c.entry_id, c.title, c.content, c.type, c.diagnostic_code, t.slug, s.url, f.fused, d.r, l.r,
       1 - (e.embedding::vector({dims}) <=> %(q)s::vector({dims})), c.source_id, g.r, c.checked_on
FROM fused f
JOIN knowledge_chunk c ON c.id = f.chunk_id
JOIN knowledge_topic t ON t.id = c.topic_id
JOIN knowledge_source s ON s.id = c.source_id
LEFT JOIN dense d ON d.chunk_id = f.chunk_id
LEFT JOIN lexical l ON l.chunk_id = f.chunk_id
LEFT JOIN entity g ON g.chunk_id = f.chunk_id
LEFT JOIN knowledge_chunkembedding e ON e.chunk_id = f.chunk_id AND e.model = {model}
ORDER BY f.fused DESC, f.chunk_id
"""


def _hybrid_rows(
    *, vector: np.ndarray, model_name: str, dimensions: int, query_text: str, candidates: int, top_k: int,
    dense_weight: float, lexical_weight: float, topic: str | None, source: str | None, chunk_type: str | None,
    entity_ids: list[int], entity_weight: float, codes_written: list[str],
) -> list[tuple]:
    filters, joins = [], ""
    params: dict[str, object] = {
        "q": vector_text(vector),
        "text": query_text, "lexical": bool(query_text.strip()) and lexical_weight > 0,
        "common": common_lexemes_get(), "n": candidates, "k": top_k,
        "wd": float(dense_weight), "wl": float(lexical_weight),
        "entities": entity_ids if entity_weight > 0 else [], "we": float(entity_weight),
        "codes": codes_written,
    }
    if topic:
        filters.append("c.topic_id = (SELECT id FROM knowledge_topic WHERE slug = %(topic)s)")
        params["topic"] = topic
    if source:
        filters.append("c.source_id = (SELECT id FROM knowledge_source WHERE url = %(source)s)")
        params["source"] = source
    if chunk_type:
        filters.append("c.type = %(type)s")
        params["type"] = chunk_type
    if filters:
        joins = "JOIN knowledge_chunk c ON c.id = e.chunk_id"
    condition = "".join(f" AND {f}" for f in filters)
    # The model is written into the statement, not bound: the generic plan of a prepared statement uses a
    # partial HNSW index only when its condition (model = '...') is in the statement's text.
    sql = _HYBRID_SQL.format(dims=int(dimensions), rrf_k=RRF_K, dense_join=joins, chunk_filter=condition,
                             model=psycopg.sql.Literal(model_name).as_string())
    # Planning this statement took twice as long as running it: prepared, its generic plan is reused.
    return fetchall_prepared(sql, params)


def common_lexemes_get() -> list[str]:
    """Return the lexemes in more than COMMON_LEXEME_SHARE of the chunks ("rate", "veteran", "va", ...).

    They are left out of the full-text query: nearly every chunk matches them, so they add little to the rank
    and force a scan that ranks the whole corpus (measured on vbkb_corpus.json: the lexical part fell from
    retrieval p50 8.1 → 3.8 ms, p95 11.1 → 4.7 ms, and recall@7 on the golden set rose 0.817 → 0.822).
    ts_stat reads every chunk, so the list is kept for an hour.
    """
    from django.db import connection

    with _cache_lock:
        cached = _lexeme_cache.get("common")
    if cached is not None:
        return cached
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT word FROM ts_stat('SELECT search_vector FROM knowledge_chunk') "
            "WHERE ndoc > %s * (SELECT count(*) FROM knowledge_chunk)", [COMMON_LEXEME_SHARE],
        )
        common = sorted(row[0] for row in cursor.fetchall())
    with _cache_lock:
        _lexeme_cache["common"] = common
    return common


def _vector_expression(dimensions: int) -> Cast:
    # Matches the partial HNSW index expression, so the planner uses it.
    return Cast("embedding", VectorField(dimensions=dimensions))


# ---- the answer cache (L1 exact, L2 semantic, L3 graph) and the graph's entities ----

@dataclass(frozen=True)
class CacheHit:
    answered_question_id: int
    level: str  # "exact", "semantic", "graph"
    similarity: float
    weighted: float
    # A reviewer flagged the stored answer to this question and no corrected one exists: the pipeline serves
    # the "being reviewed" message (verification.review.cached_answer_content), never that text regenerated.
    under_review: bool = False


def _cache_weight(verified: bool) -> float:
    return settings.CACHE_WEIGHT_VERIFIED if verified else 1.0


def _cached() -> Q:
    """The answers the cache holds: each question's current answer, refusals left out (they are answered
    afresh). A stale answer (a source it cites changed) or one cleared by an operator is not current."""
    return Q(current=True, refused=False)


# Candidates read per semantic lookup: the few nearest stored questions behind the gate.
SIMILAR_CANDIDATES = 5


# The graph level also takes a stored question that names the same entities (the same gate key, with a code,
# form or benefit in it) and asks the same thing in other words: intent words overlapping this much, and a
# cosine above the floor (measured with MiniLM on tests/review/crosstalk_pairs.json: lay-name paraphrases score
# 0.57-0.83, e.g. "TBI" / "traumatic brain injury" 0.60; no near-miss pair shares a gate key).
INTENT_MIN_OVERLAP = 0.6
GRAPH_INTENT_FLOOR = 0.5


def question_intent_words(*, question: str) -> str:
    """Return a question's intent words, its entity names (lay names included) left out."""
    from knowledge.extraction import entities_extract
    from knowledge.gate import intent_words

    found = entities_extract(text=question, terms=glossary_terms_get(), conditions=condition_names_get())
    return intent_words(text=question, mentions=[e.text for e in found])


def answer_cached_similar(
    *, vector: np.ndarray, model_name: str, gate_key: str, semantic_threshold: float, graph_threshold: float,
    graph_allowed: bool, question: str = "",
) -> CacheHit | None:
    """Return a stored answer to a question that means the same, behind the entity gate, or None.

    Only answers with the same gate key (codes, forms, benefits, numbers, negation, comparisons, frequencies,
    topic; see knowledge.gate) are candidates, so "DC 5260" never serves "DC 5261" and "with a CPAP" never
    serves "without a CPAP". A candidate counts when its similarity clears the semantic threshold, or the
    graph one when the question names entities (the graph edges carry the meaning), or, when the gate names a
    code, form or benefit, when ``question`` asks the same beyond them (``INTENT_MIN_OVERLAP``). Of those, a verified
    answer wins (weighted ×1.5); else a flagged one blocks the question (``under_review``: its text must not
    be served again, nor made again); else the nearest answer that needs no review.

    The stored questions' vectors have a partial HNSW index per embedding model (``answered_question_hnsw_*``);
    the planner reads it for a large gate group and the gate-key index for a small one.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_similar_sql(model_name), [vector_text(vector), model_name, gate_key])
        rows = cursor.fetchall()
    by_intent = bool(question) and gate_has_entities(gate_key)
    intent = question_intent_words(question=question) if by_intent else ""
    verified_hit = blocking_hit = plain_hit = None
    for pk, distance, verified, flagged, needs_review, stored_intent in rows:
        if distance is None:
            continue
        similarity = 1.0 - float(distance)
        if similarity >= semantic_threshold:
            level = "semantic"
        elif graph_allowed and similarity >= graph_threshold:
            level = "graph"
        elif (by_intent and similarity >= GRAPH_INTENT_FLOOR
              and intent_overlap(intent, stored_intent) >= INTENT_MIN_OVERLAP):
            level = "graph"
        else:
            continue
        hit = CacheHit(pk, level, similarity, similarity * _cache_weight(verified), under_review=flagged)
        if verified and (verified_hit is None or hit.weighted > verified_hit.weighted):
            verified_hit = hit
        elif flagged and blocking_hit is None:
            blocking_hit = hit
        elif not (verified or flagged or needs_review) and plain_hit is None:
            plain_hit = hit
    return verified_hit or blocking_hit or plain_hit


_similar_statements: dict[str, str] = {}


def _similar_sql(model_name: str) -> str:
    """The semantic cache's statement for one embedding model, compiled by the ORM once and kept: building and
    compiling the queryset took most of the lookup's 1.5 ms (the database ran it in 0.03 ms). Client-side
    binding still sends the values inline, so the planner chooses per gate group as before."""
    from knowledge.models import INDEXED_EMBEDDING_MODELS, AnsweredQuestion

    sql = _similar_statements.get(model_name)
    if sql is None:
        column = "question_embedding"
        if model_name in INDEXED_EMBEDDING_MODELS:  # the index's expression, so the planner can use it
            column = Cast("question_embedding", VectorField(dimensions=INDEXED_EMBEDDING_MODELS[model_name]))
        queryset = (
            AnsweredQuestion.objects.filter(_cached(), gate_key="", embedding_model=model_name)
            .annotate(distance=CosineDistance(column, [0.0]))
            .order_by("distance")
            .values_list("id", "distance", "verified", "flagged", "needs_review", "intent_words")[:SIMILAR_CANDIDATES]
        )
        sql, params = queryset.query.sql_with_params()
        if list(params[1:]) != [model_name, ""]:
            raise RuntimeError(f"the semantic cache's query takes the vector, model and gate key, not {params!r}")
        _similar_statements[model_name] = sql
    return sql


def _entity_ids() -> dict[tuple[str, str], int]:
    """Every entity of the graph, (type, value) → id: about a thousand, read once per REFERENCE_TTL_SECONDS."""
    from knowledge.models import Entity

    return _reference("entity_ids", lambda: {(t, v): pk for pk, t, v in Entity.objects.values_list("id", "type", "value")})


def _entity_ids_of(pairs: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """The ids of ``pairs`` in the graph: from the kept map, and from the database for a pair it lacks (one
    added since it was read), so a new code or form is never taken for one that does not exist."""
    from knowledge.models import Entity

    known = _entity_ids()
    found = {pair: known[pair] for pair in pairs if pair in known}
    missing = {pair for pair in pairs if pair not in known}
    if missing:
        rows = Entity.objects.filter(value__in={v for _, v in missing}).values_list("id", "type", "value")
        found.update({(t, v): pk for pk, t, v in rows if (t, v) in missing})
    return found


def entities_unknown(*, dc_codes: Sequence[str], va_forms: Sequence[str]) -> list[tuple[str, str]]:
    """Return the (type, value) pairs the graph does not know: codes or forms that do not exist."""
    wanted = [("dc_code", c) for c in dc_codes] + [("va_form", f) for f in va_forms]
    if not wanted:
        return []
    known = _entity_ids_of(wanted)
    return [pair for pair in wanted if pair not in known]


def entity_ids_get(*, pairs: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Return the graph's id of each (type, value) pair that is in it."""
    return _entity_ids_of(pairs) if pairs else {}


# The benefits the graph links to a chunk, kept per chunk for REFERENCE_TTL_SECONDS (a re-ingest relinks within
# it); a chunk with none is kept as such.
_chunk_benefits: cachetools.TTLCache = cachetools.TTLCache(maxsize=8192, ttl=REFERENCE_TTL_SECONDS)


def chunk_benefits_get(*, chunk_ids: Sequence[int]) -> dict[int, frozenset[str]]:
    """Return the benefits (slugs) the graph links to each of ``chunk_ids`` that has any."""
    from knowledge.models import ChunkEntity

    with _cache_lock:
        kept = {chunk_id: _chunk_benefits.get(chunk_id) for chunk_id in chunk_ids}
    missing = [chunk_id for chunk_id, benefits in kept.items() if benefits is None]
    if missing:
        found: dict[int, set[str]] = {chunk_id: set() for chunk_id in missing}
        rows = ChunkEntity.objects.filter(chunk_id__in=missing, entity__type="benefit").values_list(
            "chunk_id", "entity__value")
        for chunk_id, value in rows:
            found[chunk_id].add(value)
        with _cache_lock:
            for chunk_id, values in found.items():
                kept[chunk_id] = _chunk_benefits[chunk_id] = frozenset(values)
    return {chunk_id: benefits for chunk_id, benefits in kept.items() if benefits}


def glossary_get() -> dict[str, tuple[str, ...]]:
    """Return the glossary: canonical term (lower case) → aliases."""
    from knowledge.models import Entity

    return _reference("glossary", lambda: {
        value: tuple(aliases) for value, aliases in Entity.objects.filter(type="term").values_list("value", "aliases")
    })


def _glossary_terms(glossary: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {alias.lower(): term for term, aliases in glossary.items() for alias in (term, *aliases)}


def glossary_terms_get() -> dict[str, str]:
    """Return every lower-case name of a glossary term → the term; one object for as long as the glossary is
    cached, so the entity extractor's index of it is found by identity (knowledge.extraction.ByIdentity)."""
    return _glossary_terms_of(glossary_get())


_glossary_terms_of = ByIdentity(_glossary_terms, size=2)


def corpus_words_get() -> dict[str, int]:
    """Return every lower-case word of the chunks' titles and contents with how often it occurs (spelling
    correction reads them). Kept for the process's life, not REFERENCE_TTL_SECONDS: reading it scans every
    chunk's text (20 ms for the bundled corpus, seconds for a large one), which a question must not pay twice a
    minute. A word a later ingest adds becomes a correction target when the workers restart; until then it is
    only left uncorrected."""
    global _corpus_words
    if _corpus_words is None:
        from collections import Counter

        counts: Counter[str] = Counter()
        for title, content in Chunk.objects.values_list("title", "content"):
            counts.update(_CORPUS_WORD_RE.findall(f"{title} {content}".lower()))
        with _cache_lock:
            _corpus_words = dict(counts)
    return _corpus_words


_corpus_words: dict[str, int] | None = None
_CORPUS_WORD_RE = re.compile(r"[a-z]+")
# A question word found this few times in the whole corpus (and at least this long) names what is asked.
RARE_WORD_MAX_COUNT, RARE_WORD_MIN_LENGTH = 3, 5


def rare_words_find(*, text: str) -> list[str]:
    """Return the words of ``text`` whose stem the corpus holds, but at most RARE_WORD_MAX_COUNT times.

    "What's the DIC transitional benefit": "transitional" is in one chunk, the DIC rates; the question turns
    on it, though every DIC page matches "DIC" better. Stems are counted, so "migraines" is not rare where
    "migraine" is everywhere; everyday English words ("sitting", "speed") are rare in the corpus only because
    its pages do not chat, and are left out."""
    global _corpus_stems
    if _corpus_stems is None:
        counts: dict[str, int] = {}
        for word, count in corpus_words_get().items():
            stem = _STEMMER.stemWord(word)
            counts[stem] = counts.get(stem, 0) + count
        with _cache_lock:
            _corpus_stems = counts
    everyday = everyday_words_get()
    return [word for word in dict.fromkeys(_CORPUS_WORD_RE.findall(text.lower()))
            if len(word) >= RARE_WORD_MIN_LENGTH and word not in everyday
            and 0 < _corpus_stems.get(_STEMMER.stemWord(word), 0) <= RARE_WORD_MAX_COUNT]


_corpus_stems: dict[str, int] | None = None
_STEMMER = snowballstemmer.stemmer("english")  # the stemmer verification.layers.citations matches words with


def condition_names_get() -> dict[str, str]:
    """Return the names that each stand for one diagnostic code, lower case → code: the rating schedule's
    condition names, and the codes' aliases in the graph, lay words included ("ringing in the ears" → 6260)."""
    from knowledge.extraction import condition_names_build
    from knowledge.models import Entity

    def load() -> dict[str, str]:
        rows = list(Entity.objects.filter(type="dc_code").values_list("value", "name", "aliases"))
        names = condition_names_build(codes=[(value, name) for value, name, _ in rows])
        # Aliases are curated (seed/condition_aliases.json, then reviewers), so short ones ("PTSD") count too.
        names.update({alias.lower(): value for value, _, aliases in rows for alias in aliases})
        return names

    return _reference("conditions", load)


def topic_ids_get() -> dict[str, int]:
    from knowledge.models import Topic

    return _reference("topic_ids", lambda: dict(Topic.objects.values_list("slug", "id")))


def source_chunks_get(*, url_suffix: str) -> list[ChunkHit]:
    """Return the chunks of the source whose URL ends with ``url_suffix`` ("/section-4.25"), in entry order."""
    rows = (Chunk.objects.filter(source__url__endswith=url_suffix).order_by("entry_id")
            .values_list("id", "entry_id", "title", "source__url", "content", "topic__slug", "type",
                         "diagnostic_code", "source_id"))
    return [ChunkHit(chunk_id=pk, entry_id=entry_id, title=title, url=url, content=content, topic=topic, type=kind,
                     diagnostic_code=code, source_id=source_id, similarity=0.0, rank=rank, retrievers=())
            for rank, (pk, entry_id, title, url, content, topic, kind, code, source_id) in enumerate(rows, start=1)]


NON_VA_DOCUMENTS_FILE = Path(__file__).resolve().parent / "data" / "non_va_documents.json"


@dataclass(frozen=True)
class NonVaDocument:
    number: str  # "DD-214"
    aliases: tuple[str, ...]
    name: str
    agency: str
    what: str
    get: str
    url: str


@functools.cache
def non_va_documents_get() -> tuple[NonVaDocument, ...]:
    """Return the documents another agency issues that veterans ask about (DD-214, SF-180, NGB-22, ...)."""
    data = json.loads(NON_VA_DOCUMENTS_FILE.read_text(encoding="utf-8"))
    return tuple(NonVaDocument(**{**doc, "aliases": tuple(doc["aliases"])}) for doc in data["documents"])


def source_exists(*, url: str) -> bool:
    from knowledge.models import Source

    return Source.objects.filter(url=url).exists()


def topic_keywords_get() -> dict[str, list[str]]:
    from knowledge.models import Topic

    return _reference("topics", lambda: dict(Topic.objects.values_list("slug", "keywords")))


def glossary_version() -> str:
    from django.db.models import Count, Max

    from knowledge.models import Entity

    def load() -> str:
        agg = Entity.objects.filter(type="term").aggregate(n=Count("id"), latest=Max("updated_at"))
        return f"{agg['n']}:{agg['latest']}"

    return _reference("glossary_version", load)


@dataclass(frozen=True)
class TermDefinition:
    term: str
    name: str
    definition: str
    url: str
    title: str
    chunk_id: int | None
    entry_id: str
    source_id: int | None


def term_definition_get(*, term: str) -> TermDefinition | None:
    from knowledge.models import Entity

    entity = Entity.objects.select_related("source").filter(type="term", value=term).first()
    if entity is None:
        return None
    chunk = (
        Chunk.objects.filter(type="definition", source_id=entity.source_id, content=entity.definition)
        .values_list("id", "entry_id", "title")
        .first()
    )
    return TermDefinition(
        term=entity.value, name=entity.name, definition=entity.definition,
        url=entity.source.url if entity.source else "", title=chunk[2] if chunk else entity.name,
        chunk_id=chunk[0] if chunk else None, entry_id=chunk[1] if chunk else "", source_id=entity.source_id,
    )


def chunk_units_get(
    *, chunks: Sequence[tuple[int, str]], model_name: str
) -> dict[int, list[tuple[str, np.ndarray]]]:
    """Return each chunk's sentences and table rows with their vectors, in order; chunks are (id, content)."""
    from knowledge.models import ChunkSentence

    units: dict[int, list[tuple[str, np.ndarray]]] = {}
    keys = {pk: (pk, model_name, hash(content)) for pk, content in chunks}
    chunk_ids = list(keys)
    with _cache_lock:
        for pk, key in keys.items():
            if (cached := _units_cache.get(key)) is not None:
                units[pk] = cached
    missing = [pk for pk in chunk_ids if pk not in units]
    if missing:
        fetched: dict[int, list[tuple[str, np.ndarray]]] = {pk: [] for pk in missing}
        # Vectors in binary: parsing 384 numbers of text per sentence was most of a cold question's reading time.
        rows = fetchall_prepared(
            f"SELECT chunk_id, text, embedding FROM {ChunkSentence._meta.db_table} "
            "WHERE chunk_id = ANY(%s) AND model = %s ORDER BY chunk_id, position",
            [missing, model_name], binary=True)
        for pk, text, vector in rows:
            fetched[pk].append((text, vector_from_binary(vector)))
        with _cache_lock:
            for pk, found in fetched.items():
                if found:  # not yet embedded: ask again next time
                    _units_cache[keys[pk]] = found
        units.update(fetched)
    return units


def suggestions_get(*, vector: np.ndarray, model_name: str, limit: int = 3) -> list[str]:
    """Return what the knowledge base does cover nearest the question: verified questions, then chunk titles."""
    from knowledge.models import AnsweredQuestion

    verified = list(
        AnsweredQuestion.objects.filter(verified=True, refused=False, embedding_model=model_name)
        .annotate(distance=CosineDistance("question_embedding", vector))
        .order_by("distance")
        .values_list("question", flat=True)[:limit]
    )
    if len(verified) >= limit:
        return verified
    titles: list[str] = []
    dims = len(vector)
    rows = (
        ChunkEmbedding.objects.filter(model=model_name)
        .annotate(distance=CosineDistance(_vector_expression(dims), vector))
        .order_by("distance")
        .values_list("chunk__title", flat=True)[:20]
    )
    for title in rows:
        if title and title not in titles and title not in verified:
            titles.append(title)
    return (verified + titles)[:limit]


def whitelisted_domains() -> list[str]:
    from knowledge.models import Source

    return _reference("whitelist", lambda: list(
        Source.objects.filter(whitelisted=True).values_list("domain", flat=True).distinct()
    ))


# The columns of a stored answer the cache serves (answer_served_get reads them with the answer's topics,
# entities and the dates of its sources).
SERVED_COLUMNS = ("answer", "citations", "confidence", "weak_retrieval", "refused", "refusal_reason", "warning",
                  "suggestions", "model", "routing_reason", "verification", "verified", "flagged")


def answer_served_version_sql(*, row: str) -> str:
    """SQL for the fingerprint of SERVED_COLUMNS of the stored answer ``row`` (a quoted table name or alias).

    Finished replies kept in memory are keyed by it (verification.pipeline.reply), so an edit or a review
    decision is a new key on the very next serve, in every process. Topics, entities and source dates are left
    out: they change only when a topic or entity is renamed or a source re-dated, and reading them cost the
    statement that counts each serve more than the rest of it (measured: 1.5 ms against 0.9); kept replies are
    read again after REFERENCE_TTL_SECONDS instead, as the other reference lookups are.
    """
    columns = ", ".join(f"{row}.{connection.ops.quote_name(name)}" for name in SERVED_COLUMNS)
    return f"md5(ROW({columns})::text)"


def answer_served_get(*, answered_question_id: int):
    """Return a stored answer as the cache serves it, in one query: the row (vectors left out) with
    ``topic_slugs`` (best first), ``entity_pairs`` ([type, value]), ``cited_checked_on`` (the day the oldest
    cited chunk was checked; None when none is dated) and ``served_version`` (answer_served_version_sql).
    Raises AnsweredQuestion.DoesNotExist."""
    from knowledge.models import AnsweredQuestion

    rows = list(AnsweredQuestion.objects.raw(_answer_served_sql(), [answered_question_id]))
    if not rows:
        raise AnsweredQuestion.DoesNotExist(answered_question_id)
    return rows[0]


@functools.cache
def _answer_served_sql() -> str:
    """The SQL of answer_served_get, compiled once: building it costs the ORM more than the query costs
    PostgreSQL (measured: 6 ms against 1 ms)."""
    from django.contrib.postgres.expressions import ArraySubquery
    from django.db.models import F, Func, OuterRef, Subquery
    from django.db.models.expressions import RawSQL

    from knowledge.models import AnsweredQuestion, QuestionEntity, QuestionSource, QuestionTopic

    pair = Func(F("entity__type"), F("entity__value"), function="ARRAY", template="%(function)s[%(expressions)s]")
    oldest = (QuestionSource.objects.filter(question=OuterRef("pk"), chunk__checked_on__isnull=False)
              .values("question").annotate(oldest=Min("chunk__checked_on")).values("oldest"))
    queryset = (
        AnsweredQuestion.objects.defer("question_embedding", "answer_embedding")
        .annotate(
            topic_slugs=ArraySubquery(QuestionTopic.objects.filter(question=OuterRef("pk"))
                                      .order_by("-score", "id").values("topic__slug")),
            entity_pairs=ArraySubquery(QuestionEntity.objects.filter(question=OuterRef("pk"))
                                       .order_by("id").values_list(pair)),
            cited_checked_on=Subquery(oldest[:1]),
            served_version=RawSQL(answer_served_version_sql(row=connection.ops.quote_name(AnsweredQuestion._meta.db_table)), []),
        )
        .filter(id=0)
    )
    sql, params = queryset.query.sql_with_params()
    if list(params) != [0]:
        raise RuntimeError(f"answer_served_get's query takes the id alone, not {params!r}")
    return sql


def sources_checked_on(*, entry_ids: Sequence[str]) -> date | None:
    """The day the oldest of these chunks' facts were checked against their official pages (None: no date)."""
    if not entry_ids:
        return None
    return Chunk.objects.filter(entry_id__in=list(entry_ids), checked_on__isnull=False).aggregate(
        oldest=Min("checked_on"))["oldest"]
