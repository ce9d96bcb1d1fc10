"""Reads from the knowledge base. All vector search goes through `chunks_search`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F
from django.db.models.functions import Cast
from pgvector.django import CosineDistance, VectorField

from knowledge.embeddings import embedding_provider_get
from knowledge.models import Chunk, ChunkEmbedding

# Reciprocal-rank constant: the usual 60 (Cormack et al., 2009); the weights, not k, decide the blend.
RRF_K = 60
_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'&/-]*")


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
    similarity: float  # cosine similarity to the question: the thresholds act on this
    rank: int  # 1-based rank after fusion
    retrievers: tuple[str, ...]  # "dense", "lexical"
    fused_score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)


def chunks_search(
    *,
    query: str,
    query_vector: np.ndarray | None = None,
    top_k: int | None = None,
    topic: str | None = None,
    chunk_type: str | None = None,
    dense_weight: float | None = None,
    lexical_weight: float | None = None,
    candidates: int | None = None,
) -> list[ChunkHit]:
    """Return the top-K chunks for a question: pgvector HNSW cosine and full-text search, weighted RRF."""
    provider = embedding_provider_get()
    if query_vector is None:
        query_vector = provider.embed([query])[0]
    top_k = top_k or settings.RETRIEVAL_TOP_K
    candidates = max(candidates or settings.RETRIEVAL_CANDIDATES, top_k)
    dense_weight = settings.RETRIEVAL_DENSE_WEIGHT if dense_weight is None else dense_weight
    lexical_weight = settings.RETRIEVAL_LEXICAL_WEIGHT if lexical_weight is None else lexical_weight

    dense = _dense_ranked(query_vector, provider.model_name, provider.dimensions, candidates, topic, chunk_type)
    lexical = _lexical_ranked(query, candidates, topic, chunk_type) if lexical_weight > 0 else []

    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, weight, ranked in (("dense", dense_weight, dense), ("lexical", lexical_weight, lexical)):
        for position, chunk_id in enumerate(ranked, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + weight / (RRF_K + position)
            ranks.setdefault(chunk_id, {})[name] = position
    best = sorted(scores, key=lambda pk: (-scores[pk], pk))[:top_k]
    if not best:
        return []
    similarities = _similarities(best, query_vector, provider.model_name, provider.dimensions)
    rows = {
        row["id"]: row
        for row in Chunk.objects.filter(id__in=best).values(
            "id", "entry_id", "title", "content", "type", "diagnostic_code", topic_slug=F("topic__slug"),
            url=F("source__url"),
        )
    }
    return [
        ChunkHit(
            chunk_id=pk, entry_id=rows[pk]["entry_id"], title=rows[pk]["title"], url=rows[pk]["url"],
            content=rows[pk]["content"], topic=rows[pk]["topic_slug"], type=rows[pk]["type"],
            diagnostic_code=rows[pk]["diagnostic_code"], similarity=similarities.get(pk, 0.0), rank=rank,
            retrievers=tuple(ranks[pk]), fused_score=scores[pk], ranks=ranks[pk],
        )
        for rank, pk in enumerate(best, start=1)
    ]


def _vector_expression(dimensions: int) -> Cast:
    # Matches the partial HNSW index expression, so the planner uses it.
    return Cast("embedding", VectorField(dimensions=dimensions))


def _dense_ranked(
    vector: np.ndarray, model_name: str, dimensions: int, limit: int, topic: str | None, chunk_type: str | None
) -> list[int]:
    qs = ChunkEmbedding.objects.filter(model=model_name)
    if topic:
        qs = qs.filter(chunk__topic__slug=topic)
    if chunk_type:
        qs = qs.filter(chunk__type=chunk_type)
    qs = qs.annotate(distance=CosineDistance(_vector_expression(dimensions), vector)).order_by("distance")
    return list(qs.values_list("chunk_id", flat=True)[:limit])


def _lexical_ranked(query: str, limit: int, topic: str | None, chunk_type: str | None) -> list[int]:
    """Rank by full-text match of any of the question's words (ts_rank_cd rewards matching more of them)."""
    words = [w.replace("'", "").strip("&/-") for w in _WORD_RE.findall(query)]
    words = [w for w in words if w]
    if not words:
        return []
    search = SearchQuery(" | ".join(f"'{w}'" for w in words), search_type="raw", config="english")
    # A raw query of stop words only is empty; to_tsquery then matches nothing, which is right.
    qs = Chunk.objects.filter(search_vector=search)
    if topic:
        qs = qs.filter(topic__slug=topic)
    if chunk_type:
        qs = qs.filter(type=chunk_type)
    qs = qs.annotate(score=SearchRank(F("search_vector"), search, cover_density=True)).order_by("-score", "id")
    return list(qs.values_list("id", flat=True)[:limit])


def _similarities(chunk_ids: Sequence[int], vector: np.ndarray, model_name: str, dimensions: int) -> dict[int, float]:
    rows = (
        ChunkEmbedding.objects.filter(model=model_name, chunk_id__in=chunk_ids)
        .annotate(distance=CosineDistance(_vector_expression(dimensions), vector))
        .values_list("chunk_id", "distance")
    )
    return {pk: 1.0 - float(distance) for pk, distance in rows}


