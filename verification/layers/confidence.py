"""Layer 7: warn when retrieval was weak, and describe the case for the low-confidence report job."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from verification.layers.citations import GENERIC_WORDS, STOP_WORDS
from verification.layers.types import ConfidenceAssessment, SourceChunk

# The seed whitepaper's prefix, word for word; the score is the best retrieval score as a percentage.
LOW_CONFIDENCE_WARNING = (
    "\u26a0\ufe0f **Note:** My sources may not fully cover this topic. Our internal confidence score is "
    "**{score:.1%}** for this response - please verify the answer with your own due diligence. A report has "
    "been generated and someone will review this."
)

RECOMMEND_NO_CHUNKS = (
    "No chunk reached the relevance threshold: add corpus content for this question, or check whether it "
    "is in scope."
)
RECOMMEND_ADD_TOPIC_CONTENT = "Add corpus content on {topic}: no retrieved chunk covers it."
RECOMMEND_ADD_QUESTION_CONTENT = "Add corpus content that answers questions like this one ({keywords})."
RECOMMEND_REVIEW_CITATIONS = (
    "Review citations: the citation score was {score:.2f}, so some claims were not supported by their sources."
)
RECOMMEND_REVIEW_VALUES = (
    "Review the answer: it stated values its sources do not ({values}); the sentences were removed."
)
RECOMMEND_REVIEW_URLS = "Check links: the answer linked outside the whitelist ({urls})."
RECOMMEND_REVIEW_MARKERS = "Check source numbering: the answer cited sources it was not given ({markers})."

# Characters of each chunk shown in the report: enough to judge relevance at a glance in the admin.
PREVIEW_CHARS = 200
# Keywords listed for the question; more adds noise, not signal.
MAX_KEYWORDS = 10

_KEYWORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]+|\d[\d,.%-]*")
_SLUG_RE = re.compile(r"[^a-z0-9]+")


def confidence_assess(
    *, best_score: float, warning_below: float, confidence: float | None = None
) -> ConfidenceAssessment:
    """Return the warning to show when the best retrieval score is below ``warning_below``.

    The seed whitepaper warns below 0.50 (between θmin 0.45 and weak 0.55); callers pass their provider's
    calibrated value. The warning states ``confidence`` (the answer's, so the two agree) as a percentage, or
    the best score when none is given.
    """
    if math.isnan(best_score) or best_score < warning_below:
        shown = best_score if confidence is None else confidence
        score = 0.0 if math.isnan(shown) else shown
        return ConfidenceAssessment(warning=LOW_CONFIDENCE_WARNING.format(score=score))
    return ConfidenceAssessment(warning=None)


def _unit(value: float) -> float:
    return 0.0 if math.isnan(value) else min(1.0, max(0.0, value))


# Bands of ``confidence`` as people read it (the chat page's note, the reviewers' list): a perfectly cited answer
# over a median MiniLM match scores 0.75, the start of high; the low-confidence warning (best retrieval score
# below 0.40 with MiniLM) caps a fully cited answer at 0.63, so every warned answer is low.
CONFIDENCE_HIGH_FROM = 0.75
CONFIDENCE_MEDIUM_FROM = 0.65
BAND_HIGH, BAND_MEDIUM, BAND_LOW = "high", "medium", "low"


def confidence_band(confidence: float) -> str:
    """Return "high", "medium" or "low" for an answer's confidence."""
    if confidence >= CONFIDENCE_HIGH_FROM:
        return BAND_HIGH
    return BAND_MEDIUM if confidence >= CONFIDENCE_MEDIUM_FROM else BAND_LOW


def answer_confidence(*, best_score: float, citation_score: float) -> float:
    """Return the API's ``confidence``: the geometric mean of best retrieval score and citation score.

    confidence = sqrt(clamp(best_score) × clamp(citation_score)), each clamped to [0, 1], rounded to 2
    places. The geometric mean lets the weaker signal dominate: well-cited text over a barely relevant
    chunk, or a relevant chunk with unsupported claims, both score low, and either signal at 0 gives 0.
    A perfectly cited answer over a median MiniLM match (0.57) scores 0.75.
    """
    return round(math.sqrt(_unit(best_score) * _unit(citation_score)), 2)


def _slug(text: str) -> str:
    return _SLUG_RE.sub("_", text.lower()).strip("_")


def question_keywords(question: str) -> list[str]:
    """Return the question's distinct words that are not stop words, in order, at most ``MAX_KEYWORDS``."""
    keywords: list[str] = []
    for word in _KEYWORD_RE.findall(question):
        lowered = word.lower().strip(",.")
        if lowered in STOP_WORDS or lowered in GENERIC_WORDS or lowered in keywords or len(lowered) < 2:
            continue
        keywords.append(lowered)
        if len(keywords) == MAX_KEYWORDS:
            break
    return keywords


def low_confidence_report_build(
    *,
    question: str,
    chunks: Sequence[SourceChunk],
    topics: Sequence[str],
    verification: Mapping[str, Any],
    best_score: float,
    entities: Sequence[Mapping[str, str]] = (),
    keywords: Sequence[str] | None = None,
    citation_flag_below: float = 0.7,
) -> dict[str, Any]:
    """Return the JSON-ready report a reviewer reads to fix the corpus or the answer.

    A topic is a gap when no chunk's ``topic`` names it (compared as slugs: "Disability ratings" matches
    "disability_ratings"). ``verification`` is the API's verification object; a citation score below
    ``citation_flag_below`` (the seed whitepaper's 0.7, as in L4) asks for a review. ``keywords`` default to
    the question's words less stop words.
    """
    words = question.split()
    keyword_list = list(keywords) if keywords is not None else question_keywords(question)
    chunk_topics = {_slug(chunk.topic) for chunk in chunks if chunk.topic}
    gaps = [topic for topic in dict.fromkeys(topics) if _slug(topic) not in chunk_topics]

    issues: list[str] = []
    recommendations: list[str] = []
    if not chunks:
        recommendations.append(RECOMMEND_NO_CHUNKS)
    recommendations += [RECOMMEND_ADD_TOPIC_CONTENT.format(topic=topic) for topic in gaps]
    if chunks and not gaps:
        recommendations.append(RECOMMEND_ADD_QUESTION_CONTENT.format(keywords=", ".join(keyword_list)))

    citation_score = verification.get("citation_score")
    if citation_score is not None and citation_score < citation_flag_below:
        issues.append(f"citation_score {citation_score:.2f}")
        recommendations.append(RECOMMEND_REVIEW_CITATIONS.format(score=citation_score))
    values = [*verification.get("hallucinated_numbers", ()), *verification.get("hallucinated_codes", ())]
    if values:
        issues.append(f"unsupported values: {', '.join(values)}")
        recommendations.append(RECOMMEND_REVIEW_VALUES.format(values=", ".join(values)))
    urls = list(verification.get("invalid_urls", ()))
    if urls:
        issues.append(f"invalid urls: {', '.join(urls)}")
        recommendations.append(RECOMMEND_REVIEW_URLS.format(urls=", ".join(urls)))
    markers = list(verification.get("removed_citations", ()))
    if markers:
        issues.append(f"removed citations: {', '.join(markers)}")
        recommendations.append(RECOMMEND_REVIEW_MARKERS.format(markers=", ".join(markers)))

    return {
        "question": question,
        "best_score": round(best_score, 4),
        "query_analysis": {
            "length_chars": len(question),
            "length_words": len(words),
            "keywords": keyword_list,
            "entities": [dict(entity) for entity in entities],
        },
        "chunks": [
            {
                "number": chunk.number,
                "chunk_id": chunk.chunk_id,
                "entry_id": chunk.entry_id,
                "title": chunk.title,
                "url": chunk.url,
                "topic": chunk.topic,
                "score": round(chunk.score, 4),
                "preview": chunk.content[:PREVIEW_CHARS],
            }
            for chunk in chunks
        ],
        "topics": list(topics),
        "topic_gaps": gaps,
        "verification_issues": issues,
        "recommendations": recommendations,
    }
