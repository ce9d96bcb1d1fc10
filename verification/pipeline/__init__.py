"""The answer pipeline: named steps over an immutable state, in the order ANSWER_STEPS lists them.

Each step is a function from an AnswerState to the next one (dataclasses.replace), setting ``decision`` for
the trace. A step that settles the answer sets ``reply`` (a refusal, a glossary definition, a checked
answer): the steps after it are skipped up to ``store``. A cache hit sets ``result`` and ends the run.
The runner records every step that ran as {"stage", "ms", "decision"}.
"""

from __future__ import annotations

import time

from verification.pipeline import direct, generation, intake, reply, retrieval
from verification.pipeline.runner import Step, steps_run
from verification.pipeline.state import AnswerResult, AnswerState, replace
from veterans_ai.metrics import answer_observe


def _caching(state: AnswerState) -> bool:
    return state.use_cache


ANSWER_STEPS: tuple[Step, ...] = (
    Step("scrub_pii", intake.scrub_pii),
    Step("normalise", intake.normalise),
    Step("rewrite", intake.rewrite, when=intake.has_history),  # a follow-up, with the conversation's context
    Step("crisis", intake.crisis),  # the Veterans Crisis Line before any cached answer
    Step("cache_exact", intake.cache_exact),  # L1
    Step("spelling", intake.spelling),  # "raiting" → "rating": the corpus's word one edit away
    Step("classify", intake.classify),  # topics and entities (codes, forms, benefits, terms)
    Step("scope", intake.scope),  # another agency's program, medical advice, chit-chat, crisis
    Step("own_record", direct.own_record, when=direct.asks_own_record),  # "what is my claim status"
    Step("entities", intake.entities_check),  # a code or form that does not exist
    Step("non_va_document", direct.non_va_document, when=direct.asks_non_va_document),  # DD-214, SF-180, ...
    Step("embed", retrieval.embed),
    Step("terminology", retrieval.terminology),  # "what is X" from the glossary
    Step("cache_similar", retrieval.cache_similar, when=_caching),  # L2 semantic, L3 graph
    Step("retrieve", retrieval.retrieve),  # hybrid: pgvector HNSW + full text + the graph's entities
    Step("combined", direct.combined, when=direct.asks_combined),  # 38 CFR 4.25/4.26 arithmetic, computed
    Step("tdiu", direct.tdiu, when=direct.asks_tdiu),  # "PTSD 30, back 30, knee 20, can I get TDIU": 4.16(a) applied
    Step("review_window", direct.review_window, when=direct.asks_review_window),  # "letter dated Nov 5 2025, still HLR?"
    Step("effective_date", direct.effective_date, when=direct.asks_effective_date),  # "out Aug 2024, filed June 2025"
    Step("knee_motion", direct.knee_motion, when=direct.asks_knee_motion),  # "bends to 50, straightens all the way"
    Step("funding_fee", direct.funding_fee, when=direct.asks_funding_fee),  # "I'm 10% SC, do I pay the funding fee"
    Step("priority_group", direct.priority_group, when=direct.asks_priority_group),  # "went up to 40%, what priority group"
    Step("smc_s", direct.smc_s, when=direct.asks_smc_s),  # "100% for PTSD, 50 and 20 besides, extra pay?": 3.350(i)
    Step("pay_rate", direct.pay_rate, when=direct.asks_pay_rate),  # "how much is 70 percent": the rates row
    Step("relevance", retrieval.relevance),  # Layer 1 and the 1b refusal
    Step("route", generation.route),
    Step("generate", generation.generate),  # Layer 2: the grounding prompt, or the extractive generator
    *generation.DRAFT_CHECKS,  # L6 cleanup, L3 URLs, L4 citations, L5 numbers
    Step("fallback", generation.fallback, when=generation.needs_fallback),
    Step("confidence", generation.confidence),  # L7
    Step("store", reply.store, final=True),
)


def answer_pipeline_run(state: AnswerState) -> AnswerResult:
    """Run ANSWER_STEPS on ``state``; return the finished answer with its trace."""
    state = steps_run(ANSWER_STEPS, state)
    result = replace(state.result, trace=[dict(entry) for entry in state.trace],
                     latency_ms=round((time.perf_counter() - state.started) * 1000, 2))
    reply.result_log(result)
    answer_observe(result)
    return result
