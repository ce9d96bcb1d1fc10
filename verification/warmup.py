"""Fill a worker's per-chunk caches before its first answer.

An answer reads each retrieved chunk's sentences and vectors, its facts (percentages, codes, dates, forms)
and its words; each is derived once per process and kept in memory (knowledge.selectors' units cache and the
layers' LRU caches). A fresh worker meets every chunk for the first time, so its first answers pay for that
(`make bench`: the pipeline's first pass against its steady state). gunicorn's ``post_worker_init`` hook
(veterans_ai/gunicorn.conf.py) calls ``answer_caches_warm`` so that work is done before the worker is
handed requests.
"""

from __future__ import annotations

import logging

from verification.generators.extractive import chunk_texts_warm
from verification.layers.citations import source_words
from verification.layers.numbers import chunk_facts, facts_find
from verification.layers.types import SourceChunk

logger = logging.getLogger("verification.warmup")

# The caches hold 4,096 chunks (knowledge.selectors, the layers); warming more would only evict the first.
WARM_CHUNKS_MAX = 4000
# Chunks whose sentences are read in one query.
WARM_BATCH = 200


def answer_caches_warm(*, limit: int = WARM_CHUNKS_MAX) -> int:
    """Derive and cache the sentences, facts and words of up to ``limit`` chunks; return how many."""
    from knowledge import selectors as kb
    from knowledge.embeddings import embedding_provider_get
    from knowledge.embeddings.local import english_words_get
    from knowledge.models import Chunk
    from verification.pipeline.intake import corpus_word_known

    rows = list(Chunk.objects.order_by("id").values_list("id", "entry_id", "title", "content",
                                                          "diagnostic_code")[:limit])
    model_name = embedding_provider_get().model_name
    condition_names = kb.condition_names_get()
    for start in range(0, len(rows), WARM_BATCH):
        batch = rows[start:start + WARM_BATCH]
        units = kb.chunk_units_get(chunks=[(pk, content) for pk, _, _, content, _ in batch], model_name=model_name)
        for pk, entry_id, title, content, code in batch:
            chunk = SourceChunk(number=0, chunk_id=pk, entry_id=entry_id, title=title, url="", content=content,
                                score=0.0, diagnostic_code=code)
            chunk_facts(chunk)
            source_words(title, content)
            texts = [text for text, _ in units.get(pk, ())]
            for text in texts:
                facts_find(text)
            chunk_texts_warm(title=title, content=content, unit_texts=texts, condition_names=condition_names)
    # The words spelling correction reads (the corpus's and the English word list), and the corpus's stems
    # and everyday words rare words and an everyday request's object are told by.
    kb.corpus_words_get()
    corpus_word_known("")
    english_words_get()
    kb.rare_words_find(text="")
    logger.info("answer caches warmed", extra={"chunks": len(rows)})
    return len(rows)


def answer_caches_clear() -> None:
    """Empty every cache ``answer_caches_warm`` fills, as in a fresh worker (benchmarks and tests)."""
    from knowledge import selectors as kb
    from verification.generators import extractive
    from verification.layers import citations, numbers

    kb.reference_cache_clear()
    for cached in (numbers._text_facts, numbers._sources_facts, numbers.facts_find, citations.source_words,
                   citations.content_words, citations.word_stem):
        cached.cache_clear()
    extractive.chunk_texts_clear()
