"""The pipeline's ends: refusing, serving a cached answer, and storing the reply as the answer given."""

from __future__ import annotations

import logging
import threading
from datetime import date
from typing import Any

import cachetools
from django.db import transaction

from knowledge import selectors as kb
from knowledge.models import AnsweredQuestion
from knowledge.services import AnswerServe, answer_hit_record, answered_question_create
from verification.layers.types import Refusal
from verification.pipeline.state import AnswerResult, AnswerState, Reply, replace
from verification.review import cached_answer_content
from veterans_ai.tasks_queue import task_enqueue

logger = logging.getLogger("verification.answers")

REFUSED_MODEL = "none"
REFUSED_ROUTING_REASON = "refused"


def clean_verification() -> dict[str, Any]:
    """The verification object of an answer no layer had to check (a refusal, a glossary definition)."""
    return {"citation_score": 1.0, "invalid_urls": [], "hallucinated_numbers": [], "hallucinated_codes": [],
            "removed_citations": [], "is_clean": True}


def refused(state: AnswerState, refusal: Refusal, decision: str | None = None) -> AnswerState:
    """Return the state with ``refusal`` as its reply."""
    reply = Reply(answer=refusal.message, model=REFUSED_MODEL, routing_reason=REFUSED_ROUTING_REASON,
                  verification=clean_verification(), refused=True, refusal_reason=refusal.reason,
                  suggestions=tuple(refusal.suggestions))
    return replace(state, reply=reply, decision=decision)


def with_notice(answer: str, notice: str | None) -> str:
    return f"{notice}\n\n{answer}" if notice else answer


# Stored answers as the cache serves them, finished once and kept in this process, keyed by the answer and its
# served version (knowledge.selectors.answer_served_version_sql, read in the statement that counts the serve):
# an edit or a review decision is a new key on the very next serve, in every process; a renamed topic or entity
# or a re-dated source shows within REFERENCE_TTL_SECONDS. A served answer is a few kilobytes; this many stay.
SERVED_KEPT = 2048
_served: cachetools.TTLCache = cachetools.TTLCache(maxsize=SERVED_KEPT, ttl=kb.REFERENCE_TTL_SECONDS)
_served_lock = threading.Lock()


def served_cache_clear() -> None:
    with _served_lock:
        _served.clear()


def cached(state: AnswerState, hit: kb.CacheHit, decision: str, serve: AnswerServe | None = None) -> AnswerState:
    """Return the state finished with the stored answer ``hit`` names, for the question as asked here: the
    stored question is never shown, it is another person's words. ``serve`` is the serve already counted
    (the exact level counts it as it finds the answer); otherwise it is counted here."""
    serve = serve or answer_hit_record(answered_question_id=hit.answered_question_id)
    if serve is None:
        raise AnsweredQuestion.DoesNotExist(hit.answered_question_id)
    stored = _served_result(serve, under_review=hit.under_review)
    result = replace(
        stored, question=state.asked, answer=with_notice(stored.answer, state.notice), cache=hit.level,
        request_id=state.request_id, rewritten_question=state.rewritten,
        # Each caller gets containers of its own: the kept result is shared.
        citations=[dict(c) for c in stored.citations], suggestions=list(stored.suggestions),
        topics=list(stored.topics), entities=[dict(e) for e in stored.entities],
        verification=dict(stored.verification), trace=[],
    )
    return replace(state, result=result, decision=decision)


def _served_result(serve: AnswerServe, *, under_review: bool) -> AnswerResult:
    """The stored answer as the cache serves it, the parts of this request left blank."""
    with _served_lock:
        found = _served.get((serve.answered_question_id, serve.version, under_review))
    if found is not None:
        return found
    row = kb.answer_served_get(answered_question_id=serve.answered_question_id)
    entities = [{"type": kind, "value": value} for kind, value in row.entity_pairs]
    served = cached_answer_content(row=row, under_review=under_review)  # a flagged answer is never shown
    result = AnswerResult(
        id=row.id, question="", answer=served.answer, citations=served.citations,
        confidence=round(row.confidence, 3), weak_retrieval=row.weak_retrieval, refused=served.refused,
        refusal_reason=served.refusal_reason, warning=served.warning, suggestions=served.suggestions,
        cache="", model=row.model, routing_reason=row.routing_reason, topics=list(row.topic_slugs),
        entities=entities, verification=row.verification, verified=row.verified, flagged=row.flagged,
        request_id="", trace=[], latency_ms=0.0,
        sources_checked_on=row.cited_checked_on if served.citations else None,
    )
    with _served_lock:  # under the version read with the row: what is kept always matches its key
        _served[(row.id, row.served_version, under_review)] = result
    return result


