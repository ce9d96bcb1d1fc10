"""The steps from retrieved chunks to a checked reply: route, generate, the layers, the fallback, confidence."""

from __future__ import annotations

import logging

import numpy as np
from django.conf import settings

from knowledge import selectors as kb
from verification.generators import EXTRACTIVE, GenerationContext, GenerationError, Generator, generator_get
from verification.layers.citations import citations_verify
from verification.layers.cleanup import CITATION_MARKER_RE, citations_cleanup
from verification.layers.confidence import answer_confidence, confidence_assess
from verification.layers.numbers import numbers_verify
from verification.layers.types import verification_dict_build
from verification.layers.url_whitelist import urls_enforce
from verification.pipeline.reply import refused
from verification.pipeline.retrieval import RETRIEVAL_ENTITY_TYPES, weak_refusal
from verification.pipeline.runner import Step, steps_run
from verification.pipeline.state import AnswerState, Draft, Reply, replace
from verification.routing import model_route
from veterans_ai.metrics import FALLBACKS

logger = logging.getLogger("verification.answers")

OFFLINE_ROUTING_REASON = "embedding_service_unavailable"


def route(state: AnswerState) -> AnswerState:
    chunks = state.chunks
    mean = float(np.mean([c.score for c in chunks])) if chunks else 0.0
    chosen = model_route(question=state.text, chunk_count=len(chunks), mean_score=mean,
                         cheap_model=settings.LLM_MODEL, premium_model=settings.LLM_PREMIUM_MODEL,
                         min_simple_mean_score=state.limits["route_mean"])
    # The trace names the generator that will answer: the routed model only when an LLM is called.
    generator = chosen.model if _llm_wanted(state) else EXTRACTIVE
    return replace(state, route=chosen, decision=f"{generator}:{chosen.reason}")


def _llm_wanted(state: AnswerState) -> bool:
    return _configured().name != EXTRACTIVE and not state.offline_reason


def _configured() -> Generator:
    return generator_get(name=settings.LLM_PROVIDER)


def _context(state: AnswerState) -> GenerationContext:
    return GenerationContext(
        model=state.route.model, question_vector=state.vector, chunk_types=state.chunk_types or {},
        codes=tuple(state.entity_values(*RETRIEVAL_ENTITY_TYPES)), embedding_model=state.model_name,
        provider_name=state.provider_name, rare_words=state.rare_words,
    )


def generate(state: AnswerState) -> AnswerState:
    if not _llm_wanted(state):
        return replace(state, draft=_extractive_draft(state), decision=EXTRACTIVE)
    try:
        generation = _configured().generate(question=state.text, chunks=state.chunks, context=_context(state))
    except GenerationError as exc:
        logger.warning("LLM failed, answering extractively: %s", exc)
        return replace(state, draft=None, decision=f"llm_failed:{type(exc.__cause__ or exc).__name__}")
    return replace(state, draft=Draft(generation=generation, text=generation.text), decision=f"llm:{generation.model}")


def _extractive_draft(state: AnswerState) -> Draft:
    """The extractive generator's answer, its model naming why it answered when another was configured."""
    generation = generator_get(name=EXTRACTIVE).generate(question=state.text, chunks=state.chunks,
                                                         context=_context(state))
    if state.offline_reason:
        generation = replace(generation, model=f"{EXTRACTIVE} ({state.offline_reason})",
                             fallback_reason=state.offline_reason)
        FALLBACKS.labels("embedding").inc()
    elif _configured().name != EXTRACTIVE:
        generation = replace(generation, model=f"{EXTRACTIVE} (fallback from {state.route.model})",
                             fallback_reason="llm_failed_or_unsupported")
        FALLBACKS.labels("llm").inc()
    return Draft(generation=generation, text=generation.text)


# ---- the layers, each over the draft ----

def _checking(state: AnswerState) -> bool:
    return state.draft is not None and not state.draft.rejected


def _rejected(state: AnswerState, draft: Draft, decision: str) -> AnswerState:
    return replace(state, draft=replace(draft, rejected=True), decision=decision)


def cleanup(state: AnswerState) -> AnswerState:
    draft = state.draft
    if not draft.text.strip():
        return _rejected(state, draft, "empty")
    result = citations_cleanup(answer=draft.text, source_count=len(state.chunks))
    return replace(state, draft=replace(draft, cleanup=result, text=result.text),
                   decision=f"removed={len(result.removed_citations)}")


