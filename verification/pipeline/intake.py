"""The steps before any vector: personal data, the exact cache, what the question is about, and whether it is
one this product answers at all."""

from __future__ import annotations

import dataclasses
import re

from knowledge import selectors as kb
from knowledge.extraction import ExtractedEntity, entities_extract, topics_classify
from knowledge.gate import gate_key_build
from knowledge.services import answer_exact_hit_record
from verification.followup import question_rewrite
from verification.layers.citations import word_stem
from verification.layers.refusal import refusal_build
from verification.layers.types import Refusal
from verification.pipeline.reply import cached, refused
from verification.pipeline.state import AnswerState, replace
from verification.preprocess import PII_NOTICE, pii_scrub, question_hash, question_normalise
from verification.scope import (
    CATEGORY_CRISIS,
    CATEGORY_MESSAGES,
    CATEGORY_OUTSIDE_BENEFITS,
    CRISIS_NOTE,
    ScopeDecision,
    asked_object_unknown,
    crisis_mentioned,
    scope_check,
)
from verification.spelling import spelling_correct

TOPICS_KEPT = 3


def scrub_pii(state: AnswerState) -> AnswerState:
    scrubbed = pii_scrub(text=state.asked)
    return replace(state, asked=scrubbed.text, text=scrubbed.text, notice=PII_NOTICE if scrubbed.removed else None,
                   decision=",".join(scrubbed.removed) or None)


def normalise(state: AnswerState) -> AnswerState:
    return _keyed(state)


def _keyed(state: AnswerState) -> AnswerState:
    return replace(state, normalised=question_normalise(text=state.text),
                   digest=question_hash(text=state.text, restriction=state.restriction))


def has_history(state: AnswerState) -> bool:
    return bool(state.history)


def rewrite(state: AnswerState) -> AnswerState:
    """Rewrite a follow-up ("what about my knee?") with the conversation's earlier questions."""
    history = tuple(pii_scrub(text=question).text for question in state.history)
    rewritten = question_rewrite(question=state.text, history=history, terms=kb.glossary_terms_get(),
                                 conditions=kb.condition_names_get())
    if rewritten is None:
        return replace(state, decision="standalone")
    return _keyed(replace(state, text=rewritten, rewritten=rewritten, decision=rewritten))


def spelling(state: AnswerState) -> AnswerState:
    """Read a misspelled word as the knowledge base's word one edit away ("raiting" → "rating",
    "colege" → "college"); the question as asked is kept for the answer and the cache."""
    from knowledge.embeddings.local import english_words_get

    corrected = spelling_correct(text=state.text, corpus_words=kb.corpus_words_get(), known=english_words_get())
    if corrected == state.text:
        return replace(state, decision="none")
    return replace(state, text=corrected, decision="corrected")


def crisis(state: AnswerState) -> AnswerState:
    """Answer a question that signals crisis with the Veterans Crisis Line, before any cached answer."""
    if scope_check(question=state.asked).category == CATEGORY_CRISIS:
        message = CATEGORY_MESSAGES[CATEGORY_CRISIS]
        return refused(state, Refusal(reason="out_of_scope", message=message), f"out_of_scope:{CATEGORY_CRISIS}")
    if crisis_mentioned(question=state.asked):
        # "My husband has suicidal thoughts, what does VA need for 70%": answered, the Crisis Line first.
        notice = "\n\n".join(filter(None, (CRISIS_NOTE, state.notice)))
        return replace(state, notice=notice, decision="mentioned")
    return replace(state, decision="none")


def cache_exact(state: AnswerState) -> AnswerState:
    if state.use_cache and (serve := answer_exact_hit_record(question_hash=state.digest)):
        hit = kb.CacheHit(serve.answered_question_id, "exact", 1.0, 1.0, under_review=serve.flagged)
        return cached(state, hit, decision="hit", serve=serve)
    return replace(state, decision="miss")


# "What's form 21-534EZ for": the pension and survivors' forms carry a P (21P-534EZ, 21P-527EZ, 21P-530EZ). A
# 21- number the graph does not hold is the P form when the graph holds that one.
_FORM_WITHOUT_P_RE = re.compile(r"^21-(?=\d)")