def store(state: AnswerState) -> AnswerState:
    """Store the reply with its graph edges and trace, then finish with it (final step)."""
    reply = state.reply
    entity_ids = state.entity_ids
    if entity_ids is None:  # answered before retrieval (glossary, refusals): look them up now
        entity_ids = kb.entity_ids_get(pairs=list(state.entities))
    row, created = answered_question_create(
        question=state.text, question_hash=state.digest, gate_key=state.gate_key, answer=reply.answer,
        citations=[dict(c) for c in reply.citations], question_vector=state.vector,
        embedding_model=state.model_name if state.vector is not None else "", confidence=reply.confidence,
        retrieval_score=state.best_score, retrieved=[dict(r) for r in state.retrieved], weak_retrieval=state.weak,
        refused=reply.refused, refusal_reason=reply.refusal_reason, warning=reply.warning or "",
        suggestions=list(reply.suggestions), model=reply.model, routing_reason=reply.routing_reason,
        verification=dict(reply.verification), trace=[dict(entry) for entry in state.trace],
        topic_scores=state.topic_scores, entity_ids=list(entity_ids.values()), cited=reply.cited,
        needs_review=not reply.refused and (reply.report or not reply.verification.get("is_clean", True)),
        off_record=not state.use_cache,  # --no-cache and evaluation runs fill neither the cache nor the queue
        # An answer a fallback made while a service was down is not served again once the service is back.
        cacheable=not (reply.degraded or reply.dated or state.offline_reason),
    )
    if not created:  # the same question was stored at the same moment: serve the answer stored first
        return cached(state, kb.CacheHit(row.id, "exact", 1.0, 1.0), decision="stored_at_the_same_moment")
    if reply.report and state.use_cache:
        from verification.tasks import low_confidence_report_task

        transaction.on_commit(lambda: task_enqueue(low_confidence_report_task, row.id))
    result = AnswerResult(
        id=row.id, question=state.asked, answer=with_notice(reply.answer, state.notice),
        citations=[dict(c) for c in reply.citations], confidence=round(row.confidence, 3),
        weak_retrieval=state.weak, refused=reply.refused, refusal_reason=reply.refusal_reason or None,
        warning=reply.warning, suggestions=list(reply.suggestions), cache="miss", model=reply.model,
        routing_reason=reply.routing_reason, topics=list(state.topics), entities=state.entity_dicts(),
        verification=dict(reply.verification), verified=False, flagged=False, request_id=state.request_id,
        trace=[], latency_ms=0.0, rewritten_question=state.rewritten,
        sources_checked_on=_sources_checked_on(state, reply),
    )
    return replace(state, result=result)


def _sources_checked_on(state: AnswerState, reply: Reply) -> date | None:
    """The day the oldest cited chunk's facts were checked: read from the retrieved chunks when they are the
    ones cited (a round trip saved on every answer made), else from the database."""
    cited = [c["chunk_id"] for c in reply.citations]
    retrieved = {c.entry_id: c.checked_on for c in state.chunks}
    if not all(entry_id in retrieved for entry_id in cited):
        return kb.sources_checked_on(entry_ids=cited)
    return min((day for entry_id in cited if (day := retrieved[entry_id]) is not None), default=None)


def result_log(result: AnswerResult) -> None:
    logger.info(
        "answer",
        extra={"request_id": result.request_id, "answered_question_id": result.id, "cache": result.cache,
               "refused": result.refused, "refusal_reason": result.refusal_reason, "model": result.model,
               "confidence": result.confidence, "latency_ms": result.latency_ms},
    )