def urls(state: AnswerState) -> AnswerState:
    draft = state.draft
    result = urls_enforce(answer=draft.text, whitelisted_domains=whitelist(), chunks=list(state.chunks))
    return replace(state, draft=replace(draft, urls=result, text=result.text),
                   decision=f"invalid={len(result.invalid_urls)}")


def citations(state: AnswerState) -> AnswerState:
    draft = state.draft
    result = citations_verify(answer=draft.text, chunks=list(state.chunks), flag_below=state.limits["citation_flag"])
    return replace(state, draft=replace(draft, citations=result, text=result.text),
                   decision=f"score={result.score:.2f}")


def numbers(state: AnswerState) -> AnswerState:
    draft = state.draft
    result = numbers_verify(answer=draft.text, chunks=list(state.chunks))
    decision = f"removed={len(result.hallucinated_numbers) + len(result.hallucinated_codes)}"
    draft = replace(draft, numbers=result, text=result.text)
    if draft.citations.refuse or result.refuse or not result.text.strip():
        return _rejected(state, draft, decision)
    text, used = _renumber(result.text)
    if not used:
        return _rejected(state, draft, decision)
    return replace(state, draft=replace(draft, text=text, used=tuple(used)), decision=decision)


def _renumber(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Number the cited sources 1..m in the order the answer first cites them."""
    order = list(dict.fromkeys(int(n) for n in CITATION_MARKER_RE.findall(text)))  # first use, not ascending
    mapping = {old: new for new, old in enumerate(order, start=1)}
    renumbered = CITATION_MARKER_RE.sub(lambda m: f"[{mapping.get(int(m.group(1)), int(m.group(1)))}]", text)
    return renumbered, [(old, mapping[old]) for old in order]


DRAFT_CHECKS = (
    Step("cleanup", cleanup, when=_checking),
    Step("urls", urls, when=_checking),
    Step("citations", citations, when=_checking),
    Step("numbers", numbers, when=_checking),
)


def needs_fallback(state: AnswerState) -> bool:
    return state.draft is None or state.draft.rejected


def fallback(state: AnswerState) -> AnswerState:
    """An LLM answer that failed or kept nothing supported gives way to the extractive one, checked the same
    way; an extractive answer with nothing supported is a refusal."""
    if not _llm_wanted(state):
        return refused(state, weak_refusal(state), "unsupported")
    why = "llm_failed" if state.draft is None else "llm_answer_unsupported"
    state = steps_run(DRAFT_CHECKS, replace(state, draft=_extractive_draft(state)))
    if state.draft.rejected:
        return refused(state, weak_refusal(state), why)
    return replace(state, decision=f"{why}:{EXTRACTIVE}")


def confidence(state: AnswerState) -> AnswerState:
    draft = state.draft
    by_number = {c.number: c for c in state.chunks}
    quotes = draft.generation.quotes
    citation_list = tuple(
        {"number": new, "chunk_id": by_number[old].entry_id, "url": by_number[old].url,
         "title": by_number[old].title, "quote": quotes.get(old) or by_number[old].content[:300]}
        for old, new in draft.used
    )
    limits = state.limits
    verification = verification_dict_build(urls=draft.urls, citations=draft.citations, numbers=draft.numbers,
                                           cleanup=draft.cleanup)
    confidence = answer_confidence(best_score=state.best_score, citation_score=draft.citations.score)
    # The warning travels in `warning` alone, stating the answer's own confidence.
    assessment = confidence_assess(best_score=state.best_score, warning_below=limits["warning"], confidence=confidence)
    routing_reason = OFFLINE_ROUTING_REASON if state.offline_reason else state.route.reason
    reply = Reply(
        answer=draft.text, model=draft.generation.model, routing_reason=routing_reason, verification=verification,
        citations=citation_list,
        cited=tuple((by_number[o].chunk_id, state.chunk_sources[by_number[o].chunk_id], n) for o, n in draft.used),
        confidence=confidence, warning=assessment.warning, report=bool(assessment.warning) or draft.citations.flagged,
        degraded=bool(draft.generation.fallback_reason),
    )
    return replace(state, reply=reply, decision="warning" if assessment.warning else "ok")


def whitelist() -> list[str]:
    from knowledge.services import WHITELISTED_DOMAINS

    return sorted({*WHITELISTED_DOMAINS, *settings.URL_WHITELIST_EXTRA, *kb.whitelisted_domains()})
