"""The steps around the question's vector: embedding, terminology first, the similar-answer caches, hybrid
retrieval and the relevance floor."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from django.conf import settings

from knowledge import selectors as kb
from knowledge.embeddings import embedding_provider_get
from knowledge.embeddings.base import EmbeddingError
from knowledge.extraction import benefit_names_expand, entities_extract, lay_terms_expand
from knowledge.patterns import dc_codes_find
from verification.generators import EXTRACTIVE
from verification.generators.extractive import levels_asked
from verification.layers.citations import content_words, source_words
from verification.layers.confidence import answer_confidence, confidence_assess
from verification.layers.refusal import refusal_build
from verification.layers.relevance import relevance_filter
from verification.layers.types import Refusal, SourceChunk
from verification.pipeline.intake import corpus_word_known
from verification.pipeline.reply import cached, clean_verification, refused
from verification.pipeline.state import AnswerState, Reply, replace
from verification.scope import unmatched_words_count
from verification.terminology import (
    definition_passage_find,
    definitional_term_extract,
    term_candidates,
    term_context,
    term_lookup_cached,
)

logger = logging.getLogger("verification.answers")

TERM_AMBIGUOUS = "Several terms match “{term}”: {options}. Which one do you mean?"
TERM_DEFINITION = "{name}: {definition} [1]"
GLOSSARY_MODEL = "glossary"
OFFLINE_EMBEDDING_PROVIDER = "local"
OFFLINE_REASON = "offline: the embedding service is unavailable"
# A term of this many content words may hold words for what is asked about it that no source uses
# (see _term_used).
LONG_TERM_WORDS = 3
ASPECT_WORDS = content_words("wait waiting time times timeline length cost costs price amount deadline process "
                             "processing steps requirements rules status schedule")
# Codes and forms name exactly what was asked; a benefit or a glossary term is too broad to pull chunks in.
RETRIEVAL_ENTITY_TYPES = ("dc_code", "va_form")
# The chunks the terminology probe reads to see whether the corpus uses a term at all.
TERM_PROBE_TOP_K = 3


def thresholds(*, provider_name: str | None = None) -> dict[str, float]:
    """The calibrated thresholds of the embedding provider (the configured one unless named)."""
    name = provider_name or settings.EMBEDDING_PROVIDER
    return settings.ANSWER_THRESHOLDS["openai" if name == "openai" else "local"]


# A decision review asked about with a condition as its story ("VA denied my sleep apnea claim, what are my
# options now"): the review's pages answer, and the condition's name would pull its rating table first. Not when
# the condition's levels are asked too ("I appealed, what does 70 need for PTSD").
_REVIEW_ASKED_RE = re.compile(
    r"\b(?:denied|denial|turned (?:me |it )?down|appeal\w*|higher[- ]level review|hlr|supplemental claim|board|lanes?|"
    r"decision reviews?|reopen\w*|look at it again|reconsider\w*)\b", re.IGNORECASE)
_LEVELS_ASKED_RE = re.compile(
    r"\b(?:criteria|how (?:is|are|do they|does va|will va|would va) rate|what (?:rating|percent\w*)|what %|bump\w*|"
    r"increase\w*|secondary|presum\w*|nexus|evidence)\b", re.IGNORECASE)


def context_conditions(state: AnswerState) -> tuple[tuple[str, str], ...]:
    """The conditions a decision-review question tells as its story, as (diagnostic code, name as written) pairs;
    none when the question asks for no review or asks for a condition's levels, evidence or link too."""
    if not _REVIEW_ASKED_RE.search(state.text) or _LEVELS_ASKED_RE.search(state.text):
        return ()
    found = entities_extract(text=state.text, conditions=kb.condition_names_get())
    return tuple((e.value, e.text) for e in found if e.type == "dc_code" and not re.search(r"\d", e.text))


