"""Layer 1: keep only the retrieved chunks relevant enough to ground an answer.

The thresholds are the caller's, calibrated per embedding model from the golden set (docs/ARCHITECTURE.md, "Thresholds").
The seed whitepaper's values, for OpenAI embeddings, are θmin 0.45, K 7 and weak 0.55; with MiniLM,
answerable questions' top-1 cosine has p10 0.43 and p50 0.57, so the same numbers do not carry over.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from verification.layers.types import RelevanceResult, SourceChunk

# A chunk among the first LEXICAL_COMPANION_RANKS full-text hits is kept down to θmin − LEXICAL_COMPANION_MARGIN:
# "how do I apply for unemployability" is short and its rare word moves the vector little, so the page on VA
# Form 21-8940 scores just under θmin though full text ranks it first. Two retrievers agreeing on a chunk is
# evidence of its own, so such a chunk also makes the question answerable ("how do I file for an increase",
# 0.328, full-text rank 3); a question full text finds nothing for ("how many moons does Jupiter have") still
# needs θmin. Answers this close to the floor are weak, and say so.
LEXICAL_COMPANION_RANKS = 3
LEXICAL_COMPANION_MARGIN = 0.08
# The chunk the graph ranks first among those linked to a code or form the question names is kept whatever its
# score: "what is form 22-0803" is a bare number to the embedding model (the test-fee page that names the form
# scores 0.04), so without it the pages on other forms answered.
ENTITY_COMPANION_RANKS = 1
# When nothing else is kept, the graph's first ENTITY_ALONE_RANKS chunks for the codes and forms named answer, weakly:
# "whats the difference between 20-0995 and 20-0996" is two bare numbers to the embedding model (best 0.15).
ENTITY_ALONE_RANKS = 2


def relevance_filter(
    *, chunks: Sequence[SourceChunk], theta_min: float, top_k: int, weak_threshold: float
) -> RelevanceResult:
    """Return the best ``top_k`` chunks scoring at least ``theta_min``, or a little under it when full-text search
    ranks them among its first few (LEXICAL_COMPANION_*), renumbered 1..n by score; refuse when none is kept.

    A chunk retrieved twice (vector and full-text hits) counts once, at its best score. ``best_score`` is the
    best over every chunk given, kept or not, so a refusal can say how close retrieval came.
    """
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, not {top_k}")
    best_by_chunk: dict[int, SourceChunk] = {}
    for chunk in chunks:
        if math.isnan(chunk.score):
            continue
        seen = best_by_chunk.get(chunk.chunk_id)
        if seen is None or chunk.score > seen.score:
            best_by_chunk[chunk.chunk_id] = chunk
    # sorted() is stable: equal scores keep the retriever's order.
    ranked = sorted(best_by_chunk.values(), key=lambda chunk: -chunk.score)

    def relevant(chunk: SourceChunk) -> bool:
        return chunk.score >= theta_min or (
            0 < chunk.lexical_rank <= LEXICAL_COMPANION_RANKS and chunk.score >= theta_min - LEXICAL_COMPANION_MARGIN
        )

    chosen = [chunk for chunk in ranked if relevant(chunk)][:top_k]
    if not chosen:
        chosen = [chunk for chunk in ranked if 0 < chunk.entity_rank <= ENTITY_ALONE_RANKS][:top_k]
    else:
        named = [chunk for chunk in ranked if 0 < chunk.entity_rank <= ENTITY_COMPANION_RANKS and chunk not in chosen]
        chosen = (chosen + named)[:top_k] if len(chosen) < top_k else chosen[:top_k - len(named)] + named
    kept = tuple(replace(chunk, number=number) for number, chunk in enumerate(chosen, start=1))
    best_score = ranked[0].score if ranked else 0.0
    return RelevanceResult(
        kept=kept,
        best_score=best_score,
        weak_retrieval=best_score < weak_threshold,
        refuse=not kept,
    )