# ---- the answer cache (L1 exact, L2 semantic, L3 graph) and the graph's entities ----

@dataclass(frozen=True)
class CacheHit:
    answered_question_id: int
    level: str  # "exact", "semantic", "graph"
    similarity: float
    weighted: float


def _cache_weight(verified: bool, flagged: bool) -> float:
    if flagged:
        return settings.CACHE_WEIGHT_FLAGGED
    return settings.CACHE_WEIGHT_VERIFIED if verified else 1.0


def answer_cached_exact(*, question_hash: str) -> CacheHit | None:
    """Return the served answer to exactly this question: verified first, then the newest; never flagged."""
    from knowledge.models import AnsweredQuestion

    row = (
        AnsweredQuestion.objects.filter(question_hash=question_hash, refused=False, flagged=False)
        .order_by("-verified", "-created_at")
        .values_list("id", "verified")
        .first()
    )
    return CacheHit(row[0], "exact", 1.0, _cache_weight(row[1], False)) if row else None


def answer_cached_similar(
    *, vector: np.ndarray, model_name: str, gate_key: str, semantic_threshold: float, graph_threshold: float,
    graph_allowed: bool,
) -> CacheHit | None:
    """Return a stored answer to a question that means the same, behind the entity gate.

    Only answers with the same gate key (codes, forms, benefits, numbers, topic) are candidates, so "DC 5260"
    never serves "DC 5261" and "50 and 30" never serves "50 and 40". A candidate's similarity is weighted by
    its review (verified ×1.5, flagged ×0.5); it must clear the threshold both raw and weighted, so a
    flagged answer is never served and a verified one wins ties. The graph level accepts a lower similarity
    when the question names entities (the graph edges carry the meaning).
    """
    from knowledge.models import AnsweredQuestion

    rows = (
        AnsweredQuestion.objects.filter(
            gate_key=gate_key, embedding_model=model_name, refused=False, flagged=False,
            question_embedding__isnull=False,
        )
        .annotate(distance=CosineDistance("question_embedding", vector))
        .order_by("distance")
        .values_list("id", "distance", "verified", "flagged")[:5]
    )
    best: CacheHit | None = None
    for pk, distance, verified, flagged in rows:
        similarity = 1.0 - float(distance)
        weighted = similarity * _cache_weight(verified, flagged)
        for level, threshold, allowed in (("semantic", semantic_threshold, True),
                                          ("graph", graph_threshold, graph_allowed)):
            if allowed and similarity >= threshold and weighted >= threshold:
                if best is None or weighted > best.weighted:
                    best = CacheHit(pk, level, similarity, weighted)
                break
    return best


def entities_unknown(*, dc_codes: Sequence[str], va_forms: Sequence[str]) -> list[tuple[str, str]]:
    """Return the (type, value) pairs the graph does not know: codes or forms that do not exist."""
    from knowledge.models import Entity

    wanted = [("dc_code", c) for c in dc_codes] + [("va_form", f) for f in va_forms]
    if not wanted:
        return []
    known = set(
        Entity.objects.filter(type__in=["dc_code", "va_form"], value__in=[v for _, v in wanted]).values_list("type", "value")
    )
    return [pair for pair in wanted if pair not in known]


def entity_ids_get(*, pairs: Sequence[tuple[str, str]]) -> list[int]:
    from knowledge.models import Entity

    if not pairs:
        return []
    values = {v for _, v in pairs}
    rows = Entity.objects.filter(value__in=values).values_list("id", "type", "value")
    wanted = set(pairs)
    return [pk for pk, t, v in rows if (t, v) in wanted]


def glossary_get() -> dict[str, tuple[str, ...]]:
    """Return the glossary: canonical term (lower case) → aliases."""
    from knowledge.models import Entity

    return {value: tuple(aliases) for value, aliases in Entity.objects.filter(type="term").values_list("value", "aliases")}


def glossary_version() -> str:
    from django.db.models import Count, Max

    from knowledge.models import Entity

    agg = Entity.objects.filter(type="term").aggregate(n=Count("id"), latest=Max("updated_at"))
    return f"{agg['n']}:{agg['latest']}"


@dataclass(frozen=True)
class TermDefinition:
    term: str
    name: str
    definition: str
    url: str
    title: str
    chunk_id: int | None
    entry_id: str


def term_definition_get(*, term: str) -> TermDefinition | None:
    from knowledge.models import Chunk, Entity

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
        chunk_id=chunk[0] if chunk else None, entry_id=chunk[1] if chunk else "",
    )


def chunk_units_get(*, chunk_ids: Sequence[int], model_name: str) -> dict[int, list[tuple[str, np.ndarray]]]:
    """Return each chunk's sentences and table rows with their vectors, in order."""
    from knowledge.models import ChunkSentence

    units: dict[int, list[tuple[str, np.ndarray]]] = {pk: [] for pk in chunk_ids}
    rows = (
        ChunkSentence.objects.filter(chunk_id__in=chunk_ids, model=model_name)
        .order_by("chunk_id", "position")
        .values_list("chunk_id", "text", "embedding")
    )
    for pk, text, vector in rows:
        units[pk].append((text, np.asarray(vector, dtype=np.float32)))
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

    return list(Source.objects.filter(whitelisted=True).values_list("domain", flat=True).distinct())