def embed(state: AnswerState) -> AnswerState:
    """Embed the question with the schedule's and VA's words for its everyday ones appended ("the VA surgeon
    nicked a nerve" → "1151"): the pages that answer it use those words. The conditions a decision-review
    question tells as its story (``context_conditions``) are left out."""
    provider = embedding_provider_get()
    text = state.text
    story = context_conditions(state)
    for _, name in story:
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text, flags=re.IGNORECASE)
    text = lay_terms_expand(text=text)
    try:
        vector = provider.embed([text])[0]
        decision, provider_name, offline_reason = None, None, ""
    except EmbeddingError as exc:
        if settings.EMBEDDING_PROVIDER == OFFLINE_EMBEDDING_PROVIDER or not settings.EMBEDDING_OFFLINE_FALLBACK:
            raise
        # The embedding service failed: go on with the local model, whose vectors the knowledge base keeps.
        logger.warning("embedding service failed, answering offline: %s", exc)
        provider = embedding_provider_get(provider=OFFLINE_EMBEDDING_PROVIDER)
        vector = provider.embed([text])[0]
        provider_name, offline_reason = OFFLINE_EMBEDDING_PROVIDER, OFFLINE_REASON
        decision = f"fallback:{OFFLINE_EMBEDDING_PROVIDER}:{type(exc.__cause__ or exc).__name__}"
    return replace(state, vector=vector, story_codes=frozenset(code for code, _ in story),
                   model_name=provider.model_name, provider_name=provider_name,
                   offline_reason=offline_reason, limits=thresholds(provider_name=provider_name), decision=decision)


def terminology(state: AnswerState) -> AnswerState:
    """Answer "what is X" from the glossary; refuse a term nothing in the corpus uses; else go on.

    "What was a DRO in the old appeals system": the term is tried whole, then without the context after it.
    """
    asked = definitional_term_extract(question=state.text)
    if not asked:
        return replace(state, decision="not_definitional")
    terms = term_candidates(term=asked)
    glossary = state.glossary
    for term in terms:
        match = term_lookup_cached(term=term, glossary_version=kb.glossary_version(), loader=lambda: glossary)
        if match.status == "found":
            if term != asked and _context_names_another(asked, glossary):
                return replace(state, decision="to_retrieval")  # "what's the funding fee on an IRRRL": a fact
            return _definition(state, term, match.terms[0])
        if match.status == "ambiguous":
            names = [d for d in (kb.term_definition_get(term=t) for t in match.terms) if d]
            options = ", ".join(f"“{d.name}”" for d in names)
            reply = Reply(answer=TERM_AMBIGUOUS.format(term=term, options=options), model=GLOSSARY_MODEL,
                          routing_reason="terminology_ambiguous", verification=clean_verification(),
                          suggestions=tuple(d.name for d in names)[:3])
            return replace(state, reply=reply, decision="ambiguous")
    # Not in the glossary: a named code, form or benefit gets a grounded answer from retrieval; a term a
    # retrieved source defines ("Tinnitus, a ringing in the ears, is ...") is answered with that sentence; a
    # term the corpus only uses goes to retrieval; a term no source mentions is refused rather than defined
    # from a neighbour (a similar-sounding chunk is not a definition).
    if state.entity_values("dc_code", "va_form", "benefit"):
        return replace(state, decision="to_retrieval")
    probe = kb.chunks_search(query=state.text, query_vector=state.vector, top_k=settings.RETRIEVAL_TOP_K,
                             topic=state.topic, source=state.source, provider_name=state.provider_name)
    for term in terms:
        for hit in probe:
            if passage := definition_passage_find(term=term, text=hit.content):
                return _source_definition(replace(state, retrieved=retrieved_rows(probe)), hit, passage)
    if any(_term_used(term, hit) for term in terms for hit in probe[:TERM_PROBE_TOP_K]):
        return replace(state, decision="to_retrieval")
    suggestions = match.suggestions or tuple(kb.suggestions_get(vector=state.vector, model_name=state.model_name))
    refusal = refusal_build(reason="terminology_not_found", suggestions=suggestions, detail={"term": asked})
    return refused(state, refusal, "not_found")