def _p_forms_resolved(found: list[ExtractedEntity]) -> list[ExtractedEntity]:
    bare = [e.value for e in found if e.type == "va_form" and _FORM_WITHOUT_P_RE.match(e.value)]
    if not bare:
        return found
    unknown = {value for _, value in kb.entities_unknown(dc_codes=(), va_forms=bare)}
    with_p = {value: _FORM_WITHOUT_P_RE.sub("21P-", value) for value in unknown}
    missing_too = {value for _, value in kb.entities_unknown(dc_codes=(), va_forms=list(with_p.values()))}
    resolved = {value: form for value, form in with_p.items() if form not in missing_too}
    return [dataclasses.replace(e, value=resolved[e.value]) if e.type == "va_form" and e.value in resolved else e
            for e in found]


def classify(state: AnswerState) -> AnswerState:
    glossary = kb.glossary_get()
    found = _p_forms_resolved(
        entities_extract(text=state.text, terms=kb.glossary_terms_get(), conditions=kb.condition_names_get()))
    topic_scores = topics_classify(text=state.text, topics=kb.topic_keywords_get())[:TOPICS_KEPT]
    topics = tuple(slug for slug, _ in topic_scores)
    entities = tuple((e.type, e.value) for e in found)
    gate_key = gate_key_build(text=state.normalised, entities=[{"type": e.type, "value": e.value} for e in found],
                              topics=topics, restriction=state.restriction)
    return replace(state, glossary=glossary, topics=topics, topic_scores=tuple(topic_scores), entities=entities,
                   gate_key=gate_key,
                   decision=",".join(topics) or None)


def scope(state: AnswerState) -> AnswerState:
    decision = scope_check(question=state.text)
    unspelled = state.rewritten or state.asked
    if decision.in_scope and unspelled != state.text:
        # Spelling reads a word its lists lack as its neighbour ("tinder tips" as the corpus's "tender"): the
        # question as written decides too, so a correction never hides a question outside benefits.
        decision = scope_check(question=unspelled)
    if decision.in_scope:
        # "Disabled vet w bad knees, whats a good hobby": a request for a thing no source names. Read on the
        # corrected text, so a misspelled benefit ("my pesnion") is held.
        request = asked_object_unknown(question=state.text, known=corpus_word_known)
        if request:
            decision = ScopeDecision(in_scope=False, category=CATEGORY_OUTSIDE_BENEFITS, matched=request)
    if decision.in_scope:
        return replace(state, scope=decision, decision="in_scope")
    state = replace(state, scope=decision)
    why = f"out_of_scope:{decision.category}"
    if decision.message:  # crisis, medical advice (911 first when urgent), chit-chat: their own words
        return refused(state, Refusal(reason="out_of_scope", message=decision.message), why)
    detail = {"handler": decision.handler} if decision.handler else None
    return refused(state, refusal_build(reason="out_of_scope", detail=detail), why)


_corpus_stems: tuple[dict[str, int], frozenset[str]] | None = None


def corpus_word_known(word: str) -> bool:
    """Whether the knowledge base's chunks hold ``word`` or a word of its stem ("hobbies": no; "dinners": no)."""
    global _corpus_stems
    words = kb.corpus_words_get()
    if _corpus_stems is None or _corpus_stems[0] is not words:
        _corpus_stems = (words, frozenset(word_stem(w) for w in words))
    return word in words or word_stem(word) in _corpus_stems[1]


def entities_check(state: AnswerState) -> AnswerState:
    other_agencies = {document.number for document in kb.non_va_documents_get()}  # DD-214: known, not VA's
    va_forms = [form for form in state.entity_values("va_form") if form not in other_agencies]
    unknown = kb.entities_unknown(dc_codes=state.entity_values("dc_code"), va_forms=va_forms)
    if unknown:
        kind, value = unknown[0]
        return refused(state, refusal_build(reason="entity_not_found", detail={"kind": kind, "value": value}),
                       f"not_found:{kind}:{value}")
    return replace(state, decision="known" if state.entities else "none")
