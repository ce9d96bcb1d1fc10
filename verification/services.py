"""The answer pipeline: one service composes the steps and layers and records a trace.

question ─► scrub PII ─► normalise ─► L1 exact cache ─► topics + entities ─► scope and entity checks
─► terminology first ─► embed ─► L2 semantic / L3 graph cache ─► hybrid retrieval ─► L1 relevance
─► L1b refusal ─► route ─► generate ─► L6 cleanup ─► L3 URLs ─► L4 citations ─► L5 numbers ─► L7 confidence
─► store ─► respond
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction

from knowledge import selectors as kb
from knowledge.embeddings import embedding_provider_get
from knowledge.embeddings.base import EmbeddingError
from knowledge.extraction import benefit_names_expand, entities_extract, lay_terms_expand, topics_classify
from knowledge.gate import gate_key_build
from knowledge.models import AnsweredQuestion
from knowledge.services import answer_hit_record, answered_question_create
from verification.generators import Generation
from verification.generators.extractive import extractive_generate
from verification.layers.citations import citations_verify
from verification.layers.cleanup import CITATION_MARKER_RE, citations_cleanup
from verification.layers.confidence import answer_confidence, confidence_assess
from verification.layers.numbers import numbers_verify
from verification.layers.prompt import grounding_prompt_build
from verification.layers.refusal import refusal_build
from verification.layers.relevance import relevance_filter
from verification.layers.types import Refusal, SourceChunk, verification_dict_build
from verification.layers.url_whitelist import urls_enforce
from verification.llm_client import LLMError, chat_complete
from verification.preprocess import (
    PII_NOTICE,
    pii_scrub,
    question_hash,
    question_normalise,
)
from verification.review import cached_answer_content
from verification.routing import model_route
from verification.scope import CATEGORY_MESSAGES, scope_check
from verification.terminology import definitional_term_extract, term_lookup_cached

logger = logging.getLogger("verification.answers")

ERR_EMPTY = "The question is empty. Type a question about VA benefits."
ERR_TOO_LONG = "The question is too long: at most {limit} characters, please."
ERR_CONTROL = "The question contains control characters. Remove them and try again."
ERR_NOT_TEXT = "The question must be text."
TERM_AMBIGUOUS = "Several terms match “{term}”: {options}. Which one do you mean?"
TERM_DEFINITION = "{name}: {definition} [1]"
FALLBACK_MODEL = "extractive"
OFFLINE_EMBEDDING_PROVIDER = "local"
OFFLINE_REASON = "offline: the embedding service is unavailable"
OFFLINE_ROUTING_REASON = "embedding_service_unavailable"
_CONTROL_ALLOWED = {"\n", "\t", "\r"}
# Codes and forms name exactly what was asked; a benefit or a glossary term is too broad to pull chunks in.
RETRIEVAL_ENTITY_TYPES = ("dc_code", "va_form")


class QuestionInvalid(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Trace:
    stages: list[dict[str, Any]] = field(default_factory=list)
    _started: float = field(default_factory=time.perf_counter)
    _last: float = field(default_factory=time.perf_counter)

    def mark(self, stage: str, decision: str | None = None) -> None:
        now = time.perf_counter()
        entry: dict[str, Any] = {"stage": stage, "ms": round((now - self._last) * 1000, 2)}
        if decision:
            entry["decision"] = decision
        self.stages.append(entry)
        self._last = now

    @property
    def total_ms(self) -> float:
        return round((time.perf_counter() - self._started) * 1000, 2)


@dataclass
class AnswerResult:
    id: int | None
    question: str
    answer: str
    citations: list[dict[str, Any]]
    confidence: float
    weak_retrieval: bool
    refused: bool
    refusal_reason: str | None
    warning: str | None
    suggestions: list[str]
    cache: str
    model: str
    routing_reason: str
    topics: list[str]
    entities: list[dict[str, str]]
    verification: dict[str, Any]
    verified: bool
    flagged: bool
    request_id: str
    trace: list[dict[str, Any]]
    latency_ms: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def question_validate(*, question: object) -> str:
    """Return the trimmed question or raise QuestionInvalid with a message for the user."""
    if not isinstance(question, str):
        raise QuestionInvalid("invalid_type", ERR_NOT_TEXT)
    if any(unicodedata.category(ch) == "Cc" and ch not in _CONTROL_ALLOWED for ch in question):
        raise QuestionInvalid("control_characters", ERR_CONTROL)
    question = question.strip()
    if not question:
        raise QuestionInvalid("empty_question", ERR_EMPTY)
    if len(question) > settings.QUESTION_MAX_CHARS:
        raise QuestionInvalid("question_too_long", ERR_TOO_LONG.format(limit=settings.QUESTION_MAX_CHARS))
    return question


def thresholds(*, provider_name: str | None = None) -> dict[str, float]:
    """The calibrated thresholds of the embedding provider (the configured one unless named)."""
    name = provider_name or settings.EMBEDDING_PROVIDER
    return settings.ANSWER_THRESHOLDS["openai" if name == "openai" else "local"]


def answer_question(*, question: object, use_cache: bool = True, request_id: str | None = None) -> AnswerResult:
    """Answer a question from the knowledge base with citations, or refuse; store and return the answer."""
    trace = Trace()
    request_id = request_id or f"req-{uuid.uuid4().hex[:16]}"
    text = question_validate(question=question)
    scrubbed = pii_scrub(text=text)
    text = scrubbed.text
    trace.mark("scrub_pii", ",".join(scrubbed.removed) or None)
    digest = question_hash(text=text)
    normalised = question_normalise(text=text)
    trace.mark("normalise")
    notice = PII_NOTICE if scrubbed.removed else None

    if use_cache and (hit := kb.answer_cached_exact(question_hash=digest)):
        trace.mark("cache_exact", "hit")
        return _from_cache(hit, trace, request_id, notice)
    trace.mark("cache_exact", "miss")

    glossary = kb.glossary_get()
    found = entities_extract(text=text, terms={alias.lower(): term for term, aliases in glossary.items()
                                               for alias in (term, *aliases)},
                             conditions=kb.condition_names_get())
    topic_scores = topics_classify(text=text, topics=kb.topic_keywords_get())
    topics = [slug for slug, _ in topic_scores[:3]]
    entities = [{"type": e.type, "value": e.value} for e in found]
    trace.mark("classify", ",".join(topics) or None)
    ctx = _Context(text=text, digest=digest, topics=topics, topic_scores=topic_scores[:3], entities=entities,
                   trace=trace, request_id=request_id, notice=notice, store=use_cache)

    scope = scope_check(question=text)
    if not scope.in_scope:
        trace.mark("scope", f"out_of_scope:{scope.category}")
        if scope.category in CATEGORY_MESSAGES:  # crisis, medical advice, chit-chat: their own words
            return _refuse(ctx, Refusal(reason="out_of_scope", message=CATEGORY_MESSAGES[scope.category]))
        detail = {"handler": scope.handler} if scope.handler else None
        return _refuse(ctx, refusal_build(reason="out_of_scope", detail=detail))
    trace.mark("scope", "in_scope")

    unknown = kb.entities_unknown(dc_codes=[e["value"] for e in entities if e["type"] == "dc_code"],
                                  va_forms=[e["value"] for e in entities if e["type"] == "va_form"])
    if unknown:
        kind, value = unknown[0]
        trace.mark("entities", f"not_found:{kind}:{value}")
        return _refuse(ctx, refusal_build(reason="entity_not_found", detail={"kind": kind, "value": value}))
    trace.mark("entities", "known" if entities else "none")

    provider = embedding_provider_get()
    try:
        vector = provider.embed([text])[0]
        trace.mark("embed")
    except EmbeddingError as exc:
        if settings.EMBEDDING_PROVIDER == OFFLINE_EMBEDDING_PROVIDER or not settings.EMBEDDING_OFFLINE_FALLBACK:
            raise
        # The embedding service failed: go on with the local model, whose vectors the knowledge base keeps.
        logger.warning("embedding service failed, answering offline: %s", exc)
        provider = embedding_provider_get(provider=OFFLINE_EMBEDDING_PROVIDER)
        vector = provider.embed([text])[0]
        ctx.offline_reason = OFFLINE_REASON
        trace.mark("embed", f"fallback:{OFFLINE_EMBEDDING_PROVIDER}:{type(exc.__cause__ or exc).__name__}")
    ctx.vector, ctx.model_name = vector, provider.model_name
    ctx.provider_name = OFFLINE_EMBEDDING_PROVIDER if ctx.offline_reason else None
    limits = thresholds(provider_name=ctx.provider_name)

    term = definitional_term_extract(question=text)
    if term:
        result = _terminology(ctx, term, glossary, limits)
        if result is not None:
            return result
    trace.mark("terminology", "not_definitional" if not term else "to_retrieval")

    ctx.gate_key = gate_key_build(text=normalised, entities=entities, topics=topics)
    if use_cache:
        hit = kb.answer_cached_similar(
            vector=vector, model_name=provider.model_name, gate_key=ctx.gate_key,
            semantic_threshold=limits["semantic_cache"], graph_threshold=limits["graph_cache"],
            graph_allowed=bool(entities), question=text,
        )
        if hit:
            trace.mark("cache_similar", f"{hit.level}:{hit.similarity:.3f}")
            return _from_cache(hit, trace, request_id, notice)
        trace.mark("cache_similar", "miss")

    ctx.entity_ids = kb.entity_ids_get(pairs=[(e["type"], e["value"]) for e in entities])
    # Words full-text search needs that the question may not use: the schedule's, and a benefit's other names.
    lexical_query = benefit_names_expand(text=lay_terms_expand(text=text),
                                         benefits=[e["value"] for e in entities if e["type"] == "benefit"])
    hits = kb.chunks_search(
        query=lexical_query, query_vector=vector, top_k=settings.RETRIEVAL_TOP_K,
        entity_ids=[pk for (kind, _), pk in ctx.entity_ids.items() if kind in RETRIEVAL_ENTITY_TYPES],
        provider_name=ctx.provider_name,
    )
    chunks = [
        SourceChunk(number=h.rank, chunk_id=h.chunk_id, entry_id=h.entry_id, title=h.title, url=h.url,
                    content=h.content, score=h.similarity, topic=h.topic, diagnostic_code=h.diagnostic_code)
        for h in hits
    ]
    ctx.types = {h.chunk_id: h.type for h in hits}
    ctx.sources = {h.chunk_id: h.source_id for h in hits}
    ctx.retrieved = [{"entry_id": h.entry_id, "score": round(h.similarity, 4), "title": h.title} for h in hits]
    trace.mark("retrieve", f"{len(chunks)} chunks")
    relevance = relevance_filter(chunks=chunks, theta_min=limits["theta_min"], top_k=settings.RETRIEVAL_TOP_K,
                                 weak_threshold=limits["weak"])
    ctx.best_score = relevance.best_score
    ctx.weak = relevance.weak_retrieval
    trace.mark("relevance", f"best={relevance.best_score:.3f} kept={len(relevance.kept)}")
    if relevance.refuse:
        return _refuse(ctx, _weak_refusal(ctx))
    return _generate_and_verify(ctx, list(relevance.kept), limits)


@dataclass
class _Context:
    text: str
    digest: str
    topics: list[str]
    topic_scores: list[tuple[str, float]]
    entities: list[dict[str, str]]
    trace: Trace
    request_id: str
    notice: str | None
    vector: np.ndarray | None = None
    model_name: str = ""
    gate_key: str = ""
    best_score: float = 0.0
    weak: bool = False
    types: dict[int, str] = field(default_factory=dict)
    retrieved: list[dict] = field(default_factory=list)
    sources: dict[int, int] = field(default_factory=dict)
    entity_ids: dict[tuple[str, str], int] | None = None
    provider_name: str | None = None  # the embedding provider answering, when not the configured one
    offline_reason: str = ""  # set when an outside service failed and the offline path answers
    store: bool = True  # off for --no-cache and evaluation runs: kept off the record, out of cache and review queue


def _weak_refusal(ctx: _Context):
    suggestions = kb.suggestions_get(vector=ctx.vector, model_name=ctx.model_name) if ctx.vector is not None else []
    return refusal_build(reason="retrieval_too_weak", suggestions=suggestions)


def _terminology(ctx: _Context, term: str, glossary: dict, limits: dict[str, float]) -> AnswerResult | None:
    match = term_lookup_cached(term=term, glossary_version=kb.glossary_version(), loader=lambda: glossary)
    if match.status == "found":
        definition = kb.term_definition_get(term=match.terms[0])
        if definition is None or not definition.url:
            ctx.trace.mark("terminology", "unverified")
            return _refuse(ctx, refusal_build(reason="terminology_unverified", detail={"term": term}))
        ctx.trace.mark("terminology", f"found:{definition.term}")
        ctx.best_score = 1.0
        answer = TERM_DEFINITION.format(name=definition.name, definition=definition.definition.strip())
        citation = {"number": 1, "chunk_id": definition.entry_id, "url": definition.url, "title": definition.title,
                    "quote": definition.definition[:300]}
        cited = [(definition.chunk_id, definition.source_id, 1)] if definition.chunk_id else []
        return _store_and_respond(ctx, answer=answer, citations=[citation], cited=cited, confidence=1.0,
                                  model="glossary", routing_reason="terminology", verification=_clean_verification())
    if match.status == "ambiguous":
        ctx.trace.mark("terminology", "ambiguous")
        names = [kb.term_definition_get(term=t) for t in match.terms]
        options = ", ".join(f"“{d.name}”" for d in names if d)
        return _store_and_respond(
            ctx, answer=TERM_AMBIGUOUS.format(term=term, options=options), citations=[], cited=[], confidence=0.0,
            model="glossary", routing_reason="terminology_ambiguous", verification=_clean_verification(),
            suggestions=[d.name for d in names if d][:3],
        )
    # Not in the glossary: a named code, form or benefit, or a term the corpus itself uses ("what is
    # tinnitus?"), still gets a grounded answer from retrieval; a term no source mentions is refused rather
    # than defined from a neighbour (a similar-sounding chunk is not a definition).
    if any(e["type"] in ("dc_code", "va_form", "benefit") for e in ctx.entities):
        return None
    phrase = re.compile(r"(?<!\w)" + r"\W+".join(map(re.escape, term.split())) + r"(?!\w)", re.IGNORECASE)
    probe = kb.chunks_search(query=ctx.text, query_vector=ctx.vector, top_k=3)
    if any(phrase.search(f"{hit.title} {hit.content}") for hit in probe):
        return None
    ctx.trace.mark("terminology", "not_found")
    return _refuse(ctx, refusal_build(reason="terminology_not_found", suggestions=match.suggestions,
                                      detail={"term": term}))


def _clean_verification() -> dict[str, Any]:
    return {"citation_score": 1.0, "invalid_urls": [], "hallucinated_numbers": [], "hallucinated_codes": [],
            "removed_citations": [], "is_clean": True}


def _generate_and_verify(ctx: _Context, chunks: list[SourceChunk], limits: dict[str, float]) -> AnswerResult:
    mean = float(np.mean([c.score for c in chunks])) if chunks else 0.0
    route = model_route(question=ctx.text, chunk_count=len(chunks), mean_score=mean,
                        cheap_model=settings.LLM_MODEL, premium_model=settings.LLM_PREMIUM_MODEL,
                        min_simple_mean_score=limits["route_mean"])
    ctx.trace.mark("route", f"{route.model}:{route.reason}")

    generation: Generation | None = None
    if settings.LLM_PROVIDER == "openai" and not ctx.offline_reason:
        prompt = grounding_prompt_build(question=ctx.text, chunks=chunks)
        try:
            reply = chat_complete(system=prompt.system, user=prompt.user, model=route.model)
            generation = Generation(text=reply.text, model=reply.model, prompt_tokens=reply.prompt_tokens,
                                    completion_tokens=reply.completion_tokens)
            ctx.trace.mark("generate", f"llm:{reply.model}")
        except LLMError as exc:
            logger.warning("LLM failed, answering extractively: %s", exc)
            ctx.trace.mark("generate", f"llm_failed:{type(exc.__cause__ or exc).__name__}")
    if generation is not None:
        checked = _verify(ctx, generation, chunks, limits, routing_reason=route.reason)
        if checked is not None:
            return checked
        ctx.trace.mark("fallback", "llm_answer_unsupported")
    extractive = _extractive(ctx, chunks)
    if ctx.offline_reason:
        extractive = Generation(text=extractive.text, model=f"{FALLBACK_MODEL} ({ctx.offline_reason})",
                                quotes=extractive.quotes, fallback_reason=ctx.offline_reason)
    elif settings.LLM_PROVIDER == "openai":
        extractive = Generation(text=extractive.text, model=f"{FALLBACK_MODEL} (fallback from {route.model})",
                                quotes=extractive.quotes, fallback_reason="llm_failed_or_unsupported")
    ctx.trace.mark("generate", "extractive")
    checked = _verify(ctx, extractive, chunks, limits,
                      routing_reason=OFFLINE_ROUTING_REASON if ctx.offline_reason else route.reason)
    if checked is not None:
        return checked
    return _refuse(ctx, _weak_refusal(ctx))


def _extractive(ctx: _Context, chunks: list[SourceChunk]) -> Generation:
    units = kb.chunk_units_get(chunks=[(c.chunk_id, c.content) for c in chunks], model_name=ctx.model_name)
    missing = [c for c in chunks if not units.get(c.chunk_id)]
    if missing:  # chunks whose sentences were not embedded yet: embed them now rather than fail
        from knowledge.services import chunk_units_build

        units.update(chunk_units_build(chunks=[(c.chunk_id, c.content) for c in missing],
                                       provider_name=ctx.provider_name))
    return extractive_generate(
        question=lay_terms_expand(text=ctx.text), question_vector=ctx.vector, chunks=chunks, units=units,
        chunk_types=ctx.types, codes=[e["value"] for e in ctx.entities if e["type"] in RETRIEVAL_ENTITY_TYPES],
    )


def _verify(ctx: _Context, generation: Generation, chunks: list[SourceChunk], limits: dict[str, float],
            routing_reason: str) -> AnswerResult | None:
    """Run L6 → L3 → L4 → L5 → L7 on a generated answer; None when nothing supported is left."""
    if not generation.text.strip():
        return None
    cleanup = citations_cleanup(answer=generation.text, source_count=len(chunks))
    ctx.trace.mark("cleanup", f"removed={len(cleanup.removed_citations)}")
    urls = urls_enforce(answer=cleanup.text, whitelisted_domains=_whitelist(), chunks=chunks)
    ctx.trace.mark("urls", f"invalid={len(urls.invalid_urls)}")
    citations = citations_verify(answer=urls.text, chunks=chunks, flag_below=limits["citation_flag"])
    ctx.trace.mark("citations", f"score={citations.score:.2f}")
    numbers = numbers_verify(answer=citations.text, chunks=chunks)
    ctx.trace.mark("numbers", f"removed={len(numbers.hallucinated_numbers) + len(numbers.hallucinated_codes)}")
    if citations.refuse or numbers.refuse or not numbers.text.strip():
        return None
    text, used = _renumber(numbers.text)
    if not used:
        return None
    by_number = {c.number: c for c in chunks}
    citation_list = [
        {"number": new, "chunk_id": by_number[old].entry_id, "url": by_number[old].url,
         "title": by_number[old].title, "quote": generation.quotes.get(old) or by_number[old].content[:300]}
        for old, new in used
    ]
    verification = verification_dict_build(urls=urls, citations=citations, numbers=numbers, cleanup=cleanup)
    confidence = answer_confidence(best_score=ctx.best_score, citation_score=citations.score)
    assessment = confidence_assess(best_score=ctx.best_score, warning_below=limits["warning"])
    ctx.trace.mark("confidence", "warning" if assessment.warning else "ok")
    answer = f"{assessment.warning}\n\n{text}" if assessment.warning else text
    needs_report = bool(assessment.warning) or citations.flagged
    return _store_and_respond(
        ctx, answer=answer, citations=citation_list,
        cited=[(by_number[o].chunk_id, ctx.sources[by_number[o].chunk_id], n) for o, n in used],
        confidence=confidence, model=generation.model, routing_reason=routing_reason,
        verification=verification, warning=assessment.warning, report=needs_report, chunks=chunks,
    )


def _whitelist() -> list[str]:
    from knowledge.services import WHITELISTED_DOMAINS

    return sorted({*WHITELISTED_DOMAINS, *settings.URL_WHITELIST_EXTRA, *kb.whitelisted_domains()})


def _renumber(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Number the cited sources 1..m in the order the answer first cites them."""
    order = list(dict.fromkeys(int(n) for n in CITATION_MARKER_RE.findall(text)))  # first use, not ascending
    mapping = {old: new for new, old in enumerate(order, start=1)}
    renumbered = CITATION_MARKER_RE.sub(lambda m: f"[{mapping.get(int(m.group(1)), int(m.group(1)))}]", text)
    return renumbered, [(old, mapping[old]) for old in order]