def _context_names_another(asked: str, glossary) -> bool:
    """Whether what follows the term names another benefit, code, form or glossary term: "the funding fee on an
    IRRRL" asks what the fee is for that loan, not what a funding fee is ("a DRO in the old appeals system" and
    "a MET for heart ratings" name where the term is used)."""
    context = term_context(term=asked)
    if not context:
        return False
    if any(e.type in ("dc_code", "va_form", "benefit") for e in entities_extract(text=context)):
        return True
    match = term_lookup_cached(term=context, glossary_version=kb.glossary_version(), loader=lambda: glossary)
    return match.status == "found"


def _term_used(term: str, hit: kb.ChunkHit) -> bool:
    """Whether the source uses the term: as a phrase, or every word of it ("VALife insurance" in "Veterans
    Affairs Life Insurance (VALife)", "0 percent service connected" in a page on 0% ratings). A term the corpus
    lacks has a word no source holds ("a hollister waiver")."""
    phrase = re.compile(r"(?<!\w)" + r"\W+".join(map(re.escape, term.split())) + r"(?!\w)", re.IGNORECASE)
    if phrase.search(f"{hit.title} {hit.content}"):
        return True
    words = content_words(term)
    missing = words - source_words(hit.title, hit.content)  # the citation check's cached words
    if not words or not missing:
        return bool(words)
    # "What is the hearing docket wait at the board": a longer phrase may carry a word for what is asked about
    # the term ("wait", "cost") that no source says; the rest is the corpus's term. Any other word no source
    # holds ("hollister", "narrative") may be the term's own, so the term is not in the corpus.
    return len(words) >= LONG_TERM_WORDS and missing <= ASPECT_WORDS


def _source_definition(state: AnswerState, hit: kb.ChunkHit, passage: tuple[str, ...]) -> AnswerState:
    """Answer with the sentences of a retrieved source that define the term, cited."""
    confidence = answer_confidence(best_score=hit.similarity, citation_score=1.0)
    assessment = confidence_assess(best_score=hit.similarity, warning_below=state.limits["warning"],
                                   confidence=confidence)
    reply = Reply(
        answer=" ".join(map(_cited, passage)), model=EXTRACTIVE, routing_reason="terminology_source",
        verification=clean_verification(), confidence=confidence, warning=assessment.warning,
        report=bool(assessment.warning), cited=((hit.chunk_id, hit.source_id, 1),),
        citations=({"number": 1, "chunk_id": hit.entry_id, "url": hit.url, "title": hit.title,
                    "quote": " ".join(passage)},),
    )
    return replace(state, reply=reply, best_score=hit.similarity, decision=f"defined_in:{hit.entry_id}")


def _cited(sentence: str) -> str:
    """Put the marker inside the sentence, before its closing punctuation."""
    body = sentence.rstrip()
    end = len(body.rstrip(".!?"))
    return f"{body[:end]} [1]{body[end:] or '.'}"


def _definition(state: AnswerState, term: str, canonical: str) -> AnswerState:
    definition = kb.term_definition_get(term=canonical)
    if definition is None or not definition.url:
        return refused(state, refusal_build(reason="terminology_unverified", detail={"term": term}), "unverified")
    citation = {"number": 1, "chunk_id": definition.entry_id, "url": definition.url, "title": definition.title,
                "quote": definition.definition[:300]}
    reply = Reply(
        answer=TERM_DEFINITION.format(name=definition.name, definition=definition.definition.strip()),
        model=GLOSSARY_MODEL, routing_reason="terminology", verification=clean_verification(),
        citations=(citation,), cited=((definition.chunk_id, definition.source_id, 1),) if definition.chunk_id else (),
        confidence=1.0,
    )
    return replace(state, reply=reply, best_score=1.0, decision=f"found:{definition.term}")


def cache_similar(state: AnswerState) -> AnswerState:
    limits = state.limits
    hit = kb.answer_cached_similar(
        vector=state.vector, model_name=state.model_name, gate_key=state.gate_key,
        semantic_threshold=limits["semantic_cache"], graph_threshold=limits["graph_cache"],
        graph_allowed=bool(state.entities), question=state.text,
    )
    if hit:
        return cached(state, hit, decision=f"{hit.level}:{hit.similarity:.3f}")
    return replace(state, decision="miss")


