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