def _refuse(ctx: _Context, refusal) -> AnswerResult:
    return _store_and_respond(
        ctx, answer=refusal.message, citations=[], cited=[], confidence=0.0, model="none",
        routing_reason="refused", verification=_clean_verification(), refused=True, refusal_reason=refusal.reason,
        suggestions=list(refusal.suggestions),
    )


def _store_and_respond(
    ctx: _Context, *, answer: str, citations: list[dict], cited: list[tuple[int, int]], confidence: float,
    model: str, routing_reason: str, verification: dict, refused: bool = False, refusal_reason: str = "",
    suggestions: Sequence[str] = (), warning: str | None = None, report: bool = False,
    chunks: Sequence[SourceChunk] = (),
) -> AnswerResult:
    if ctx.entity_ids is None:  # answered before retrieval (glossary, refusals): look them up now
        ctx.entity_ids = kb.entity_ids_get(pairs=[(e["type"], e["value"]) for e in ctx.entities])
    entity_ids = list(ctx.entity_ids.values())
    row, created = answered_question_create(
        question=ctx.text, question_hash=ctx.digest, gate_key=ctx.gate_key, answer=answer, citations=citations,
        question_vector=ctx.vector, embedding_model=ctx.model_name if ctx.vector is not None else "",
        confidence=confidence, retrieval_score=ctx.best_score, retrieved=ctx.retrieved, weak_retrieval=ctx.weak,
        refused=refused, refusal_reason=refusal_reason,
        warning=warning or "", suggestions=list(suggestions), model=model, routing_reason=routing_reason,
        verification=verification, trace=ctx.trace.stages, topic_scores=ctx.topic_scores, entity_ids=entity_ids,
        cited=cited, needs_review=not refused and (report or not verification.get("is_clean", True)),
        off_record=not ctx.store,
    )
    ctx.trace.mark("store")  # the stored trace ends before its own write; the response's includes it
    if not created:  # the same question was stored at the same moment: serve the answer stored first
        return _from_cache(kb.CacheHit(row.id, "exact", 1.0, 1.0), ctx.trace, ctx.request_id, ctx.notice)
    if report and ctx.store:
        from verification.tasks import low_confidence_report_task

        transaction.on_commit(lambda: low_confidence_report_task.delay(row.id))
    result = AnswerResult(
        id=row.id, question=ctx.text, answer=_with_notice(answer, ctx.notice), citations=citations,
        confidence=round(row.confidence, 3), weak_retrieval=ctx.weak, refused=refused,
        refusal_reason=refusal_reason or None, warning=warning, suggestions=list(suggestions), cache="miss",
        model=model, routing_reason=routing_reason, topics=ctx.topics, entities=ctx.entities,
        verification=verification, verified=False, flagged=False, request_id=ctx.request_id,
        trace=ctx.trace.stages, latency_ms=ctx.trace.total_ms,
    )
    _log(result)
    return result