def retrieve(state: AnswerState) -> AnswerState:
    entity_ids = kb.entity_ids_get(pairs=[(kind, value) for kind, value in state.entities
                                          if not (kind == "dc_code" and value in state.story_codes)])
    # Words full-text search needs that the question may not use: the schedule's, and a benefit's other names.
    lexical_query = benefit_names_expand(text=lay_terms_expand(text=state.text),
                                         benefits=state.entity_values("benefit"))
    hits = kb.chunks_search(
        query=lexical_query, query_vector=state.vector, top_k=settings.RETRIEVAL_TOP_K,
        entity_ids=[pk for (kind, _), pk in entity_ids.items() if kind in RETRIEVAL_ENTITY_TYPES],
        codes_written=dc_codes_find(state.text), provider_name=state.provider_name, topic=state.topic,
        source=state.source,
    )
    rare_words = tuple(kb.rare_words_find(text=state.text))
    hits = _with_rare_word_source(state, hits, rare_words)
    hits = _with_level_asked(state, hits)
    benefits = kb.chunk_benefits_get(chunk_ids=[h.chunk_id for h in hits]) if state.entity_values("benefit") else {}
    chunks = tuple(
        SourceChunk(number=h.rank, chunk_id=h.chunk_id, entry_id=h.entry_id, title=h.title, url=h.url,
                    content=h.content, score=h.similarity, topic=h.topic, diagnostic_code=h.diagnostic_code,
                    lexical_rank=h.ranks.get("lexical", 0), entity_rank=h.ranks.get("entity", 0),
                    benefits=benefits.get(h.chunk_id, frozenset()), checked_on=h.checked_on)
        for h in hits
    )
    return replace(
        state, entity_ids=entity_ids, chunks=chunks, rare_words=rare_words,
        chunk_types={h.chunk_id: h.type for h in hits}, chunk_sources={h.chunk_id: h.source_id for h in hits},
        retrieved=retrieved_rows(hits),
        decision=f"{len(chunks)} chunks",
    )


def _with_rare_word_source(
    state: AnswerState, hits: list[kb.ChunkHit], rare_words: Sequence[str],
) -> list[kb.ChunkHit]:
    """Put the best source holding a rare word of the question in the last place when none retrieved holds it.

    "What's the DIC transitional benefit": "transitional" is in one chunk of the corpus, the DIC rates; the
    search's many other DIC pages, richer in "DIC" and its expanded names, pushed it out, and the answer
    defined DIC instead (knowledge.selectors.rare_words_find says which words are rare).
    """
    if not hits:
        return hits
    held = " ".join(f"{h.title} {h.content}".lower() for h in hits)
    missing = [word for word in rare_words if not re.search(rf"\b{re.escape(word)}\b", held)]
    if not missing:
        return hits
    found = kb.chunks_search(query=" ".join(missing), query_vector=state.vector, top_k=1, dense_weight=0.0,
                             provider_name=state.provider_name, topic=state.topic, source=state.source)
    found = [h for h in found if h.ranks.get("lexical") and h.chunk_id not in {hit.chunk_id for hit in hits}]
    if not found:
        return hits
    return [*hits[:-1], replace(found[0], rank=hits[-1].rank)]


# A rating formula split into one chunk per level ("Mental disorders 70 percent level (General Rating Formula,
# 38 CFR 4.130)").
_LEVEL_CHUNK_TITLE_RE = re.compile(r"^(?P<family>.+?) (?P<levels>\d{1,3}(?: and \d{1,3})*) percent levels? (?P<tail>\(.+\))$")


