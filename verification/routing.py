"""Model routing: the premium model for complex questions, the cheap one otherwise (the whitepaper's rules)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Complex indicators from the whitepaper: comparison, legal/appeals, medical nexus, TDIU/combined ratings,
# presumptive conditions, effective dates/back pay.
COMPLEX_INDICATORS: dict[str, re.Pattern[str]] = {
    "comparison": re.compile(r"\b(compare|comparison|difference between|differences|versus|vs\.?|better|which is)\b", re.I),
    "legal_appeals": re.compile(
        r"\b(appeal\w*|board|bva|cavc|court|legal|lawyer|attorney|higher[- ]level review|hlr|supplemental claim|"
        r"cue|clear and unmistakable|notice of disagreement|nod)\b", re.I),
    "medical_nexus": re.compile(r"\b(nexus|secondary|caused by|aggravat\w*|link(ed)? to service|service[- ]connect\w*)\b", re.I),
    "tdiu_combined": re.compile(
        r"\b(tdiu|unemployab\w*|individual unemployability|combined rating|va math|bilateral|combine\w*)\b", re.I),
    "presumptive": re.compile(
        r"\b(presumptive|presumed|agent orange|burn pits?|pact act|camp lejeune|gulf war|blue water|radiation)\b", re.I),
    "effective_dates": re.compile(r"\b(effective date|back ?pay|retro\w*|retroactive|arrears)\b", re.I),
}
# The whitepaper's structural rules: many sources or weak retrieval need the stronger model.
MAX_SIMPLE_CHUNKS = 5
MIN_SIMPLE_MEAN_SCORE = 0.55


@dataclass(frozen=True)
class Route:
    model: str
    reason: str
    premium: bool


def model_route(
    *,
    question: str,
    chunk_count: int,
    mean_score: float,
    cheap_model: str,
    premium_model: str,
    max_simple_chunks: int = MAX_SIMPLE_CHUNKS,
    min_simple_mean_score: float = MIN_SIMPLE_MEAN_SCORE,
) -> Route:
    for name, pattern in COMPLEX_INDICATORS.items():
        if pattern.search(question):
            return Route(model=premium_model, reason=f"complex_indicator:{name}", premium=True)
    if chunk_count > max_simple_chunks:
        return Route(model=premium_model, reason="many_chunks", premium=True)
    if mean_score < min_simple_mean_score:
        return Route(model=premium_model, reason="low_mean_score", premium=True)
    return Route(model=cheap_model, reason="simple_query", premium=False)