def _with_notice(answer: str, notice: str | None) -> str:
    return f"{notice}\n\n{answer}" if notice else answer


def _from_cache(hit, trace: Trace, request_id: str, notice: str | None) -> AnswerResult:
    row = AnsweredQuestion.objects.defer("question_embedding", "answer_embedding").get(id=hit.answered_question_id)
    answer_hit_record(answered_question_id=row.id)
    topics = list(row.topics.order_by("-questiontopic__score").values_list("slug", flat=True))
    entities = [{"type": t, "value": v} for t, v in row.entities.values_list("type", "value")]
    served = cached_answer_content(row=row, under_review=hit.under_review)  # a flagged answer is never shown
    result = AnswerResult(
        id=row.id, question=row.question, answer=_with_notice(served.answer, notice), citations=served.citations,
        confidence=round(row.confidence, 3), weak_retrieval=row.weak_retrieval, refused=served.refused,
        refusal_reason=served.refusal_reason, warning=served.warning, suggestions=served.suggestions,
        cache=hit.level, model=row.model, routing_reason=row.routing_reason, topics=topics, entities=entities,
        verification=row.verification, verified=row.verified, flagged=row.flagged, request_id=request_id,
        trace=trace.stages, latency_ms=trace.total_ms,
    )
    _log(result)
    return result


def _log(result: AnswerResult) -> None:
    logger.info(
        "answer",
        extra={"request_id": result.request_id, "answered_question_id": result.id, "cache": result.cache,
               "refused": result.refused, "refusal_reason": result.refusal_reason, "model": result.model,
               "confidence": result.confidence, "latency_ms": result.latency_ms},
    )