def _with_level_asked(state: AnswerState, hits: list[kb.ChunkHit]) -> list[kb.ChunkHit]:
    """Put the chunk of each level the question writes in the last places when its formula is split by level,
    one of its chunks was retrieved and that level's was not.

    "Rated 30% for PTSD since 2021 [a long story] ... what does VA look for to give 70 percent": the story
    retrieved the 10 and 30 percent chunks of the mental disorders formula, and the answer led with the lowest
    levels; the 70 percent chunk holds what was asked.
    """
    written = {level for level in levels_asked(state.text) if level > 0}  # the generator's reading of the levels
    families: dict[tuple[str, str, str], set[int]] = {}
    for hit in hits:
        if match := _LEVEL_CHUNK_TITLE_RE.match(hit.title):
            levels = families.setdefault((match["family"], match["tail"], hit.url), set())
            levels.update(int(level) for level in re.findall(r"\d+", match["levels"]))
    wanted = {f"{family} {level} percent level {tail}": url for (family, tail, url), levels in families.items()
              for level in sorted(written - levels)}
    if not wanted:
        return hits
    held = {h.chunk_id for h in hits}
    found: list[kb.ChunkHit] = []
    for url in set(wanted.values()):
        candidates = kb.chunks_search(query=" ".join(t for t, u in wanted.items() if u == url), query_vector=state.vector,
                                      top_k=settings.RETRIEVAL_CANDIDATES, dense_weight=0.0,
                                      provider_name=state.provider_name, source=url)
        found += [h for h in candidates if h.title in wanted and h.chunk_id not in held]
    if not found:
        return hits
    family_ids = {h.chunk_id for h in hits if _LEVEL_CHUNK_TITLE_RE.match(h.title)}
    others = [h for h in hits if h.chunk_id not in family_ids]
    drop = {h.chunk_id for h in others[len(others) - len(found):]} if len(found) <= len(others) else {h.chunk_id for h in others}
    chosen = [*(h for h in hits if h.chunk_id not in drop), *found][:len(hits)]
    return [replace(h, rank=rank) for rank, h in enumerate(chosen, start=1)]


def retrieved_rows(hits: list[kb.ChunkHit]) -> tuple[dict, ...]:
    """What was retrieved, as the stored answer and the low-confidence report keep it."""
    return tuple({"entry_id": h.entry_id, "score": round(h.similarity, 4), "title": h.title} for h in hits)


def relevance(state: AnswerState) -> AnswerState:
    limits = state.limits
    result = relevance_filter(chunks=list(state.chunks), theta_min=limits["theta_min"],
                              top_k=settings.RETRIEVAL_TOP_K, weak_threshold=limits["weak"])
    state = replace(state, chunks=tuple(result.kept), best_score=result.best_score, weak=result.weak_retrieval,
                    decision=f"best={result.best_score:.3f} kept={len(result.kept)}")
    if not (result.refuse or result.weak_retrieval):
        return state
    # Words no source holds: "best way to get rid of aphids on my tomato plants" (nothing close) is told the sources
    # don't cover it; "kitchen sink is draining slow, tried drano, bought this house with my va loan" (no closer than
    # the weak threshold) is refused for it.
    uncovered = unmatched_words_count(question=state.text, known=corpus_word_known) >= UNMATCHED_WORDS_REFUSED
    if result.refuse:
        return refused(state, weak_refusal(state, subject_not_covered=uncovered), state.decision)
    if uncovered:
        return refused(state, weak_refusal(state, subject_not_covered=True), f"{state.decision} unmatched words")
    return state


# Words no source holds, in a weakly retrieved question naming no benefit, that make it one the sources do not answer.
UNMATCHED_WORDS_REFUSED = 2


def weak_refusal(state: AnswerState, *, subject_not_covered: bool = False) -> Refusal:
    """Refuse for weak retrieval, suggesting what the knowledge base does cover near the question; the message says
    the sources do not cover the question's subject when its words are in none (``subject_not_covered``)."""
    suggestions = kb.suggestions_get(vector=state.vector, model_name=state.model_name) \
        if state.vector is not None else []
    return refusal_build(reason="retrieval_too_weak", suggestions=suggestions,
                         detail={"subject": "not_covered"} if subject_not_covered else None)
